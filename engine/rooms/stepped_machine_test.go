package rooms_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// stepsHarness is a harness whose registry hosts the steps toy in the
// formats given (and Cheat), saving and restoring between inputs.
func stepsHarness(t *testing.T, formats ...rooms.Format) *harness {
	t.Helper()
	h := newHarness(t, rooms.Limits{})
	games := []rooms.Game{cheat.Game{}}
	for _, f := range formats {
		games = append(games, steps{format: f})
	}
	reg, err := rooms.NewRegistry(games...)
	if err != nil {
		t.Fatal(err)
	}
	h.reg, h.s = reg, rooms.New(reg, rooms.Limits{})
	h.roundTrip = true // every input also survives a save and a restore
	return h
}

// startSteps has a create a two-seat room of format id and b take the
// other seat (or an AI of kind ai), and starts it; cfg's other fields are
// kept.
func startSteps(t *testing.T, h *harness, cfg rooms.RoomConfig, ai string) {
	t.Helper()
	h.connect("a")
	cfg.Seats = 2
	h.must("a", rooms.CreateRoom{Config: cfg})
	if ai != "" {
		h.must("a", rooms.AddAI{Seat: 1, Kind: ai})
	} else {
		h.connect("b")
		h.must("b", rooms.JoinRoom{RoomID: h.lobby("a").Room.RoomID})
		h.must("b", rooms.Ready{Ready: true})
	}
	h.must("a", rooms.Ready{Ready: true})
}

// action returns the action of type typ in conn's latest view.
func action(t *testing.T, h *harness, conn, typ string) rooms.Action {
	t.Helper()
	for _, a := range h.game(conn).ValidActions {
		if a.Type == typ {
			return a
		}
	}
	t.Fatalf("%s has no %s action: %+v", conn, typ, h.game(conn).ValidActions)
	return rooms.Action{}
}

func choose(a rooms.Action, slots ...string) rooms.ChooseAction {
	ca := rooms.ChooseAction{ActionID: a.ID, Token: a.Token}
	for i := 0; i+1 < len(slots); i += 2 {
		ca.Targets = append(ca.Targets, rooms.TargetChoice{Slot: slots[i], Chosen: strings.Fields(slots[i+1])})
	}
	return ca
}

// viewMember returns member key of conn's latest frame, as sent.
func viewMember(t *testing.T, h *harness, conn, key string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(h.last[conn].Frame, &m); err != nil {
		t.Fatal(err)
	}
	return string(m[key])
}

var tokenRE = regexp.MustCompile(`"token":"t[0-9a-f]{16}"`)

// checkPassed checks conn's auto_passed group, byte for byte.
func checkPassed(t *testing.T, h *harness, conn, steps, from string) {
	t.Helper()
	got := [3]string{viewMember(t, h, conn, "auto_passed"), viewMember(t, h, conn, "auto_passed_steps"),
		viewMember(t, h, conn, "auto_passed_from")}
	want := [3]string{"", steps, from}
	if steps != "" {
		want[0] = "true"
	}
	if got != want {
		t.Fatalf("%s: auto_passed, _steps, _from = %q, want %q", conn, got, want)
	}
}

