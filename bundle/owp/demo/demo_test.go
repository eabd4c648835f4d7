package demo

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"
)

// TestRun plays the demonstration against a real market and checks the
// story its transcript tells, in order.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out bytes.Buffer
	if err := Run(ctx, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	steps := []string{
		`market: +serving http://127\.0\.0\.1:\d+`,
		`alpha: +submitted: SUBMITTED`,
		`alpha: +score 3, SELECTED, payment SIMULATED_PAID 25 TEST_CREDIT, receipt `,
		`beta: +score 1, NOT_SELECTED, payment NOT_PAYABLE 0 TEST_CREDIT`,
		`alpha: +events: match.assigned, match.submitted, result.selected, payment.simulated`,
		`gale: +no consent yet: the assignment is WAITING_CONTEXT`,
		`organiser: +granted consent for the harbor fixture \(revision 1\)`,
		`drizzle: +read the weather through a grant and submitted it sealed: SUBMITTED`,
		`gale: +score 3, SELECTED, payment SIMULATED_PAID 25 TEST_CREDIT`,
		`drizzle: +score 1, NOT_SELECTED`,
		`organiser: +private result from agent_[0-9a-f]{24} \(score 3\): "Harbor Point: 14 °C, light rain\."`,
	}
	rest := out.String()
	for _, s := range steps {
		loc := regexp.MustCompile(s).FindStringIndex(rest)
		if loc == nil {
			t.Fatalf("transcript lacks %q after the earlier steps:\n%s", s, out.String())
		}
		rest = rest[loc[1]:]
	}
}
