//go:build js && wasm

package main

import (
	"github.com/storyloom/storyloom/engine/core"
)

// achievementInfo is one achievement a campaign declares.
type achievementInfo struct {
	ID             string      `json:"id"`
	TitleKey       core.LocKey `json:"titleKey"`
	DescriptionKey core.LocKey `json:"descriptionKey,omitempty"`
	Title          string      `json:"title,omitempty"`
	Description    string      `json:"description,omitempty"`
	Unlocked       bool        `json:"unlocked"`
	// New is set in an action's news when the profile did not hold the
	// achievement before.
	New bool `json:"new,omitempty"`
}

// endingInfo is one terminal a campaign can end on.
type endingInfo struct {
	ID       string      `json:"id"`
	TitleKey core.LocKey `json:"titleKey"`
	Title    string      `json:"title,omitempty"`
	// Outcome is "win", "lose" or "neutral".
	Outcome string `json:"outcome"`
	Found   bool   `json:"found"`
}

// milestones lists a campaign's achievements and endings as the page
// reads them, none unlocked or found yet.
func milestones(m core.Milestones) (achievements []achievementInfo, endings []endingInfo) {
	achievements, endings = []achievementInfo{}, []endingInfo{}
	for _, a := range m.Achievements {
		achievements = append(achievements, achievementInfo{ID: a.ID, TitleKey: a.TitleKey, DescriptionKey: a.DescriptionKey})
	}
	for _, e := range m.Endings {
		endings = append(endings, endingInfo{ID: e.ID, TitleKey: e.TitleKey, Outcome: e.Outcome})
	}
	return achievements, endings
}

// text renders key for campaignID in locale: the campaign's translation,
// else its default text, else the engine's own string.
func (ch *campaignHost) text(locale string, key core.LocKey) string {
	if key == "" {
		return ""
	}
	reg := ch.engine.Registry()
	if p := reg.Provenance[ch.id]; p != nil {
		if t, ok := p.Catalogs[locale][key]; ok && t != "" {
			return t
		}
		if t, ok := p.Strings[key]; ok {
			return t
		}
	}
	if t, ok := ch.engine.EngineStrings()[key]; ok {
		return t
	}
	return reg.Strings[key]
}
