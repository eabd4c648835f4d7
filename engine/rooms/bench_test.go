package rooms_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// BenchmarkApply measures one accepted choose_action in a 4-seat Cheat
// room, including the AI settle and the complete views every seat and a
// spectator are sent. It plays games through and restores the start
// position (untimed) whenever one ends.
func BenchmarkApply(b *testing.B) {
	for _, humans := range []int{4, 3} {
		b.Run(fmt.Sprintf("4seats/%dhumans", humans), func(b *testing.B) {
			reg := cheattest.Registry(b)
			s := rooms.New(reg, rooms.Limits{CommandsPerSecond: 1 << 30})
			ids := &rooms.DerivedIDs{Secret: "bench"}
			conns := []string{"c0", "c1", "c2", "c3"}[:humans]
			now := int64(1_000_000)
			last := map[string][]byte{}
			send := func(conn string, c rooms.Command) {
				f, _ := rooms.EncodeCommand(c)
				now++
				out, _ := s.Receive(conn, f, now, ids)
				for _, o := range out {
					if o.Kind == rooms.KindGame {
						last[o.Conn] = o.Frame
					}
				}
			}
			for _, c := range append(conns, "spec") {
				s.Connect(c, now, ids)
			}
			send("c0", rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, UndoEnabled: true, ActionSeconds: 60}})
			var room string
			for id := range rooms.RoomsOf(s) {
				room = id
			}
			for _, c := range conns[1:] {
				send(c, rooms.JoinRoom{RoomID: room})
			}
			if humans < 4 {
				send("c0", rooms.AddAI{Seat: 3, Kind: "fox"})
			}
			for _, c := range conns {
				send(c, rooms.Ready{Ready: true})
			}
			send("spec", rooms.SpectateRoom{RoomID: room})
			start, err := s.Marshal()
			if err != nil {
				b.Fatal(err)
			}
			startViews := map[string][]byte{}
			for k, v := range last {
				startViews[k] = v
			}
			type actions struct {
				ValidActions []rooms.Action `json:"valid_actions"`
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if rooms.RoomsOf(s)[room].Match.Result != nil {
					if s, err = rooms.Restore(start, reg); err != nil {
						b.Fatal(err)
					}
					for k, v := range startViews {
						last[k] = v
					}
				}
				var conn string
				var cmd rooms.ChooseAction
				for _, c := range conns {
					var a actions
					_ = json.Unmarshal(last[c], &a)
					if len(a.ValidActions) > 0 {
						act := a.ValidActions[0] // a pass, or a play of one card
						conn, cmd = c, rooms.ChooseAction{ActionID: act.ID, Token: act.Token}
						if len(act.Prompts) > 0 {
							cmd.Targets = []rooms.TargetChoice{{Slot: act.Prompts[0].Slot, Chosen: act.Prompts[0].Candidates[:1]}}
						}
						break
					}
				}
				if conn == "" {
					b.Fatal("nobody has a decision")
				}
				f, _ := rooms.EncodeCommand(cmd)
				now++
				b.StartTimer()
				out, _ := s.Receive(conn, f, now, ids)
				b.StopTimer()
				for _, o := range out {
					if o.Kind == rooms.KindGame {
						last[o.Conn] = o.Frame
					}
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkMarshal measures persisting a server holding one running
// 4-seat room, as a host does after every input.
func BenchmarkMarshal(b *testing.B) {
	h := newHarness(b, rooms.Limits{})
	for _, c := range []string{"a", "b"} {
		h.connect(c)
	}
	h.start(rooms.RoomConfig{Seats: 4, GameSetup: cheat.ID, UndoEnabled: true}, "fox", "random")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.s.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}
