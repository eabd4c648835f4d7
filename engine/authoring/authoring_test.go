package authoring

import (
	"encoding/json"
	"testing"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

func TestNum(t *testing.T) {
	tests := []struct {
		name, in       string
		want           int64
		set, bad, fail bool
	}{
		{name: "whole", in: `42`, want: 42, set: true},
		{name: "negative", in: `-7`, want: -7, set: true},
		{name: "fraction", in: `1.5`, set: true, bad: true},
		{name: "too large", in: `1e30`, set: true, bad: true},
		{name: "a word", in: `"three"`, fail: true},
		{name: "a boolean", in: `true`, fail: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n Num
			err := json.Unmarshal([]byte(tc.in), &n)
			if (err != nil) != tc.fail {
				t.Fatalf("err = %v", err)
			}
			if !tc.fail && (n.Value != tc.want || n.Set != tc.set || n.Bad != tc.bad) {
				t.Fatalf("got %+v", n)
			}
		})
	}
}

func TestBuilder(t *testing.T) {
	b := &Builder{Findings: Findings{KindID: "toy", Prefix: "toy"}, Campaign: "camp"}
	if k := b.Text(core.SourceText{Text: "Hello"}, "intro", "content.intro", true); k != "camp.intro" {
		t.Fatalf("derived key %q", k)
	}
	if k := b.Text(core.SourceText{Key: "shared.hello", Text: "Hi"}, "intro", "content.other", true); k != "shared.hello" {
		t.Fatalf("own key %q", k)
	}
	b.Text(core.SourceText{}, "outro", "content.outro", true)
	b.Text(core.SourceText{}, "aside", "content.aside", false)
	if got := b.Int(Num{}, "content.weeks", 5, false); got != 5 {
		t.Fatalf("default %d", got)
	}
	b.Int(Num{}, "content.money", 0, true)
	b.Int(Num{Set: true, Bad: true}, "content.hours", 0, false)
	b.Cond(nil, "content.goal", condition.Condition{Field: "week", Operator: condition.GreaterOrEqual, Value: float64(0)})
	checked := []core.ValidationError{core.Errorf(core.ReasonInvalidIdentifier, "content.hours", "x"), core.Errorf(core.ReasonInvalidIdentifier, "content.stats", "y")}
	var got []string
	for _, e := range b.Finish(checked) {
		got = append(got, e.Code+" "+e.Path+" "+e.Message)
	}
	want := []string{
		"missing_field content.outro toy: missing text",
		"missing_field content.money toy: missing number",
		"invalid_number content.hours toy: not a whole number",
		"missing_field content.goal toy: missing condition",
		"invalid_identifier content.stats y",
	}
	if len(got) != len(want) {
		t.Fatalf("findings %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("finding %d = %q, want %q", i, got[i], want[i])
		}
	}
	if len(b.Strings) != 2 || b.Strings[1].Key != "shared.hello" {
		t.Fatalf("strings %v", b.Strings)
	}
}

func TestCondition(t *testing.T) {
	vocabulary := func(f string) string {
		switch f {
		case "money":
			return FieldNumber
		case "flags":
			return FieldFlags
		}
		return ""
	}
	tests := []struct {
		name string
		c    condition.Condition
		code string
	}{
		{"a number", condition.Condition{Field: "money", Operator: condition.GreaterOrEqual, Value: float64(3)}, ""},
		{"a flag", condition.Condition{Field: "flags", Operator: condition.HasFlag, Value: "lucky"}, ""},
		{"unknown field", condition.Condition{Field: "luck", Operator: condition.Equals, Value: float64(1)}, ReasonUnknownReference},
		{"a number compared with a string", condition.Condition{Field: "money", Operator: condition.Equals, Value: "x"}, ReasonInvalidCondition},
		{"a flag read as a number", condition.Condition{Field: "flags", Operator: condition.GreaterThan, Value: float64(1)}, ReasonInvalidCondition},
		{"nested", condition.Condition{Not: &condition.Condition{Any: []condition.Condition{{Field: "luck", Operator: condition.Equals, Value: float64(1)}}}}, ReasonUnknownReference},
		{"malformed", condition.Condition{}, ReasonInvalidCondition},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &Findings{KindID: "toy", Prefix: "toy"}
			f.Condition("content.goal", tc.c, vocabulary)
			switch {
			case tc.code == "" && len(f.Errs) > 0:
				t.Fatalf("findings %v", f.Errs)
			case tc.code != "" && (len(f.Errs) == 0 || f.Errs[0].Code != tc.code || f.Errs[0].MessageKey != "toy.reason."+tc.code):
				t.Fatalf("findings %v, want %s", f.Errs, tc.code)
			}
		})
	}
}
