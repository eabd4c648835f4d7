package rng

import (
	"errors"
	"math"
)

// Handle is one resolution's view of one stream. It is used and dropped:
// nothing is written back anywhere when a resolution ends. The stream's
// generator is derived on the handle's first draw, not when the handle is
// made: derivation is a pure function of (seed, stream id), so when it
// happens changes no draw, and a resolution that draws nothing (most story
// choices, every projection) never pays for the hash.
type Handle struct {
	seed    string
	id      StreamID
	derived bool
	gen     PCG32
}

// src returns the stream's generator, deriving it on first use.
func (h *Handle) src() *PCG32 {
	if !h.derived {
		h.derive()
	}
	return &h.gen
}

// derive seeds the generator as DeriveStream(seed, id.String()) would,
// without building the id's string.
func (h *Handle) derive() {
	var buf [128]byte
	b := append(buf[:0], h.seed...)
	b = append(b, 0)
	h.gen.Seed(seedOf(h.id.appendTo(b)))
	h.derived = true
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
		return min + int64(h.src().Bounded(uint32(span))), nil
	}
	for {
		g := h.src()
		r := uint64(g.Uint32())<<32 | uint64(g.Uint32())
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
	return int(h.src().Bounded(uint32(n)))
}

// NextPercent returns an integer in [0, 100): a roll that succeeds against a
// chance of p percent when it is below p.
func (h *Handle) NextPercent() int {
	return int(h.src().Bounded(100))
}

// Uint32 returns the stream's next raw output.
func (h *Handle) Uint32() uint32 { return h.src().Uint32() }

// Pick returns one element of items chosen uniformly.
func Pick[T any](h *Handle, items []T) (T, error) {
	var zero T
	if len(items) == 0 {
		return zero, ErrEmpty
	}
	if len(items) > math.MaxUint32 {
		return zero, ErrRange
	}
	return items[h.src().Bounded(uint32(len(items)))], nil
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
	r := int64(h.src().Bounded(uint32(total)))
	for _, it := range items {
		if r < it.Weight {
			return it.Item, nil
		}
		r -= it.Weight
	}
	return zero, ErrWeight // unreachable: r < total
}
