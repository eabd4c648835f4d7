// Package harness is the determinism harness (core specification §14): a
// playthrough fixture — a game's config and action log — replays to a
// byte-identical serialization, with either emitter, twice, and with a save
// and a load between every step.
package harness

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/storyloom/storyloom/engine/core"
)

// Fixture is a playthrough: what a game started from and everything logged
// since. Replay creates the game with counting ids, so its gameId is game-1.
type Fixture struct {
	Name   string             `json:"name"`
	Config core.NewGameConfig `json:"config"`
	// CampaignVersion is the version the game starts on when the log has
	// no epoch entry; empty means the engine's default.
	CampaignVersion string `json:"campaignVersion,omitempty"`
	// CapturedUnder is the engine version that captured the fixture
	// (core.EngineVersion), for provenance: a replay never reads it.
	CapturedUnder string   `json:"capturedUnder,omitempty"`
	ActionLog     core.Log `json:"actionLog"`
}

// FromState returns the fixture that replays s: its seed and campaign, and
// its whole log. kindProfileData is the slice s was created with, or nil.
func FromState(name string, s *core.GameState, kindProfileData json.RawMessage) Fixture {
	return Fixture{
		Name:            name,
		Config:          core.NewGameConfig{CampaignID: s.CampaignID, Seed: s.Seed, KindProfileData: kindProfileData},
		CampaignVersion: core.StartingVersion(s),
		CapturedUnder:   core.EngineVersion,
		ActionLog:       s.ActionLog,
	}
}

// Run is one replay's output.
type Run struct {
	State      *core.GameState
	Serialized []byte
	Events     []core.Event
}

// NewEngine builds a fresh engine over the emitter it is given, with counting
// ids; a replay needs one per run so ids restart.
type NewEngine func(core.Emitter) *core.Engine

// Replay runs f on a fresh engine. With reload set it serializes and
// deserializes the state after every step, as a player saving and loading
// between moves would.
func Replay(newEngine NewEngine, f Fixture, record, reload bool) (Run, error) {
	var rec *core.RecordingEmitter
	var em core.Emitter = core.NullEmitter{}
	if record {
		rec = &core.RecordingEmitter{}
		em = rec
	}
	e := newEngine(em)
	version := f.CampaignVersion
	for i := 0; i < f.ActionLog.Len(); i++ {
		if c, ok := f.ActionLog.At(i).(core.LoggedContent); ok {
			version = c.From
			break
		}
	}
	created := e.CreateGame(f.Config, version)
	if !created.OK {
		return Run{}, fmt.Errorf("harness: %s: create: %v", f.Name, created.Errors)
	}
	s := created.Value
	for i := 0; i < f.ActionLog.Len(); i++ {
		switch entry := f.ActionLog.At(i).(type) {
		case core.LoggedAction:
			res := e.SubmitAction(s, entry.ActionID, entry.Params)
			if !res.OK {
				return Run{}, fmt.Errorf("harness: %s: entry %d (%s) rejected: %v", f.Name, i, entry.ActionID, res.Errors)
			}
			s = res.Value
		case core.LoggedContent:
			if entry.From != s.CampaignVersion {
				return Run{}, fmt.Errorf("harness: %s: entry %d adopts from %s but the game is on %s", f.Name, i, entry.From, s.CampaignVersion)
			}
			ad := e.AdoptContent(s, entry.To)
			if !ad.Adopted {
				return Run{}, fmt.Errorf("harness: %s: entry %d: adoption of %s refused: %s", f.Name, i, entry.To, ad.Reason)
			}
			s = ad.State
		case core.LoggedMigration:
			return Run{}, fmt.Errorf("harness: %s: entry %d is a migration, which replay cannot perform", f.Name, i)
		}
		if reload {
			b, err := e.Serialize(s)
			if err != nil {
				return Run{}, err
			}
			back := e.Deserialize(b)
			if !back.OK {
				return Run{}, fmt.Errorf("harness: %s: entry %d: reload refused: %v", f.Name, i, back.Errors)
			}
			s = back.Value
		}
	}
	b, err := e.Serialize(s)
	if err != nil {
		return Run{}, err
	}
	run := Run{State: s, Serialized: b}
	if rec != nil {
		run.Events = rec.Events
	}
	return run, nil
}

// Verify replays f four ways — null emitter, recording emitter twice, and
// with a reload between steps — and requires byte-identical serializations
// and identical event sequences (§14: golden bytes, sink independence,
// stream reproducibility). It returns the serialization and events.
func Verify(newEngine NewEngine, f Fixture) (Run, error) {
	plain, err := Replay(newEngine, f, false, false)
	if err != nil {
		return Run{}, err
	}
	rec1, err := Replay(newEngine, f, true, false)
	if err != nil {
		return Run{}, err
	}
	rec2, err := Replay(newEngine, f, true, false)
	if err != nil {
		return Run{}, err
	}
	reloaded, err := Replay(newEngine, f, false, true)
	if err != nil {
		return Run{}, err
	}
	switch {
	case !bytes.Equal(plain.Serialized, rec1.Serialized):
		return Run{}, fmt.Errorf("harness: %s: the recording emitter changed the serialization", f.Name)
	case !bytes.Equal(plain.Serialized, reloaded.Serialized):
		return Run{}, fmt.Errorf("harness: %s: a save and load between steps changed the serialization", f.Name)
	}
	e1, _ := json.Marshal(rec1.Events)
	e2, _ := json.Marshal(rec2.Events)
	if !bytes.Equal(e1, e2) {
		return Run{}, fmt.Errorf("harness: %s: two recordings gave different event streams", f.Name)
	}
	rec1.Serialized = plain.Serialized
	return rec1, nil
}
