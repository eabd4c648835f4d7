package core

import "encoding/json"

// Audience is who a projection is for (§9).
type Audience string

// The projection audiences. AI is a rival or AI player's view; widening it is
// a declared difficulty setting, never an accident.
const (
	AudiencePlayer Audience = "player"
	AudienceAI     Audience = "ai"
)

// Valid reports whether a is a known audience.
func (a Audience) Valid() bool { return a == AudiencePlayer || a == AudienceAI }

// Scene is the unified surface every client renders (§6).
type Scene struct {
	GameID  string            `json:"gameId"`
	Status  Status            `json:"status"`
	Body    SceneBody         `json:"body"`
	Actions []AvailableAction `json:"actions"`
	View    PlayerView        `json:"view"`
}

// SceneBody is the kind-rendered text of a scene. Text is TextKey rendered in
// the campaign's default locale with Params substituted for {name}
// placeholders; a client showing another locale renders TextKey from its own
// table with the same Params.
type SceneBody struct {
	TextKey LocKey         `json:"textKey"`
	Text    string         `json:"text"`
	Params  map[string]any `json:"params,omitempty"`
}

// AvailableAction is one thing the player may try now (§6): its id to
// submit, its label, and whether its requirements are met, with the reason
// when they are not.
type AvailableAction struct {
	ID        string         `json:"id"`
	LabelKey  LocKey         `json:"labelKey"`
	Available bool           `json:"available"`
	ReasonKey LocKey         `json:"reasonKey,omitempty"`
	Params    map[string]any `json:"params,omitempty"`
}

// PlayerView is a projection (§9). KindView is the kind's narrowed view,
// already copied across the boundary as JSON: nothing reachable from it
// aliases a game's state.
type PlayerView struct {
	GameID   string          `json:"gameId"`
	Status   Status          `json:"status"`
	KindView json.RawMessage `json:"kindView"`
}
