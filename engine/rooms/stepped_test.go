package rooms_test

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// steps is a stepped toy game for the room machine's card-game additions:
// two seats, turns of four steps (every even turn fights twice), lands that
// pay a two-pip cast through pay_mana slots or a mana ability, creatures
// that attack, and priority passing inside each step. It implements the
// optional Stepper and SeatViewer capabilities.
type steps struct {
	format rooms.Format
}

var stepPhases = []string{"upkeep", "main", "combat", "end"}

// stepsFormat is the toy's full format: Commander flag, phase list, default
// own-turn stop at main, a larger log window.
func stepsFormat() rooms.Format {
	return rooms.Format{ID: "steps", Name: "Steps", MinSeats: 2, MaxSeats: 2,
		Commander: true, Phases: stepPhases, DefaultStops: []string{"main"}, LogWindow: 100,
		AI: []rooms.AIOption{{ID: "bot", Name: "Bot"}}}
}

func (g steps) Format() rooms.Format { return g.format }

// stepState is the whole toy game.
type stepState struct {
	Turn     int      `json:"turn"`      // from 1
	Phase    int      `json:"phase"`     // index into stepPhases
	Entered  int      `json:"entered"`   // steps entered so far
	Fought   bool     `json:"fought"`    // the first of an even turn's two combats is over
	Active   int      `json:"active"`    // the seat whose turn it is
	Priority int      `json:"priority"`  // the seat asked
	Declared bool     `json:"declared"`  // this combat's attackers are declared
	Passed   int      `json:"passed"`    // consecutive passes
	Lands    []int    `json:"lands"`     // per seat
	Tapped   [][]bool `json:"tapped"`    // per seat, per land
	Pool     []int    `json:"pool"`      // floating mana per seat
	Life     []int    `json:"life"`      // per seat
	Creature []int    `json:"creatures"` // per seat
	Over     bool     `json:"over"`
}

const stepsMaxTurns = 6

func (steps) Setup(seed string, players []rooms.Player) (rooms.Position, error) {
	n := len(players)
	st := &stepState{Turn: 1, Entered: 1, Lands: make([]int, n), Tapped: make([][]bool, n),
		Pool: make([]int, n), Life: make([]int, n), Creature: make([]int, n)}
	for i := range players {
		st.Lands[i] = 2 + 2*i // the second seat has four lands
		st.Tapped[i] = make([]bool, st.Lands[i])
		st.Life[i] = 5
	}
	return st, nil
}