// TestPayMana checks the pay_mana prompt and the cast's cost and
// destinations on the wire, and the machine's checks of a payment: one
// candidate per pip, and no source spent twice.
func TestPayMana(t *testing.T) {
	h := stepsHarness(t, stepsFormat())
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps"}, "")
	cast := action(t, h, "a", "cast_spell")
	wire := tokenRE.ReplaceAllString(viewMember(t, h, "a", "valid_actions"), `"token":"T"`)
	want := `{"cost":{"modified":"{1}{G}","printed":"{1}{G}"},` +
		`"destinations":[{"id":"battlefield","label":"Battlefield","owner":"p0","type":"zone"}],` +
		`"id":"cast:2:0","label":"Cast Bear","prompts":[` +
		`{"candidates":[{"id":"tap:land0_0","label":"Add {G}","source":"land0_0","taps":true},` +
		`{"id":"tap:land0_1","label":"Add {G}","source":"land0_1","taps":true}],` +
		`"kind":"pay_mana","pip":"{1}","prompt":"Pay {1}","slot":"pay0"},` +
		`{"candidates":[{"id":"tap:land0_0","label":"Add {G}","source":"land0_0","taps":true},` +
		`{"id":"tap:land0_1","label":"Add {G}","source":"land0_1","taps":true}],` +
		`"kind":"pay_mana","pip":"{G}","prompt":"Pay {G}","slot":"pay1"}],` +
		`"subject":["bear"],"token":"T","type":"cast_spell"}`
	if !strings.Contains(wire, want) {
		t.Fatalf("valid_actions =\n%s\nwant the cast\n%s", wire, want)
	}
	if !strings.Contains(wire, `{"id":"mana:land0_0:2:0","label":"Add {G}","mana_ability":true,"subject":["land0_0"],"token":"T","type":"activate_ability"}`) {
		t.Fatalf("valid_actions lack the mana ability: %s", wire)
	}
	for _, tc := range []struct{ name, pay0, pay1 string }{
		{"source twice", "tap:land0_0", "tap:land0_0"},
		{"not a candidate", "tap:land0_0", "tap:land1_0"},
		{"two ids for one pip", "tap:land0_0 tap:land0_1", "tap:land0_1"},
		{"pip unpaid", "tap:land0_0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := roomsJSON(t, h)
			ca := choose(cast, "pay0", tc.pay0, "pay1", tc.pay1)
			if tc.pay1 == "" {
				ca.Targets = ca.Targets[:1]
			}
			h.refused("a", ca, rooms.CodeInvalidChoice)
			if !h.game("a").ActionRejected || string(roomsJSON(t, h)) != string(before) {
				t.Fatal("a refused payment changed the room or was not flagged")
			}
		})
	}
	h.must("a", choose(cast, "pay0", "tap:land0_1", "pay1", "tap:land0_0"))
	if log := h.game("a").Log; !strings.Contains(string(log[len(log)-1].Event), "spell_cast") {
		t.Fatalf("log = %+v", log)
	}
}

// TestManaAbilityFloats checks that mana floated by a mana ability action
// leaves a cast fewer pay_mana slots.
func TestManaAbilityFloats(t *testing.T) {
	h := stepsHarness(t, stepsFormat())
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps"}, "")
	h.must("a", choose(action(t, h, "a", "activate_ability")))
	cast := action(t, h, "a", "cast_spell")
	if len(cast.Prompts) != 1 || cast.Prompts[0].Pip != "{G}" || len(cast.Prompts[0].ManaCandidates) != 1 {
		t.Fatalf("cast after floating one mana = %+v", cast)
	}
}

