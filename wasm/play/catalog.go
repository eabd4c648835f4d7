//go:build js && wasm

package main

import (
	"encoding/json"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
)

// achievementInfo is one achievement a campaign declares.
type achievementInfo struct {
	ID             string      `json:"id"`
	TitleKey       core.LocKey `json:"titleKey"`
	DescriptionKey core.LocKey `json:"descriptionKey,omitempty"`
	Title          string      `json:"title,omitempty"`
	Description    string      `json:"description,omitempty"`
	Unlocked       bool        `json:"unlocked"`
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

// campaignExtras lists a campaign's achievements and endings, by kind. A
// kind this function does not know has none to show; its progress counts
// still come from the session store's catalog.
func campaignExtras(c *core.Campaign) (achievements []achievementInfo, endings []endingInfo) {
	achievements, endings = []achievementInfo{}, []endingInfo{}
	switch content := c.Content.(type) {
	case *story.Content:
		for _, a := range content.Achievements {
			achievements = append(achievements, achievementInfo{ID: a.ID, TitleKey: a.TitleKey, DescriptionKey: a.DescriptionKey})
		}
		seen := map[string]bool{}
		for _, n := range content.Nodes {
			if n.Type != story.NodeEnding || seen[n.EndingID] {
				continue
			}
			seen[n.EndingID] = true
			endings = append(endings, endingInfo{ID: n.EndingID, TitleKey: n.TitleKey, Outcome: n.Outcome})
		}
	case *sim.Content:
		endings = append(endings,
			endingInfo{ID: sim.ResolutionGoalsMet, TitleKey: content.Endings.GoalsMet, Outcome: story.OutcomeWin},
			endingInfo{ID: sim.ResolutionWeekLimitReached, TitleKey: content.Endings.WeekLimitReached, Outcome: story.OutcomeNeutral},
			endingInfo{ID: sim.ResolutionFailed, TitleKey: content.Endings.Failed, Outcome: story.OutcomeLose})
	case *world.Content:
		endings = append(endings,
			endingInfo{ID: world.ResolutionObjectivesMet, TitleKey: content.Endings.ObjectivesMet, Outcome: story.OutcomeWin},
			endingInfo{ID: world.ResolutionFailed, TitleKey: content.Endings.Failed, Outcome: story.OutcomeLose})
	}
	return achievements, endings
}

// terminalOf reads the terminal id an ended scene's kind view names: the
// story-graph view's ending.endingId, or the resolution of the simulation
// and world-graph views.
func terminalOf(kindView json.RawMessage) string {
	var v struct {
		Ending *struct {
			EndingID string `json:"endingId"`
		} `json:"ending"`
		Resolution *string `json:"resolution"`
	}
	if json.Unmarshal(kindView, &v) != nil {
		return ""
	}
	switch {
	case v.Ending != nil:
		return v.Ending.EndingID
	case v.Resolution != nil:
		return *v.Resolution
	}
	return ""
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
