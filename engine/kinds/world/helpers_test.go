package world

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

const campaignsDir = "../../../static/campaigns"

// shipped are the world-graph campaigns this kind ships.
var shipped = []string{"pier-fair"}

func shippedSource(t testing.TB, id string) content.Source {
	return kindtest.Shipped(t, os.DirFS(campaignsDir), id)
}

func buildRegistry(t testing.TB, sources ...content.Source) *core.Registry {
	return kindtest.Registry(t, Kind{}, sources...)
}

func shippedRegistry(t testing.TB) *core.Registry {
	return kindtest.ShippedRegistry(t, Kind{}, os.DirFS(campaignsDir), shipped...)
}

func newEngine(t testing.TB, reg *core.Registry, em core.Emitter) *core.Engine {
	return kindtest.Engine(t, Kind{}, reg, em)
}

var (
	start     = kindtest.Start
	submit    = kindtest.Submit
	serialize = kindtest.Serialize
)

func kindState(s *core.GameState) *State { return s.KindState.(*State) }

// A policy is a player: given the state, the actions to take before the
// next advance, and how many ticks to advance.
type policy func(s *State, c *Content) (actions []action, ticks int64)

type action struct {
	id     string
	params core.Params
}

// careful is the careful player (carefulDecisions): it builds the best
// ride it can afford with a reserve left, keeps one mechanic once there
// are rides to break and an entertainer once guests come, and advances a
// day at a time.
func careful(s *State, c *Content) ([]action, int64) {
	var out []action
	for _, d := range carefulDecisions(s, c) {
		out = append(out, action{d.verb, d.params})
	}
	return out, carefulTicks
}

// reckless builds the most expensive rides at steep prices, never hires
// anyone, and lets the whole season run at once.
func reckless(s *State, c *Content) ([]action, int64) {
	var out []action
	money := s.Money
	for node := range c.freeSites(s) {
		for i := len(c.Buildings) - 1; i >= 0; i-- {
			if b := c.Buildings[i]; b.Cost <= money {
				money -= b.Cost
				out = append(out, action{ActionBuild, core.Params{"building": b.ID, "node": node, "band": "steep"}})
				break
			}
		}
	}
	return out, 240
}

// play runs a policy through the engine to the end of the game.
func play(t testing.TB, e *core.Engine, campaign, seed string, p policy) *core.GameState {
	t.Helper()
	s := start(t, e, campaign, seed)
	c := contentOf(e.Registry().Campaign(campaign))
	for s.Status == core.StatusActive {
		acts, ticks := p(kindState(s), c)
		for _, a := range acts {
			s = submit(t, e, s, a.id, a.params)
		}
		s = submit(t, e, s, ActionAdvanceTicks, core.Params{"ticks": float64(ticks)})
	}
	return s
}

func readCampaign(id string) (string, error) {
	b, err := os.ReadFile(filepath.Join(campaignsDir, id, "campaign.json"))
	return string(b), err
}
