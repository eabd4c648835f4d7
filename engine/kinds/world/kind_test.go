package world

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// TestVerbs covers every verb's accepted and refused forms; a refusal
// answers its reason code and leaves the state byte for byte as it was.
func TestVerbs(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	fresh := start(t, e, "pier-fair", "verbs")
	hired := submit(t, e, fresh, ActionHire, core.Params{"staff": "mechanic"})
	tests := []struct {
		name   string
		state  *core.GameState
		action string
		params core.Params
		code   string
		check  func(*State) bool
	}{
		{name: "build", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "north_deck"},
			check: func(s *State) bool { return s.Sites["north_deck"].Building == "carousel" && s.Money == 1200000-300000 }},
		{name: "build with a band", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "north_deck", "band": "cheap"},
			check: func(s *State) bool { return s.Sites["north_deck"].Band == "cheap" }},
		{name: "unknown building", state: fresh, action: ActionBuild, params: core.Params{"building": "rollercoaster", "node": "north_deck"}, code: ReasonUnknownBuilding},
		{name: "unknown node", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "moon"}, code: ReasonUnknownNode},
		{name: "not buildable", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "gate"}, code: ReasonNodeNotBuildable},
		{name: "occupied", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "candy_corner"}, code: ReasonNodeOccupied},
		{name: "unknown band", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "north_deck", "band": "free"}, code: ReasonUnknownBand},
		{name: "missing node", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel"}, code: ReasonMissingParam},
		{name: "node not a string", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": 3.0}, code: ReasonInvalidParam},
		{name: "undeclared param", state: fresh, action: ActionBuild, params: core.Params{"building": "carousel", "node": "north_deck", "rotation": 90.0}, code: ReasonUnexpectedParams},
		{name: "demolish", state: fresh, action: ActionDemolish, params: core.Params{"node": "candy_corner"},
			check: func(s *State) bool { return len(s.Sites) == 0 && s.Money == 1200000+40000 }},
		{name: "demolish nothing", state: fresh, action: ActionDemolish, params: core.Params{"node": "north_deck"}, code: ReasonNodeEmpty},
		{name: "set price", state: fresh, action: ActionSetPrice, params: core.Params{"node": "candy_corner", "band": "steep"},
			check: func(s *State) bool { return s.Sites["candy_corner"].Band == "steep" }},
		{name: "set an unknown price", state: fresh, action: ActionSetPrice, params: core.Params{"node": "candy_corner", "band": "free"}, code: ReasonUnknownBand},
		{name: "set price on nothing", state: fresh, action: ActionSetPrice, params: core.Params{"node": "pier_end", "band": "fair"}, code: ReasonNodeEmpty},
		{name: "hire", state: fresh, action: ActionHire, params: core.Params{"staff": "mechanic", "count": 2.0},
			check: func(s *State) bool { return s.Staff["mechanic"] == 2 }},
		{name: "hire over the limit", state: hired, action: ActionHire, params: core.Params{"staff": "mechanic", "count": 3.0}, code: ReasonStaffLimit},
		{name: "hire a negative count", state: fresh, action: ActionHire, params: core.Params{"staff": "mechanic", "count": -1.0}, code: ReasonInvalidCount},
		{name: "hire unknown staff", state: fresh, action: ActionHire, params: core.Params{"staff": "clown"}, code: ReasonUnknownStaff},
		{name: "fire", state: hired, action: ActionFire, params: core.Params{"staff": "mechanic"},
			check: func(s *State) bool { return s.Staff["mechanic"] == 0 }},
		{name: "fire more than hired", state: hired, action: ActionFire, params: core.Params{"staff": "mechanic", "count": 2.0}, code: ReasonInvalidCount},
		{name: "advance one tick", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": 1.0},
			check: func(s *State) bool { return s.Tick == 1 }},
		{name: "advance the maximum: time stops at the first offer", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": float64(MaxTicksPerAdvance)},
			check: func(s *State) bool { return s.Tick == 10 && s.Offer != nil && s.Offer.Until == 17 }},
		{name: "advance zero ticks", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": 0.0}, code: ReasonInvalidTickCount},
		{name: "advance 10^9 ticks", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": 1e9}, code: ReasonInvalidTickCount},
		{name: "advance negative ticks", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": -5.0}, code: ReasonInvalidTickCount},
		{name: "advance fractional ticks", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": 1.5}, code: ReasonInvalidTickCount},
		{name: "advance without ticks", state: fresh, action: ActionAdvanceTicks, params: nil, code: ReasonMissingParam},
		{name: "advance with a string", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": "10"}, code: ReasonInvalidParam},
		{name: "advance with an undeclared param", state: fresh, action: ActionAdvanceTicks, params: core.Params{"ticks": 1.0, "speed": 2.0}, code: ReasonUnexpectedParams},
		{name: "unknown verb", state: fresh, action: "teleport", code: core.ReasonUnknownAction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := kindtest.Verb(t, e, tc.state, tc.action, tc.params, tc.code)
			if tc.code != "" {
				return
			}
			if !tc.check(kindState(res.Value)) {
				t.Fatalf("unexpected state %+v", kindState(res.Value))
			}
		})
	}
}

func TestTickSystemsOrder(t *testing.T) {
	want := []string{"clock", "incidents", "arrivals", "guests", "breakdowns", "staff", "economy", "offers", "objectives"}
	if got := TickSystems(); !reflect.DeepEqual(got, want) {
		t.Fatalf("TickSystems = %v, want %v", got, want)
	}
}

// randomPlayer submits random verbs (many of them refused) with a
// generator seeded from i, so a rerun submits the same actions.
func randomPlayer(t testing.TB, e *core.Engine, seed string, i, steps int) *core.GameState {
	r := rand.New(rand.NewPCG(uint64(i), 11))
	s := start(t, e, "pier-fair", seed)
	c := contentOf(e.Registry().Campaign("pier-fair"))
	for step := 0; step < steps && s.Status == core.StatusActive; step++ {
		node := c.Nodes[r.IntN(len(c.Nodes))].ID
		var res core.ActionResult
		switch r.IntN(6) {
		case 0:
			res = e.SubmitAction(s, ActionBuild, core.Params{"building": c.Buildings[r.IntN(len(c.Buildings))].ID, "node": node})
		case 1:
			res = e.SubmitAction(s, ActionSetPrice, core.Params{"node": node, "band": []string{"cheap", "fair", "steep"}[r.IntN(3)]})
		case 2:
			res = e.SubmitAction(s, ActionHire, core.Params{"staff": c.Staff[r.IntN(len(c.Staff))].ID})
		case 3:
			res = e.SubmitAction(s, ActionFire, core.Params{"staff": c.Staff[r.IntN(len(c.Staff))].ID})
		default:
			res = e.SubmitAction(s, ActionAdvanceTicks, core.Params{"ticks": float64(1 + r.IntN(40))})
		}
		if res.OK {
			s = res.Value
		}
	}
	return s
}

// TestBatchEqualsSingleTicks: advancing N ticks at once gives the same
// kind state, bit for bit, as single ticks to the same hour (200 seeds);
// the batch stops short of N only at the hour an offer opens.
func TestBatchEqualsSingleTicks(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	for i := 0; i < 200; i++ {
		seed := fmt.Sprint("batch-", i)
		s := randomPlayer(t, e, seed, i, 6)
		if s.Status != core.StatusActive {
			continue
		}
		n := 1 + i%60
		batch := e.SubmitAction(s, ActionAdvanceTicks, core.Params{"ticks": float64(n)})
		single := s
		to := kindState(batch.Value).Tick
		if stopped := to < kindState(s).Tick+int64(n) && batch.Value.Status == core.StatusActive; stopped && kindState(batch.Value).Offer == nil {
			t.Fatalf("seed %d: %d ticks stopped at hour %d with no offer", i, n, to)
		}
		for kindState(single).Tick < to && single.Status == core.StatusActive {
			single = submit(t, e, single, ActionAdvanceTicks, core.Params{"ticks": 1.0})
		}
		a, _ := json.Marshal(batch.Value.KindState)
		b, _ := json.Marshal(single.KindState)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: %d ticks at once differ from %d single ticks", i, n, n)
		}
	}
}

// TestPropertyDeterminism: 200 random games, each run twice (null and
// recording emitter), serialize to the same bytes.
func TestPropertyDeterminism(t *testing.T) {
	reg := shippedRegistry(t)
	for i := 0; i < 200; i++ {
		seed := fmt.Sprint("prop-", i)
		a := serialize(t, newEngine(t, reg, nil), randomPlayer(t, newEngine(t, reg, core.NullEmitter{}), seed, i, 30))
		rec := &core.RecordingEmitter{}
		e := newEngine(t, reg, rec)
		b := serialize(t, e, randomPlayer(t, e, seed, i, 30))
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two runs differ", i)
		}
	}
}

// TestPropertyReplayAndReload: random games replay byte for byte, also
// with a save and load between every step.
func TestPropertyReplayAndReload(t *testing.T) {
	reg := shippedRegistry(t)
	newE := func(em core.Emitter) *core.Engine { return newEngine(t, reg, em) }
	for i := 0; i < 20; i++ {
		s := randomPlayer(t, newE(nil), fmt.Sprint("replay-", i), i, 30)
		run, err := harness.Verify(newE, harness.FromState(fmt.Sprint("r", i), s, nil))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(run.Serialized, serialize(t, newE(nil), s)) {
			t.Fatalf("%d: replay differs", i)
		}
	}
}

// TestCampaignPlaysToEveryResolution: the careful player meets every
// objective, the reckless one fails; the outcome carries the §3.2 fields.
func TestCampaignPlaysToEveryResolution(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	tests := []struct {
		name       string
		p          policy
		resolution string
	}{
		{"careful", careful, ResolutionObjectivesMet},
		{"reckless", reckless, ResolutionFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wins := 0
			for i := 0; i < 10; i++ {
				s := play(t, e, "pier-fair", fmt.Sprint("seed-", i), tc.p)
				out, _ := e.Outcome(s)
				if out.TerminalID == tc.resolution {
					wins++
				}
				if !out.Terminal || s.Status != core.StatusEnded || out.Fields["resolution"] != out.TerminalID {
					t.Fatalf("outcome %+v", out)
				}
				if (out.TerminalID == ResolutionFailed) != (out.Fields["failureId"] != nil) {
					t.Fatalf("failureId %v with %s", out.Fields["failureId"], out.TerminalID)
				}
			}
			if wins != 10 {
				t.Fatalf("%s reached %s in %d of 10 games", tc.name, tc.resolution, wins)
			}
		})
	}
}

// TestBuildIsAvailable: build is offered while a site is free and money
// affords some building, and otherwise says there is nothing to build.
func TestBuildIsAvailable(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	fresh := start(t, e, "pier-fair", "build")
	c := contentOf(e.Registry().Campaign("pier-fair"))
	with := func(change func(s *State)) *core.GameState {
		ks := kindState(fresh).clone()
		change(ks)
		st := *fresh
		st.KindState = ks
		return &st
	}
	cheapest := slices.MinFunc(c.Buildings, func(a, b Building) int { return cmp.Compare(a.Cost, b.Cost) })
	tests := []struct {
		name  string
		state *core.GameState
		want  bool
	}{
		{"a free site and money", fresh, true},
		{"money for the cheapest building only", with(func(s *State) { s.Money = cheapest.Cost }), true},
		{"too little money", with(func(s *State) { s.Money = cheapest.Cost - 1 }), false},
		{"no free site", with(func(s *State) {
			for _, n := range c.Nodes {
				if n.Buildable {
					s.Sites[n.ID] = Site{Building: cheapest.ID, Band: cheapest.DefaultBand}
				}
			}
		}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acts, err := e.AvailableActions(tt.state)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(acts, func(a core.AvailableAction) bool { return a.ID == ActionBuild })
			if i < 0 {
				t.Fatalf("no build among %+v", acts)
			}
			a := acts[i]
			if a.Available != tt.want || !tt.want && a.ReasonKey != KeyActionNothingToBuild {
				t.Fatalf("build %+v, want available %v", a, tt.want)
			}
		})
	}
}

func TestEngineKeysGoThroughEngineRef(t *testing.T) {
	e := kindtest.AliasedEngine(t, Kind{}, shippedRegistry(t))
	s := submit(t, e, start(t, e, "pier-fair", "alias"), ActionAdvanceTicks, core.Params{"ticks": 400.0})
	sc := kindtest.AliasedScene(t, e, s, "~world-graph.scene.", "~world-graph.action.")
	var v View
	if err := json.Unmarshal(sc.View.KindView, &v); err != nil {
		t.Fatal(err)
	}
	for _, a := range v.Alerts {
		if a.Type != AlertIncidentActive && !strings.HasPrefix(a.TitleKey, "~world-graph.alert.") {
			t.Fatalf("alert key %q", a.TitleKey)
		}
		if a.Type == AlertIncidentActive && strings.HasPrefix(a.TitleKey, "~") {
			t.Fatalf("authored alert key %q was aliased", a.TitleKey)
		}
	}
	if strings.Contains(string(sc.View.KindView), `"seq"`) || strings.Contains(string(sc.View.KindView), `"happy"`) {
		t.Fatal("the view leaks agent state")
	}
}

func TestTier1(t *testing.T) {
	raw, err := readCampaign("pier-fair")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, to, code, path string
	}{
		{"fractional cost", `"cost": 300000`, `"cost": 3000.5`, ReasonInvalidNumber, "content.buildings.carousel.cost"},
		{"negative upkeep", `"upkeep": 100`, `"upkeep": -100`, ReasonInvalidNumber, "content.buildings.carousel.upkeep"},
		{"edge to nowhere", `"to": "promenade"`, `"to": "lighthouse"`, ReasonUnknownReference, "content.edges[0].to"},
		{"zero incident chance", `"chancePermille": 8`, `"chancePermille": 0`, ReasonInvalidNumber, "content.incidents.rain.chancePermille"},
		{"unknown default band", `"defaultBand": "fair"`, `"defaultBand": "gratis"`, ReasonUnknownReference, "content.buildings.candy_floss.defaultBand"},
		{"unknown condition field", `"field": "served"`, `"field": "smiles"`, ReasonUnknownReference, "content.objectives.crowd_pleaser.condition"},
		{"reserved failure id", `"id": "bankrupt"`, `"id": "tick_limit"`, ReasonReservedID, "content.failures.tick_limit.id"},
		{"unknown entrance", `"entrance": "gate"`, `"entrance": "moat"`, ReasonUnknownReference, "content.entrance"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(raw, tc.from) {
				t.Fatalf("campaign has no %q", tc.from)
			}
			kindtest.Finding(t, Kind{}, content.Source{Path: "bad", Campaign: []byte(strings.Replace(raw, tc.from, tc.to, 1))}, tc.code, tc.path)
		})
	}
}

