package rooms_test

import (
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// TestUndoAfterAResultIsRefused: at a table with undo on, a move can be
// taken back while the game runs, but once it has a result no seat can
// take it back (a loser would otherwise undo the winner's victory): the
// view offers no undo and the command is refused with game_over.
func TestUndoAfterAResultIsRefused(t *testing.T) {
	h := newHarness(t, rooms.Limits{})
	for _, c := range []string{"a", "b"} {
		h.connect(c)
	}
	h.start(rooms.RoomConfig{Seats: 2, GameSetup: cheat.ID, UndoEnabled: true})
	r := rng.For("undo-after-result", rng.System("moves", 0))
	undone := false
	for step := 0; h.game("a").Result == nil; step++ {
		if step > 2000 {
			t.Fatal("no result after 2000 moves")
		}
		moved := false
		for _, c := range []string{"a", "b"} {
			if acts := h.game(c).ValidActions; len(acts) > 0 {
				h.must(c, answer(acts, r, ""))
				moved = true
				break
			}
		}
		if !moved {
			t.Fatalf("step %d: no seat has a move and there is no result", step)
		}
		if !undone && step == 3 && h.game("b").Undo.Available > 0 {
			h.must("b", rooms.Undo{}) // still allowed while the game runs
			undone = true
		}
	}
	if !undone {
		t.Fatal("the game never offered an undo to take while it ran")
	}
	for _, c := range []string{"a", "b"} {
		g := h.game(c)
		if g.Undo == nil || g.Undo.Available != 0 {
			t.Errorf("%s's view after the result offers undo: %+v", c, g.Undo)
		}
		h.refused(c, rooms.Undo{}, rooms.CodeGameOver)
		if h.game(c).Result == nil {
			t.Fatalf("%s's refused undo took the result back", c)
		}
	}
}
