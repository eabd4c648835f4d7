package freeport

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/internal/golden"
)

// replayLogPath holds request logs recorded from the reducer as it answered
// before its fast path was written: every request of the conformance
// suite, random games on the test and default game files, and the
// benchmark's command cycle, each with the response bytes it got and the
// digest of the State it left.
const replayLogPath = "testdata/replay/log.jsonl.gz"

// replayLine is one line of the log: a session header (Session set), a
// request with its response, or a session's closing State digest.
type replayLine struct {
	Session string `json:"session,omitempty"`
	Game    string `json:"game,omitempty"` // "test" or "default"
	Seed    string `json:"seed,omitempty"`
	Owner   string `json:"owner,omitempty"`
	Now     int64  `json:"now,omitempty"`
	Body    string `json:"body,omitempty"`
	Resp    string `json:"resp,omitempty"`
	State   string `json:"state,omitempty"` // SHA-256 of State.Marshal
}

// recorder writes a log while sessions are played.
type recorder struct {
	t     *testing.T
	lines []replayLine
	st    *State
}

func (rec *recorder) begin(name, game, seed string, g *Game) {
	rec.end()
	rec.lines = append(rec.lines, replayLine{Session: name, Game: game, Seed: seed})
	rec.st = g.NewState(seed)
}

func (rec *recorder) apply(owner string, now int64, body []byte) []byte {
	next, resp := rec.st.Apply(owner, now, body)
	rec.st = next
	if utf8.Valid(body) {
		rec.lines = append(rec.lines, replayLine{Owner: owner, Now: now, Body: string(body), Resp: string(resp)})
	}
	return resp
}

func (rec *recorder) end() {
	if rec.st == nil {
		return
	}
	b, err := rec.st.Marshal()
	if err != nil {
		rec.t.Fatal(err)
	}
	rec.lines = append(rec.lines, replayLine{State: canon.DigestBytes(b)})
	rec.st = nil
}

func replayGames(t testing.TB) map[string]*Game {
	gs := map[string]*Game{"test": testGame(t)}
	if data, err := os.ReadFile("../../static/freeport/freeport.json"); err == nil {
		g, err := ParseGame(data)
		if err != nil {
			t.Fatal(err)
		}
		gs["default"] = g
	}
	return gs
}

// recordReplayLog plays every session and returns the log's lines.
func recordReplayLog(t *testing.T) []replayLine {
	gs := replayGames(t)
	if gs["default"] == nil {
		t.Fatal("recording needs static/freeport/freeport.json")
	}
	rec := &recorder{t: t}
	recordConformance(t, rec, gs["test"])
	for _, game := range []string{"test", "default"} {
		for i := 0; i < 3; i++ {
			seed := fmt.Sprintf("replay-%s-%d", game, i)
			rec.begin("random "+seed, game, seed, gs[game])
			rg := newRandomGame(gs[game], seed, 4)
			for j := 0; j < 250; j++ {
				me, body := rg.next()
				rg.now += int64(rg.pick(5*60)) * 1000
				l := logged{owner: rg.owners[me], now: rg.now, body: []byte(body)}
				l.resp = rec.apply(l.owner, l.now, l.body)
				rg.st = rec.st
				rg.log = append(rg.log, l)
			}
		}
	}
	rec.begin("bench cycle", "test", "bench", gs["test"])
	benchCycle(rec.st, 400, func(owner string, now int64, body []byte) *State {
		rec.apply(owner, now, body)
		return rec.st
	})
	rec.end()
	return rec.lines
}

// benchCycle enrols eight Players and sends n Commands of the benchmark's
// cycle (propose, counter, approve, transfer) through apply, which returns
// the State after each request.
func benchCycle(st *State, n int, apply func(owner string, now int64, body []byte) *State) {
	owners := make([]string, 8)
	ids := make([]string, 8)
	for i := range owners {
		owners[i] = fmt.Sprint("owner-", i)
		st = apply(owners[i], T0, []byte(enrol))
		ids[i] = st.player(i).id
	}
	now := T0
	for i := 0; i < n; i++ {
		owner, body := benchCommand(st, owners, ids, i)
		now += 10
		st = apply(owner, now, body)
	}
}

