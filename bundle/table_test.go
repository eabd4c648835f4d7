package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/nativehost"
	"github.com/storyloom/storyloom/engine/cards/deck"
)

// syncBuffer is a client's stdout, read by the test while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tableHost serves a native host's handlers on 127.0.0.1:0 and returns
// its address.
func tableHost(t *testing.T) string {
	t.Helper()
	host, err := nativehost.Open(context.Background(), nativehost.Config{Path: filepath.Join(t.TempDir(), "host.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	mux := http.NewServeMux()
	for p, h := range host.Handlers() {
		mux.Handle(p, h)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// tableRun is one terminal client running in the test.
type tableRun struct {
	out, err syncBuffer
	code     chan int
}

// startTable runs `bundle table` with args and the script's lines.
func startTable(t *testing.T, script string, args ...string) *tableRun {
	t.Helper()
	file := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &tableRun{code: make(chan int, 1)}
	go func() {
		r.code <- playTable(context.Background(), append(args, "-script", file), strings.NewReader(""), &r.out, &r.err)
	}()
	return r
}

// TestTablePlaysAGameToAResult seats two terminal clients at a
// starter-1v1 table of a real native host: the first creates the room and
// prints its id, the second joins with it, each plays a preconstructed
// deck from a script until the game has a result. The first plays a land
// and casts a spell whenever it can (a numbered action answered slot by
// slot where the script says so); the second only keeps and passes.
func TestTablePlaysAGameToAResult(t *testing.T) {
	addr := tableHost(t)
	// "play_land" and "cast_spell" name an action type: when none is
	// offered the client says so and reads the next line, so each round
	// of the script plays a land, casts a spell, then takes the first
	// action (a pass, or the suggested answer of whatever is asked).
	a := startTable(t, strings.Repeat("play_land\ncast_spell\n.\n", 1500),
		"-addr", addr, "-create", deck.StarterDuel, "-deck", "ember_rush", "-name", "Ada")
	var room string
	deadline := time.Now().Add(2 * time.Minute)
	for room == "" {
		if m := regexp.MustCompile(`-join (\S+)`).FindStringSubmatch(a.out.String()); m != nil {
			room = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first client printed no room id:\n%s\n%s", a.out.String(), a.err.String())
		}
		time.Sleep(10 * time.Millisecond) // polling the output; the deadline bounds it
	}
	b := startTable(t, strings.Repeat(".\n", 3000), "-addr", addr, "-join", room, "-deck", "thornwild_stampede", "-name", "Bo")
	for _, r := range []*tableRun{a, b} {
		select {
		case code := <-r.code:
			if code != 0 {
				t.Fatalf("a client exited %d: %s\n--- its output:\n%s", code, r.err.String(), tail(r.out.String(), 4000))
			}
		case <-time.After(5 * time.Minute):
			t.Fatalf("a client did not finish:\n%s", tail(r.out.String(), 4000))
		}
	}
	outA, outB := a.out.String(), b.out.String()
	for name, out := range map[string]string{"first": outA, "second": outB} {
		for _, want := range []string{"== turn", "your move", "your hand:", "game over:"} {
			if !strings.Contains(out, want) {
				t.Fatalf("the %s client's transcript has no %q:\n%s", name, want, tail(out, 4000))
			}
		}
	}
	if !strings.Contains(outA, "Ada (p") && !strings.Contains(outB, "Ada (p") {
		t.Fatal("neither transcript names the first player")
	}
	if !strings.Contains(outA, "· spell_cast ") {
		t.Fatalf("the first client never cast a spell:\n%s", tail(outA, 4000))
	}
	wins := strings.Count(outA+outB, "game over: you win")
	if wins != 1 {
		t.Fatalf("%d clients won:\n%s\n%s", wins, tail(outA, 1500), tail(outB, 1500))
	}
	t.Logf("first client: %s", lastLine(outA))
	t.Logf("second client: %s", lastLine(outB))
}

// TestTableRefusesBadFlags checks the usage errors.
func TestTableRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{}, {"-create", "starter-1v1", "-join", "r1"}, {"-create", "starter-1v1", "extra"}} {
		var out, errb bytes.Buffer
		if code := playTable(context.Background(), args, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage:") {
			t.Fatalf("%q: exit %d, %s", args, code, errb.String())
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