// TestAutoPass plays two humans through three turns of the steps toy and
// checks, frame by frame, where the settle passed for whom: default
// own-turn stops at main, forced empty declarations, collapsed priority
// windows, a second combat in one turn listed twice, auto_passed_from at
// the action that started the settle, stops honoured, and Phase checks.
func TestAutoPass(t *testing.T) {
	h := stepsHarness(t, stepsFormat())
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps"}, "")
	for _, c := range []string{"a", "b"} {
		g := h.game(c)
		if !reflect.DeepEqual(g.OwnTurnStops, []string{"main"}) || g.Stops != nil {
			t.Fatalf("%s's seeded stops = %v / %v", c, g.Stops, g.OwnTurnStops)
		}
		if f := viewMember(t, h, c, "format"); f != `{"commander":true,"id":"steps"}` {
			t.Fatalf("%s's format = %s", c, f)
		}
		// The opening settle passed both seats at upkeep; its first event
		// (the step to main) has sequence 1.
		checkPassed(t, h, c, `[{"phase":"upkeep","turn":1}]`, "1")
	}
	if g := h.game("a"); g.Game == nil || string(g.Game["phase"]) != `"main"` {
		t.Fatalf("a is not asked at main: %s", h.last["a"].Frame)
	}
	// a casts (sequence 2); b, idle at a's main, is passed for and a,
	// stopping at its own main, is asked again.
	h.must("a", choose(action(t, h, "a", "cast_spell"), "pay0", "tap:land0_0", "pay1", "tap:land0_1"))
	checkPassed(t, h, "a", "", "")
	checkPassed(t, h, "b", `[{"phase":"main","turn":1}]`, "2")
	// a passes main and declares its bear (4, 5): its combat priority
	// window, end, and b's upkeep pass for both; b stops at its main.
	h.must("a", choose(action(t, h, "a", "pass_priority")))
	h.must("a", choose(action(t, h, "a", "declare_attackers"), "attackers", "creature0_0"))
	if seq := h.game("a").Log[3].Sequence; seq != 4 {
		t.Fatalf("attackers_declared has sequence %d", seq)
	}
	path := `[{"phase":"combat","turn":1},{"phase":"end","turn":1},{"phase":"upkeep","turn":2}]`
	checkPassed(t, h, "a", path, "4")
	checkPassed(t, h, "b", path, "4")
	// b clears its default stops for "end" on every turn; a step that is
	// not a Phase of the game is refused with the view unchanged.
	h.refused("b", rooms.SetStops{Stops: []string{"draw"}}, rooms.CodeInvalidStops)
	if g := h.game("b"); !reflect.DeepEqual(g.OwnTurnStops, []string{"main"}) {
		t.Fatalf("a refused set_stops changed b's stops: %+v", g.OwnTurnStops)
	}
	h.must("b", rooms.SetStops{Stops: []string{"end"}})
	// b passes its main: a is passed at main, then b declares nothing
	// (forced) and both pass in each of turn 2's two combats; b stops at
	// end. Each combat is one entry, and the second one is listed again.
	next := h.game("b").Log[len(h.game("b").Log)-1].Sequence + 1
	h.must("b", choose(action(t, h, "b", "pass_priority")))
	from := itoa(next)
	checkPassed(t, h, "a", `[{"phase":"main","turn":2},{"phase":"combat","turn":2},{"phase":"combat","turn":2}]`, from)
	checkPassed(t, h, "b", `[{"phase":"combat","turn":2},{"phase":"combat","turn":2}]`, from)
	if g := h.game("b"); string(g.Game["phase"]) != `"end"` || len(g.ValidActions) == 0 {
		t.Fatalf("b is not stopped at end: %s", h.last["b"].Frame)
	}
	// The cleared defaults are never re-seeded, across a reconnect too.
	tok := h.sessionOf("b")
	h.disconnect("b")
	h.connect("b2")
	h.must("b2", rooms.Hello{Token: tok})
	if g := h.game("b2"); g.OwnTurnStops != nil || !reflect.DeepEqual(g.Stops, []string{"end"}) {
		t.Fatalf("b's stops after a reconnect = %v / %v", g.Stops, g.OwnTurnStops)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestAutoPassAgainstAI checks that an AI seat's moves interleave with the
// settle's passes for the human: two casts by the AI at its main give the
// human one main entry (two priority windows of one step).
func TestAutoPassAgainstAI(t *testing.T) {
	h := stepsHarness(t, stepsFormat())
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps"}, "bot")
	if g := h.game("a"); g.Stops != nil || !reflect.DeepEqual(g.OwnTurnStops, []string{"main"}) {
		t.Fatalf("a's stops = %v / %v", g.Stops, g.OwnTurnStops)
	}
	h.must("a", choose(action(t, h, "a", "pass_priority")))
	// a had no bear: its combat declaration is forced empty. a's pass
	// logged nothing, so the stretch starts at the step to combat (2).
	checkPassed(t, h, "a", `[{"phase":"combat","turn":1},{"phase":"end","turn":1},{"phase":"upkeep","turn":2},`+
		`{"phase":"main","turn":2},{"phase":"combat","turn":2},{"phase":"combat","turn":2},{"phase":"end","turn":2},`+
		`{"phase":"upkeep","turn":3}]`, "2")
	g := h.game("a")
	casts := 0
	for _, e := range g.Log {
		if strings.Contains(string(e.Event), "spell_cast") {
			casts++
		}
	}
	if casts != 2 || string(g.Game["phase"]) != `"main"` || string(g.Game["turn"]) != "3" {
		t.Fatalf("after the bot's turn: casts %d, %s", casts, h.last["a"].Frame)
	}
	// The bot's two bears attacked twice in turn 2.
	if me := viewMember(t, h, "a", "me"); me != `{"life":1}` {
		t.Fatalf("a's me = %s", me)
	}
}

// TestSeatStatusInProjection checks that a SeatViewer projection carries
// the machine's connected and ai flags on me, opponents and players.
func TestSeatStatusInProjection(t *testing.T) {
	h := stepsHarness(t, stepsFormat())
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps"}, "")
	h.disconnect("b")
	if o := viewMember(t, h, "a", "opponents"); o != `[{"connected":false,"life":5,"player_id":"p1"}]` {
		t.Fatalf("a's opponents = %s", o)
	}
	h.connect("c")
	h.must("c", rooms.SpectateRoom{RoomID: h.game("a").RoomID})
	if p := viewMember(t, h, "c", "players"); p != `[{"life":5,"player_id":"p0"},{"connected":false,"life":5,"player_id":"p1"}]` {
		t.Fatalf("spectator players = %s", p)
	}
	h2 := stepsHarness(t, stepsFormat())
	startSteps(t, h2, rooms.RoomConfig{GameSetup: "steps"}, "bot")
	if me, o := viewMember(t, h2, "a", "me"), viewMember(t, h2, "a", "opponents"); me != `{"life":5}` ||
		o != `[{"ai":true,"life":5,"player_id":"p1"}]` {
		t.Fatalf("a's me = %s, opponents = %s", me, o)
	}
}

// TestFormatOverrides checks a format's own log window and settle bound,
// and a format without default stops or a phase list.
func TestFormatOverrides(t *testing.T) {
	f := rooms.Format{ID: "steps-small", MinSeats: 2, MaxSeats: 2, LogWindow: 2, SettleSteps: 1}
	h := stepsHarness(t, f)
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps-small"}, "")
	// One settle step: a was passed at upkeep, then b, as idle, is asked.
	checkPassed(t, h, "a", `[{"phase":"upkeep","turn":1}]`, "1")
	if g := h.game("b"); len(g.ValidActions) == 0 || g.ValidActions[0].Type != "pass_priority" ||
		string(g.Game["phase"]) != `"upkeep"` || g.OwnTurnStops != nil {
		t.Fatalf("b's view = %s", h.last["b"].Frame)
	}
	if f := viewMember(t, h, "a", "format"); f != `{"id":"steps-small"}` {
		t.Fatalf("format = %s", f)
	}
	h.must("b", rooms.SetStops{Stops: []string{"anything_goes"}})
	for range 3 {
		c, a := mover(t, h)
		h.must(c, choose(a))
	}
	if log := h.game("a").Log; len(log) != 2 || log[1].Sequence < 3 {
		t.Fatalf("log window = %+v", log)
	}
}

// TestStepperTimeout checks that a clock expiry in a stepped game reports
// the step it passed at, from the timed_out event.
func TestStepperTimeout(t *testing.T) {
	h := stepsHarness(t, stepsFormat())
	startSteps(t, h, rooms.RoomConfig{GameSetup: "steps", ActionSeconds: 5}, "bot")
	h.tick(6000)
	log := h.game("a").Log
	if !strings.Contains(string(log[1].Event), "timed_out") {
		t.Fatalf("log = %+v", log)
	}
	got := viewMember(t, h, "a", "auto_passed_steps")
	if !strings.HasPrefix(got, `[{"phase":"main","turn":1},{"phase":"combat","turn":1}`) || viewMember(t, h, "a", "auto_passed_from") != "2" {
		t.Fatalf("steps %s from %s", got, viewMember(t, h, "a", "auto_passed_from"))
	}
}

// TestRegistryPhases checks a format's default stops must be its phases.
func TestRegistryPhases(t *testing.T) {
	for _, f := range []rooms.Format{
		{ID: "x", MinSeats: 2, MaxSeats: 2, Phases: []string{"main"}, DefaultStops: []string{"end"}},
		{ID: "x", MinSeats: 2, MaxSeats: 2, Phases: []string{"Main"}},
		{ID: "x", MinSeats: 2, MaxSeats: 2, DefaultStops: []string{""}},
	} {
		if _, err := rooms.NewRegistry(steps{format: f}); err == nil {
			t.Errorf("format %+v registered", f)
		}
	}
}

// TestUpdateRoomClearsAIReadiness checks that a table change clears every
// seat's readiness, AI seats included, and that the host's ready stands
// its AI seats ready again.
func TestUpdateRoomClearsAIReadiness(t *testing.T) {
	h := lobbyHarness(t, rooms.Limits{})
	h.connect("a")
	h.connect("b")
	h.must("a", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID}})
	h.must("b", rooms.JoinRoom{RoomID: h.lobby("a").Room.RoomID})
	h.must("a", rooms.AddAI{Seat: 2, Kind: "fox"})
	h.must("b", rooms.Ready{Ready: true})
	h.must("a", rooms.UpdateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID}})
	for i, st := range h.lobby("a").Room.Seats {
		if st.Ready {
			t.Fatalf("seat %d still ready after update_room", i)
		}
	}
	h.must("a", rooms.Ready{Ready: true})
	if s := h.lobby("b").Room.Seats; !s[0].Ready || s[1].Ready || !s[2].Ready {
		t.Fatalf("seats after the host's ready = %+v", s)
	}
}
