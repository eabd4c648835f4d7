package world

import (
	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
	"github.com/storyloom/storyloom/engine/rng"
)

// StreamOffers is the stream system name of the daily offer's draw:
// tick:<t>:offers.
const StreamOffers = "offers"

// Offer is a question the world asks while time runs: each day, at the
// campaign's offer hour, one offer whose Requires holds is drawn by
// weight and stays open for the campaign's offer hours; the player
// answers with one of its choices (decide), or its default stands when it
// lapses. advance_ticks stops at the hour an offer opens, so a player who
// lets time pass still faces it.
type Offer struct {
	ID       string               `json:"id"`
	TitleKey core.LocKey          `json:"titleKey"`
	TextKey  core.LocKey          `json:"textKey"`
	Weight   int64                `json:"weight"`
	Requires *condition.Condition `json:"requires,omitempty"`
	Choices  []OfferChoice        `json:"choices"`
	Default  string               `json:"default"`
}

// OfferChoice is one answer to an offer: what it does to cash (cents) and
// to the rating (points, the rating kept within 0–100).
type OfferChoice struct {
	ID       string      `json:"id"`
	LabelKey core.LocKey `json:"labelKey"`
	Money    int64       `json:"money"`
	Rating   int64       `json:"rating"`
}

// OpenOffer is the offer waiting for an answer: its id and the last tick
// it is open.
type OpenOffer struct {
	ID    string `json:"id"`
	Until int64  `json:"until"`
}

type sourceOffer struct {
	ID       string               `json:"id"`
	Title    core.SourceText      `json:"title"`
	Text     core.SourceText      `json:"text"`
	Weight   num                  `json:"weight"`
	Requires *condition.Condition `json:"requires"`
	Choices  []sourceChoice       `json:"choices"`
	Default  string               `json:"default"`
}

type sourceChoice struct {
	ID     string          `json:"id"`
	Label  core.SourceText `json:"label"`
	Money  num             `json:"money"`
	Rating num             `json:"rating"`
}

// buildOffers lifts the offers' texts into b.
func buildOffers(b *authoring.Builder, src []sourceOffer) []Offer {
	out := []Offer{}
	for i, o := range src {
		p := authoring.ElemPath("content.offers", i, o.ID)
		of := Offer{ID: o.ID, TitleKey: b.Text(o.Title, "offer."+o.ID+".title", p+".title", true),
			TextKey: b.Text(o.Text, "offer."+o.ID+".text", p+".text", true),
			Weight:  b.Int(o.Weight, p+".weight", 1, false), Requires: o.Requires, Default: o.Default, Choices: []OfferChoice{}}
		for j, ch := range o.Choices {
			cp := authoring.ElemPath(p+".choices", j, ch.ID)
			of.Choices = append(of.Choices, OfferChoice{ID: ch.ID, LabelKey: b.Text(ch.Label, "offer."+o.ID+".choice."+ch.ID, cp+".label", true),
				Money: b.Int(ch.Money, cp+".money", 0, false), Rating: b.Int(ch.Rating, cp+".rating", 0, false)})
		}
		out = append(out, of)
	}
	return out
}

// checkOffers checks the offers: unique ids, a weight, two to four choices
// that differ in what they do (an answer that changes nothing the others
// do not is no decision), a default among them, and a condition in the
// kind's vocabulary.
func (c *Content) checkOffers(k *authoring.Findings, buildings map[string]*Building, staff map[string]bool) {
	if len(c.Offers) == 0 {
		return
	}
	k.Range("content.offerHour", c.OfferHour, 0, 23)
	k.Range("content.offerHours", c.OfferHours, 1, 23)
	seen := map[string]bool{}
	for i, o := range c.Offers {
		p := authoring.ElemPath("content.offers", i, o.ID)
		k.ID(seen, p, o.ID)
		k.Range(p+".weight", o.Weight, 1, 1_000_000)
		if len(o.Choices) < 2 || len(o.Choices) > 4 {
			k.Add(ReasonInvalidNumber, p+".choices", "an offer has 2 to 4 choices, got %d", len(o.Choices))
		}
		ids := map[string]bool{}
		effects := map[[2]int64]string{}
		for j, ch := range o.Choices {
			cp := authoring.ElemPath(p+".choices", j, ch.ID)
			k.ID(ids, cp, ch.ID)
			k.Range(cp+".money", ch.Money, -MaxMoney, MaxMoney)
			k.Range(cp+".rating", ch.Rating, -100, 100)
			if other, same := effects[[2]int64{ch.Money, ch.Rating}]; same {
				k.Add(ReasonDuplicateID, cp, "choice %q does what %q does: no decision", ch.ID, other)
			}
			effects[[2]int64{ch.Money, ch.Rating}] = ch.ID
		}
		if !ids[o.Default] {
			k.Add(ReasonUnknownReference, p+".default", "the default %q is not one of the choices", o.Default)
		}
		if o.Requires != nil {
			checkCondition(k, p+".requires", *o.Requires, buildings, staff)
		}
	}
}

