//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"syscall/js"

	"github.com/storyloom/storyloom/engine/rooms"
)

// One Durable Object per room (docs/edge-worker.md): the object named
// lobbyName is the lobby, which hands every game it starts to the object
// named roomPrefix + the room's id. Nothing here awaits another object:
// the entry module delivers what an event left pending (pending) after
// the event, and tells Go once the other object took it (handedOff,
// acked).
const (
	lobbyName  = "main"
	roomPrefix = "room:"
)

// pendingJS is what the entry module delivers after an event: the
// lobby's hand-offs not yet confirmed, by room id, and a room's report
// the lobby has yet to acknowledge.
type pendingJS struct {
	HandOffs map[string]string `json:"handOffs,omitempty"`
	Report   string            `json:"report,omitempty"`
	Seq      int64             `json:"seq,omitempty"`
}

// registerHandOff registers the handlers the entry module calls between
// the lobby's object and the rooms': pending, handOffOf and handedOff on
// the lobby, holds, adopt and acked on a room, report on the lobby.
func (o *object) registerHandOff(b js.Value) {
	h := o.rooms
	b.Set("pending", promiseFunc(func([]js.Value) (any, error) {
		var p pendingJS
		if offs := h.HandOffs(); len(offs) > 0 {
			p.HandOffs = map[string]string{}
			for id, rec := range offs {
				p.HandOffs[id] = string(rec)
			}
		}
		if rep, pending := h.Report(); pending {
			if o.hold && rep.Seq > o.holdAfter && len(rep.Returned) > 0 {
				return nil, fmt.Errorf("report %d held until the object restarts (%s, a test hook)", rep.Seq, testHoldReportsVar)
			}
			enc, err := json.Marshal(rep)
			if err != nil {
				return nil, err
			}
			p.Report, p.Seq = string(enc), rep.Seq
		}
		enc, err := json.Marshal(p)
		return string(enc), err
	}))
	b.Set("handOffOf", promiseFunc(func(args []js.Value) (any, error) {
		return string(h.HandOffs()[args[0].String()]), nil
	}))
	b.Set("handedOff", promiseFunc(o.traced("handedOff", func(args []js.Value) (any, error) {
		return nil, o.do(rooms.Input{Kind: rooms.InputHandedOff, Room: args[0].String()})
	})))
	b.Set("report", promiseFunc(o.traced("report", func(args []js.Value) (any, error) {
		return nil, o.do(rooms.Input{Kind: rooms.InputReport, Frame: []byte(args[0].String())})
	})))
	b.Set("holds", promiseFunc(func([]js.Value) (any, error) {
		rep, _ := h.Report()
		return rep.Summary != nil || rep.Seq > 0, nil
	}))
	b.Set("adopt", promiseFunc(o.traced("adopt", func(args []js.Value) (any, error) {
		if err := h.Adopt(context.Background(), []byte(args[0].String())); err != nil {
			return nil, err
		}
		return nil, o.settle()
	})))
	b.Set("acked", promiseFunc(o.traced("acked", func(args []js.Value) (any, error) {
		seq, err := strconv.ParseInt(args[0].String(), 10, 64)
		if err != nil {
			return nil, err
		}
		return nil, o.do(rooms.Input{Kind: rooms.InputAcked, Seq: seq})
	})))
}

// moveStrays sends back to the lobby, as a room's object starts, every
// open socket its machine does not know: one it had moved to the lobby
// and held until the lobby took the sessions, when the object was
// evicted before that (the entry module closes it once the report is
// delivered, as it would have). Every other socket is the machine's own
// connection, recorded since its open (a seat, a spectator, or a fresh
// session that has not said hello), and stays.
func (o *object) moveStrays(live map[string]bool) {
	known := map[string]bool{}
	for _, conn := range o.rooms.Connections() {
		known[conn] = true
	}
	for conn := range live {
		if !known[conn] {
			o.sink(conn)(rooms.Outbound{Conn: conn, Kind: rooms.KindMove, Move: rooms.MoveLobby, Close: true})
		}
	}
}
