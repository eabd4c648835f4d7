package rng

// PCG32 is the permuted congruential generator of O'Neill's pcg_basic: a
// 64-bit linear congruential state with an XSH-RR output permutation giving
// 32-bit values. The zero value is not seeded; use NewPCG32.
type PCG32 struct {
	state uint64
	inc   uint64
}

const pcgMultiplier = 6364136223846793005

// NewPCG32 seeds a generator exactly as pcg32_srandom_r(initState, initSeq).
func NewPCG32(initState, initSeq uint64) *PCG32 {
	p := &PCG32{}
	p.Seed(initState, initSeq)
	return p
}

// Seed resets p exactly as pcg32_srandom_r(initState, initSeq).
func (p *PCG32) Seed(initState, initSeq uint64) {
	p.state = 0
	p.inc = initSeq<<1 | 1
	p.Uint32()
	p.state += initState
	p.Uint32()
}

// Uint32 returns the next output, as pcg32_random_r.
func (p *PCG32) Uint32() uint32 {
	old := p.state
	p.state = old*pcgMultiplier + p.inc
	xorShifted := uint32(((old >> 18) ^ old) >> 27)
	rot := uint32(old >> 59)
	return xorShifted>>rot | xorShifted<<((-rot)&31)
}

// Bounded returns a uniformly distributed value in [0, bound) without modulo
// bias, as pcg32_boundedrand_r. bound must be positive.
func (p *PCG32) Bounded(bound uint32) uint32 {
	threshold := -bound % bound
	for {
		if r := p.Uint32(); r >= threshold {
			return r % bound
		}
	}
}

// State returns the generator's internal state and increment, for tests and
// reference-vector checks. Nothing in a game ever stores it.
func (p *PCG32) State() (state, inc uint64) { return p.state, p.inc }
