package core_test

import (
	"fmt"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

// history returns a game with n logged actions (goal far away).
func history(b *testing.B, e *core.Engine, n int) *core.GameState {
	s := create(b, e, "bench")
	for i := 0; i < n; i++ {
		s = submit(b, e, s, "inc", nil)
	}
	return s
}

// BenchmarkSubmitActionAtHistory measures one action's cost after n logged
// actions: it must not grow with n.
func BenchmarkSubmitActionAtHistory(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			e := newEngine(b)
			s := history(b, e, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s = e.SubmitAction(s, "inc", nil).Value
			}
		})
	}
}

func BenchmarkSerialize1000(b *testing.B) {
	e := newEngine(b)
	s := history(b, e, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Serialize(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDeserialize1000(b *testing.B) {
	e := newEngine(b)
	data, _ := e.Serialize(history(b, e, 1000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := e.Deserialize(data); !res.OK {
			b.Fatal(res.Errors)
		}
	}
}

// BenchmarkAutosaveAtHistory measures what a session store does per action:
// resolve it and serialize the whole game. Only the newly logged entry is
// encoded; the rest of the log is copied.
func BenchmarkAutosaveAtHistory(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			e := newEngine(b)
			var s *core.GameState
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if i%100 == 0 { // keep the history near n however large b.N is
					b.StopTimer()
					s = history(b, e, n)
					if _, err := e.Serialize(s); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				s = e.SubmitAction(s, "inc", nil).Value
				if _, err := e.Serialize(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
