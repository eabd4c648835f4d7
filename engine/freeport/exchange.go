package freeport

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rng"
)

// terms is the canonical Terms document whose SHA-256 is the Terms Hash.
type terms struct {
	ProtocolVersion      int    `json:"protocolVersion"`
	ProposerPlayerID     string `json:"proposerPlayerId"`
	CounterpartyPlayerID string `json:"counterpartyPlayerId"`
	Offered              []item `json:"offered"`
	Requested            []item `json:"requested"`
	ExpiresAt            string `json:"expiresAt"`
}

// sealTerms returns the canonical Terms and their hash.
func sealTerms(proposer, counterparty string, offered, requested []item, expiresAt int64) ([]byte, string) {
	if offered == nil {
		offered = []item{}
	}
	if requested == nil {
		requested = []item{}
	}
	b := appendTerms(make([]byte, 0, 256), &terms{ProtocolVersion: ProtocolVersion, ProposerPlayerID: proposer,
		CounterpartyPlayerID: counterparty, Offered: offered, Requested: requested, ExpiresAt: FormatTime(expiresAt)})
	return b, canon.DigestBytes(b)
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// checkTerms validates both sides' Assets and the deadline of a new Round,
// and returns the deadline.
func (s *State) checkTerms(now int64, c *command) (int64, *refusal) {
	for _, side := range [2][]item{c.offered, c.requested} {
		for _, it := range side {
			if _, r := s.transferable(it.AssetID); r != nil {
				return 0, r
			}
		}
	}
	g := s.game
	exp := now + g.defExpiry
	if c.hasExpiry {
		exp = c.expiresAt
	}
	if exp < now+g.minExpiry || exp > now+g.maxExpiry || exp > MaxTime {
		return 0, refuse(CodeMalformedRequest, fmt.Sprintf("expiresAt must be between %s and %s",
			FormatTime(now+g.minExpiry), FormatTime(now+g.maxExpiry)))
	}
	return exp, nil
}

// checkFunds refuses when player ord's Available does not cover items.
func (s *State) checkFunds(ord int, items []item) *refusal {
	p := s.player(ord)
	for _, it := range items {
		if p.available(s.game.assetIdx[it.AssetID]) < it.Quantity {
			return refuse(CodeInsufficientAvailable, fmt.Sprintf("not enough %s available", it.AssetID))
		}
	}
	return nil
}

func (s *State) propose(me int, now int64, c *command) (any, bool, *refusal) {
	exp, r := s.checkTerms(now, c)
	if r != nil {
		return nil, false, r
	}
	cp, r := s.otherPlayer(me, c, "counterpartyPlayerId", "open an Exchange with")
	if r != nil {
		return nil, false, r
	}
	offered, requested := c.offered, c.requested
	if r := s.checkFunds(me, offered); r != nil {
		return nil, false, r
	}
	ord := s.exchanges.Len()
	x := &exchange{ord: ord, id: "x-" + s.derive("exchange", fmt.Sprint(ord))[:20], proposer: me, counterparty: cp,
		status: StatusAwaiting, version: 1, createdAt: now, concludedAt: -1}
	rd := &round{number: 1, author: me, offered: offered, requested: requested, expiresAt: exp, createdAt: now,
		approvals: []approval{{player: me, at: now}}}
	rd.terms, rd.hash = sealTerms(s.player(me).id, s.player(cp).id, offered, requested, exp)
	x.rounds = x.rounds.Append(rd)
	s.exchanges = s.exchanges.Append(x)
	s.exchangeByID = s.exchangeByID.Put(x.id, ord)
	for _, party := range []int{me, cp} {
		p := s.editPlayer(party)
		p.exchanges = p.exchanges.Append(ord)
	}
	s.reserve(me, offered, 1)
	s.expiry = tinsert(s.expiry, expiryKey{exp, ord})
	return s.exchangeView(x, me, s.game.roundWindow, 0), true, nil
}

// partyExchange resolves the Exchange c names, which only its two parties
// may act on or read (verb).
func (s *State) partyExchange(me int, c *command, verb string) (*exchange, *refusal) {
	xo, ok := s.exchangeByID.Get(c.s("exchangeId"))
	if !ok {
		return nil, refuse(CodeUnknownExchange, "no Exchange in this game has that exchangeId")
	}
	x := s.exchange(xo)
	if me != x.proposer && me != x.counterparty {
		return nil, refuse(CodeNotAParty, "only the two parties may "+verb+" an Exchange")
	}
	return x, nil
}

// openForMove resolves the Exchange a Command acts on and decides, in the
// protocol's order, identity, then status, then turn, then version. wantAuthor
// is true for cancel, which only the live Round's author may send.
func (s *State) openForMove(me int, c *command, wantAuthor bool) (*exchange, *refusal) {
	x, r := s.partyExchange(me, c, "act on")
	if r != nil {
		return nil, r
	}
	if x.status != StatusAwaiting {
		return nil, refuse(CodeExchangeNotOpen, "the Exchange has concluded "+x.status)
	}
	if (x.live().author == me) != wantAuthor {
		if wantAuthor {
			return nil, refuse(CodeNotYourTurn, "only the author of the live Round may cancel; decline instead")
		}
		return nil, refuse(CodeNotYourTurn, "the live Round is yours; it awaits the other party")
	}
	if v, _ := c.n("exchangeVersion"); v != x.version {
		return nil, refuse(CodeStaleExchangeVersion, fmt.Sprintf("exchangeVersion is %d, not %d", x.version, v))
	}
	if !wantAuthor && c.s("termsHash") != x.live().hash {
		return nil, refuse(CodeTermsMismatch, "termsHash is not the Terms Hash of the live Round")
	}
	return x, nil
}

// conclude ends open Exchange x (already a private copy) with status,
// releasing the live author's reservation.
func (s *State) conclude(x *exchange, status string, now int64) {
	live := x.live()
	s.reserve(live.author, x.authorSide(live), -1)
	s.expiry = tdelete(s.expiry, expiryKey{live.expiresAt, x.ord})
	x.status, x.concludedAt = status, now
	x.version++
}

func (s *State) cancel(me int, now int64, c *command) (any, bool, *refusal) {
	x, r := s.openForMove(me, c, true)
	if r != nil {
		return nil, false, r
	}
	x = s.editExchange(x.ord)
	s.conclude(x, StatusCancelled, now)
	return s.exchangeView(x, me, s.game.roundWindow, 0), true, nil
}

func (s *State) counter(me int, now int64, c *command) (any, bool, *refusal) {
	if !isHash(c.s("termsHash")) {
		return nil, false, refuse(CodeMalformedRequest, "termsHash must be 64 lower-case hex digits")
	}
	x, r := s.openForMove(me, c, false)
	if r != nil {
		return nil, false, r
	}
	exp, r := s.checkTerms(now, c)
	if r != nil {
		return nil, false, r
	}
	offered, requested := c.offered, c.requested
	mine := offered
	if me == x.counterparty {
		mine = requested
	}
	if r := s.checkFunds(me, mine); r != nil {
		return nil, false, r
	}
	x = s.editExchange(x.ord)
	prev := *x.live()
	s.reserve(prev.author, x.authorSide(&prev), -1)
	s.expiry = tdelete(s.expiry, expiryKey{prev.expiresAt, x.ord})
	prev.countered = true
	x.rounds = x.rounds.Set(prev.number-1, &prev)
	rd := &round{number: prev.number + 1, author: me, offered: offered, requested: requested, expiresAt: exp,
		createdAt: now, approvals: []approval{{player: me, at: now}}}
	rd.terms, rd.hash = sealTerms(s.player(x.proposer).id, s.player(x.counterparty).id, offered, requested, exp)
	x.rounds = x.rounds.Append(rd)
	x.version++
	s.reserve(me, mine, 1)
	s.expiry = tinsert(s.expiry, expiryKey{exp, x.ord})
	return s.exchangeView(x, me, s.game.roundWindow, 0), true, nil
}

func (s *State) respond(me int, now int64, c *command) (any, bool, *refusal) {
	decision := c.s("decision")
	if decision != "approve" && decision != "decline" {
		return nil, false, refuse(CodeMalformedRequest, `decision must be "approve" or "decline"`)
	}
	if !isHash(c.s("termsHash")) {
		return nil, false, refuse(CodeMalformedRequest, "termsHash must be 64 lower-case hex digits")
	}
	x, r := s.openForMove(me, c, false)
	if r != nil {
		return nil, false, r
	}
	x = s.editExchange(x.ord)
	if decision == "decline" {
		s.conclude(x, StatusDeclined, now)
		return s.exchangeView(x, me, s.game.roundWindow, 0), true, nil
	}
	live := *x.live()
	live.approvals = append(append([]approval(nil), live.approvals...), approval{player: me, at: now})
	x.rounds = x.rounds.Set(live.number-1, &live)
	s.conclude(x, StatusSettled, now) // releases the author's reservation
	plan, funded := s.planSettlement(x, &live, me, now)
	if !funded {
		x.status = StatusUnfunded
		return s.exchangeView(x, me, s.game.roundWindow, 0), true, nil
	}
	ref := entry{at: now, reason: reasonSettlement, issuer: me, commandID: c.commandID, exchangeID: x.id}
	for _, leg := range []struct {
		items    []item
		from, to int
	}{{live.offered, x.proposer, x.counterparty}, {live.requested, x.counterparty, x.proposer}} {
		for _, it := range leg.items {
			e := ref
			e.from, e.to, e.asset, e.quantity = leg.from, leg.to, s.game.assetIdx[it.AssetID], it.Quantity
			s.move(e)
		}
	}
	for _, f := range plan {
		for _, m := range f.moves {
			e := ref
			e.ruleID, e.note, e.asset, e.quantity = f.rule.id, f.note, m.asset, m.quantity
			if m.grant {
				e.reason, e.from, e.to = reasonGrant, refIssuance, m.party
			} else {
				e.reason, e.from, e.to = reasonWithdrawal, m.party, refTreasury
			}
			s.move(e)
			k := x.partyIndex(m.party)
			if x.ruleNote[k] == nil && f.note != nil {
				x.ruleNote[k] = f.note
			}
			x.ruleApplied[k] = true
		}
	}
	return s.exchangeView(x, me, s.game.roundWindow, 0), true, nil
}

type firing struct {
	rule  *rule
	note  *string
	moves []ruleMove
}

type ruleMove struct {
	party    int
	grant    bool
	asset    int
	quantity int64
}

// planSettlement decides whether the approved Round live of x can settle:
// the answering party me must have its own side Available (cause 1), and
// every withdrawal of every matched Game Rule, applied in order after the
// Terms and the grants before it, must fit the party's post-Settlement
// Available, with reservations of other open Exchanges still unavailable
// (cause 2). The two causes are indistinguishable to callers by design. x's
// reservation has already been released in tx.
func (s *State) planSettlement(x *exchange, live *round, me int, now int64) ([]firing, bool) {
	g := s.game
	mine := live.requested
	if me == x.proposer {
		mine = live.offered
	}
	if s.checkFunds(me, mine) != nil {
		return nil, false
	}
	// Post-Settlement Available of both parties.
	avail := map[int][]int64{}
	for _, p := range []int{x.proposer, x.counterparty} {
		pl := s.player(p)
		v := make([]int64, len(g.assets))
		for a := range v {
			v[a] = pl.available(a)
		}
		avail[p] = v
	}
	for _, it := range live.offered {
		a := g.assetIdx[it.AssetID]
		avail[x.proposer][a] -= it.Quantity
		avail[x.counterparty][a] += it.Quantity
	}
	for _, it := range live.requested {
		a := g.assetIdx[it.AssetID]
		avail[x.counterparty][a] -= it.Quantity
		avail[x.proposer][a] += it.Quantity
	}
	h := rng.For(s.seed, rng.System("rules", int(s.version+1)))
	var plan []firing
	for i := range g.rules {
		r := &g.rules[i]
		giver, receiver, ok := r.match(x, live, now)
		if !ok {
			continue
		}
		if r.chance < 100 && int64(h.NextPercent()) >= r.chance {
			continue
		}
		f := firing{rule: r}
		for _, e := range r.effects {
			party := map[string]int{"proposer": x.proposer, "counterparty": x.counterparty, "giver": giver, "receiver": receiver}[e.party]
			if e.grant {
				avail[party][e.asset] += e.quantity
			} else {
				if avail[party][e.asset] < e.quantity {
					return nil, false
				}
				avail[party][e.asset] -= e.quantity
			}
			f.moves = append(f.moves, ruleMove{party: party, grant: e.grant, asset: e.asset, quantity: e.quantity})
		}
		plan = append(plan, f)
	}
	for i := range plan {
		if lines := plan[i].rule.lines; len(lines) > 0 {
			line, _ := rng.Pick(h, lines)
			plan[i].note = &line
		}
	}
	return plan, true
}

// match reports whether r applies to a Settlement of live at now, and who
// gives and who receives the matched Asset.
func (r *rule) match(x *exchange, live *round, now int64) (giver, receiver int, ok bool) {
	if !r.active(now) {
		return 0, 0, false
	}
	if r.matchAsset < 0 {
		return x.proposer, x.counterparty, true
	}
	sum := func(items []item) int64 {
		var n int64
		for _, it := range items {
			if it.AssetID == r.assetID {
				n += it.Quantity
			}
		}
		return n
	}
	if r.side != "requested" && sum(live.offered) >= r.minQty {
		return x.proposer, x.counterparty, true
	}
	if r.side != "offered" && sum(live.requested) >= r.minQty {
		return x.counterparty, x.proposer, true
	}
	return 0, 0, false
}
