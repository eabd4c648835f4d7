package rng

import (
	"errors"
	"math"
)

// Handle is one resolution's view of one stream. It is used and dropped:
// nothing is written back anywhere when a resolution ends.
type Handle struct {
	gen PCG32
}

// ErrEmpty is returned by Pick and WeightedPick for an empty list.
var ErrEmpty = errors.New("rng: pick from an empty list")

// ErrWeight is returned by WeightedPick when a weight is not a positive
// integer; tier 1 validation refuses such content before it can be played.
var ErrWeight = errors.New("rng: weights must be positive integers")

// ErrRange is returned by NextInt when max < min.
var ErrRange = errors.New("rng: empty range")

// NextInt returns a uniformly distributed integer in [min, max], both
// inclusive. Ranges wider than 2^32 values draw two outputs per attempt.
func (h *Handle) NextInt(min, max int64) (int64, error) {
	if max < min {
		return 0, ErrRange
	}
	span := uint64(max-min) + 1 // 0 means the full 64-bit range
	if span != 0 && span <= math.MaxUint32 {
		return min + int64(h.gen.Bounded(uint32(span))), nil
	}
	for {
		r := uint64(h.gen.Uint32())<<32 | uint64(h.gen.Uint32())
		if span == 0 {
			return min + int64(r), nil
		}
		if limit := math.MaxUint64 - (math.MaxUint64 % span); r < limit {
			return min + int64(r%span), nil
		}
	}
}

// Intn returns a uniformly distributed integer in [0, n) for 0 < n ≤ 2^32.
// It is the hot-path form of NextInt for kinds that know their bound is valid.
func (h *Handle) Intn(n int) int {
	return int(h.gen.Bounded(uint32(n)))
}

// NextPercent returns an integer in [0, 100): a roll that succeeds against a
// chance of p percent when it is below p.
func (h *Handle) NextPercent() int {
	return int(h.gen.Bounded(100))
}

// Uint32 returns the stream's next raw output.
func (h *Handle) Uint32() uint32 { return h.gen.Uint32() }

// Pick returns one element of items chosen uniformly.
func Pick[T any](h *Handle, items []T) (T, error) {
	var zero T
	if len(items) == 0 {
		return zero, ErrEmpty
	}
	if len(items) > math.MaxUint32 {
		return zero, ErrRange
	}
	return items[h.gen.Bounded(uint32(len(items)))], nil
}

// Weighted pairs an item with its positive integer weight.
type Weighted[T any] struct {
	Item   T
	Weight int64
}

// WeightedPick returns one item, each with probability weight/total. It
// draws exactly one bounded value, so the stream advances the same way
// whichever item is chosen.
func WeightedPick[T any](h *Handle, items []Weighted[T]) (T, error) {
	var zero T
	if len(items) == 0 {
		return zero, ErrEmpty
	}
	var total int64
	for _, it := range items {
		if it.Weight <= 0 || it.Weight > math.MaxUint32 || total > math.MaxUint32-it.Weight {
			return zero, ErrWeight
		}
		total += it.Weight
	}
	r := int64(h.gen.Bounded(uint32(total)))
	for _, it := range items {
		if r < it.Weight {
			return it.Item, nil
		}
		r -= it.Weight
	}
	return zero, ErrWeight // unreachable: r < total
}
