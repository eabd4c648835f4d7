package contentkind

import (
	"slices"
	"testing"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

// tally is a kind state for the achievement tests: one number.
type tally struct {
	n        int64
	achieved []string
}

func (s *tally) UnlockedAchievements() *[]string { return &s.achieved }
func (s *tally) Copy() *tally                    { c := *s; return &c }
func (s *tally) Resolver() condition.Resolver    { return tallyResolver{s} }

type tallyResolver struct{ s *tally }

func (r tallyResolver) Field(path string) (any, bool) {
	if path == "n" {
		return float64(r.s.n), true
	}
	return nil, false
}
func (r tallyResolver) Collection(string) ([]condition.Resolver, bool) { return nil, false }

func TestWithAchievements(t *testing.T) {
	at := func(id string, n float64) Achievement {
		return Achievement{ID: id, TitleKey: "t." + id, When: condition.Condition{Field: "n", Operator: condition.GreaterOrEqual, Value: n}}
	}
	as := []Achievement{at("two", 2), at("five", 5), at("three", 3)}
	tests := []struct {
		name      string
		prev      *tally
		next      *tally // nil: the action hands back prev itself
		rejected  bool
		want      []string // the state's achievements after
		unlocked  []string
		prevAfter []string
	}{
		{"nothing met", &tally{n: 1}, &tally{n: 1}, false, nil, nil, nil},
		{"two met at once, in declaration order", &tally{n: 1}, &tally{n: 3}, false, []string{"two", "three"}, []string{"two", "three"}, nil},
		{"an unlocked one is not unlocked again", &tally{n: 3, achieved: []string{"two"}}, &tally{n: 3, achieved: []string{"two"}}, false, []string{"two", "three"}, []string{"three"}, []string{"two"}},
		{"the action's own state is copied first", &tally{n: 6}, nil, false, []string{"two", "five", "three"}, []string{"two", "five", "three"}, nil},
		{"a rejection unlocks nothing", &tally{n: 6}, nil, true, nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := core.AdvanceResult{State: tc.next}
			if tc.next == nil {
				res.State = tc.prev
			}
			if tc.rejected {
				res = core.Reject(tc.prev, core.Errorf(core.ReasonInvalidParams, "", "no"))
			}
			out := WithAchievements(as, tc.prev, res)
			var got []string
			for i, c := range out.Changes {
				if c.Reason != core.ReasonAchievementUnlocked || out.Messages[i].Key != "t."+c.Path[len("achieved."):] {
					t.Fatalf("change %+v, message %+v", c, out.Messages[i])
				}
				got = append(got, c.Path[len("achieved."):])
			}
			if !slices.Equal(got, tc.unlocked) || !slices.Equal(out.State.(*tally).achieved, tc.want) {
				t.Fatalf("unlocked %v, state holds %v; want %v and %v", got, out.State.(*tally).achieved, tc.unlocked, tc.want)
			}
			if !slices.Equal(tc.prev.achieved, tc.prevAfter) {
				t.Fatalf("the previous state now holds %v", tc.prev.achieved)
			}
		})
	}
}

func TestHolds(t *testing.T) {
	r := tallyResolver{&tally{n: 3}}
	atLeast := func(v any) *condition.Condition {
		return &condition.Condition{Field: "n", Operator: condition.GreaterOrEqual, Value: v}
	}
	tests := []struct {
		name string
		c    *condition.Condition
		want bool
	}{
		{"a missing condition holds", nil, true},
		{"true", atLeast(float64(2)), true},
		{"false", atLeast(float64(4)), false},
		{"an evaluation error reads as false", &condition.Condition{Exists: &condition.Quantifier{Collection: "none", Where: *atLeast(float64(0))}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Holds(tt.c, r); got != tt.want {
				t.Fatalf("Holds = %v, want %v", got, tt.want)
			}
		})
	}
}
