// Package cheattest serves the tests of the room machine and of its hosts
// that play Cheat: a registry of it, and which cards of a match a receiver
// must not see.
package cheattest

import (
	"encoding/json"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// Table is where the cards of a Cheat match lie: each seat's hand and
// the pile.
type Table struct {
	Hands [][]string `json:"hands"`
	Pile  []string   `json:"pile"`
}

// Read returns the table of the Cheat match m and adds to public the cards
// a call turned face up (the last call's and every "called" event's in the
// log), so that a card once shown stays public for the whole game. It
// fails t on a state or an event that is not Cheat's.
func Read(t testing.TB, m *rooms.Match, public map[string]bool) Table {
	t.Helper()
	var st struct {
		Table
		LastCall *struct {
			Cards []string `json:"cards"`
		} `json:"last_call"`
	}
	if err := json.Unmarshal(m.State, &st); err != nil {
		t.Fatal(err)
	}
	if st.LastCall != nil {
		for _, c := range st.LastCall.Cards {
			public[c] = true
		}
	}
	for _, le := range m.Log {
		var ev struct {
			Type  string   `json:"type"`
			Cards []string `json:"cards"`
		}
		if err := json.Unmarshal(le.Event, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == "called" {
			for _, c := range ev.Cards {
				public[c] = true
			}
		}
	}
	return st.Table
}

// Hidden returns the hand of seat (none for a spectator, seat -1) and the
// cards seat must not see: the pile and every other hand, but for the
// cards in public.
func (tb Table) Hidden(seat int, public map[string]bool) (own, hidden []string) {
	hide := func(cards []string) {
		for _, c := range cards {
			if !public[c] {
				hidden = append(hidden, c)
			}
		}
	}
	hide(tb.Pile)
	for i, hand := range tb.Hands {
		if i == seat {
			own = hand
		} else {
			hide(hand)
		}
	}
	return own, hidden
}

// Registry is a registry of the one game Cheat, failing t if it cannot
// be made.
func Registry(t testing.TB) *rooms.Registry {
	t.Helper()
	reg, err := rooms.NewRegistry(cheat.Game{})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}
