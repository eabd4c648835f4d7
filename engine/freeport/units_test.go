package freeport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/rng"
)

func TestParseAndFormatTime(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            bool
	}{
		{name: "utc", in: "2026-03-01T13:00:00Z", want: "2026-03-01T13:00:00.000Z"},
		{name: "millis", in: "2026-03-01T13:00:00.250Z", want: "2026-03-01T13:00:00.250Z"},
		{name: "offset", in: "2026-03-01T14:00:00+01:00", want: "2026-03-01T13:00:00.000Z"},
		{name: "negative offset across midnight", in: "2026-02-28T23:30:00.1-01:30", want: "2026-03-01T01:00:00.100Z"},
		{name: "leap day", in: "2028-02-29T00:00:00Z", want: "2028-02-29T00:00:00.000Z"},
		{name: "trailing zero nanos", in: "2026-03-01T13:00:00.123000000Z", want: "2026-03-01T13:00:00.123Z"},
		{name: "sub-millisecond", in: "2026-03-01T13:00:00.1234Z", err: true},
		{name: "no leap day", in: "2027-02-29T00:00:00Z", err: true},
		{name: "leap second", in: "2026-03-01T13:00:60Z", err: true},
		{name: "no zone", in: "2026-03-01T13:00:00", err: true},
		{name: "space", in: "2026-03-01 13:00:00Z", err: true},
		{name: "before epoch", in: "1969-12-31T23:59:59Z", err: true},
		{name: "empty fraction", in: "2026-03-01T13:00:00.Z", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := ParseTime(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v", err)
			}
			if !tt.err && FormatTime(ms) != tt.want {
				t.Fatalf("got %s, want %s", FormatTime(ms), tt.want)
			}
		})
	}
	for ms := int64(0); ms < MaxTime; ms = ms*3 + 86399999 {
		if back, err := ParseTime(FormatTime(ms)); err != nil || back != ms {
			t.Fatalf("round trip of %d: %d, %v", ms, back, err)
		}
	}
}

func TestParseGameErrors(t *testing.T) {
	valid := testGameJSON
	tests := []struct {
		name, from, to, want string
	}{
		{"unknown member", `"seed"`, `"sede"`, "unknown field"},
		{"member in another case", `"unitPrices"`, `"UnitPrices"`, `unknown field "UnitPrices" at UnitPrices: keys are case-sensitive; did you mean "unitPrices"?`},
		{"wrong format", `freeport-game/1`, `freeport-game/9`, "format"},
		{"unknown asset in prices", `"medal": 100`, `"medal": 100, "tea": 1`, `unitPrices: unknown asset "tea"`},
		{"missing price", `"medal": 100`, `"credits2": 1`, `no price for asset "medal"`},
		{"unknown asset in holdings", `"rum": 10}`, `"tea": 10}`, `startingHoldings: unknown asset "tea"`},
		{"rule with unknown asset", `{"assetId": "rum", "side": "offered"}`, `{"assetId": "grog"}`, `rules[0]: match: unknown asset "grog"`},
		{"bad party", `"party": "receiver"`, `"party": "harbourmaster"`, `rules[0]: effects[0]: party "harbourmaster"`},
		{"duplicate key", `"seed": "test-seed",`, `"seed": "a", "seed": "b",`, "duplicate key"},
		{"bad window", `"activeUntil": "2020-01-01T00:00:00Z"`, `"activeUntil": "yesterday"`, "rules[2]: activeUntil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := strings.Replace(valid, tt.from, tt.to, 1)
			if data == valid {
				t.Fatal("replacement did not apply")
			}
			_, err := ParseGame([]byte(data))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "freeport: game: ") {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestPersistentCollections checks pvec, pmap and the expiry treap against
// plain Go models, including that an old version never changes.
func TestPersistentCollections(t *testing.T) {
	h := rng.For("persist", rng.System("test", 0))
	var v pvec[int]
	var m pmap[int]
	var tr *tnode
	model := []int{}
	mm := map[string]int{}
	keys := map[expiryKey]bool{}
	oldV, oldModel := v, []int(nil)
	for i := 0; i < 5000; i++ {
		switch h.Intn(4) {
		case 0, 1:
			v, model = v.Append(i), append(model, i)
		case 2:
			if len(model) > 0 {
				j := h.Intn(len(model))
				v = v.Set(j, -i)
				model[j] = -i
			}
		default:
			k := fmt.Sprint("k", h.Intn(800))
			m, mm[k] = m.Put(k, i), i
			ek := expiryKey{at: int64(h.Intn(100)), ord: h.Intn(100)}
			if keys[ek] {
				tr = tdelete(tr, ek)
				delete(keys, ek)
			} else {
				tr = tinsert(tr, ek)
				keys[ek] = true
			}
		}
		if i == 2500 {
			oldV, oldModel = v, append([]int(nil), model...)
		}
	}
	for i, want := range model {
		if v.Get(i) != want {
			t.Fatalf("pvec[%d] = %d, want %d", i, v.Get(i), want)
		}
	}
	for i, want := range oldModel {
		if oldV.Get(i) != want {
			t.Fatalf("old pvec[%d] changed", i)
		}
	}
	for k, want := range mm {
		if got, ok := m.Get(k); !ok || got != want {
			t.Fatalf("pmap[%s] = %d, %v", k, got, ok)
		}
	}
	if m.Len() != len(mm) || tcount(tr) != len(keys) {
		t.Fatalf("sizes: pmap %d/%d, treap %d/%d", m.Len(), len(mm), tcount(tr), len(keys))
	}
	due := tdue(tr, 50, 1<<30, nil)
	for i, k := range due {
		if k.at > 50 || i > 0 && !due[i-1].less(k) {
			t.Fatalf("tdue order broken at %d: %v", i, k)
		}
	}
}
