package cheat

import (
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// AI returns kind's choice for seat, drawing only from h. An unknown kind
// plays like "random".
func (st *state) AI(kind string, seat int, h *rng.Handle) rooms.Choice {
	if len(st.Actions(seat)) == 0 {
		return rooms.Choice{}
	}
	if kind == "fox" {
		return st.fox(seat, h)
	}
	return st.random(seat, h)
}

// random plays 1..4 random cards and calls a quarter of the time.
func (st *state) random(seat int, h *rng.Handle) rooms.Choice {
	if st.Phase == PhaseChallenge {
		if h.NextPercent() < 25 {
			return rooms.Choice{ActionID: st.callID()}
		}
		return rooms.Choice{ActionID: st.passID()}
	}
	hand := append([]string(nil), st.Hands[seat]...)
	n := 1 + h.Intn(min(MaxPlay, len(hand)))
	for i := 0; i < n; i++ {
		j := i + h.Intn(len(hand)-i)
		hand[i], hand[j] = hand[j], hand[i]
	}
	return playChoice(st, hand[:n]...)
}

// fox tells the truth when it can, sometimes slipping in one extra card;
// it bluffs with the cards whose rank it will be asked for last; it calls
// any claim that cannot be true, any claim that would win, and otherwise
// more often the bigger the claim.
func (st *state) fox(seat int, h *rng.Handle) rooms.Choice {
	hand := st.Hands[seat]
	if st.Phase == PhaseChallenge {
		mine := 0
		for _, c := range hand {
			if rankOf(c) == st.Rank {
				mine++
			}
		}
		left := len(st.Hands[st.Turn])
		if mine+st.Count > 4 || left == 0 {
			return rooms.Choice{ActionID: st.callID()}
		}
		p := [MaxPlay + 1]int{0, 6, 16, 32, 50}[st.Count] + 12*mine
		if left <= 2 {
			p += 25
		}
		if h.NextPercent() < p {
			return rooms.Choice{ActionID: st.callID()}
		}
		return rooms.Choice{ActionID: st.passID()}
	}
	var truth, others []string
	for _, c := range hand {
		if rankOf(c) == st.Rank {
			truth = append(truth, c)
		} else {
			others = append(others, c)
		}
	}
	// The cards due last: rank r is next asked of this seat after k of its
	// turns, where (st.Rank + k*n) % 13 == r.
	n := len(st.Hands)
	due := func(c string) int {
		r := rankOf(c)
		for k := 1; k <= 13; k++ {
			if (st.Rank+k*n)%13 == r {
				return k
			}
		}
		return 14
	}
	latest := func(cards []string) string {
		best := cards[0]
		for _, c := range cards[1:] {
			if due(c) > due(best) {
				best = c
			}
		}
		return best
	}
	if len(truth) > 0 {
		play := truth
		if len(play) > MaxPlay {
			play = play[:MaxPlay]
		}
		if len(play) < MaxPlay && len(others) > 0 && len(others) > 2 && h.NextPercent() < 25 {
			play = append(append([]string(nil), play...), latest(others))
		}
		return playChoice(st, play...)
	}
	play := []string{latest(others)}
	if len(others) > 3 && h.NextPercent() < 20 {
		rest := make([]string, 0, len(others)-1)
		for _, c := range others {
			if c != play[0] {
				rest = append(rest, c)
			}
		}
		play = append(play, latest(rest))
	}
	return playChoice(st, play...)
}
