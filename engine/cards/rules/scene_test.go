package rules

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/rooms"
)

// scene is a scripted position: n players at 20 life with ten Forests in
// their libraries and empty hands, seat 0's precombat main phase of turn
// 2 with priority.
func scene(t *testing.T, n int) *Game {
	t.Helper()
	g := &Game{cards: testLib(t), st: State{Config: Config{Format: "test", Life: 20}, Seed: "scene",
		Field: []Perm{}, Stack: []Item{}, Turn: 2, Step: StepMain1}}
	for i := 0; i < n; i++ {
		lib := make([]string, 10)
		for k := range lib {
			lib[k] = "forest"
		}
		g.st.Players = append(g.st.Players, Player{Life: 20, Library: lib, Hand: []Card{}, Grave: []Card{}, Exile: []Card{}, Kept: true})
	}
	g.st.Dec = Decision{Kind: DecPriority}
	return g
}

// put puts a card (or a test-catalog id) onto the battlefield under seat,
// untapped and not summoning sick, and returns its permanent number.
func (g *Game) put(seat int, id string) int {
	g.memo = nil
	n := g.enter(seat, seat, Card{ID: id}, nil, false)
	g.perm(n).Sick = false
	g.st.Queue = nil
	return n
}

// putN puts n copies of a card onto the battlefield under seat, as put
// does.
func (g *Game) putN(seat int, id string, n int) {
	for range n {
		g.put(seat, id)
	}
}

// give puts a card into seat's hand and returns its wire id.
func (g *Game) give(seat int, id string) string {
	g.memo = nil
	n := g.putCard(seat, Card{ID: id}, toHand)
	return g.cardID(n)
}

// do applies seat's action of type typ (whose subject includes subject,
// when given) with the answers, failing the test if it is refused.
func do(t *testing.T, g *Game, seat int, typ, subject string, ans map[string][]string) []rooms.Event {
	t.Helper()
	evs, err := try(g, seat, typ, subject, ans)
	if err != nil {
		t.Fatalf("%s %s by seat %d: %v\nactions: %s", typ, subject, seat, err, actionList(g, seat))
	}
	roundTrip(t, g)
	return evs
}

// try applies an action like do, returning the refusal.
func try(g *Game, seat int, typ, subject string, ans map[string][]string) ([]rooms.Event, error) {
	g.memo = nil // scripted tests change g.st directly
	for _, a := range g.Actions(seat) {
		if a.Type == typ && (subject == "" || slices.Contains(a.Subject, subject)) {
			return g.Apply(seat, rooms.Choice{ActionID: a.ID, Targets: ans})
		}
	}
	return nil, errNotOffered
}

var errNotOffered = &rooms.Rejection{Code: "action_not_offered", Reason: "not offered"}

// offered finds seat's action of type typ about subject.
func offered(g *Game, seat int, typ, subject string) (rooms.Action, bool) {
	g.memo = nil // scripted tests change g.st directly
	for _, a := range g.Actions(seat) {
		if a.Type == typ && (subject == "" || slices.Contains(a.Subject, subject)) {
			return a, true
		}
	}
	return rooms.Action{}, false
}

// actionList describes seat's actions for a failure message.
func actionList(g *Game, seat int) string {
	var b strings.Builder
	for _, a := range g.Actions(seat) {
		b.WriteString(a.ID + " " + a.Type + " " + a.Label + "; ")
	}
	return b.String()
}

// passAll passes priority around until the decision is no longer a
// priority decision or the stack and step moved on (at most limit passes).
func passAll(t *testing.T, g *Game, limit int) {
	t.Helper()
	for range limit {
		if g.st.Dec.Kind != DecPriority {
			return
		}
		do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
	}
}

