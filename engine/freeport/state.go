package freeport

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// StateFormat is the value of a serialized State's "format" member.
const StateFormat = "freeport-state/1"

// System inventory references. They are not Players and never appear in a
// Standing; the Ledger and the Admin View name them.
const (
	Treasury = "@treasury"
	Issuance = "@issuance"
)

const (
	refTreasury = -1
	refIssuance = -2
)

// Exchange statuses. An open Exchange is awaiting_counterparty; it ends in
// exactly one of the other five.
const (
	StatusAwaiting  = "awaiting_counterparty"
	StatusSettled   = "settled"
	StatusDeclined  = "declined"
	StatusCancelled = "cancelled"
	StatusExpired   = "expired"
	StatusUnfunded  = "unfunded"
)

// Ledger reasons, as the Ledger and the Admin View name them.
const (
	reasonEnrolment  = "enrolment"
	reasonTransfer   = "transfer"
	reasonSettlement = "settlement"
	reasonGrant      = "game_rule_grant"
	reasonWithdrawal = "game_rule_withdrawal"
)

// State is one game instance's whole canonical state. It is a value: Apply
// and Sweep never modify the State they are called on but return a new one
// that shares unchanged parts with it, so a host may keep the old State until
// the new one is persisted and simply drop the new one if persisting fails.
// A State may be read from several goroutines at once.
type State struct {
	game          *Game
	seed          string
	version       int64
	players       pvec[*player]
	playerByID    pmap[int]
	playerByOwner pmap[int]
	exchanges     pvec[*exchange]
	exchangeByID  pmap[int]
	expiry        *tnode
	ledger        pvec[*entry]
	commands      pmap[*cmdRecord]
	commandLog    pvec[*cmdRecord]
	system        [2][]int64 // @treasury, @issuance balances by asset index
	transfers     int
	// mark identifies the working copy being built from this State (see
	// working); a player whose mark is this State's was copied for it and
	// may be changed in place. Never serialized.
	mark *txMark
}

// txMark is one working copy's identity. It has a size, so that every
// new(txMark) is a distinct pointer.
type txMark struct{ _ byte }

// working returns a private working copy of s that a Command may change:
// it shares everything with s until editPlayer or editExchange copies a
// part. A fresh mark per copy means edits made for one copy are never
// visible to another, nor to s.
func (s *State) working() *State {
	tx := new(State)
	*tx = *s
	tx.mark = new(txMark)
	return tx
}

type player struct {
	ord         int
	id          string
	owner       string  // private: never in any response or the Admin View
	mark        *txMark // the working copy this player was copied for
	enrolledAt  int64
	tradingName string // "" when none
	holdings    []int64
	reserved    []int64   // derived from open Exchanges; never serialized
	entries     pvec[int] // ledger index of each movement: entryNumber-1
	exchanges   pvec[int] // ordinals of the Exchanges it is a party to
}

type exchange struct {
	ord          int
	id           string
	proposer     int
	counterparty int
	status       string
	version      int64
	createdAt    int64
	concludedAt  int64 // -1 while open
	rounds       pvec[*round]
	ruleApplied  [2]bool // proposer, counterparty
	ruleNote     [2]*string
}

type round struct {
	number    int
	author    int
	offered   []item
	requested []item
	expiresAt int64
	createdAt int64
	terms     []byte // canonical Terms, exactly as hashed
	hash      string
	countered bool
	approvals []approval
}

type approval struct {
	player int
	at     int64
}

type entry struct {
	seq        int64
	at         int64
	reason     string
	from, to   int // player ordinal or refTreasury/refIssuance
	asset      int
	quantity   int64
	issuer     int // ordinal of the Player whose Command wrote it, -1 for none
	commandID  string
	exchangeID string
	transferID string
	ruleID     string
	note       *string
}

type cmdRecord struct {
	player    int
	commandID string
	action    string
	hash      string
	at        int64
	version   int64
	response  []byte
}

// NewState returns the empty State of a new instance of g. seed is the
// instance's secret: Player, Exchange and Transfer IDs, cursors and every
// rule draw derive from it. An empty seed uses the game file's seed.
func (g *Game) NewState(seed string) *State {
	if seed == "" {
		seed = g.seed
	}
	s := &State{game: g, seed: seed}
	s.system[0] = make([]int64, len(g.assets))
	s.system[1] = make([]int64, len(g.assets))
	return s
}