func (steps) Load(b []byte) (rooms.Position, error) {
	var st stepState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func (st *stepState) State() ([]byte, error) { return canon.Marshal(st) }

func (st *stepState) phase() string { return stepPhases[st.Phase] }

// Step reports where the game stands.
func (st *stepState) Step() rooms.Step {
	return rooms.Step{Turn: st.Turn, Phase: st.phase(), Active: st.Active, Entered: st.Entered}
}

func (st *stepState) View(seat int) any {
	return map[string]any{"turn": st.Turn, "phase": st.phase(), "life": st.Life}
}

// ViewSeats carries the machine's per-seat flags on me/opponents/players.
func (st *stepState) ViewSeats(seat int, seats []rooms.SeatStatus) any {
	v := map[string]any{"turn": st.Turn, "phase": st.phase()}
	rec := func(i int) map[string]any {
		r := map[string]any{"player_id": rooms.PlayerID(i), "life": st.Life[i]}
		if !seats[i].Connected {
			r["connected"] = false
		}
		if seats[i].AI != "" {
			r["ai"] = true
		}
		return r
	}
	if seat == rooms.Spectator {
		var players []any
		for i := range seats {
			players = append(players, rec(i))
		}
		v["players"] = players
		return v
	}
	me := rec(seat)
	delete(me, "player_id")
	v["me"] = me
	var opp []any
	for i := range seats {
		if i != seat {
			opp = append(opp, rec(i))
		}
	}
	v["opponents"] = opp
	return v
}

func (st *stepState) id(kind string) string {
	return kind + ":" + strconv.Itoa(st.Entered) + ":" + strconv.Itoa(st.Passed)
}

func land(seat, i int) string { return "land" + strconv.Itoa(seat) + "_" + strconv.Itoa(i) }

func (st *stepState) untapped(seat int) []int {
	var out []int
	for i, t := range st.Tapped[seat] {
		if !t {
			out = append(out, i)
		}
	}
	return out
}

// canCast says whether seat may cast now: its own main step, priority,
// and two mana between pool and untapped lands.
func (st *stepState) canCast(seat int) bool {
	return st.phase() == "main" && seat == st.Active && st.Pool[seat]+len(st.untapped(seat)) >= 2
}

func (st *stepState) declaring() bool { return st.phase() == "combat" && !st.Declared }

func (st *stepState) Actions(seat int) []rooms.Action {
	if st.Over {
		return nil
	}
	if st.declaring() {
		if seat != st.Active {
			return nil
		}
		var ids []string
		for i := range st.Creature[seat] {
			ids = append(ids, "creature"+strconv.Itoa(seat)+"_"+strconv.Itoa(i))
		}
		return []rooms.Action{{ID: st.id("declare"), Type: "declare_attackers", Label: "Declare attackers",
			Requirements: []rooms.Requirement{{Slot: "attackers", Prompt: "Attack with", Optional: true,
				Count: len(ids), Candidates: append([]string{}, ids...)}}}}
	}
	if seat != st.Priority {
		return nil
	}
	acts := []rooms.Action{{ID: st.id("pass"), Type: "pass_priority", Label: "Pass"}}
	if st.canCast(seat) {
		cast := rooms.Action{ID: st.id("cast"), Type: "cast_spell", Label: "Cast Bear", Subject: []string{"bear"},
			Cost:         &rooms.Cost{Printed: "{1}{G}", Modified: "{1}{G}"},
			Destinations: []rooms.Destination{{Type: "zone", ID: "battlefield", Owner: rooms.PlayerID(seat), Label: "Battlefield"}}}
		for i, pip := range []string{"{1}", "{G}"}[min(st.Pool[seat], 2):] {
			p := rooms.Prompt{Kind: rooms.PromptPayMana, Slot: "pay" + strconv.Itoa(i), Prompt: "Pay " + pip, Pip: pip,
				ManaCandidates: []rooms.ManaCandidate{}}
			for _, l := range st.untapped(seat) {
				p.ManaCandidates = append(p.ManaCandidates, rooms.ManaCandidate{ID: "tap:" + land(seat, l),
					Source: land(seat, l), Label: "Add {G}", Taps: true})
			}
			cast.Prompts = append(cast.Prompts, p)
		}
		acts = append(acts, cast)
	}
	for _, l := range st.untapped(seat) {
		acts = append(acts, rooms.Action{ID: st.id("mana:" + land(seat, l)), Type: "activate_ability",
			Label: "Add {G}", Subject: []string{land(seat, l)}, ManaAbility: true})
	}
	return acts
}

// Idle is the pass (or forced empty declaration) of a seat with nothing
// meaningful to do.
func (st *stepState) Idle(seat int) (rooms.Choice, bool) {
	acts := st.Actions(seat)
	if len(acts) == 0 {
		return rooms.Choice{}, false
	}
	if st.declaring() {
		if st.Creature[seat] == 0 {
			return rooms.Choice{ActionID: acts[0].ID}, true
		}
		return rooms.Choice{}, false
	}
	if st.canCast(seat) {
		return rooms.Choice{}, false
	}
	return rooms.Choice{ActionID: acts[0].ID}, true
}

func (st *stepState) Apply(seat int, c rooms.Choice) ([]rooms.Event, error) {
	var act *rooms.Action
	acts := st.Actions(seat)
	for i := range acts {
		if acts[i].ID == c.ActionID {
			act = &acts[i]
		}
	}
	if act == nil {
		return nil, errors.New("steps: not offered")
	}
	switch act.Type {
	case "declare_attackers":
		n := len(c.Targets["attackers"])
		st.Declared = true
		evs := []rooms.Event{{"type": "attackers_declared", "player": rooms.PlayerID(seat), "count": n}}
		if n > 0 {
			st.Life[1-seat] -= n
			evs = append(evs, rooms.Event{"type": "life_changed", "player": rooms.PlayerID(1 - seat), "amount": -n})
			if st.Life[1-seat] <= 0 {
				st.Over = true
				return append(evs, rooms.Event{"type": "game_over"}), nil
			}
		}
		st.Priority, st.Passed = st.Active, 0
		return evs, nil
	case "cast_spell":
		for _, p := range act.Prompts {
			l, _ := strconv.Atoi(c.Targets[p.Slot][0][len("tap:land0_"):])
			st.Tapped[seat][l] = true
		}
		st.Pool[seat] -= min(st.Pool[seat], 2)
		st.Creature[seat]++
		st.Passed, st.Priority = 0, 1-seat
		return []rooms.Event{{"type": "spell_cast", "player": rooms.PlayerID(seat)}}, nil
	case "activate_ability":
		l, _ := strconv.Atoi(act.Subject[0][len("land0_"):])
		st.Tapped[seat][l] = true
		st.Pool[seat]++
		return nil, nil
	}
	st.Passed++
	st.Priority = 1 - seat
	if st.Passed < 2 {
		return nil, nil
	}
	return st.advance(), nil
}

// advance moves to the next step, and to the next turn after end.
func (st *stepState) advance() []rooms.Event {
	st.Passed, st.Declared = 0, false
	st.Pool = make([]int, len(st.Pool))
	switch {
	case st.phase() == "combat" && st.Turn%2 == 0 && !st.Fought:
		st.Fought = true // an even turn fights a second time
	case st.Phase == len(stepPhases)-1:
		st.Turn++
		st.Phase, st.Fought = 0, false
		st.Active = 1 - st.Active
		st.Tapped[st.Active] = make([]bool, st.Lands[st.Active])
		if st.Turn > stepsMaxTurns {
			st.Over = true
			return []rooms.Event{{"type": "game_over"}}
		}
	default:
		st.Phase++
	}
	st.Entered++
	st.Priority = st.Active
	return []rooms.Event{{"type": "step_changed", "turn": st.Turn, "phase": st.phase(),
		"active_player": rooms.PlayerID(st.Active)}}
}

func (st *stepState) Timeout(seat int) (rooms.Choice, bool) {
	acts := st.Actions(seat)
	if len(acts) == 0 {
		return rooms.Choice{}, false
	}
	return rooms.Choice{ActionID: acts[0].ID}, true
}

// AI casts whenever it can (paying from the first lands), attacks with
// everything, and otherwise passes.
func (st *stepState) AI(kind string, seat int, h *rng.Handle) rooms.Choice {
	acts := st.Actions(seat)
	if len(acts) == 0 {
		return rooms.Choice{}
	}
	if st.declaring() {
		return rooms.Choice{ActionID: acts[0].ID, Targets: map[string][]string{"attackers": acts[0].Requirements[0].Candidates}}
	}
	for _, a := range acts {
		if a.Type == "cast_spell" {
			t := map[string][]string{}
			for i, p := range a.Prompts {
				t[p.Slot] = []string{p.ManaCandidates[i].ID}
			}
			return rooms.Choice{ActionID: a.ID, Targets: t}
		}
	}
	return rooms.Choice{ActionID: acts[0].ID}
}

func (st *stepState) Result() *rooms.Result {
	if !st.Over {
		return nil
	}
	switch {
	case st.Life[0] <= 0:
		return &rooms.Result{Winner: "p1", Losers: []string{"p0"}, Reason: "life_zero"}
	case st.Life[1] <= 0:
		return &rooms.Result{Winner: "p0", Losers: []string{"p1"}, Reason: "life_zero"}
	}
	return &rooms.Result{Reason: "turn_limit"}
}