// offerKeys adds the offers' LocKeys to ks.
func (c *Content) offerKeys(ks *authoring.Keys) {
	for _, o := range c.Offers {
		p := "content.offers." + o.ID
		ks.Add(o.TitleKey, p+".title")
		ks.Add(o.TextKey, p+".text")
		for _, ch := range o.Choices {
			ks.Add(ch.LabelKey, p+".choices."+ch.ID+".label")
		}
	}
}

// offer returns the offer id, or nil.
func (c *Content) offer(id string) *Offer {
	for i := range c.Offers {
		if c.Offers[i].ID == id {
			return &c.Offers[i]
		}
	}
	return nil
}

// choice returns the choice id of o.
func (o *Offer) choice(id string) (OfferChoice, bool) {
	for _, ch := range o.Choices {
		if ch.ID == id {
			return ch, true
		}
	}
	return OfferChoice{}, false
}

// answer applies ch to s: its cash and its rating, kept within 0–100.
func (s *State) answer(ch OfferChoice) {
	s.Money += ch.Money
	s.Rating = min(100, max(0, s.Rating+ch.Rating))
	s.Offer = nil
}

// offerEvent is an offer opened or lapsed during an advance.
type offerEvent struct {
	offer  *Offer
	lapsed bool
}

// runOffers lets the open offer lapse after its last tick (its default
// stands), then, at the offer hour of each day, opens one: drawn on
// tick:<t>:offers by weight among the offers whose condition holds.
func runOffers(f *tickFrame) *tickFrame {
	c := f.c
	if len(c.Offers) == 0 {
		return f
	}
	if o := f.s.Offer; o != nil && f.t > o.Until {
		of := c.offer(o.ID)
		ch, _ := of.choice(of.Default)
		f.s.answer(ch)
		f.offers = append(f.offers, offerEvent{offer: of, lapsed: true})
	}
	if f.s.Offer != nil || f.t%24 != c.OfferHour {
		return f
	}
	var pool []rng.Weighted[int]
	for i := range c.Offers {
		if holds(c.Offers[i].Requires, f.s) {
			pool = append(pool, rng.Weighted[int]{Item: i, Weight: c.Offers[i].Weight})
		}
	}
	if len(pool) == 0 {
		return f
	}
	i, _ := rng.WeightedPick(f.derive(rng.Tick(f.t, StreamOffers)), pool) // weights are checked: 1 to 1000000, at most 64
	of := &c.Offers[i]
	f.s.Offer = &OpenOffer{ID: of.ID, Until: f.t + c.OfferHours - 1}
	f.offers = append(f.offers, offerEvent{offer: of})
	return f
}

// decide answers the open offer with params.choice.
func decide(s *State, c *Content, p core.Params) core.AdvanceResult {
	if s.Offer == nil {
		return reject(s, ReasonNoOffer, "", "nothing is waiting for an answer")
	}
	id, bad := str(s, p, "choice")
	if bad != nil {
		return *bad
	}
	of := c.offer(s.Offer.ID)
	ch, ok := of.choice(id)
	if !ok {
		return reject(s, ReasonUnknownChoice, "params.choice", "%q is not an answer to %q", id, of.ID)
	}
	next := s.clone()
	next.answer(ch)
	changes := []core.StateChange{{Path: "offer." + of.ID, Op: "set", Value: ch.ID, Reason: ReasonOfferAnswered, Visible: true}}
	if next.Money != s.Money {
		changes = append(changes, moneyChange(s.Money, next.Money, ReasonOfferAnswered))
	}
	if next.Rating != s.Rating {
		changes = append(changes, contentkind.Change("rating", s.Rating, next.Rating, ReasonOfferAnswered))
	}
	return done(s, next, changes)
}