// Enrolled reports whether owner has a Player in s: a host that closes a
// game to new enrolments still lets its Players play.
func (s *State) Enrolled(owner string) bool {
	_, ok := s.playerByOwner.Get(owner)
	return ok
}

// Game returns the game s is an instance of.
func (s *State) Game() *Game { return s.game }

// Version returns the State Version: a game-wide counter bumped once per
// accepted state change. A host persists a new State only if its Version
// differs from the one it loaded, and compares the stored version column.
func (s *State) Version() int64 { return s.version }

func (s *State) derive(kind string, parts ...string) string {
	h := sha256.New()
	h.Write([]byte(s.seed))
	h.Write([]byte{0})
	h.Write([]byte(kind))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *State) player(ord int) *player { return s.players.Get(ord) }

// editPlayer returns a private copy of player ord, installed in s, which the
// caller may change. s must itself be a private working copy.
func (s *State) editPlayer(ord int) *player {
	old := s.players.Get(ord)
	if s.mark != nil && old.mark == s.mark {
		return old // already this working copy's own
	}
	p := *old
	p.mark = s.mark
	p.holdings = append([]int64(nil), old.holdings...)
	p.reserved = append([]int64(nil), old.reserved...)
	s.players = s.players.Set(ord, &p)
	return &p
}

func (s *State) exchange(ord int) *exchange { return s.exchanges.Get(ord) }

func (s *State) editExchange(ord int) *exchange {
	x := *s.exchanges.Get(ord)
	s.exchanges = s.exchanges.Set(ord, &x)
	return &x
}

func (s *State) refName(ref int) string {
	switch ref {
	case refTreasury:
		return Treasury
	case refIssuance:
		return Issuance
	}
	return s.player(ref).id
}

// move writes one Ledger entry moving e.quantity of e.asset from e.from to
// e.to and applies it to both balances. Callers have checked funding.
func (s *State) move(e entry) {
	e.seq = int64(s.ledger.Len()) + 1
	idx := s.ledger.Len()
	s.ledger = s.ledger.Append(&e)
	for _, side := range [2]struct {
		ref  int
		sign int64
	}{{e.from, -1}, {e.to, 1}} {
		if side.ref < 0 {
			bal := append([]int64(nil), s.system[-side.ref-1]...)
			bal[e.asset] += side.sign * e.quantity
			s.system[-side.ref-1] = bal
			continue
		}
		p := s.editPlayer(side.ref)
		p.holdings[e.asset] += side.sign * e.quantity
		p.entries = p.entries.Append(idx)
	}
}

// authorSide is what the author of r has committed to it: the Proposer
// gives offered, the Counterparty gives requested.
func (x *exchange) authorSide(r *round) []item {
	if r.author == x.proposer {
		return r.offered
	}
	return r.requested
}

func (x *exchange) live() *round { return x.rounds.Get(x.rounds.Len() - 1) }

// answering returns the party whose turn it is, or -1 once concluded.
func (x *exchange) answering() int {
	if x.status != StatusAwaiting {
		return -1
	}
	if x.live().author == x.proposer {
		return x.counterparty
	}
	return x.proposer
}

func (x *exchange) partyIndex(p int) int {
	if p == x.proposer {
		return 0
	}
	return 1
}

// reserve adds sign*items to player ord's derived reservation.
func (s *State) reserve(ord int, items []item, sign int64) {
	p := s.editPlayer(ord)
	for _, it := range items {
		p.reserved[s.game.assetIdx[it.AssetID]] += sign * it.Quantity
	}
}

// available is a Player's holdings less its reservations.
func (p *player) available(asset int) int64 { return p.holdings[asset] - p.reserved[asset] }

// ---- serialization ----

type stateFile struct {
	Format       string                      `json:"format"`
	GameID       string                      `json:"gameId"`
	Seed         string                      `json:"seed"`
	StateVersion int64                       `json:"stateVersion"`
	Transfers    int                         `json:"transfers"`
	System       map[string]map[string]int64 `json:"system"`
	Players      []playerFile                `json:"players"`
	Exchanges    []exchangeFile              `json:"exchanges"`
	Ledger       []entryFile                 `json:"ledger"`
	Commands     []commandFile               `json:"commands"`
}

type playerFile struct {
	PlayerID    string           `json:"playerId"`
	OwnerID     string           `json:"ownerId"`
	EnrolledAt  int64            `json:"enrolledAt"`
	TradingName string           `json:"tradingName"`
	Holdings    map[string]int64 `json:"holdings"`
}

