package rooms_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat/cheattest"
)

// harness drives a Server the way a host does and keeps, per connection,
// every frame and the latest view.
type harness struct {
	t         testing.TB
	reg       *rooms.Registry
	s         *rooms.Server
	ids       *rooms.DerivedIDs
	now       int64
	roundTrip bool                      // save and restore between every input
	frames    []rooms.Outbound          // every frame, in order
	last      map[string]rooms.Outbound // latest view per connection
	errs      map[string][]rooms.Rejection
	closed    map[string]bool
	onFrames  func(out []rooms.Outbound) // called after every input
	records   map[string][]byte          // every record before the input
}

func newHarness(t testing.TB, lim rooms.Limits) *harness {
	reg := cheattest.Registry(t)
	return &harness{t: t, reg: reg, s: rooms.New(reg, lim), ids: &rooms.DerivedIDs{Secret: "test"},
		now: 1_000_000, last: map[string]rooms.Outbound{}, errs: map[string][]rooms.Rejection{}, closed: map[string]bool{}}
}

func (h *harness) record(out []rooms.Outbound, ch rooms.Changes) []rooms.Outbound {
	h.t.Helper()
	h.records = checkChanges(h.t, h.records, h.s, ch)
	for _, o := range out {
		if o.Kind != rooms.KindMove && !json.Valid(o.Frame) {
			h.t.Fatalf("invalid JSON frame to %s: %s", o.Conn, o.Frame)
		}
		h.frames = append(h.frames, o)
		switch o.Kind {
		case rooms.KindError:
			var f rooms.LobbyErrorFrame
			if err := json.Unmarshal(o.Frame, &f); err != nil {
				h.t.Fatal(err)
			}
			h.errs[o.Conn] = append(h.errs[o.Conn], f.LobbyError)
		case rooms.KindLobby, rooms.KindGame, rooms.KindSpectator:
			h.last[o.Conn] = o
			h.checkCodec(o)
		}
		if o.Close {
			h.closed[o.Conn] = true
		}
	}
	if h.roundTrip {
		b, err := h.s.Marshal()
		if err != nil {
			h.t.Fatal(err)
		}
		s2, err := rooms.Restore(b, h.reg)
		if err != nil {
			h.t.Fatal(err)
		}
		b2, err := s2.Marshal()
		if err != nil {
			h.t.Fatal(err)
		}
		if !bytes.Equal(b, b2) {
			h.t.Fatal("restore changed the state")
		}
		checkRecordsRestore(h.t, h.reg, b, h.records)
		h.s = s2
	}
	if h.onFrames != nil {
		h.onFrames(out)
	}
	return out
}

// checkCodec decodes a view into its documented type and checks that
// encoding it canonically gives back the very bytes the machine sent.
func (h *harness) checkCodec(o rooms.Outbound) {
	h.t.Helper()
	if _, err := decodeView(o.Kind, o.Frame); err != nil {
		h.t.Fatal(err)
	}
}

// views holds, per kind and distinct frame, the frame decoded into its
// documented type, once checkCodec's check passed. The check and the
// decoding depend on the bytes alone, and the machine sends the same
// frame again and again (TestDeterminism plays each game three times;
// the harness reads a connection's latest view at every step), so each
// distinct frame is decoded and re-encoded once per package run. The
// values are shared: a reader must not modify them.
var views = struct {
	sync.Mutex
	m map[string]map[string]any
}{m: map[string]map[string]any{}}

// decodeView returns frame decoded into the documented type of kind (a
// pointer to it), or an error when it does not decode or does not
// re-encode canonically to the very same bytes.
func decodeView(kind string, frame []byte) (any, error) {
	views.Lock()
	v, ok := views.m[kind][string(frame)]
	views.Unlock()
	if ok {
		return v, nil
	}
	switch kind {
	case rooms.KindLobby:
		v = &rooms.LobbyView{}
	case rooms.KindGame:
		v = &rooms.GameView{}
	case rooms.KindSpectator:
		v = &rooms.SpectatorView{}
	default:
		return nil, fmt.Errorf("%s frames have no view type", kind)
	}
	if err := json.Unmarshal(frame, v); err != nil {
		return nil, fmt.Errorf("%s frame does not decode: %v", kind, err)
	}
	b, err := canon.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(b, frame) {
		return nil, fmt.Errorf("%s frame re-encodes differently:\n%s\n%s", kind, frame, b)
	}
	views.Lock()
	if views.m[kind] == nil {
		views.m[kind] = map[string]any{}
	}
	views.m[kind][string(frame)] = v
	views.Unlock()
	return v, nil
}

