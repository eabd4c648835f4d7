package rooms_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/rooms/cheat"
)

// The corpus pins the machine's bytes: every input of a set of scripted and
// random sessions, every frame the machine answered with, a digest of the
// state after every input and the final state, recorded once and stored
// compressed under testdata/corpus. TestCorpus replays the stored inputs
// and requires the very same bytes, so an optimization of the encoders can
// never change a frame or a state. Regenerate (only for an intended change
// of the protocol or the state, reviewing why every byte moved) with
//
//	go test ./engine/rooms -run Corpus -update

// corpusFile is one recorded session.
type corpusFile struct {
	Name   string         `json:"name"`
	Secret string         `json:"secret"` // DerivedIDs secret
	Duel   bool           `json:"duel"`   // the registry also hosts the duel stub
	Limits rooms.Limits   `json:"limits"`
	Steps  []corpusStep   `json:"steps"`
	State  string         `json:"state"` // final Marshal
	Frames int            `json:"frames"`
	Kinds  map[string]int `json:"kinds"`
}

// corpusStep is one input and everything it produced.
type corpusStep struct {
	Kind   string        `json:"kind"`
	Conn   string        `json:"conn,omitempty"`
	Frame  string        `json:"frame,omitempty"`
	Now    int64         `json:"now"`
	Out    []corpusFrame `json:"out,omitempty"`
	Digest string        `json:"digest"` // of Marshal after the input
}

type corpusFrame struct {
	Conn  string `json:"conn"`
	Kind  string `json:"kind"`
	Frame string `json:"frame"`
	Close bool   `json:"close,omitempty"`
}

// stateDigest digests the whole state after an input: every exported
// field, reached by reflection (so a new field is covered without a
// change here), maps in key order, byte slices and raw JSON as they are.
// It hashes the values directly rather than Marshal's canonical encoding,
// which re-parses the whole state and cost most of the replay; the final
// state is still compared byte for byte with Marshal, and the round-trip
// replay restores from Marshal.
func stateDigest(t testing.TB, s *rooms.Server) string {
	t.Helper()
	d := digester{h: sha256.New()}
	d.value(reflect.ValueOf(rooms.StateOf(s)))
	d.h.Write(d.b)
	sum := d.h.Sum(nil)
	return hex.EncodeToString(sum[:12])
}

// digester gathers what stateDigest hashes in b and writes it to h in
// large pieces: a hash's Write per value cost more than the values.
type digester struct {
	h hash.Hash
	b []byte
}

// value writes v, each value tagged with its length or a nil marker so
// that no two values write the same bytes.
func (d *digester) value(v reflect.Value) {
	if len(d.b) >= 32<<10 {
		d.h.Write(d.b)
		d.b = d.b[:0]
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			d.b = append(d.b, 0)
			return
		}
		d.b = append(d.b, 1)
		d.value(v.Elem())
	case reflect.Struct:
		for _, i := range exportedFields(v.Type()) {
			d.value(v.Field(i))
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		if v.IsNil() {
			d.b = append(d.b, 0)
		} else {
			d.b = binary.AppendUvarint(d.b, uint64(len(keys))+1)
		}
		for _, k := range keys {
			d.value(k)
			d.value(v.MapIndex(k))
		}
	case reflect.Slice:
		if v.IsNil() {
			d.b = append(d.b, 0)
			return
		}
		d.b = binary.AppendUvarint(d.b, uint64(v.Len())+1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			d.b = append(d.b, v.Bytes()...)
			return
		}
		for i := range v.Len() {
			d.value(v.Index(i))
		}
	case reflect.String:
		d.b = binary.AppendUvarint(d.b, uint64(v.Len()))
		d.b = append(d.b, v.String()...)
	case reflect.Int, reflect.Int64, reflect.Int32:
		d.b = binary.AppendVarint(d.b, v.Int())
	case reflect.Bool:
		if v.Bool() {
			d.b = append(d.b, 1)
		} else {
			d.b = append(d.b, 0)
		}
	case reflect.Float64:
		d.b = binary.BigEndian.AppendUint64(d.b, math.Float64bits(v.Float()))
	default:
		panic(fmt.Sprintf("stateDigest: %s is not digested", v.Type()))
	}
}

