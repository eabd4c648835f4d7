package world

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/kindtest"
)

// answerFor is the seeded bot's answer to an offer: the choice that gains
// the most rating while the cash it costs leaves a day's running cost in
// hand, else the one that brings the most cash.
func answerFor(s *State, c *Content, of *Offer) string {
	best := ""
	var bestRating, bestMoney int64
	for _, ch := range of.Choices {
		if s.Money+ch.Money < c.StartingMoney/8 {
			continue
		}
		if best == "" || ch.Rating > bestRating || ch.Rating == bestRating && ch.Money > bestMoney {
			best, bestRating, bestMoney = ch.ID, ch.Rating, ch.Money
		}
	}
	if best == "" {
		for _, ch := range of.Choices {
			if best == "" || ch.Money > bestMoney {
				best, bestMoney = ch.ID, ch.Money
			}
		}
	}
	return best
}

// TestEveryDayAsksADecision: a seeded bot plays the Pier Fair's whole
// season as a player would, through the verbs: it builds and hires as the
// careful player does and lets a day pass at a time; time stops whenever
// an offer opens and the bot answers it. Every in-game day must have put
// at least one real decision to it (an offer whose answers do different
// things), and what it chose must have mattered (its answers differ).
func TestEveryDayAsksADecision(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	c := contentOf(reg.Campaign("pier-fair"))
	days := int(c.TickLimit / 24)
	for seed := range 3 {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			g := start(t, e, "pier-fair", fmt.Sprint("bot-", seed))
			faced := make([]int, days+1)
			answers := map[string]bool{}
			for step := 0; g.Status == core.StatusActive; step++ {
				if step > 10*days {
					t.Fatalf("no end after %d steps", step)
				}
				s := kindState(g)
				if s.Offer != nil {
					of := c.offer(s.Offer.ID)
					effects := map[[2]int64]bool{}
					for _, ch := range of.Choices {
						effects[[2]int64{ch.Money, ch.Rating}] = true
					}
					if len(effects) < 2 {
						t.Fatalf("offer %q asks nothing: its answers all do the same", of.ID)
					}
					choice := answerFor(s, c, of)
					g = submit(t, e, g, ActionDecide, core.Params{"choice": choice})
					faced[(s.Tick-1)/24+1]++
					answers[choice] = true
					continue
				}
				for _, d := range carefulDecisions(s, c) {
					if res := e.SubmitAction(g, d.verb, d.params); res.OK {
						g = res.Value
					}
				}
				g = submit(t, e, g, ActionAdvanceTicks, core.Params{"ticks": 24.0})
			}
			var quiet []string
			for day := 1; day <= days && day <= int(kindState(g).Tick/24); day++ {
				if faced[day] == 0 {
					quiet = append(quiet, fmt.Sprint(day))
				}
			}
			if len(quiet) > 0 {
				t.Errorf("days with no decision: %s", strings.Join(quiet, ", "))
			}
			if len(answers) < 3 {
				t.Errorf("the bot gave only %v all season", slices.Sorted(maps.Keys(answers)))
			}
			t.Logf("seed %d: %d days, %d decisions, ended %s at hour %d", seed, days, sum(faced), kindState(g).Resolution, kindState(g).Tick)
		})
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestDecide: the decide verb answers the open offer and only it.
func TestDecide(t *testing.T) {
	reg := shippedRegistry(t)
	e := newEngine(t, reg, nil)
	g := start(t, e, "pier-fair", "decide")
	kindtest.Verb(t, e, g, ActionDecide, core.Params{"choice": "pay"}, ReasonNoOffer)
	g = submit(t, e, g, ActionAdvanceTicks, core.Params{"ticks": 24.0})
	s := kindState(g)
	if s.Tick != 10 || s.Offer == nil {
		t.Fatalf("a day's advance stopped at hour %d with offer %+v", s.Tick, s.Offer)
	}
	kindtest.Verb(t, e, g, ActionDecide, core.Params{"choice": "nonsense"}, ReasonUnknownChoice)
	of := contentOf(reg.Campaign("pier-fair")).offer(s.Offer.ID)
	ch := of.Choices[0]
	res := e.SubmitAction(g, ActionDecide, core.Params{"choice": ch.ID})
	if !res.OK {
		t.Fatal(res.Errors)
	}
	after := kindState(res.Value)
	if after.Offer != nil || after.Money != s.Money+ch.Money || after.Rating != min(100, max(0, s.Rating+ch.Rating)) {
		t.Fatalf("answering %q: offer %+v, money %d → %d, rating %d → %d", ch.ID, after.Offer, s.Money, after.Money, s.Rating, after.Rating)
	}
	// Unanswered, an offer lapses after its hours and its default stands.
	lapsed := e.SubmitAction(g, ActionAdvanceTicks, core.Params{"ticks": 12.0})
	found := false
	for _, c := range lapsed.Changes {
		found = found || c.Reason == ReasonOfferLapsed && c.Path == "offer."+of.ID && c.Value == of.Default
	}
	if !found || kindState(lapsed.Value).Offer != nil {
		t.Fatalf("the offer did not lapse to %q: %+v", of.Default, lapsed.Changes)
	}
}

// TestOffersTier1: an offer needs answers that differ, a default among
// them, and conditions in the kind's vocabulary.
func TestOffersTier1(t *testing.T) {
	src := string(shippedSource(t, "pier-fair").Campaign)
	for _, tc := range []struct{ name, from, to, code, path string }{
		{"answers that do the same", `"money": -8000,
      "rating": 4`, `"money": 0,
      "rating": 0`, ReasonDuplicateID, "content.offers.fiddler.choices.decline"},
		{"a default that is no answer", `"default": "decline"`, `"default": "maybe"`, ReasonUnknownReference, "content.offers.fiddler.default"},
		{"an unknown field", `"built.ghost_train"`, `"built.rollercoaster"`, ReasonUnknownReference, "content.offers.paint.requires"},
		{"an hour past midnight", `"offerHour": 10`, `"offerHour": 24`, ReasonInvalidNumber, "content.offerHour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(src, tc.from) {
				t.Fatalf("pier-fair has no %s", tc.from)
			}
			kindtest.Finding(t, Kind{}, content.Source{Path: "bad", Campaign: []byte(strings.Replace(src, tc.from, tc.to, 1))}, tc.code, tc.path)
		})
	}
}
