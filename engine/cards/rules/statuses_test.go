package rules

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// statusesOf returns the statuses seat viewer is shown for player: its
// own (me) or an opponent's.
func statusesOf(t *testing.T, g *Game, viewer, player int) []string {
	t.Helper()
	g.memo = nil
	v := g.View(viewer).(View)
	if viewer == player {
		return v.Me.Statuses
	}
	for _, o := range v.Opponents {
		if o.PlayerID == rooms.PlayerID(player) {
			return o.Statuses
		}
	}
	t.Fatalf("seat %d does not see seat %d", viewer, player)
	return nil
}

// sameStatuses checks that seat player's statuses read want to itself, to
// every other seat and to a spectator.
func sameStatuses(t *testing.T, g *Game, player int, want ...string) {
	t.Helper()
	for viewer := range g.st.Players {
		if got := statusesOf(t, g, viewer, player); !slices.Equal(got, want) {
			t.Fatalf("seat %d sees seat %d's statuses as %q, want %q", viewer, player, got, want)
		}
	}
	g.memo = nil
	if got := g.View(rooms.Spectator).(View).Players[player].Statuses; !slices.Equal(got, want) {
		t.Fatalf("the spectator sees seat %d's statuses as %q, want %q", player, got, want)
	}
}

func TestStatusesOfTheMulligan(t *testing.T) {
	cards := testLib(t)
	g, err := Setup(cards, Config{Format: "test", Life: 20}, "statuses", players(t, cards, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	sameStatuses(t, g, 0, "Deciding on a mulligan")
	do(t, g, 0, "mulligan_decision", "", map[string][]string{"decision": ids("mulligan")})
	sameStatuses(t, g, 0, "Deciding on a mulligan, after a mulligan")
	do(t, g, 0, "mulligan_decision", "", map[string][]string{"decision": ids("keep"), "bottom": ids(g.cardID(g.st.Players[0].Hand[0].N))})
	sameStatuses(t, g, 0, "Kept, with a card to the bottom")
	sameStatuses(t, g, 1, "Deciding on a mulligan")
	do(t, g, 1, "mulligan_decision", "", map[string][]string{"decision": ids("keep")})
	sameStatuses(t, g, 0)
	sameStatuses(t, g, 1)
	checkScene(t, g, 0)
}

func TestStatusesOfLandsHandSizeAndLosses(t *testing.T) {
	var defs []card.Def
	if err := json.Unmarshal([]byte(testCards), &defs); err != nil {
		t.Fatal(err)
	}
	defs = append(defs, card.Def{ID: "tome", Name: "Endless Tome", Cost: "{3}", Types: []string{"artifact"},
		Abilities: []card.Ability{{Kind: "static", Static: &card.Static{Op: "no_max_hand_size", Affects: "you"}}}})
	g := scene(t, 3)
	g.cards = NewCards(defs)
	forest := g.give(0, "forest")
	do(t, g, 0, "play_land", forest, nil)
	sameStatuses(t, g, 0, "Played a land this turn")
	sameStatuses(t, g, 1)
	tome := g.put(1, "tome")
	sameStatuses(t, g, 1, "No maximum hand size")
	if got := g.View(1).(View).Me.MaximumHandSize; got != "unlimited" {
		t.Fatalf("maximum hand size %v", got)
	}
	skipTo(t, g, 1, StepUpkeep)
	sameStatuses(t, g, 0)
	g.leaveField(tome, toGrave)
	sameStatuses(t, g, 1)
	g.st.Players[2].Poison = 10
	g.sba()
	sameStatuses(t, g, 2, "Lost: ten poison counters")
	if !g.View(0).(View).Opponents[1].Eliminated {
		t.Fatal("the loss is not shown as an elimination")
	}
	sameStatuses(t, g, 0)
	do(t, g, 1, "concede", "", nil)
	if r := g.Result(); r == nil || r.Winner != "p0" {
		t.Fatalf("result %+v", r)
	}
	sameStatuses(t, g, 1, "Conceded")
	checkScene(t, g, 0)
}
