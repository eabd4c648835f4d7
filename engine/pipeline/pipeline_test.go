package pipeline

import (
	"fmt"
	"reflect"
	"testing"
)

type frame struct {
	trace    []string
	terminal bool
}

func appendSystem(id string) System[frame] {
	return System[frame]{ID: id, Run: func(f frame) frame {
		f.trace = append(append([]string(nil), f.trace...), id)
		return f
	}}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		systems []System[frame]
		want    []string
	}{
		{name: "empty list returns the frame", systems: nil, want: nil},
		{name: "one system", systems: []System[frame]{appendSystem("a")}, want: []string{"a"}},
		{name: "order is the caller's, verbatim", systems: []System[frame]{appendSystem("c"), appendSystem("a"), appendSystem("b")}, want: []string{"c", "a", "b"}},
		{name: "duplicates are not removed", systems: []System[frame]{appendSystem("a"), appendSystem("a")}, want: []string{"a", "a"}},
		{name: "ids are never read", systems: []System[frame]{{ID: "", Run: appendSystem("x").Run}, {ID: "same", Run: appendSystem("y").Run}, {ID: "same", Run: appendSystem("z").Run}}, want: []string{"x", "y", "z"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Run(tc.systems, frame{})
			if !reflect.DeepEqual(got.trace, tc.want) {
				t.Fatalf("trace = %v, want %v", got.trace, tc.want)
			}
		})
	}
}

func TestRunDoesNotStopAtATerminalFrame(t *testing.T) {
	systems := []System[frame]{
		appendSystem("a"),
		{ID: "end", Run: func(f frame) frame { f.terminal = true; return f }},
		appendSystem("b"),
	}
	got := Run(systems, frame{})
	if !got.terminal || !reflect.DeepEqual(got.trace, []string{"a", "b"}) {
		t.Fatalf("got %+v; every entry must run after a terminal result", got)
	}
}

func TestRunThreadsEachFrameToTheNext(t *testing.T) {
	systems := []System[int]{
		{ID: "double", Run: func(n int) int { return n * 2 }},
		{ID: "inc", Run: func(n int) int { return n + 1 }},
		{ID: "double", Run: func(n int) int { return n * 2 }},
	}
	if got := Run(systems, 3); got != 14 {
		t.Fatalf("Run = %d, want 14", got)
	}
}

func TestRunNeverCatches(t *testing.T) {
	ran := false
	systems := []System[int]{
		{ID: "boom", Run: func(int) int { panic("defect") }},
		{ID: "after", Run: func(n int) int { ran = true; return n }},
	}
	defer func() {
		if r := recover(); r != "defect" {
			t.Fatalf("recovered %v, want the system's panic", r)
		}
		if ran {
			t.Fatal("a system after the panic ran")
		}
	}()
	Run(systems, 0)
	t.Fatal("Run returned after a panicking system")
}

func TestIDs(t *testing.T) {
	got := IDs([]System[int]{{ID: "a"}, {ID: "b"}})
	if !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("IDs = %v", got)
	}
}

func ExampleRun() {
	systems := []System[[]string]{
		{ID: "income", Run: func(f []string) []string { return append(f, "income") }},
		{ID: "upkeep", Run: func(f []string) []string { return append(f, "upkeep") }},
	}
	fmt.Println(Run(systems, nil))
	// Output: [income upkeep]
}