func (h *harness) connect(conn string) []rooms.Outbound {
	h.t.Helper()
	h.now += 10
	return h.record(h.s.Connect(conn, h.now, h.ids))
}

func (h *harness) disconnect(conn string) []rooms.Outbound {
	h.t.Helper()
	h.now += 10
	return h.record(h.s.Disconnect(conn, h.now))
}

func (h *harness) raw(conn string, frame []byte) []rooms.Outbound {
	h.t.Helper()
	h.now += 100
	return h.record(h.s.Receive(conn, frame, h.now, h.ids))
}

func (h *harness) send(conn string, c rooms.Command) []rooms.Outbound {
	h.t.Helper()
	b, err := rooms.EncodeCommand(c)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.raw(conn, b)
}

// must sends c and fails the test if it was refused.
func (h *harness) must(conn string, c rooms.Command) []rooms.Outbound {
	h.t.Helper()
	n := len(h.errs[conn])
	out := h.send(conn, c)
	if len(h.errs[conn]) > n {
		h.t.Fatalf("%s %s refused: %+v", conn, c.Type(), h.errs[conn][n:])
	}
	return out
}

// refused sends c and checks it was refused with code.
func (h *harness) refused(conn string, c rooms.Command, code string) {
	h.t.Helper()
	n := len(h.errs[conn])
	h.send(conn, c)
	if len(h.errs[conn]) != n+1 || h.errs[conn][n].Code != code {
		h.t.Fatalf("%s %s: rejections %+v, want one %q", conn, c.Type(), h.errs[conn][n:], code)
	}
}

func (h *harness) tick(advance int64) []rooms.Outbound {
	h.t.Helper()
	h.now += advance
	return h.record(h.s.Tick(h.now))
}

func (h *harness) lobby(conn string) rooms.LobbyView {
	h.t.Helper()
	return latest[rooms.LobbyView](h, conn, rooms.KindLobby)
}

func (h *harness) game(conn string) rooms.GameView {
	h.t.Helper()
	return latest[rooms.GameView](h, conn, rooms.KindGame)
}

func (h *harness) spectator(conn string) rooms.SpectatorView {
	h.t.Helper()
	return latest[rooms.SpectatorView](h, conn, rooms.KindSpectator)
}

// latest decodes conn's latest view, which must be of the given kind.
func latest[V any](h *harness, conn, kind string) V {
	h.t.Helper()
	o, ok := h.last[conn]
	if !ok || o.Kind != kind {
		h.t.Fatalf("%s: latest view is %q, want a %s view", conn, o.Kind, kind)
	}
	v, err := decodeView(kind, o.Frame)
	if err != nil {
		h.t.Fatal(err)
	}
	return *v.(*V)
}

// start has "a" create a room with cfg, "b" join it, the AIs ais take
// seats 2, 3, … and both humans ready, so the match runs. It returns the
// room id; a and b must be connected.
func (h *harness) start(cfg rooms.RoomConfig, ais ...string) string {
	h.t.Helper()
	h.must("a", rooms.CreateRoom{Config: cfg})
	room := h.lobby("a").Room.RoomID
	h.must("b", rooms.JoinRoom{RoomID: room})
	for i, ai := range ais {
		h.must("a", rooms.AddAI{Seat: 2 + i, Kind: ai})
	}
	h.must("a", rooms.Ready{Ready: true})
	h.must("b", rooms.Ready{Ready: true})
	return room
}

// answer picks an answer to one of acts with h: a random action, and for a
// play 1..n random cards.
func answer(acts []rooms.Action, r *rng.Handle, submission string) rooms.ChooseAction {
	a := acts[r.Intn(len(acts))]
	ca := rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Submission: submission}
	for _, p := range a.Prompts {
		if p.Kind == rooms.PromptSelectFromZone {
			n := 1 + r.Intn(p.Count)
			c := append([]string(nil), p.Candidates...)
			for i := 0; i < n; i++ {
				j := i + r.Intn(len(c)-i)
				c[i], c[j] = c[j], c[i]
			}
			ca.Targets = append(ca.Targets, rooms.TargetChoice{Slot: p.Slot, Chosen: c[:n]})
		}
	}
	return ca
}
