package world

import (
	"encoding/json"
	"fmt"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// Id categories of a world-graph campaign migration (core.CampaignMigration).
const (
	CategoryNode      = "node"
	CategoryBuilding  = "building"
	CategoryStaff     = "staff"
	CategoryIncident  = "incident"
	CategoryObjective = "objective"
)

// MigrationIDs implements core.ContentMigrator: nodes, buildings, staff,
// incidents, objectives and achievements (contentkind.CategoryAchievement).
func (Kind) MigrationIDs(c *core.Campaign) map[string]func(string) bool {
	ct := contentOf(c)
	ix := ct.index()
	return map[string]func(string) bool{
		CategoryNode:      contentkind.Declares(ix.node),
		CategoryBuilding:  contentkind.Declares(ix.building),
		CategoryStaff:     contentkind.Declares(ix.staff),
		CategoryIncident:  func(id string) bool { return ct.incident(id) != nil },
		CategoryObjective: contentkind.Declares(ix.objective),

		contentkind.CategoryAchievement: contentkind.DeclaresAchievement(ct.Achievements),
	}
}

// MigrateForCampaign implements core.ContentMigrator: it applies to's
// declared migration to a state made under fromVersion
// (docs/world-graph-kind.md, "Migration"). Renamed nodes, buildings,
// staff, incidents, objectives and achievements are re-addressed wherever
// the state names them; a removed achievement leaves the game's list (the
// profile keeps it). A site on a removed node, or of a removed building, is gone;
// a guest on a removed node stands at the entrance; a site whose price
// band its building no longer offers takes the building's default band;
// hired staff of a removed kind leave. An id to neither declares nor
// removes fails. A version the migration does not list passes through
// unchanged.
func (Kind) MigrateForCampaign(old json.RawMessage, to *core.Campaign, fromVersion string) (json.RawMessage, error) {
	return spec.Migrate(old, to, fromVersion, func(s *State, c *Content, m contentkind.Migration) error {
		ix := c.index()
		ids := Kind{}.MigrationIDs(to)
		sites, err := contentkind.Keys(m, CategoryNode, s.Sites, ids[CategoryNode])
		if err != nil {
			return err
		}
		s.Sites = map[string]Site{}
		for node, site := range sites {
			b, keep := m.ID(CategoryBuilding, site.Building)
			if !keep {
				continue
			}
			i, ok := ix.building[b]
			if !ok {
				return fmt.Errorf("unknown building %q on %q", b, node)
			}
			site.Building = b
			if _, ok := c.Buildings[i].band(site.Band); !ok {
				site.Band = c.Buildings[i].DefaultBand
			}
			s.Sites[node] = site
		}
		if s.Staff, err = contentkind.Keys(m, CategoryStaff, s.Staff, ids[CategoryStaff]); err != nil {
			return err
		}
		if s.Incidents, err = contentkind.Keys(m, CategoryIncident, s.Incidents, ids[CategoryIncident]); err != nil {
			return err
		}
		if s.Objectives, err = contentkind.Keys(m, CategoryObjective, s.Objectives, ids[CategoryObjective]); err != nil {
			return err
		}
		if s.Achieved, err = contentkind.MigrateAchieved(m, s.Achieved, ids[contentkind.CategoryAchievement]); err != nil {
			return err
		}
		guests := make([]Guest, len(s.Guests))
		for i, g := range s.Guests {
			node, keep := m.ID(CategoryNode, g.Node)
			if !keep {
				node = c.Entrance
			} else if !ids[CategoryNode](node) {
				return fmt.Errorf("guest %q on unknown node %q", g.ID, node)
			}
			g.Node = node
			guests[i] = g
		}
		s.Guests = guests
		alerts := []Alert{}
		for _, a := range s.Alerts {
			cat := CategoryNode
			switch a.Type {
			case AlertIncidentActive:
				cat = CategoryIncident
			case AlertScenarioResolved:
				alerts = append(alerts, a)
				continue
			}
			subject, keep := m.ID(cat, a.Subject)
			if keep {
				a.Subject = subject
				alerts = append(alerts, a)
			}
		}
		s.Alerts = alerts
		return nil
	})
}

// AdoptContent implements core.ContentAdopter. The engine has already
// applied to's migration and decoded the state against to, so every node,
// building and staff the state names is declared and the tick is within
// to's limit: the world goes on on to's rules from where it stands. A
// world that has been resolved stays on the version it ended on.
func (Kind) AdoptContent(state any, _, _ *core.Campaign) (any, string) {
	return spec.Adopt(state)
}
