package contentkind

import (
	"fmt"
	"slices"

	"github.com/storyloom/storyloom/engine/core"
)

// Migration is a campaign's declared id migration (core.CampaignMigration)
// as a kind applies it to a state: per id category, renamed ids move and
// removed ones are dropped.
type Migration struct{ M *core.CampaignMigration }

// ID returns where id of category cat goes: its new id and true, or false
// when the migration removed it.
func (m Migration) ID(cat, id string) (string, bool) {
	if slices.Contains(m.M.Removed[cat], id) {
		return "", false
	}
	if to, ok := m.M.Renames[cat][id]; ok {
		return to, true
	}
	return id, true
}

// Keys migrates the keys of a map of category cat: a renamed key moves, a
// removed one is dropped, and a key that then names nothing the new
// content declares (known false), or two keys landing on one, fail rather
// than guess.
func Keys[V any](m Migration, cat string, in map[string]V, known func(string) bool) (map[string]V, error) {
	out := make(map[string]V, len(in))
	for id, v := range in {
		to, keep := m.ID(cat, id)
		if !keep {
			continue
		}
		if !known(to) {
			return nil, fmt.Errorf("unknown %s %q", cat, to)
		}
		if _, dup := out[to]; dup {
			return nil, fmt.Errorf("two %ss migrate to %q", cat, to)
		}
		out[to] = v
	}
	return out, nil
}
