package freeport

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// SweepBatch is the most Exchanges one expiry pass concludes.
const SweepBatch = 50

// MaxTradingName is the longest Trading Name, in characters.
const MaxTradingName = 32

// Apply evaluates one request: body is the raw request envelope, owner the
// Owner ID the host authenticated (never read from the payload; "" when
// there is none) and now the host's clock in Unix milliseconds.
//
// It returns the State after the request and the response bytes. Apply never
// modifies s. It first sweeps due Exchanges (at most SweepBatch), which is a
// state change of its own; the request then either commits whole — its
// holdings, Ledger entries, Exchange, State Version bump and stored response
// together — or changes nothing further. The returned State's Version tells
// the host whether there is anything to persist.
//
// Apply is deterministic: the same State, owner, now and body always give the
// same State and the same bytes.
func (s *State) Apply(owner string, now int64, body []byte) (*State, []byte) {
	st := s.Sweep(now)
	if strings.TrimSpace(owner) == "" {
		return st, st.refusal(refuse(CodeAuthenticationRequired, "an authenticated Owner is required"))
	}
	c, r := decodeRequest(body)
	if r != nil {
		return st, st.refusal(r)
	}
	me, enrolled := st.playerByOwner.Get(owner)
	switch {
	case c.action == ActionReadStanding:
		return st, st.success(st.standing(now))
	case c.action == ActionEnroll:
		if !enrolled {
			return st.enroll(owner, now, c)
		}
	case !enrolled:
		return st, st.refusal(refuse(CodeNotEnrolled, "this Owner has not enrolled; send enroll first"))
	}
	if !c.mutation {
		res, r := st.query(me, now, c)
		if r != nil {
			return st, st.refusal(r)
		}
		return st, st.success(res)
	}
	digest := canon.DigestBytes(c.norm)
	key := commandKey(me, c.commandID)
	if rec, ok := st.commands.Get(key); ok {
		if rec.hash == digest {
			return st, rec.response
		}
		return st, st.refusal(refuse(CodeCommandIDReuse, fmt.Sprintf("commandId %q was already used for a different command", c.commandID)))
	}
	if c.action == ActionEnroll { // repeated Enrolment: no record, no bump
		return st, st.success(st.enrolmentView(me, "already_enrolled"))
	}
	tx := st.working()
	res, changed, r := tx.mutate(me, now, c)
	if r != nil {
		return st, st.refusal(r)
	}
	if !changed {
		return st, st.success(res)
	}
	return tx.commit(me, now, c, digest, res)
}

// commit bumps the State Version, renders the response and stores it under
// (player, commandId), all in the working copy tx.
func (s *State) commit(me int, now int64, c *command, digest string, res any) (*State, []byte) {
	s.version++
	resp := s.success(res)
	rec := &cmdRecord{player: me, commandID: c.commandID, action: c.action, hash: digest, at: now, version: s.version, response: resp}
	s.commands = s.commands.Put(commandKey(me, c.commandID), rec)
	s.commandLog = s.commandLog.Append(rec)
	return s, resp
}

// Sweep concludes as expired at most SweepBatch open Exchanges whose live
// Round's deadline is at or before now, oldest deadline first, releasing
// their reservations, as one state change. Apply calls it at the head of
// every request; a host may also call it on a timer. It returns s itself
// when nothing was due.
func (s *State) Sweep(now int64) *State {
	due := tdue(s.expiry, now, SweepBatch, nil)
	if len(due) == 0 {
		return s
	}
	tx := s.working()
	for _, k := range due {
		x := tx.editExchange(k.ord)
		live := x.live()
		tx.reserve(live.author, x.authorSide(live), -1)
		x.status, x.concludedAt = StatusExpired, now
		x.version++
		tx.expiry = tdelete(tx.expiry, k)
	}
	tx.version++
	return tx
}

type envelope struct {
	ProtocolVersion int       `json:"protocolVersion"`
	OK              bool      `json:"ok"`
	StateVersion    int64     `json:"stateVersion"`
	Result          any       `json:"result,omitempty"`
	Error           *errorMsg `json:"error,omitempty"`
}

type errorMsg struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (s *State) success(res any) []byte {
	env := envelope{ProtocolVersion: ProtocolVersion, OK: true, StateVersion: s.version, Result: res}
	return env.appendJSON(make([]byte, 0, sizeHint(res)))
}

func (s *State) refusal(r *refusal) []byte {
	env := envelope{ProtocolVersion: ProtocolVersion, StateVersion: s.version,
		Error: &errorMsg{Code: r.code, Message: r.message}}
	return env.appendJSON(make([]byte, 0, 256))
}

// sizeHint guesses a response's length, so that encoding it rarely grows
// the buffer; the stored response of a Command keeps this capacity.
func sizeHint(res any) int {
	switch v := res.(type) {
	case exchangeView:
		n := 1200
		if v.Rounds != nil {
			n += 560 * len(*v.Rounds)
		}
		return n + 110*len(v.Approvals)
	case statementView:
		return 128 + 300*len(v.Entries)
	case exchangeListView:
		return 64 + 1300*len(v.Exchanges)
	case standingView:
		return 256 + 120*len(v.Players)
	}
	return 512
}

// mustMarshal encodes a view the package built itself as canonical JSON;
// every such view is plain data, so a failure is a bug in this package.
// Views with a direct encoder (viewjson.go) use it.
func mustMarshal(v any) []byte {
	return appendView(make([]byte, 0, 512), v)
}

// appendCanonicalAny encodes v by reflection.
func appendCanonicalAny(b []byte, v any) []byte {
	return appendCanonical(b, reflect.ValueOf(v))
}

