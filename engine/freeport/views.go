package freeport

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

type holdingView struct {
	AssetID   string `json:"assetId"`
	Quantity  int64  `json:"quantity"`
	Available int64  `json:"available"`
}

type enrolmentView struct {
	Type       string        `json:"type"`
	PlayerID   string        `json:"playerId"`
	EnrolledAt string        `json:"enrolledAt"`
	Holdings   []holdingView `json:"holdings"`
}

type inventoryView struct {
	PlayerID string        `json:"playerId"`
	Holdings []holdingView `json:"holdings"`
}

type tradingNameView struct {
	PlayerID    string  `json:"playerId"`
	TradingName *string `json:"tradingName"`
}

type transferView struct {
	TransferID string `json:"transferId"`
	ToPlayerID string `json:"toPlayerId"`
	AssetID    string `json:"assetId"`
	Quantity   int64  `json:"quantity"`
}

type statementView struct {
	PlayerID string           `json:"playerId"`
	Entries  []statementEntry `json:"entries"`
}

type statementEntry struct {
	EntryNumber  int     `json:"entryNumber"`
	At           string  `json:"at"`
	Reason       string  `json:"reason"`
	Direction    string  `json:"direction"`
	AssetID      string  `json:"assetId"`
	Quantity     int64   `json:"quantity"`
	Counterparty *string `json:"counterparty"`
	CommandID    *string `json:"commandId"`
	ExchangeID   *string `json:"exchangeId"`
	TransferID   *string `json:"transferId"`
	RuleNote     *string `json:"ruleNote"`
}

type approvalView struct {
	PlayerID    string `json:"playerId"`
	RoundNumber int    `json:"roundNumber"`
	ApprovedAt  string `json:"approvedAt"`
}

type roundView struct {
	RoundNumber    int             `json:"roundNumber"`
	AuthorPlayerID string          `json:"authorPlayerId"`
	Terms          json.RawMessage `json:"terms"`
	TermsHash      string          `json:"termsHash"`
	ExpiresAt      string          `json:"expiresAt"`
	CreatedAt      string          `json:"createdAt"`
	Outcome        *string         `json:"outcome"`
}

type exchangeView struct {
	ExchangeID           string          `json:"exchangeId"`
	ProposerPlayerID     string          `json:"proposerPlayerId"`
	CounterpartyPlayerID string          `json:"counterpartyPlayerId"`
	Terms                json.RawMessage `json:"terms"`
	TermsHash            string          `json:"termsHash"`
	Status               string          `json:"status"`
	ExchangeVersion      int64           `json:"exchangeVersion"`
	CreatedAt            string          `json:"createdAt"`
	ExpiresAt            string          `json:"expiresAt"`
	ConcludedAt          *string         `json:"concludedAt"`
	Approvals            []approvalView  `json:"approvals"`
	LiveRound            int             `json:"liveRound"`
	RoundCount           int             `json:"roundCount"`
	AnsweringPlayerID    *string         `json:"answeringPlayerId"`
	Rounds               *[]roundView    `json:"rounds"`
	NextRoundCursor      *string         `json:"nextRoundCursor"`
	RuleApplied          bool            `json:"ruleApplied"`
	RuleNote             *string         `json:"ruleNote"`
}

type exchangeListView struct {
	Exchanges  []exchangeView `json:"exchanges"`
	NextCursor *string        `json:"nextCursor"`
}

type priceView struct {
	AssetID   string `json:"assetId"`
	UnitPrice int64  `json:"unitPrice"`
}

type standingView struct {
	GameID       string          `json:"gameId"`
	GeneratedAt  string          `json:"generatedAt"`
	StateVersion int64           `json:"stateVersion"`
	Prices       []priceView     `json:"prices"`
	Players      []standingEntry `json:"players"`
}

type standingEntry struct {
	PlayerID    string  `json:"playerId"`
	PlayerName  string  `json:"playerName"`
	TradingName *string `json:"tradingName"`
	Wealth      int64   `json:"wealth"`
}

func ptr[T any](v T) *T { return &v }

func (s *State) holdingsView(ord int) []holdingView {
	p := s.player(ord)
	out := make([]holdingView, len(s.game.assets))
	for a, as := range s.game.assets {
		out[a] = holdingView{AssetID: as.ID, Quantity: p.holdings[a], Available: p.available(a)}
	}
	return out
}