func TestShippedCampaignsValidate(t *testing.T) {
	for _, id := range shipped {
		kindtest.Valid(t, Kind{}, shippedSource(t, id))
	}
}

// TestGolden replays the fixtures under testdata; -update regenerates them
// from the scripted players first.
func TestGolden(t *testing.T) {
	reg := shippedRegistry(t)
	newE := func(em core.Emitter) *core.Engine { return newEngine(t, reg, em) }
	if golden.Updating() {
		for name, p := range map[string]policy{"careful": careful, "reckless": reckless} {
			s := play(t, newE(nil), "pier-fair", "golden", p)
			golden.Write(t, "testdata", harness.FromState("pier-fair-"+name, s, nil))
		}
	}
	golden.Fixtures(t, "testdata", newE)
}

// TestConcurrentGames plays one campaign from several goroutines over one
// registry and engine (run with -race): the compiled content is shared and
// read only.
func TestConcurrentGames(t *testing.T) {
	e := newEngine(t, shippedRegistry(t), nil)
	kindtest.Concurrently(t, 4, func(i int) []byte {
		s := play(t, e, "pier-fair", fmt.Sprint("concurrent-", i), careful)
		b, _ := json.Marshal(s.KindState)
		return b
	})
}

// TestABreakdownNamesItsBuilding: a breakdown's or a repair's alert says
// which building it is, not only where ("The {building} at {node} has
// broken down"): its params carry the building's id and label key, those
// of the building standing there.
func TestABreakdownNamesItsBuilding(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	c := contentOf(reg.Campaign("pier-fair"))
	if msg := engineText[KeyAlertBrokenMessage]; !strings.Contains(msg, "{building}") {
		t.Fatalf("the breakdown message names no building: %q", msg)
	}
	s := start(t, e, "pier-fair", "breakdowns")
	s = submit(t, e, s, ActionBuild, core.Params{"building": "carousel", "node": "north_deck"})
	seen := 0
	for day := 0; day < 40 && seen == 0; day++ {
		res := e.SubmitAction(s, ActionAdvanceTicks, core.Params{"ticks": 24.0})
		if !res.OK {
			break // the season is over
		}
		s = res.Value
		_, v := kindtest.SceneView[View](t, e, s)
		for _, a := range v.Alerts {
			if a.Type != AlertBuildingBroken && a.Type != AlertBuildingRepaired {
				continue
			}
			seen++
			site, ok := kindState(s).Sites[a.Subject]
			i, known := c.index().building[site.Building]
			if !ok || !known || a.Params["building"] != site.Building || a.Params["buildingKey"] != c.Buildings[i].LabelKey || c.Buildings[i].LabelKey == "" {
				t.Errorf("the %s alert at %s names %v, %v; the site holds %q", a.Type, a.Subject, a.Params["building"], a.Params["buildingKey"], site.Building)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no building broke down in the season")
	}
}
