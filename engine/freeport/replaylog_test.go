package freeport

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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
// byte-identical to what was recorded.
//
// The log was recorded at commit 51976b2, before the reducer's one-pass
// decoder and direct encoders existed, by playing every conformance case,
// three random games on each of the test and default game files, and the
// benchmark's command cycle. -update re-answers the recorded requests with
// the current reducer and rewrites the recorded responses: a diff in it is
// a change of behaviour to review, never to accept blindly.
func TestRecordedLogReplays(t *testing.T) {
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
			got := canon.DigestBytes(b)
			if golden.Updating() {
				lines[i].State = got
			} else if got != l.State {
				t.Fatalf("%s: final State digest %s, recorded %s", session, got, l.State)
			}
		default:
			var resp []byte
			st, resp = st.Apply(l.Owner, l.Now, []byte(l.Body))
			requests++
			if golden.Updating() {
				lines[i].Resp = string(resp)
			} else if string(resp) != l.Resp {
				t.Fatalf("%s: line %d: %s\nresponse\n%s\nrecorded\n%s", session, i, l.Body, resp, l.Resp)
			}
		}
	}
	if golden.Updating() {
		writeReplayLog(t, lines)
	}
	if requests < 1000 {
		t.Fatalf("only %d requests replayed", requests)
	}
	t.Logf("%d sessions, %d requests replayed byte for byte", sessions, requests)
}
