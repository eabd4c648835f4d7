package cheat

import (
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/canon/canontest"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// TestEncoders plays AI games at every table size and requires the direct
// encoders of the state and of every seat's and the spectator's view to
// give exactly encoding/json's bytes, made canonical, at every step.
func TestEncoders(t *testing.T) {
	check := func(t *testing.T, st *state) {
		t.Helper()
		canontest.Check(t, st)
		for seat := rooms.Spectator; seat < len(st.Hands)+1; seat++ {
			canontest.Check(t, st.View(seat).(View))
		}
	}
	for n := 2; n <= 8; n++ {
		t.Run(fmt.Sprintf("seats=%d", n), func(t *testing.T) {
			seed := fmt.Sprintf("enc-%d", n)
			players := make([]rooms.Player, n)
			for i := range players {
				players[i] = rooms.Player{Seat: i, ID: rooms.PlayerID(i)}
			}
			pos, err := Game{}.Setup(seed, players)
			if err != nil {
				t.Fatal(err)
			}
			st := pos.(*state)
			check(t, st)
			check(t, &state{Winner: -1}) // nil hands and pile
			k := 0
			for step := 0; step < 2000 && st.Result() == nil; step++ {
				moved := false
				for seat := range n {
					if len(st.Actions(seat)) == 0 {
						continue
					}
					k++
					c := st.AI([]string{"fox", "random"}[seat%2], seat, rng.For(seed, rng.Agent(rooms.PlayerID(seat), k)))
					if _, err := st.Apply(seat, c); err != nil {
						c, _ = st.Timeout(seat)
						if _, err := st.Apply(seat, c); err != nil {
							t.Fatal(err)
						}
					}
					moved = true
					break
				}
				if !moved {
					t.Fatal("nobody moves")
				}
				check(t, st)
			}
		})
	}
}