// skipTo plays on, passing and declaring nothing, until seat's turn
// reaches step.
func skipTo(t *testing.T, g *Game, seat, step int) {
	t.Helper()
	for range 200 {
		if g.st.Active == seat && g.st.Step == step && g.st.Dec.Kind == DecPriority {
			return
		}
		switch g.st.Dec.Kind {
		case DecPriority:
			do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
		case DecAttackers:
			do(t, g, g.st.Dec.Seat, "declare_attackers", "", nil)
		case DecBlockers:
			do(t, g, g.st.Dec.Seat, "declare_blockers", "", nil)
		case DecDiscard:
			c, _ := g.Timeout(g.st.Dec.Seat)
			if _, err := g.Apply(g.st.Dec.Seat, c); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("unexpected decision %+v", g.st.Dec)
		}
	}
	t.Fatal("step not reached")
}

// resolve passes until the stack has fewer items than now.
func resolve(t *testing.T, g *Game) {
	t.Helper()
	n := len(g.st.Stack)
	for range 16 {
		if len(g.st.Stack) < n || g.st.Dec.Kind != DecPriority {
			return
		}
		do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
	}
	t.Fatal("the stack did not resolve")
}

// toStep passes until the game reaches step of the current turn (or a
// decision other than priority).
func toStep(t *testing.T, g *Game, step int) {
	t.Helper()
	for range 64 {
		if g.st.Step == step || g.st.Dec.Kind != DecPriority {
			return
		}
		do(t, g, g.st.Dec.Seat, "pass_priority", "", nil)
	}
	t.Fatalf("step %d not reached", step)
}

// roundTrip checks that the state survives a save and a load unchanged.
func roundTrip(t *testing.T, g *Game) {
	t.Helper()
	b, err := g.State()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Load(g.cards, b)
	if err != nil {
		t.Fatalf("reload: %v", err)
	}
	b2, _ := r.State()
	if !bytes.Equal(b, b2) {
		t.Fatal("state bytes changed across a restore")
	}
}

// checkView compares seat's view with testdata/<name>.json.
func checkView(t *testing.T, g *Game, seat int, name string) {
	t.Helper()
	g.memo = nil // scripted tests change g.st directly
	b, err := json.MarshalIndent(g.View(seat), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", name+".json"), append(b, '\n'))
}

// checkScene ends a scenario test: it compares the whole views of seats,
// and always the spectator's (rooms.Spectator), with the golden file
// testdata/scenes/<test name>.json (a subtest's in a directory named for
// its test), which -update rewrites. The file is one JSON object whose
// members, "p<seat>" and "spectator", are the views as the projection
// gives them.
func checkScene(t *testing.T, g *Game, seats ...int) {
	t.Helper()
	g.memo = nil // scripted tests change g.st directly
	views := map[string]any{"spectator": g.View(rooms.Spectator)}
	for _, s := range seats {
		views[rooms.PlayerID(s)] = g.View(s)
	}
	b, err := json.MarshalIndent(views, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "scenes", filepath.FromSlash(t.Name())+".json"), append(b, '\n'))
}

// ids are shorthands for answers.
func ids(list ...string) []string { return list }

// pay lists the suggested source of every mandatory pay_mana slot of a.
func pay(a rooms.Action, ans map[string][]string) map[string][]string {
	if ans == nil {
		ans = map[string][]string{}
	}
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptPayMana && p.Min == nil {
			ans[p.Slot] = []string{p.ManaCandidates[0].ID}
		}
	}
	return ans
}

// cast casts card id of seat with targets, paying the suggested sources.
func cast(t *testing.T, g *Game, seat int, id string, ans map[string][]string) []rooms.Event {
	t.Helper()
	a, ok := offered(g, seat, "cast_spell", id)
	if !ok {
		t.Fatalf("cannot cast %s: %s", id, actionList(g, seat))
	}
	return do(t, g, seat, "cast_spell", id, pay(a, ans))
}

// hasEvent reports whether evs has an event of typ.
func hasEvent(evs []rooms.Event, typ string) bool {
	return slices.ContainsFunc(evs, func(e rooms.Event) bool { return e["type"] == typ })
}

// choiceOf is an answer naming only an action.
func choiceOf(id string) rooms.Choice { return rooms.Choice{ActionID: id} }