// exportedFields lists the indexes of a struct type's exported fields,
// found once per type.
func exportedFields(t reflect.Type) []int {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]int)
	}
	var f []int
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			f = append(f, i)
		}
	}
	fieldCache.Store(t, f)
	return f
}

var fieldCache sync.Map // reflect.Type -> []int, by exportedFields

func corpusRegistry(t testing.TB, duelToo bool) *rooms.Registry {
	t.Helper()
	games := []rooms.Game{cheat.Game{}}
	if duelToo {
		games = append(games, duel{})
	}
	reg, err := rooms.NewRegistry(games...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// recorder drives a server through Apply and records a corpusFile.
type recorder struct {
	t     testing.TB
	s     *rooms.Server
	ids   *rooms.DerivedIDs
	now   int64
	f     corpusFile
	last  map[string]rooms.Outbound // latest view per connection
	prev  map[string][]rooms.Action // the actions of the view before it
	r     *rng.Handle
	conns []string // open connections, in opening order
	held  []string // session tokens of dropped connections
	seq   int
}

func newRecorder(t testing.TB, name, secret string, duelToo bool, lim rooms.Limits) *recorder {
	return &recorder{t: t, s: rooms.New(corpusRegistry(t, duelToo), lim), ids: &rooms.DerivedIDs{Secret: secret},
		now: 1_000_000, f: corpusFile{Name: name, Secret: secret, Duel: duelToo, Limits: lim, Kinds: map[string]int{}},
		last: map[string]rooms.Outbound{}, prev: map[string][]rooms.Action{}, r: rng.For(secret, rng.System("corpus", 0))}
}

func (x *recorder) apply(in rooms.Input) []rooms.Outbound {
	x.t.Helper()
	out, _ := x.s.Apply(in, x.ids)
	st := corpusStep{Kind: in.Kind, Conn: in.Conn, Frame: string(in.Frame), Now: in.Now, Digest: stateDigest(x.t, x.s)}
	for _, o := range out {
		st.Out = append(st.Out, corpusFrame{Conn: o.Conn, Kind: o.Kind, Frame: string(o.Frame), Close: o.Close})
		x.f.Frames++
		x.f.Kinds[o.Kind]++
		switch o.Kind {
		case rooms.KindLobby, rooms.KindGame, rooms.KindSpectator:
			if old, ok := x.last[o.Conn]; ok && old.Kind == rooms.KindGame {
				var v rooms.GameView
				_ = json.Unmarshal(old.Frame, &v)
				x.prev[o.Conn] = v.ValidActions
			}
			x.last[o.Conn] = o
		}
		if o.Close {
			x.drop(o.Conn)
		}
	}
	x.f.Steps = append(x.f.Steps, st)
	return out
}

func (x *recorder) drop(conn string) {
	for i, c := range x.conns {
		if c == conn {
			x.conns = append(x.conns[:i:i], x.conns[i+1:]...)
			break
		}
	}
	delete(x.last, conn)
}

func (x *recorder) advance(ms int64) int64 { x.now += ms; return x.now }

func (x *recorder) connect() string {
	x.seq++
	c := fmt.Sprintf("c%d", x.seq)
	x.conns = append(x.conns, c)
	x.apply(rooms.Input{Kind: rooms.InputConnect, Conn: c, Now: x.advance(10)})
	return c
}

func (x *recorder) disconnect(c string) {
	if cc := rooms.ConnsOf(x.s)[c]; cc != nil {
		x.held = append(x.held, cc.Session)
	}
	x.drop(c)
	x.apply(rooms.Input{Kind: rooms.InputDisconnect, Conn: c, Now: x.advance(10)})
}

func (x *recorder) raw(c string, frame []byte, advance int64) []rooms.Outbound {
	return x.apply(rooms.Input{Kind: rooms.InputFrame, Conn: c, Frame: frame, Now: x.advance(advance)})
}

func (x *recorder) send(c string, cmd rooms.Command) []rooms.Outbound {
	b, err := rooms.EncodeCommand(cmd)
	if err != nil {
		x.t.Fatal(err)
	}
	return x.raw(c, b, 40)
}

func (x *recorder) tick(advance int64) {
	x.apply(rooms.Input{Kind: rooms.InputTick, Now: x.advance(advance)})
}

// actions returns the valid actions of c's latest game view.
func (x *recorder) actions(c string) []rooms.Action {
	o, ok := x.last[c]
	if !ok || o.Kind != rooms.KindGame {
		return nil
	}
	var v rooms.GameView
	if err := json.Unmarshal(o.Frame, &v); err != nil {
		x.t.Fatal(err)
	}
	return v.ValidActions
}

func (x *recorder) pick(list []string) string { return list[x.r.Intn(len(list))] }

func (x *recorder) roomIDs() []string {
	ids := make([]string, 0, len(rooms.RoomsOf(x.s)))
	for id := range rooms.RoomsOf(x.s) {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (x *recorder) finish() corpusFile {
	b, err := x.s.Marshal()
	if err != nil {
		x.t.Fatal(err)
	}
	x.f.State = string(b)
	return x.f
}

// playGame is playRandom over the recorder: humans acting at random with
// undos, clock expiries, reconnects and names, AIs, a spectator, and a
// crowd of idle lobby connections watching the directory.
func playGame(t testing.TB, name string, o randomOpts, lobby int) corpusFile {
	x := newRecorder(t, name, name, false, rooms.Limits{})
	humans := make([]string, o.humans)
	for i := range humans {
		humans[i] = x.connect()
		if x.r.Intn(2) == 0 {
			x.send(humans[i], rooms.SetName{Name: [...]string{"Ana", "Zoë", "名前", "Bo 😀", `"Q" \ T`}[i%5] + fmt.Sprint(i)})
		}
	}
	spec := x.connect()
	for range lobby {
		x.connect()
	}
	x.send(humans[0], rooms.CreateRoom{Config: rooms.RoomConfig{Seats: o.seats, GameSetup: cheat.ID,
		Name: "Table " + name, UndoEnabled: o.undo, ActionSeconds: o.clock}})
	room := rooms.SessionsOf(x.s)[rooms.ConnsOf(x.s)[humans[0]].Session].Room
	for _, c := range humans[1:] {
		x.send(c, rooms.JoinRoom{RoomID: room})
	}
	for s := o.humans; s < o.seats; s++ {
		x.send(humans[0], rooms.AddAI{Seat: s, Kind: [...]string{"fox", "random"}[s%2]})
	}
	for _, c := range humans {
		x.send(c, rooms.Ready{Ready: true})
	}
	x.send(spec, rooms.SpectateRoom{RoomID: room})
	for step := 0; step < o.maxSteps; step++ {
		if r := rooms.RoomsOf(x.s)[room]; r == nil || r.Match.Result != nil {
			break
		}
		switch p := x.r.NextPercent(); {
		case o.undo && p < 3:
			x.send(x.pick(humans), rooms.Undo{})
			continue
		case o.clock > 0 && p < 6:
			x.tick(int64(o.clock)*1000 + 1)
			continue
		case p < 8:
			i := x.r.Intn(len(humans))
			tok := rooms.ConnsOf(x.s)[humans[i]].Session
			x.disconnect(humans[i])
			humans[i] = x.connect()
			x.send(humans[i], rooms.Hello{Token: tok})
			continue
		case p < 10:
			c := x.pick(humans)
			if prev := x.prev[c]; len(prev) > 0 {
				x.send(c, answer(prev, x.r, "stale"))
				continue
			}
		}
		var ready []string
		for _, c := range humans {
			if len(x.actions(c)) > 0 {
				ready = append(ready, c)
			}
		}
		if len(ready) == 0 {
			t.Fatalf("%s step %d: no human has a decision and the game is not over", name, step)
		}
		c := x.pick(ready)
		sub := ""
		if x.r.Intn(3) == 0 {
			sub = fmt.Sprintf("s%d", step)
		}
		x.send(c, answer(x.actions(c), x.r, sub))
	}
	for _, c := range humans {
		x.send(c, rooms.Leave{})
	}
	x.send(spec, rooms.Leave{})
	return x.finish()
}

// chaos sends a random mix of every command, valid and not, from a
// changing crowd of connections over both formats, with disconnects,
// reconnects, session takeovers, clock ticks and idle expiry.
func chaos(t testing.TB, name string, steps int, lim rooms.Limits) corpusFile {
	x := newRecorder(t, name, name, true, lim)
	for range 6 {
		x.connect()
	}
	names := []string{"Ana", "Zoë", "名前", "Bo 😀", `"Q" \ T`, "  ", "x\u2028y", strings.Repeat("long", 10), "<b>&amp;</b>", "Ω"}
	configs := func() rooms.RoomConfig {
		cfg := rooms.RoomConfig{Seats: 1 + x.r.Intn(9), GameSetup: x.pick([]string{cheat.ID, cheat.ID, cheat.ID, "duel", "nope"})}
		if cfg.GameSetup == "duel" && x.r.Intn(4) > 0 {
			cfg.Seats = 2
		}
		if x.r.Intn(3) == 0 {
			cfg.Name = x.pick(names)
		}
		if x.r.Intn(4) == 0 {
			cfg.Visibility = x.pick([]string{rooms.VisibilityPrivate, rooms.VisibilityPublic, "secret"})
		}
		cfg.UndoEnabled = x.r.Intn(2) == 0
		if x.r.Intn(3) == 0 {
			cfg.ActionSeconds = x.pick2([]int{5, 30, 3, 4000})
		}
		return cfg
	}
	for step := 0; step < steps; step++ {
		if len(x.conns) == 0 {
			x.connect()
			continue
		}
		c := x.pick(x.conns)
		var playing []string
		for _, cc := range x.conns {
			if len(x.actions(cc)) > 0 {
				playing = append(playing, cc)
			}
		}
		rooms_ := x.roomIDs()
		someRoom := func() string {
			if len(rooms_) == 0 || x.r.Intn(10) == 0 {
				return "r:nope"
			}
			return x.pick(rooms_)
		}
		switch p := x.r.NextPercent(); {
		case p < 35 && len(playing) > 0:
			c = x.pick(playing)
			sub := ""
			if x.r.Intn(3) == 0 {
				sub = fmt.Sprintf("s%d", step)
			}
			x.send(c, answer(x.actions(c), x.r, sub))
		case p < 37:
			if prev := x.prev[c]; len(prev) > 0 {
				x.send(c, answer(prev, x.r, "old"))
			} else {
				x.send(c, rooms.ChooseAction{ActionID: "play:0", Token: "t0000000000000000"})
			}
		case p < 41:
			if len(x.conns) < 24 {
				x.connect()
			}
		case p < 44:
			x.disconnect(c)
		case p < 47:
			if len(x.held) > 0 || len(x.conns) > 1 {
				var tok string
				if len(x.held) > 0 && x.r.Intn(3) > 0 {
					tok = x.pick(x.held)
				} else {
					tok = rooms.ConnsOf(x.s)[x.pick(x.conns)].Session // a live session: session_taken
				}
				n := x.connect()
				x.send(n, rooms.Hello{Token: tok})
			}
		case p < 50:
			x.tick([]int64{100, 5_001, 31_000, 3_601_000, 31 * 60 * 1000}[x.r.Intn(5)])
		case p < 56:
			x.send(c, rooms.CreateRoom{Config: configs()})
		case p < 63:
			x.send(c, rooms.JoinRoom{RoomID: someRoom()})
		case p < 65:
			x.send(c, rooms.SpectateRoom{RoomID: someRoom()})
		case p < 68:
			x.send(c, rooms.Leave{})
		case p < 76:
			x.send(c, rooms.Ready{Ready: x.r.Intn(5) > 0})
		case p < 79:
			x.send(c, rooms.SetName{Name: x.pick(names)})
		case p < 84:
			seat := x.r.Intn(9) - 1
			if se := rooms.SessionsOf(x.s)[rooms.ConnsOf(x.s)[c].Session]; se.Room != "" && x.r.Intn(4) > 0 {
				for i, st := range rooms.RoomsOf(x.s)[se.Room].Seats {
					if st.Session == "" && st.AI == "" {
						seat = i
						break
					}
				}
			}
			x.send(c, rooms.AddAI{Seat: seat, Kind: x.pick([]string{"fox", "random", "coin", "coin", "fox", "ghost"})})
		case p < 86:
			x.send(c, rooms.RemoveAI{Seat: x.r.Intn(8)})
		case p < 88:
			x.send(c, rooms.UpdateRoom{Config: configs()})
		case p < 91:
			x.send(c, rooms.SubmitDeck{Cards: [][]string{{"heads", "tails"}, {"tails", "tails", "heads"}, {"edge"}, {"heads"}}[x.r.Intn(4)],
				Commander: x.pick([]string{"", "", "heads"})})
		case p < 92:
			if x.r.Intn(2) == 0 {
				x.send(c, rooms.RequestCatalog{})
			} else {
				x.send(c, rooms.Browse{Page: x.r.Intn(3) - 1})
			}
		case p < 94:
			x.send(c, rooms.Undo{})
		case p < 95:
			x.send(c, rooms.SetStops{Stops: []string{"upkeep", "draw"}, OwnTurn: []string{"draw", "end_step"}})
		case p < 97:
			x.raw(c, []byte(x.pick([]string{`{`, `{"type":"nope"}`, `[]`, `{"type":"join_room","room_id":7}`, `{"type":"hello","token":"s:zz"}`})), 30)
		case p < 98:
			for range 22 { // a burst over the rate limit
				x.raw(c, []byte(`{"type":"ready","ready":true}`), 0)
			}
		default:
			x.raw(c, bytes.Repeat([]byte(" "), rooms.MaxFrameBytes+1), 30)
		}
	}
	return x.finish()
}

func (x *recorder) pick2(list []int) int { return list[x.r.Intn(len(list))] }

// crowd fills the lobby with connections, opens several public and private
// tables (some with a clock), plays them through with AIs while the crowd
// browses, joins, spectates and leaves: every directory change reaches
// every lobby connection.
func crowd(t testing.TB, name string, lobby, tables int) corpusFile {
	x := newRecorder(t, name, name, false, rooms.Limits{})
	crowd := make([]string, lobby)
	for i := range crowd {
		crowd[i] = x.connect()
	}
	var hosts []string
	for i := range tables {
		h := x.connect()
		hosts = append(hosts, h)
		cfg := rooms.RoomConfig{Seats: 2 + i%7, GameSetup: cheat.ID, UndoEnabled: i%2 == 0}
		if i%3 == 2 {
			cfg.Visibility = rooms.VisibilityPrivate
		}
		if i%4 == 1 {
			cfg.ActionSeconds = 30
			cfg.Name = fmt.Sprintf("Clocked %d", i)
		}
		x.send(h, rooms.CreateRoom{Config: cfg})
		room := rooms.SessionsOf(x.s)[rooms.ConnsOf(x.s)[h].Session].Room
		if i%2 == 1 {
			x.send(crowd[i], rooms.JoinRoom{RoomID: room})
			x.send(crowd[i], rooms.SetName{Name: fmt.Sprintf("Guest %d", i)})
		}
		x.send(crowd[(i+7)%lobby], rooms.SpectateRoom{RoomID: room})
	}
	for _, h := range hosts {
		r := rooms.RoomsOf(x.s)[rooms.SessionsOf(x.s)[rooms.ConnsOf(x.s)[h].Session].Room]
		for seat := range r.Seats {
			if r.Seats[seat].Session == "" && r.Seats[seat].AI == "" {
				x.send(h, rooms.AddAI{Seat: seat, Kind: [...]string{"fox", "random"}[seat%2]})
			}
		}
	}
	for i, h := range hosts {
		x.send(h, rooms.Ready{Ready: true})
		if i%2 == 1 {
			x.send(crowd[i], rooms.Ready{Ready: true})
		}
	}
	for step := 0; step < 800; step++ {
		var playing []string
		for _, c := range x.conns {
			if len(x.actions(c)) > 0 {
				playing = append(playing, c)
			}
		}
		switch p := x.r.NextPercent(); {
		case p < 3:
			x.tick(31_000)
		case p < 5:
			c := x.connect()
			x.send(c, rooms.SetName{Name: "Late"})
		case p < 7 && len(x.roomIDs()) > 0:
			x.send(x.pick(crowd), rooms.SpectateRoom{RoomID: x.pick(x.roomIDs())})
		case p < 9:
			x.send(x.pick(crowd), rooms.Leave{})
		case len(playing) > 0:
			c := x.pick(playing)
			x.send(c, answer(x.actions(c), x.r, ""))
		default:
			x.tick(31_000)
		}
	}
	for _, c := range append([]string(nil), x.conns...) {
		x.disconnect(c)
	}
	x.tick(31*60*1000 + 1)
	return x.finish()
}

// corpusScenarios lists the recorded sessions.
func corpusScenarios(t testing.TB) []corpusFile {
	var out []corpusFile
	games := []struct {
		o     randomOpts
		lobby int
	}{
		{randomOpts{seats: 2, humans: 2, undo: true, clock: 30}, 3},
		{randomOpts{seats: 3, humans: 1, clock: 30}, 0},
		{randomOpts{seats: 4, humans: 4, undo: true}, 5},
		{randomOpts{seats: 4, humans: 3, undo: true, clock: 20}, 2},
		{randomOpts{seats: 5, humans: 2, undo: true, clock: 60}, 0},
		{randomOpts{seats: 6, humans: 3}, 1},
		{randomOpts{seats: 8, humans: 2, undo: true, clock: 30}, 0},
		{randomOpts{seats: 8, humans: 8, undo: true, clock: 5}, 0},
	}
	for i, g := range games {
		g.o.maxSteps = 600
		out = append(out, playGame(t, fmt.Sprintf("game-%d-%ds-%dh", i, g.o.seats, g.o.humans), g.o, g.lobby))
	}
	out = append(out, chaos(t, "chaos-a", 1500, rooms.Limits{}))
	out = append(out, chaos(t, "chaos-b", 1500, rooms.Limits{MaxRooms: 4, MaxConnections: 12, MaxSessions: 16, MaxSpectators: 2,
		UndoDepth: 3, LogWindow: 5, SessionIdleMillis: 60_000}))
	out = append(out, crowd(t, "crowd", 40, 12))
	return out
}

const corpusDir = "testdata/corpus"

func writeCorpus(t *testing.T, f corpusFile) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(corpusDir, f.Name+".json.gz"), buf.Bytes())
}

func readCorpus(t *testing.T, path string) corpusFile {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var f corpusFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// replayCorpus applies f's inputs to a fresh server (with a save and a
// restore before every input when roundTrip) and fails at the first frame
// or state that differs by one byte.
// restoreStride is how often the round-trip replay saves and restores: every
// fifth input keeps the corpus's run time in bounds, and the full-game tests
// (harness_test.go) already restore before every single input.
const restoreStride = 5

// marshalStride is how often the live replay checks that Marshal, which
// encodes directly, gives exactly canon.Marshal's bytes.
const marshalStride = 25

func checkMarshal(t *testing.T, s *rooms.Server) {
	t.Helper()
	got, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want, err := canon.Marshal(rooms.StateOf(s))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		k := 0
		for k < len(got) && k < len(want) && got[k] == want[k] {
			k++
		}
		t.Fatalf("Marshal differs from canon.Marshal at byte %d:\n got: %.300s\nwant: %.300s", k, got[k:], want[k:])
	}
}

func replayCorpus(t *testing.T, f corpusFile, roundTrip bool) {
	reg := corpusRegistry(t, f.Duel)
	s := rooms.New(reg, f.Limits)
	ids := &rooms.DerivedIDs{Secret: f.Secret}
	var records map[string][]byte
	for i, st := range f.Steps {
		if roundTrip && i%restoreStride == 0 {
			b, err := s.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if s, err = rooms.Restore(b, reg); err != nil {
				t.Fatal(err)
			}
		}
		in := rooms.Input{Kind: st.Kind, Conn: st.Conn, Now: st.Now}
		if st.Frame != "" {
			in.Frame = []byte(st.Frame)
		}
		out, ch := s.Apply(in, ids)
		if !roundTrip {
			records = checkChanges(t, records, s, ch)
		}
		if len(out) != len(st.Out) {
			t.Fatalf("step %d (%s %s %.80s): %d frames, want %d", i, st.Kind, st.Conn, st.Frame, len(out), len(st.Out))
		}
		for j, o := range out {
			w := st.Out[j]
			if o.Conn != w.Conn || o.Kind != w.Kind || o.Close != w.Close || string(o.Frame) != w.Frame {
				k := 0
				for k < len(o.Frame) && k < len(w.Frame) && o.Frame[k] == w.Frame[k] {
					k++
				}
				t.Fatalf("step %d frame %d to %s (%s) differs at byte %d:\n got: %s\nwant: %s",
					i, j, w.Conn, w.Kind, k, o.Frame, w.Frame)
			}
		}
		if !roundTrip && i%marshalStride == 0 {
			checkMarshal(t, s)
		}
		if got := stateDigest(t, s); got != st.Digest {
			t.Fatalf("step %d (%s %s %.80s): state digest %s, want %s", i, st.Kind, st.Conn, st.Frame, got, st.Digest)
		}
	}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != f.State {
		t.Fatalf("final state differs:\n got: %s\nwant: %s", b, f.State)
	}
}

// TestCorpus replays every recorded session, live and with a save and a
// restore before every fifth input, and requires byte-identical frames and
// states. Under -update it records the sessions afresh instead.
func TestCorpus(t *testing.T) {
	if golden.Updating() {
		for _, f := range corpusScenarios(t) {
			t.Logf("%s: %d inputs, %d frames %v", f.Name, len(f.Steps), f.Frames, f.Kinds)
			writeCorpus(t, f)
		}
		return
	}
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.json.gz"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus under %s (%v): run with -update to record it", corpusDir, err)
	}
	for _, path := range paths {
		f := readCorpus(t, path)
		t.Run(f.Name, func(t *testing.T) {
			replayCorpus(t, f, false)
			if !testing.Short() {
				replayCorpus(t, f, true)
			}
		})
	}
}

