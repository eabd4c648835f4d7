package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestOWPDemoCommand runs `bundle owp demo` and checks that it tells the
// whole story; extra arguments are refused.
func TestOWPDemoCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := dispatch([]string{"owp", "demo"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"--- a writing round ---", "SIMULATED_PAID 25 TEST_CREDIT", "WAITING_CONTEXT", "private result from agent_"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("transcript lacks %q:\n%s", want, out.String())
		}
	}
	if code := dispatch([]string{"owp", "demo", "now"}, &out, &errb); code != 2 {
		t.Fatalf("extra argument: exit %d", code)
	}
	if code := dispatch([]string{"owp", "-addr", "0.0.0.0:0"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "127.0.0.1:PORT") {
		t.Fatalf("a non-loopback address: exit %d, %s", code, errb.String())
	}
}

// TestOWPServe: the market command prints where it serves and its
// instance, and stops when its context ends.
func TestOWPServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := serveOWP(ctx, "127.0.0.1:0", &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !regexp.MustCompile(`at http://127\.0\.0\.1:\d+\ninstance id [0-9a-f-]{36}\noperator view http://127\.0\.0\.1:\d+/operator`).MatchString(out.String()) {
		t.Fatalf("output:\n%s", out.String())
	}
}