func (s *State) enrolmentView(ord int, typ string) enrolmentView {
	p := s.player(ord)
	return enrolmentView{Type: typ, PlayerID: p.id, EnrolledAt: FormatTime(p.enrolledAt), Holdings: s.holdingsView(ord)}
}

// statement returns the caller's most recent movements, oldest first.
func (s *State) statement(me int, c *command) (any, *refusal) {
	limit, r := countOf(c, "limit", DefaultLimit, MaxLimit)
	if r != nil {
		return nil, r
	}
	p := s.player(me)
	n := p.entries.Len()
	out := []statementEntry{}
	for i := max(0, n-limit); i < n; i++ {
		e := s.ledger.Get(p.entries.Get(i))
		se := statementEntry{EntryNumber: i + 1, At: FormatTime(e.at), Reason: e.reason, Direction: "in",
			AssetID: s.game.assets[e.asset].ID, Quantity: e.quantity}
		other := e.from
		if e.from == me {
			se.Direction, other = "out", e.to
		}
		switch e.reason {
		case reasonGrant, reasonWithdrawal:
			se.Reason, se.RuleNote = "rule_applied", e.note
		default:
			if other >= 0 {
				se.Counterparty = ptr(s.player(other).id)
			}
		}
		if e.issuer == me {
			se.CommandID = ptr(e.commandID)
		}
		if e.exchangeID != "" {
			se.ExchangeID = ptr(e.exchangeID)
		}
		if e.transferID != "" {
			se.TransferID = ptr(e.transferID)
		}
		out = append(out, se)
	}
	return statementView{PlayerID: p.id, Entries: out}, nil
}

// countOf reads the optional count member name of c: def when it is
// absent, a refusal when it is above most.
func countOf(c *command, name string, def, most int) (int, *refusal) {
	v, ok := c.n(name)
	if !ok {
		return def, nil
	}
	if v > int64(most) {
		return 0, refuse(CodeMalformedRequest, fmt.Sprintf("%s is at most %d", name, most))
	}
	return int(v), nil
}

// mac is a short tag binding a cursor to this instance's secret seed, so a
// cursor this Game Master did not issue is recognized.
func (s *State) mac(parts ...string) string { return s.derive("cursor", parts...)[:16] }

// cursor is the page cursor "tag.n.mac" for position n of the list scope
// of id (a round cursor "r" of an Exchange, a list cursor "x" of a Player).
func (s *State) cursor(tag, scope, id string, n int) string {
	b := strconv.Itoa(n)
	return tag + "." + b + "." + s.mac(scope, id, b)
}