type exchangeFile struct {
	ExchangeID   string      `json:"exchangeId"`
	Proposer     string      `json:"proposer"`
	Counterparty string      `json:"counterparty"`
	Status       string      `json:"status"`
	Version      int64       `json:"exchangeVersion"`
	CreatedAt    int64       `json:"createdAt"`
	ConcludedAt  int64       `json:"concludedAt"`
	RuleApplied  [2]bool     `json:"ruleApplied"`
	RuleNote     [2]*string  `json:"ruleNote"`
	Rounds       []roundFile `json:"rounds"`
}

type roundFile struct {
	Author    string         `json:"author"`
	Offered   []item         `json:"offered"`
	Requested []item         `json:"requested"`
	ExpiresAt int64          `json:"expiresAt"`
	CreatedAt int64          `json:"createdAt"`
	Terms     string         `json:"terms"`
	TermsHash string         `json:"termsHash"`
	Countered bool           `json:"countered"`
	Approvals []approvalFile `json:"approvals"`
}

type approvalFile struct {
	PlayerID string `json:"playerId"`
	At       int64  `json:"at"`
}

type entryFile struct {
	At         int64   `json:"at"`
	Reason     string  `json:"reason"`
	From       string  `json:"from"`
	To         string  `json:"to"`
	AssetID    string  `json:"assetId"`
	Quantity   int64   `json:"quantity"`
	Issuer     string  `json:"issuer"`
	CommandID  string  `json:"commandId"`
	ExchangeID string  `json:"exchangeId"`
	TransferID string  `json:"transferId"`
	RuleID     string  `json:"ruleId"`
	RuleNote   *string `json:"ruleNote"`
}

type commandFile struct {
	PlayerID     string `json:"playerId"`
	CommandID    string `json:"commandId"`
	Action       string `json:"action"`
	Hash         string `json:"hash"`
	At           int64  `json:"at"`
	StateVersion int64  `json:"stateVersion"`
	Response     string `json:"response"`
}

// Marshal returns the canonical JSON of s: the whole private state,
// including Owner IDs and stored responses, for the host's storage only.
// Restore on the same Game gives back an equal State, and equal States
// marshal to identical bytes.
func (s *State) Marshal() ([]byte, error) {
	g := s.game
	f := stateFile{Format: StateFormat, GameID: g.id, Seed: s.seed, StateVersion: s.version,
		Transfers: s.transfers, System: map[string]map[string]int64{},
		Players: []playerFile{}, Exchanges: []exchangeFile{}, Ledger: []entryFile{}, Commands: []commandFile{}}
	hold := func(v []int64) map[string]int64 {
		m := map[string]int64{}
		for i, q := range v {
			m[g.assets[i].ID] = q
		}
		return m
	}
	f.System[Treasury], f.System[Issuance] = hold(s.system[0]), hold(s.system[1])
	for i := 0; i < s.players.Len(); i++ {
		p := s.players.Get(i)
		f.Players = append(f.Players, playerFile{PlayerID: p.id, OwnerID: p.owner, EnrolledAt: p.enrolledAt,
			TradingName: p.tradingName, Holdings: hold(p.holdings)})
	}
	for i := 0; i < s.exchanges.Len(); i++ {
		x := s.exchanges.Get(i)
		xf := exchangeFile{ExchangeID: x.id, Proposer: s.player(x.proposer).id, Counterparty: s.player(x.counterparty).id,
			Status: x.status, Version: x.version, CreatedAt: x.createdAt, ConcludedAt: x.concludedAt,
			RuleApplied: x.ruleApplied, RuleNote: x.ruleNote}
		for j := 0; j < x.rounds.Len(); j++ {
			r := x.rounds.Get(j)
			rf := roundFile{Author: s.player(r.author).id, Offered: r.offered, Requested: r.requested,
				ExpiresAt: r.expiresAt, CreatedAt: r.createdAt, Terms: string(r.terms), TermsHash: r.hash,
				Countered: r.countered, Approvals: []approvalFile{}}
			for _, a := range r.approvals {
				rf.Approvals = append(rf.Approvals, approvalFile{PlayerID: s.player(a.player).id, At: a.at})
			}
			xf.Rounds = append(xf.Rounds, rf)
		}
		f.Exchanges = append(f.Exchanges, xf)
	}
	for i := 0; i < s.ledger.Len(); i++ {
		e := s.ledger.Get(i)
		ef := entryFile{At: e.at, Reason: e.reason, From: s.refName(e.from), To: s.refName(e.to),
			AssetID: g.assets[e.asset].ID, Quantity: e.quantity, CommandID: e.commandID,
			ExchangeID: e.exchangeID, TransferID: e.transferID, RuleID: e.ruleID, RuleNote: e.note}
		if e.issuer >= 0 {
			ef.Issuer = s.player(e.issuer).id
		}
		f.Ledger = append(f.Ledger, ef)
	}
	for i := 0; i < s.commandLog.Len(); i++ {
		c := s.commandLog.Get(i)
		f.Commands = append(f.Commands, commandFile{PlayerID: s.player(c.player).id, CommandID: c.commandID,
			Action: c.action, Hash: c.hash, At: c.at, StateVersion: c.version, Response: string(c.response)})
	}
	return canon.Marshal(f)
}