// benchCommand is command i of the benchmark's cycle against st.
func benchCommand(st *State, owners, ids []string, i int) (string, []byte) {
	cycle := i / 4
	a, c := cycle%8, (cycle+1)%8
	switch i % 4 {
	case 0:
		return owners[a], fmt.Appendf(nil, `{"protocolVersion":2,"action":"proposeExchange","commandId":"p%d","counterpartyPlayerId":%q,"offered":[{"assetId":"wood","quantity":1}],"requested":[{"assetId":"credits","quantity":1}]}`, i, ids[c])
	case 1:
		x := st.exchange(st.exchanges.Len() - 1)
		return owners[x.answering()], fmt.Appendf(nil, `{"protocolVersion":2,"action":"counterExchange","commandId":"r%d","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"offered":[{"assetId":"wood","quantity":1}],"requested":[{"assetId":"credits","quantity":2}]}`,
			i, x.id, x.version, x.live().hash)
	case 2:
		x := st.exchange(st.exchanges.Len() - 1)
		return owners[x.answering()], fmt.Appendf(nil, `{"protocolVersion":2,"action":"respondToExchange","commandId":"r%d","exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"decision":"approve"}`,
			i, x.id, x.version, x.live().hash)
	}
	return owners[c], fmt.Appendf(nil, `{"protocolVersion":2,"action":"transfer","commandId":"t%d","toPlayerId":%q,"assetId":"wood","quantity":1}`, i, ids[a])
}

func writeReplayLog(t *testing.T, lines []replayLine) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(replayLogPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(replayLogPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readReplayLog(t *testing.T) []replayLine {
	f, err := os.Open(replayLogPath)
	if err != nil {
		t.Fatalf("%v (record it with go test ./engine/freeport -run TestRecordedLogReplays -update)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []replayLine
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l replayLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestRecordedLogReplays replays the recorded request logs on fresh States
// and requires every response, and every session's final State, to be
// byte-identical to what was recorded. -update re-records them; the log
// was first recorded before the reducer's fast path existed, so a diff in
// it is a change of behaviour to review, never to accept blindly.
func TestRecordedLogReplays(t *testing.T) {
	if golden.Updating() {
		writeReplayLog(t, recordReplayLog(t))
	}
	gs := replayGames(t)
	lines := readReplayLog(t)
	var st *State
	session, requests, sessions := "", 0, 0
	for i, l := range lines {
		switch {
		case l.Session != "":
			g := gs[l.Game]
			if g == nil {
				t.Skipf("game %q not reachable", l.Game)
			}
			st, session = g.NewState(l.Seed), l.Session
			sessions++
		case l.State != "":
			b, err := st.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if got := canon.DigestBytes(b); got != l.State {
				t.Fatalf("%s: final State digest %s, recorded %s", session, got, l.State)
			}
		default:
			var resp []byte
			st, resp = st.Apply(l.Owner, l.Now, []byte(l.Body))
			requests++
			if string(resp) != l.Resp {
				t.Fatalf("%s: line %d: %s\nresponse\n%s\nrecorded\n%s", session, i, l.Body, resp, l.Resp)
			}
		}
	}
	if requests < 1000 {
		t.Fatalf("only %d requests replayed", requests)
	}
	t.Logf("%d sessions, %d requests replayed byte for byte", sessions, requests)
}

// recordConformance plays every conformance case as its own session.
func recordConformance(t *testing.T, rec *recorder, g *Game) {
	for _, tc := range conformanceCases() {
		t.Run(tc.name, func(t *testing.T) {
			rec.begin("conformance "+tc.name, "test", "conformance", g)
			h := newHarness(t, rec.apply)
			if tc.setup != nil {
				tc.setup(h)
			}
			for _, o := range []string{"alice", "bob", "carol"} {
				if id, ok := h.v[o]; ok {
					h.v[o+".name"] = derivedName(id)
				}
			}
			r := h.call(tc.owner, tc.req)
			if tc.check != nil {
				tc.check(t, h, r)
			}
		})
	}
}