// TestRestoreCanonicalizes restores a state whose game states and log
// events are valid but not canonical JSON (spaced, keys out of order,
// escaped as encoding/json escapes HTML): Marshal gives the canonical
// bytes again, as it would have before the state was written out.
func TestRestoreCanonicalizes(t *testing.T) {
	h := newHarness(t, rooms.Limits{})
	for _, c := range []string{"a", "b"} {
		h.connect(c)
	}
	h.start(rooms.RoomConfig{Seats: 3, GameSetup: cheat.ID, UndoEnabled: true}, "fox")
	r := rng.For("garble", rng.System("moves", 0))
	for range 6 { // a few moves, so there are log entries and checkpoints
		for _, c := range []string{"a", "b"} {
			if acts := h.game(c).ValidActions; len(acts) > 0 {
				h.must(c, answer(acts, r, ""))
				break
			}
		}
	}
	want, err := h.s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(want, []byte(`"state":{"`)) || !bytes.Contains(want, []byte(`{"event":{"`)) {
		t.Fatalf("no game state or log event to garble: %.300s", want)
	}
	garbled := bytes.ReplaceAll(want, []byte(`"state":{"`), []byte(`"state":{ "zz":null, "`))
	garbled = bytes.ReplaceAll(garbled, []byte(`{"event":{"`), []byte(`{"event":{"\u003c":1,"`))
	s, err := rooms.Restore(garbled, h.reg)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Marshal()
	canonical, _ := canon.Canonicalize(garbled)
	if !bytes.Equal(got, canonical) {
		t.Fatalf("restored state is not canonical:\n got: %.400s\nwant: %.400s", got, canonical)
	}
}