// enroll creates the Player of a new Owner with its Starting Assets.
func (s *State) enroll(owner string, now int64, c *command) (*State, []byte) {
	tx := s.working()
	ord := tx.players.Len()
	id := "p-" + tx.derive("player", fmt.Sprint(ord))[:20]
	g := tx.game
	p := &player{ord: ord, id: id, owner: owner, enrolledAt: now,
		holdings: make([]int64, len(g.assets)), reserved: make([]int64, len(g.assets))}
	tx.players = tx.players.Append(p)
	tx.playerByID = tx.playerByID.Put(id, ord)
	tx.playerByOwner = tx.playerByOwner.Put(owner, ord)
	for a, q := range g.starting {
		if q > 0 {
			tx.move(entry{at: now, reason: reasonEnrolment, from: refIssuance, to: ord, asset: a, quantity: q,
				issuer: ord, commandID: c.commandID})
		}
	}
	return tx.commit(ord, now, c, canon.DigestBytes(c.norm), tx.enrolmentView(ord, "enrolled"))
}

// mutate runs one Command on the working copy tx. It reports the result,
// whether state changed, or a refusal, in which case the caller discards tx.
func (s *State) mutate(me int, now int64, c *command) (any, bool, *refusal) {
	switch c.action {
	case ActionSetTradingName:
		return s.setTradingName(me, c)
	case ActionTransfer:
		return s.transfer(me, now, c)
	case ActionProposeExchange:
		return s.propose(me, now, c)
	case ActionRespondToExchange:
		return s.respond(me, now, c)
	case ActionCounterExchange:
		return s.counter(me, now, c)
	case ActionCancelExchange:
		return s.cancel(me, now, c)
	}
	return nil, false, refuse(CodeMalformedRequest, fmt.Sprintf("unknown action %q", c.action))
}

func (s *State) query(me int, now int64, c *command) (any, *refusal) {
	switch c.action {
	case ActionReadInventory:
		return inventoryView{PlayerID: s.player(me).id, Holdings: s.holdingsView(me)}, nil
	case ActionReadStatement:
		return s.statement(me, c)
	case ActionGetExchange:
		return s.getExchange(me, c)
	case ActionListExchanges:
		return s.listExchanges(me, c)
	}
	return nil, refuse(CodeMalformedRequest, fmt.Sprintf("unknown action %q", c.action))
}

// checkTradingName checks a claim under the game's name policy; an empty
// claim (after trimming) clears the name, as it always has.
func (s *State) checkTradingName(claim string) (string, *refusal) {
	if s.game.names == nil || strings.TrimSpace(claim) == "" {
		return normalizeTradingName(claim)
	}
	name, err := s.game.names(claim)
	if err != nil {
		return "", refuse(CodeInvalidTradingName, "this Trading Name is refused: "+err.Error())
	}
	return name, nil
}

// normalizeTradingName trims a claim and checks it is printable: the check
// without a name policy.
func normalizeTradingName(s string) (string, *refusal) {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxTradingName {
		return "", refuse(CodeInvalidTradingName, fmt.Sprintf("a Trading Name is at most %d characters", MaxTradingName))
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return "", refuse(CodeInvalidTradingName, "a Trading Name may not carry a control character")
		}
	}
	return s, nil
}

func (s *State) setTradingName(me int, c *command) (any, bool, *refusal) {
	name := ""
	if !c.nameNull {
		var r *refusal
		if name, r = s.checkTradingName(c.s("tradingName")); r != nil {
			return nil, false, r
		}
	}
	p := s.player(me)
	var claim *string
	if name != "" {
		claim = &name
	}
	res := tradingNameView{PlayerID: p.id, TradingName: claim}
	if p.tradingName == name {
		return res, false, nil
	}
	s.editPlayer(me).tradingName = name
	return res, true, nil
}

func (s *State) transfer(me int, now int64, c *command) (any, bool, *refusal) {
	assetID := c.s("assetId")
	q, _ := c.n("quantity")
	a, r := s.transferable(assetID)
	if r != nil {
		return nil, false, r
	}
	to, r := s.otherPlayer(me, c, "toPlayerId", "transfer to")
	if r != nil {
		return nil, false, r
	}
	if s.player(me).available(a) < q {
		return nil, false, refuse(CodeInsufficientAvailable, fmt.Sprintf("not enough %s available", assetID))
	}
	s.transfers++
	id := "t-" + s.derive("transfer", fmt.Sprint(s.transfers))[:20]
	s.move(entry{at: now, reason: reasonTransfer, from: me, to: to, asset: a, quantity: q, issuer: me,
		commandID: c.commandID, transferID: id})
	return transferView{TransferID: id, ToPlayerID: s.player(to).id, AssetID: assetID, Quantity: q}, true, nil
}

// otherPlayer resolves the Player that member field of c names, which may
// not be the caller me: a Player cannot deal (verb) with itself.
func (s *State) otherPlayer(me int, c *command, field, verb string) (int, *refusal) {
	p, ok := s.playerByID.Get(c.s(field))
	if !ok {
		return 0, refuse(CodeUnknownPlayer, field+" is not a Player of this game")
	}
	if p == me {
		return 0, refuse(CodeSelfDealing, "a Player cannot "+verb+" itself")
	}
	return p, nil
}

// transferable resolves an Asset that Terms and transfers may name.
func (s *State) transferable(id string) (int, *refusal) {
	a, ok := s.game.assetIdx[id]
	if !ok {
		return 0, refuse(CodeUnknownAsset, fmt.Sprintf("unknown asset %q", id))
	}
	if !s.game.assets[a].Transferable {
		return 0, refuse(CodeUnknownAsset, fmt.Sprintf("asset %q cannot be traded", id))
	}
	return a, nil
}