// Restore rebuilds a State that Marshal wrote, for an instance of g. It
// checks the state against the game and itself: every balance must equal
// what its Ledger entries add up to, and reservations are derived afresh
// from the open Exchanges rather than read.
func (g *Game) Restore(data []byte) (*State, error) {
	var f stateFile
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("freeport: state: %w", err)
	}
	if f.Format != StateFormat {
		return nil, fmt.Errorf("freeport: state: format is %q, want %q", f.Format, StateFormat)
	}
	if f.GameID != g.id {
		return nil, fmt.Errorf("freeport: state: belongs to game %q, not %q", f.GameID, g.id)
	}
	s := g.NewState(f.Seed)
	s.version, s.transfers = f.StateVersion, f.Transfers
	bad := func(format string, args ...any) error {
		return fmt.Errorf("freeport: state: "+format, args...)
	}
	asset := func(id string) (int, error) {
		i, ok := g.assetIdx[id]
		if !ok {
			return 0, bad("unknown asset %q", id)
		}
		return i, nil
	}
	ref := func(id string) (int, error) {
		switch id {
		case Treasury:
			return refTreasury, nil
		case Issuance:
			return refIssuance, nil
		}
		if o, ok := s.playerByID.Get(id); ok {
			return o, nil
		}
		return 0, bad("unknown player %q", id)
	}
	for i, pf := range f.Players {
		if _, dup := s.playerByID.Get(pf.PlayerID); dup || pf.PlayerID == "" {
			return nil, bad("players[%d]: bad or duplicate playerId", i)
		}
		if _, dup := s.playerByOwner.Get(pf.OwnerID); dup || pf.OwnerID == "" {
			return nil, bad("players[%d]: bad or duplicate ownerId", i)
		}
		p := &player{ord: i, id: pf.PlayerID, owner: pf.OwnerID, enrolledAt: pf.EnrolledAt, tradingName: pf.TradingName,
			holdings: make([]int64, len(g.assets)), reserved: make([]int64, len(g.assets))}
		s.players = s.players.Append(p)
		s.playerByID = s.playerByID.Put(p.id, i)
		s.playerByOwner = s.playerByOwner.Put(p.owner, i)
	}
	for i, ef := range f.Ledger {
		e := entry{at: ef.At, reason: ef.Reason, quantity: ef.Quantity, issuer: -1, commandID: ef.CommandID,
			exchangeID: ef.ExchangeID, transferID: ef.TransferID, ruleID: ef.RuleID, note: ef.RuleNote}
		var err error
		if e.asset, err = asset(ef.AssetID); err != nil {
			return nil, err
		}
		if e.from, err = ref(ef.From); err != nil {
			return nil, err
		}
		if e.to, err = ref(ef.To); err != nil {
			return nil, err
		}
		if ef.Issuer != "" {
			if e.issuer, err = ref(ef.Issuer); err != nil || e.issuer < 0 {
				return nil, bad("ledger[%d]: bad issuer", i)
			}
		}
		if e.quantity < 1 {
			return nil, bad("ledger[%d]: quantity %d", i, e.quantity)
		}
		s.move(e)
	}
	for i, pf := range f.Players {
		p := s.player(i)
		for id, q := range pf.Holdings {
			a, err := asset(id)
			if err != nil {
				return nil, err
			}
			if p.holdings[a] != q {
				return nil, bad("player %q holds %d %s but its ledger entries add up to %d", p.id, q, id, p.holdings[a])
			}
		}
	}
	for k, name := range []string{Treasury, Issuance} {
		for id, q := range f.System[name] {
			a, err := asset(id)
			if err != nil {
				return nil, err
			}
			if s.system[k][a] != q {
				return nil, bad("%s holds %d %s but its ledger entries add up to %d", name, q, id, s.system[k][a])
			}
		}
	}
	for i, xf := range f.Exchanges {
		x := &exchange{ord: i, id: xf.ExchangeID, status: xf.Status, version: xf.Version, createdAt: xf.CreatedAt,
			concludedAt: xf.ConcludedAt, ruleApplied: xf.RuleApplied, ruleNote: xf.RuleNote}
		var err error
		if x.proposer, err = ref(xf.Proposer); err != nil || x.proposer < 0 {
			return nil, bad("exchanges[%d]: bad proposer", i)
		}
		if x.counterparty, err = ref(xf.Counterparty); err != nil || x.counterparty < 0 || x.counterparty == x.proposer {
			return nil, bad("exchanges[%d]: bad counterparty", i)
		}
		if _, dup := s.exchangeByID.Get(x.id); dup || len(xf.Rounds) == 0 {
			return nil, bad("exchanges[%d]: duplicate id or no rounds", i)
		}
		for j, rf := range xf.Rounds {
			r := &round{number: j + 1, offered: rf.Offered, requested: rf.Requested, expiresAt: rf.ExpiresAt,
				createdAt: rf.CreatedAt, terms: []byte(rf.Terms), hash: rf.TermsHash, countered: rf.Countered}
			if r.author, err = ref(rf.Author); err != nil || (r.author != x.proposer && r.author != x.counterparty) {
				return nil, bad("exchanges[%d].rounds[%d]: bad author", i, j)
			}
			if canon.DigestBytes(r.terms) != r.hash {
				return nil, bad("exchanges[%d].rounds[%d]: terms do not match termsHash", i, j)
			}
			for _, it := range append(append([]item(nil), r.offered...), r.requested...) {
				if _, err := asset(it.AssetID); err != nil {
					return nil, err
				}
			}
			for _, af := range rf.Approvals {
				a := approval{at: af.At}
				if a.player, err = ref(af.PlayerID); err != nil || a.player < 0 {
					return nil, bad("exchanges[%d].rounds[%d]: bad approval", i, j)
				}
				r.approvals = append(r.approvals, a)
			}
			x.rounds = x.rounds.Append(r)
		}
		switch x.status {
		case StatusAwaiting:
			live := x.live()
			s.reserve(live.author, x.authorSide(live), 1)
			s.expiry = tinsert(s.expiry, expiryKey{live.expiresAt, i})
		case StatusSettled, StatusDeclined, StatusCancelled, StatusExpired, StatusUnfunded:
		default:
			return nil, bad("exchanges[%d]: unknown status %q", i, x.status)
		}
		s.exchanges = s.exchanges.Append(x)
		s.exchangeByID = s.exchangeByID.Put(x.id, i)
		for _, party := range []int{x.proposer, x.counterparty} {
			p := s.editPlayer(party)
			p.exchanges = p.exchanges.Append(i)
		}
	}
	for i := 0; i < s.players.Len(); i++ {
		p := s.player(i)
		for a := range g.assets {
			if p.reserved[a] > p.holdings[a] {
				return nil, bad("player %q has more %s reserved than it holds", p.id, g.assets[a].ID)
			}
		}
	}
	for i, cf := range f.Commands {
		o, err := ref(cf.PlayerID)
		if err != nil || o < 0 || cf.CommandID == "" {
			return nil, bad("commands[%d]: bad player or commandId", i)
		}
		c := &cmdRecord{player: o, commandID: cf.CommandID, action: cf.Action, hash: cf.Hash, at: cf.At,
			version: cf.StateVersion, response: []byte(cf.Response)}
		key := commandKey(o, c.commandID)
		if _, dup := s.commands.Get(key); dup {
			return nil, bad("commands[%d]: duplicate commandId", i)
		}
		s.commands = s.commands.Put(key, c)
		s.commandLog = s.commandLog.Append(c)
	}
	if s.version < 0 {
		return nil, errors.New("freeport: state: negative stateVersion")
	}
	return s, nil
}

func commandKey(player int, commandID string) string {
	return strconv.Itoa(player) + "\x00" + commandID
}
