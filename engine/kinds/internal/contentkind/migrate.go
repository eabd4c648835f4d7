package contentkind

import (
	"encoding/json"
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

// Declares says whether an id is a key of index (a content index from id
// to position), for a kind's MigrationIDs.
func Declares[I any](index map[string]I) func(string) bool {
	return func(id string) bool { _, ok := index[id]; return ok }
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

// Migrate is the frame of a kind's MigrateForCampaign
// (core.ContentMigrator): a state made under a version to's migration
// does not list passes through unchanged; any other is decoded, migrate
// re-addresses it against to's content and migration, and it is encoded
// again. An error is prefixed with the kind's word.
func (sp Spec[C, S]) Migrate(old json.RawMessage, to *core.Campaign, fromVersion string, migrate func(s *S, c *C, m Migration) error) (json.RawMessage, error) {
	if !to.Migration.Accepts(fromVersion) {
		return old, nil
	}
	var s S
	if err := json.Unmarshal(old, &s); err != nil {
		return nil, fmt.Errorf("%s: state: %w", sp.Prefix, err)
	}
	if err := migrate(&s, sp.Content(to), Migration{M: to.Migration}); err != nil {
		return nil, fmt.Errorf("%s: %w", sp.Prefix, err)
	}
	return json.Marshal(&s)
}

// Adopt is a kind's AdoptContent (core.ContentAdopter) once the engine
// has migrated and decoded the state against the new content: a game goes
// on on the new rules unless it has ended (Resolution), when it stays on the
// version it ended on; a state of another kind is incompatible.
func (sp Spec[C, S]) Adopt(state any) (any, string) {
	s, err := sp.State(state)
	if err != nil {
		return nil, core.ReasonContentIncompatible
	}
	if sp.Resolution(s) != "" {
		return nil, core.ReasonContentNotAdoptable
	}
	return s, ""
}
