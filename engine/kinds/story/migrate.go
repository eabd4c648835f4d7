package story

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Id categories of a story-graph campaign migration (core.CampaignMigration).
const (
	CategoryNode        = "node"
	CategoryVariable    = "variable"
	CategoryAchievement = "achievement"
	CategoryEnding      = "ending"
)

// MigrationIDs implements core.ContentMigrator: nodes, variables,
// achievements and endings.
func (Kind) MigrationIDs(c *core.Campaign) map[string]func(string) bool {
	sc, err := contentOf(c)
	if err != nil {
		return nil
	}
	ix := sc.index()
	return map[string]func(string) bool{
		CategoryNode:        contentkind.Declares(ix.nodeByID),
		CategoryVariable:    contentkind.Declares(ix.varByID),
		CategoryAchievement: contentkind.Declares(ix.achByID),
		CategoryEnding:      func(id string) bool { return slices.Contains(ix.endings, id) },
	}
}

// MigrateForCampaign implements core.ContentMigrator: it applies to's
// declared migration to an encoded state made under fromVersion (§10 of
// docs/story-graph-kind.md). Renamed ids are re-addressed; removed visit
// counts, variables and achievements are dropped; variables to declares and
// the state lacks take their initial value. It fails when the current node
// or the ending was removed, when a renamed id collides with one the state
// already holds, and when the state references an id to neither declares
// nor lists as removed. A version the migration does not list passes through
// unchanged.
func (Kind) MigrateForCampaign(old json.RawMessage, to *core.Campaign, fromVersion string) (json.RawMessage, error) {
	sc, err := contentOf(to)
	if err != nil {
		return nil, err
	}
	m := to.Migration
	if !m.Accepts(fromVersion) {
		return old, nil
	}
	var w struct {
		CurrentNodeID        string                     `json:"currentNodeId"`
		Variables            map[string]json.RawMessage `json:"variables"`
		Turn                 json.RawMessage            `json:"turn"`
		VisitedCounts        map[string]json.RawMessage `json:"visitedCounts"`
		UnlockedAchievements []string                   `json:"unlockedAchievements"`
		EndingID             *string                    `json:"endingId,omitempty"`
	}
	if err := strictjson.Decode(old, &w); err != nil {
		return nil, fmt.Errorf("story: state: %w", err)
	}
	ix := sc.index()
	mig := contentkind.Migration{M: m}
	// node: the cursor must survive.
	cur, keep := mig.ID(CategoryNode, w.CurrentNodeID)
	if !keep {
		return nil, fmt.Errorf("story: the current node %q was removed", w.CurrentNodeID)
	}
	w.CurrentNodeID = cur
	if _, ok := ix.nodeByID[w.CurrentNodeID]; !ok {
		return nil, fmt.Errorf("story: unknown node %q", w.CurrentNodeID)
	}
	if w.VisitedCounts, err = contentkind.Keys(mig, CategoryNode, w.VisitedCounts, contentkind.Declares(ix.nodeByID)); err != nil {
		return nil, fmt.Errorf("story: %w", err)
	}
	vars, err := contentkind.Keys(mig, CategoryVariable, w.Variables, contentkind.Declares(ix.varByID))
	if err != nil {
		return nil, fmt.Errorf("story: %w", err)
	}
	for _, decl := range sc.Variables {
		if _, ok := vars[decl.ID]; !ok {
			b, err := decl.Initial.MarshalJSON()
			if err != nil {
				return nil, err
			}
			vars[decl.ID] = b
		}
	}
	w.Variables = vars
	var achs []string
	seen := map[string]bool{}
	for _, id := range w.UnlockedAchievements {
		nid, keep := mig.ID(CategoryAchievement, id)
		if !keep {
			continue
		}
		if _, ok := ix.achByID[nid]; !ok {
			return nil, fmt.Errorf("story: unknown achievement %q", nid)
		}
		if !seen[nid] {
			seen[nid] = true
			achs = append(achs, nid)
		}
	}
	if achs == nil {
		achs = []string{}
	}
	w.UnlockedAchievements = achs
	if w.EndingID != nil {
		e, keep := mig.ID(CategoryEnding, *w.EndingID)
		if !keep {
			return nil, fmt.Errorf("story: the game's ending %q was removed", *w.EndingID)
		}
		w.EndingID = &e
	}
	return json.Marshal(w)
}

// AdoptContent implements core.ContentAdopter. The engine has already
// applied to's migration and decoded the state against to, so the current
// node exists and every variable type-checks; the kind refuses with
// content_incompatible when the node changed its type (a choice node that
// became random, an ending that is no longer one, or an ending node that
// names another ending), since the game would rest somewhere it cannot.
func (Kind) AdoptContent(state any, from, to *core.Campaign) (any, string) {
	st, err := asState(state)
	if err != nil {
		return nil, core.ReasonContentIncompatible
	}
	tc, err := contentOf(to)
	if err != nil || st.c != tc {
		return nil, core.ReasonContentIncompatible
	}
	fc, err := contentOf(from)
	if err != nil {
		return nil, core.ReasonContentIncompatible
	}
	now := &tc.Nodes[st.node]
	before := fc.NodeByID(now.ID)
	if m := to.Migration; before == nil && m != nil {
		for old, renamed := range m.Renames[CategoryNode] {
			if renamed == now.ID {
				before = fc.NodeByID(old)
			}
		}
	}
	if before == nil || before.Type != now.Type {
		return nil, core.ReasonContentIncompatible
	}
	return st, ""
}