// parseCursor returns the position of a cursor that cursor(tag, scope,
// id, n) issued, or false; the caller checks n is in range.
func (s *State) parseCursor(cur, tag, scope, id string) (int, bool) {
	parts := strings.Split(cur, ".")
	if len(parts) != 3 || parts[0] != tag {
		return 0, false
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || strconv.Itoa(n) != parts[1] || parts[2] != s.mac(scope, id, parts[1]) {
		return 0, false
	}
	return n, true
}

// exchangeView renders x for party me. window > 0 carries that many of the
// most recent Rounds before Round number before (0: the newest), with their
// Approvals; window 0 is a listing entry: no Rounds, the live Round's
// Approvals only.
func (s *State) exchangeView(x *exchange, me, window, before int) exchangeView {
	live := x.live()
	n := x.rounds.Len()
	v := exchangeView{ExchangeID: x.id, ProposerPlayerID: s.player(x.proposer).id,
		CounterpartyPlayerID: s.player(x.counterparty).id, Terms: live.terms, TermsHash: live.hash,
		Status: x.status, ExchangeVersion: x.version, CreatedAt: FormatTime(x.createdAt),
		ExpiresAt: FormatTime(live.expiresAt), LiveRound: live.number, RoundCount: n,
		Approvals: []approvalView{}}
	if x.concludedAt >= 0 {
		v.ConcludedAt = ptr(FormatTime(x.concludedAt))
	}
	if a := x.answering(); a >= 0 {
		v.AnsweringPlayerID = ptr(s.player(a).id)
	}
	k := x.partyIndex(me)
	v.RuleApplied, v.RuleNote = x.ruleApplied[k], x.ruleNote[k]
	addApprovals := func(r *round) {
		for _, a := range r.approvals {
			v.Approvals = append(v.Approvals, approvalView{PlayerID: s.player(a.player).id, RoundNumber: r.number, ApprovedAt: FormatTime(a.at)})
		}
	}
	if window == 0 {
		addApprovals(live)
		return v
	}
	hi := n // rounds numbered lo+1..hi
	if before > 0 {
		hi = before - 1
	}
	lo := max(0, hi-window)
	rounds := make([]roundView, 0, hi-lo)
	for i := lo; i < hi; i++ {
		r := x.rounds.Get(i)
		rv := roundView{RoundNumber: r.number, AuthorPlayerID: s.player(r.author).id, Terms: r.terms,
			TermsHash: r.hash, ExpiresAt: FormatTime(r.expiresAt), CreatedAt: FormatTime(r.createdAt)}
		if r.countered {
			rv.Outcome = ptr("countered")
		}
		rounds = append(rounds, rv)
		addApprovals(r)
	}
	v.Rounds = &rounds
	if lo > 0 {
		v.NextRoundCursor = ptr(s.cursor("r", "round", x.id, lo+1))
	}
	return v
}

func (s *State) getExchange(me int, c *command) (any, *refusal) {
	window, r := countOf(c, "roundLimit", s.game.roundWindow, s.game.roundWindow)
	if r != nil {
		return nil, r
	}
	x, r := s.partyExchange(me, c, "read")
	if r != nil {
		return nil, r
	}
	before := 0
	if cur := c.s("roundCursor"); cur != "" {
		n, ok := s.parseCursor(cur, "r", "round", x.id)
		if !ok || n < 2 || n > x.rounds.Len() {
			return nil, refuse(CodeMalformedRequest, "roundCursor was not issued by this Game Master for this Exchange")
		}
		before = n
	}
	return s.exchangeView(x, me, window, before), nil
}

func validStatus(st string) bool {
	switch st {
	case StatusAwaiting, StatusSettled, StatusDeclined, StatusCancelled, StatusExpired, StatusUnfunded:
		return true
	}
	return false
}

// listExchanges pages the caller's Exchanges, newest first, filtered by
// status before limiting.
func (s *State) listExchanges(me int, c *command) (any, *refusal) {
	limit, r := countOf(c, "limit", DefaultLimit, MaxLimit)
	if r != nil {
		return nil, r
	}
	status := c.s("status")
	if status != "" && !validStatus(status) {
		return nil, refuse(CodeMalformedRequest, fmt.Sprintf("unknown status %q", status))
	}
	p := s.player(me)
	pos := p.exchanges.Len() // scan positions pos-1 down to 0
	if cur := c.s("cursor"); cur != "" {
		n, ok := s.parseCursor(cur, "x", "list", p.id)
		if !ok || n < 0 || n > pos {
			return nil, refuse(CodeMalformedRequest, "cursor was not issued by this Game Master")
		}
		pos = n
	}
	out := exchangeListView{Exchanges: []exchangeView{}}
	for pos > 0 {
		x := s.exchange(p.exchanges.Get(pos - 1))
		if status != "" && x.status != status {
			pos--
			continue
		}
		if len(out.Exchanges) == limit {
			out.NextCursor = ptr(s.cursor("x", "list", p.id, pos))
			break
		}
		out.Exchanges = append(out.Exchanges, s.exchangeView(x, me, 0, 0))
		pos--
	}
	return out, nil
}

// standing is the public board: no Owner IDs, Command IDs, Inventories or
// Terms; wealth priced from the configured Unit Prices.
func (s *State) standing(now int64) standingView {
	g := s.game
	v := standingView{GameID: g.id, GeneratedAt: FormatTime(now), StateVersion: s.version,
		Prices: make([]priceView, len(g.assets)), Players: make([]standingEntry, s.players.Len())}
	for a, as := range g.assets {
		v.Prices[a] = priceView{AssetID: as.ID, UnitPrice: as.UnitPrice}
	}
	names := s.playerNames()
	for i := range v.Players {
		p := s.player(i)
		var w int64
		for a, q := range p.holdings {
			w += q * g.assets[a].UnitPrice
		}
		e := standingEntry{PlayerID: p.id, PlayerName: names[i], Wealth: w}
		if p.tradingName != "" {
			e.TradingName = ptr(p.tradingName)
		}
		v.Players[i] = e
	}
	slices.SortFunc(v.Players, func(a, b standingEntry) int {
		if a.Wealth != b.Wealth {
			if a.Wealth > b.Wealth {
				return -1
			}
			return 1
		}
		return strings.Compare(a.PlayerID, b.PlayerID)
	})
	return v
}

// MaxStandingPage is the most Players one page of the Standing lists, and
// the most Player IDs a StandingQuery may name.
const MaxStandingPage = 100

// StandingQuery asks for one page of the Standing (Board.Page): the
// read-only Standing surface a host serves beside the protocol, so that a
// page polling the board reads a page rather than every Player.
type StandingQuery struct {
	// Offset is how many Players, from the top, the page skips.
	Offset int
	// Limit is the most Players the page lists, 1 to MaxStandingPage.
	Limit int
	// Owner is the authenticated reader, or "": an enrolled one also gets
	// its own entry and rank wherever it stands.
	Owner string
	// Players names Player IDs whose entries come back wherever they rank,
	// so a page can name the parties of its Exchanges. Unknown IDs are left
	// out; at most MaxStandingPage are read.
	Players []string
}

type standingPageView struct {
	GameID       string        `json:"gameId"`
	GeneratedAt  string        `json:"generatedAt"`
	StateVersion int64         `json:"stateVersion"`
	Prices       []priceView   `json:"prices"`
	Total        int           `json:"total"`
	Offset       int           `json:"offset"`
	Players      []rankedEntry `json:"players"`
	You          *rankedEntry  `json:"you"`
	Named        []rankedEntry `json:"named"`
}

// rankedEntry is a Standing entry with its 1-based place on the board.
type rankedEntry struct {
	Rank int `json:"rank"`
	standingEntry
}

// Board is the Standing of one State, ranked once, so that a host can
// answer many pages of it (Page) while the State does not change.
type Board struct {
	st    *State
	board standingView
	rank  map[string]int // Player ID → index on the board
}

// Board ranks the Standing of s: wealth descending, then Player ID, as
// readStanding orders it.
func (s *State) Board() *Board {
	b := &Board{st: s, board: s.standing(0), rank: make(map[string]int, s.players.Len())}
	for i, e := range b.board.Players {
		b.rank[e.PlayerID] = i
	}
	return b
}

// Of reports whether b is the Board of s.
func (b *Board) Of(s *State) bool { return b.st == s }

// Page returns one page of the Board at now as canonical JSON: the board's
// own fields (gameId, generatedAt, stateVersion, prices), the number of
// Players in all (total), the page's offset, the page's players each with
// its rank, the reader's own entry (you, null when q.Owner has no Player)
// and the entries of q.Players (named). An Offset below zero reads from
// the top, and a Limit outside 1 to MaxStandingPage reads MaxStandingPage.
func (b *Board) Page(now int64, q StandingQuery) []byte {
	all := b.board.Players
	v := standingPageView{GameID: b.board.GameID, GeneratedAt: FormatTime(now), StateVersion: b.board.StateVersion,
		Prices: b.board.Prices, Total: len(all), Players: []rankedEntry{}, Named: []rankedEntry{}}
	if q.Limit < 1 || q.Limit > MaxStandingPage {
		q.Limit = MaxStandingPage
	}
	v.Offset = min(max(q.Offset, 0), v.Total)
	for i, e := range all[v.Offset:min(v.Offset+q.Limit, v.Total)] {
		v.Players = append(v.Players, rankedEntry{Rank: v.Offset + i + 1, standingEntry: e})
	}
	if ord, ok := b.st.playerByOwner.Get(q.Owner); ok {
		i := b.rank[b.st.player(ord).id]
		v.You = &rankedEntry{Rank: i + 1, standingEntry: all[i]}
	}
	seen := map[string]bool{}
	for _, id := range q.Players[:min(len(q.Players), MaxStandingPage)] {
		if i, ok := b.rank[id]; ok && !seen[id] {
			seen[id] = true
			v.Named = append(v.Named, rankedEntry{Rank: i + 1, standingEntry: all[i]})
		}
	}
	slices.SortFunc(v.Named, func(x, y rankedEntry) int { return x.Rank - y.Rank })
	return mustMarshal(v)
}
