package rules

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// CardView is a card as the wire shows it.
type CardView struct {
	ID            string   `json:"id"`
	FunctionalID  string   `json:"functional_id,omitempty"`
	Name          string   `json:"name"`
	TypeLine      string   `json:"type_line"`
	ManaCost      string   `json:"mana_cost,omitempty"`
	RulesText     string   `json:"rules_text,omitempty"`
	Power         string   `json:"power,omitempty"`
	Toughness     string   `json:"toughness,omitempty"`
	Loyalty       string   `json:"loyalty,omitempty"`
	Keywords      []string `json:"keywords,omitempty"`
	CardTypes     []string `json:"card_types,omitempty"`
	ColorIdentity []string `json:"color_identity,omitempty"`
	Token         bool     `json:"token,omitempty"`

	enc *printedEnc // the encoding of every member but id, when the view is its card's printed one
}

// printedEnc is a printed card view's canonical encoding around its id:
// pre ends with the id's key, post follows its value.
type printedEnc struct{ pre, post []byte }

// encodePrinted encodes the printed view v (whose id is empty) around
// its id.
func encodePrinted(v *CardView) *printedEnc {
	b := appendCardView(nil, v)
	const key = `"id":`
	i := bytes.Index(b, []byte(key+`""`)) // the only unescaped quotes of this shape are the member's
	if i < 0 {
		return nil
	}
	return &printedEnc{pre: b[:i+len(key)], post: b[i+len(key)+2:]}
}

// Counter is a counter kind and count on a permanent or a player.
type Counter struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// PermanentView is a permanent with its current characteristics.
type PermanentView struct {
	ID                    string    `json:"id"`
	Controller            string    `json:"controller"`
	Owner                 string    `json:"owner"`
	Card                  CardView  `json:"card"`
	Tapped                bool      `json:"tapped,omitempty"`
	Attacking             bool      `json:"attacking,omitempty"`
	AttackingPlayer       string    `json:"attacking_player,omitempty"`
	AttackingPlaneswalker string    `json:"attacking_planeswalker,omitempty"`
	Blocking              []string  `json:"blocking,omitempty"`
	Damage                int       `json:"damage,omitempty"`
	AttachedTo            string    `json:"attached_to,omitempty"`
	IsCommander           bool      `json:"is_commander,omitempty"`
	Counters              []Counter `json:"counters,omitempty"`
	SummoningSick         bool      `json:"summoning_sick,omitempty"`
	SkipsNextUntap        bool      `json:"skips_next_untap,omitempty"`
	GrantedKeywords       []string  `json:"granted_keywords,omitempty"`
	ChosenColor           string    `json:"chosen_color,omitempty"`
	NamedCard             string    `json:"named_card,omitempty"`
	// PhysicalCard is the card this permanent is (CR 108.1): the id the
	// card has in a hand, a pile or a reveal; empty for a token.
	PhysicalCard string `json:"physical_card,omitempty"`
}

// StackTarget is one target of a stack item.
type StackTarget struct {
	Kind   string `json:"kind"`
	Player string `json:"player,omitempty"`
	ID     string `json:"id,omitempty"`
}

// StackItemView is an object on the stack.
type StackItemView struct {
	ID          string `json:"id"`
	Controller  string `json:"controller"`
	Description string `json:"description"`
	Source      string `json:"source,omitempty"`
	Kind        string `json:"kind"`
	// PhysicalCard is the card a spell is (CR 108.1); empty for an ability.
	PhysicalCard string        `json:"physical_card,omitempty"`
	Targets      []StackTarget `json:"targets,omitempty"`
	Card         *CardView     `json:"card,omitempty"`
}

// ZonePile is one player's public pile, top last.
type ZonePile struct {
	PlayerID string     `json:"player_id"`
	Cards    []CardView `json:"cards"`
}

// EmblemView is an emblem.
type EmblemView struct {
	ID         string   `json:"id"`
	Controller string   `json:"controller"`
	Abilities  []string `json:"abilities,omitempty"`
}

// SelfView is the receiver's own public and private counts.
type SelfView struct {
	Life            int       `json:"life"`
	LibrarySize     int       `json:"library_size"`
	MaximumHandSize any       `json:"maximum_hand_size"`
	Counters        []Counter `json:"counters,omitempty"`
	Eliminated      bool      `json:"eliminated,omitempty"`
	Connected       *bool     `json:"connected,omitempty"` // present, false, only when disconnected
	AI              bool      `json:"ai,omitempty"`
	Statuses        []string  `json:"statuses,omitempty"` // display-only, as an opponent sees them
}

// HandLimit is a maximum hand size of some number of cards, as
// SelfView.MaximumHandSize states it ({"cards": n}; "unlimited" is the
// string).
type HandLimit struct {
	Cards int `json:"cards"`
}

// OpponentView is another seat's public state.
type OpponentView struct {
	PlayerID      string    `json:"player_id"`
	HandSize      int       `json:"hand_size"`
	Life          int       `json:"life"`
	LibrarySize   int       `json:"library_size"`
	GraveyardSize int       `json:"graveyard_size"`
	Counters      []Counter `json:"counters,omitempty"`
	Eliminated    bool      `json:"eliminated,omitempty"`
	Connected     *bool     `json:"connected,omitempty"` // present, false, only when disconnected
	AI            bool      `json:"ai,omitempty"`
	Statuses      []string  `json:"statuses,omitempty"` // display-only sentences (see statuses)
}

// CommanderDamage is one commander's combat damage to one player.
type CommanderDamage struct {
	Commander string `json:"commander"`
	Damaged   string `json:"damaged"`
	Amount    int    `json:"amount"`
}

// CommanderTax is one commander's casts and tax.
type CommanderTax struct {
	Commander string `json:"commander"`
	Casts     int    `json:"casts,omitempty"`
	Tax       int    `json:"tax,omitempty"`
}

// CommanderIdentity is one seat's commander name and colour identity.
type CommanderIdentity struct {
	Commander     string   `json:"commander"`
	Name          string   `json:"name,omitempty"`
	ColorIdentity []string `json:"color_identity,omitempty"`
}

// View is the game's members of a GameView (seat set) or a
// SpectatorView (Players set instead of MyHand, Me and Opponents).
type View struct {
	MyHand            []CardView          `json:"my_hand,omitempty"`
	Revealed          []CardView          `json:"revealed,omitempty"`
	Me                *SelfView           `json:"me,omitempty"`
	Opponents         []OpponentView      `json:"opponents,omitempty"`
	Players           []OpponentView      `json:"players,omitempty"`
	Battlefield       []PermanentView     `json:"battlefield"`
	Emblems           []EmblemView        `json:"emblems,omitempty"`
	Stack             []StackItemView     `json:"stack"`
	Graveyards        []ZonePile          `json:"graveyards"`
	Exile             []ZonePile          `json:"exile"`
	Command           []ZonePile          `json:"command,omitempty"`
	Phase             string              `json:"phase"`
	Turn              int                 `json:"turn"`
	ActivePlayer      string              `json:"active_player"`
	ManaPool          []string            `json:"mana_pool,omitempty"`
	PriorityPlayer    string              `json:"priority_player,omitempty"`
	CommanderDamage   []CommanderDamage   `json:"commander_damage,omitempty"`
	CommanderTax      []CommanderTax      `json:"commander_tax,omitempty"`
	CommanderIdentity []CommanderIdentity `json:"commander_identity,omitempty"`

	shared *sharedView // the members above that every receiver shares, with their encoding
}

// printedView is a definition's card view without an id.
func printedView(d *card.Def, token bool) CardView {
	v := CardView{FunctionalID: d.ID, Name: d.Name, TypeLine: card.TypeLine(*d), ManaCost: d.Cost,
		Keywords: d.Keywords, CardTypes: d.Types, Token: token, RulesText: card.Text(*d)}
	if token {
		v.FunctionalID, v.ManaCost = "", ""
	} else {
		v.ColorIdentity = d.Identity()
	}
	if d.Power != nil {
		v.Power = strconv.Itoa(*d.Power)
	}
	if d.Toughness != nil {
		v.Toughness = strconv.Itoa(*d.Toughness)
	}
	if d.Loyalty != nil {
		v.Loyalty = strconv.Itoa(*d.Loyalty)
	}
	return v
}

// cardView projects a definition under id: the catalog card's view built
// once, or a token's.
func (g *Game) cardView(id string, d *card.Def, token bool) CardView {
	var v CardView
	if pv, ok := g.cards.views[d.ID]; ok && !token {
		v = *pv
	} else {
		v = printedView(d, token)
	}
	v.ID = id
	return v
}

// cardViews projects a zone's cards.
func (g *Game) cardViews(cards []Card) []CardView {
	out := make([]CardView, len(cards))
	for i, c := range cards {
		out[i] = g.cardView(g.cardID(c.N), g.def(c.ID), false)
	}
	return out
}

// permView projects a permanent with its computed characteristics.
func (g *Game) permView(p *Perm, sts []staticSrc) PermanentView {
	c := g.charsWith(p, sts)
	id := g.pid(p.N)
	cv := g.cardView(id, c.def, p.Tok != nil) // printed, with its encoding when a catalog card's
	if c.typed {
		cv.TypeLine, cv.CardTypes, cv.enc = card.TypeLine(*c.def), c.def.Types, nil
	}
	if is(c.def, "creature") {
		pw, tg := cv.Power, cv.Toughness
		cv.Power, cv.Toughness = strconv.Itoa(c.power), strconv.Itoa(c.tough)
		if cv.Power != pw || cv.Toughness != tg {
			cv.enc = nil
		}
	}
	if !c.kw.named(cv.Keywords) {
		cv.Keywords = c.kw.words(false)
		cv.enc = nil
	}
	v := PermanentView{ID: id, Controller: rooms.PlayerID(c.ctrl), Owner: rooms.PlayerID(p.Owner), Card: cv,
		Tapped: p.Tapped, Damage: p.Damage, IsCommander: p.Cmdr, SkipsNextUntap: p.Skip,
		GrantedKeywords: c.granted.words(true), ChosenColor: p.Color, NamedCard: p.Named}
	if p.Tok == nil {
		v.PhysicalCard = g.cardID(p.Card)
	}
	if p.Attack != "" {
		v.Attacking = true
		v.AttackingPlayer = rooms.PlayerID(g.defendingSeat(p.Attack))
		if strings.HasPrefix(p.Attack, "perm_") {
			v.AttackingPlaneswalker = p.Attack
		}
	}
	if len(p.Blocks) > 0 {
		v.Blocking = numIDs(p.Blocks, g.pid)
	}
	if p.Attach != 0 {
		v.AttachedTo = g.pid(p.Attach)
	}
	for _, k := range []Counter{{"+1/+1", p.Plus}, {"-1/-1", p.Minus}, {"loyalty", p.Loyalty}} {
		if k.Count > 0 {
			v.Counters = append(v.Counters, k)
		}
	}
	v.SummoningSick = is(c.def, "creature") && p.Sick && c.kw&kwHaste == 0
	return v
}

// View projects the game for seat, or for rooms.Spectator.
func (g *Game) View(seat int) any { return g.ViewSeats(seat, nil) }

// ViewSeats is View with every seat's connection and AI flags (from the
// room machine) on me, opponents and players. The members every receiver
// sees alike are derived once per state and shared between the views.
func (g *Game) ViewSeats(seat int, seats []rooms.SeatStatus) any {
	st := &g.st
	sh := g.sharedView()
	v := View{Phase: phaseNames[st.Step], Turn: st.Turn, ActivePlayer: rooms.PlayerID(st.Active),
		Battlefield: sh.Battlefield, Emblems: sh.Emblems, Stack: sh.Stack, Graveyards: sh.Graveyards, Exile: sh.Exile,
		Command: sh.Command, CommanderDamage: sh.CommanderDamage, CommanderTax: sh.CommanderTax,
		CommanderIdentity: sh.CommanderIdentity, shared: sh}
	if st.Dec.Kind == DecPriority {
		v.PriorityPlayer = rooms.PlayerID(st.Dec.Seat)
	}
	others := make([]OpponentView, 0, len(st.Players)) // the opponents, or a spectator's players
	for i := range st.Players {
		pl := &st.Players[i]
		ov := OpponentView{PlayerID: rooms.PlayerID(i), HandSize: len(pl.Hand), Life: pl.Life, LibrarySize: len(pl.Library),
			GraveyardSize: len(pl.Grave), Counters: playerCounters(pl), Eliminated: pl.Out != "", Statuses: sh.Statuses[i]}
		if i < len(seats) {
			ov.AI = seats[i].AI != ""
			if !seats[i].Connected {
				ov.Connected = new(bool)
			}
		}
		switch {
		case i == seat:
			v.MyHand = g.cardViews(pl.Hand)
			if v.MyHand == nil {
				v.MyHand = []CardView{}
			}
			var mh any = HandLimit{Cards: HandSize}
			if g.noMaxHand(i) {
				mh = "unlimited"
			}
			v.Me = &SelfView{Life: pl.Life, LibrarySize: len(pl.Library), MaximumHandSize: mh, Counters: ov.Counters, Eliminated: ov.Eliminated,
				Connected: ov.Connected, AI: ov.AI, Statuses: ov.Statuses}
			v.ManaPool = poolSymbols(pl.Pool)
		default:
			others = append(others, ov)
		}
	}
	switch {
	case len(others) == 0:
	case seat == rooms.Spectator:
		v.Players = others
	default:
		v.Opponents = others
	}
	if seat >= 0 && seat < len(st.Players) {
		v.Revealed = g.revealed(seat)
	}
	return v
}

// poolSymbols lists a mana pool (one letter a mana) as symbols, "{G}";
// nil when empty.
func poolSymbols(pool string) []string {
	if pool == "" {
		return nil
	}
	out := make([]string, len(pool))
	for k := range len(pool) {
		out[k] = "{" + pool[k:k+1] + "}"
	}
	return out
}

// sharedView is the part of every view that all receivers see alike,
// with the canonical bytes of its members once encoded.
type sharedView struct {
	Battlefield       []PermanentView
	Emblems           []EmblemView
	Stack             []StackItemView
	Graveyards        []ZonePile
	Exile             []ZonePile
	Command           []ZonePile
	CommanderDamage   []CommanderDamage
	CommanderTax      []CommanderTax
	CommanderIdentity []CommanderIdentity
	Statuses          [][]string // each seat's

	enc *sharedEnc // the members' canonical encoding, once encoded
}

// sharedView returns the current state's shared view members, deriving
// them once per state.
func (g *Game) sharedView() *sharedView {
	m := g.memoized()
	if m.shared != nil {
		return m.shared
	}
	st := &g.st
	sh := &sharedView{Battlefield: make([]PermanentView, 0, len(st.Field)), Stack: []StackItemView{},
		Graveyards: make([]ZonePile, 0, len(st.Players)), Exile: make([]ZonePile, 0, len(st.Players))}
	sh.Statuses = make([][]string, len(st.Players))
	for i := range st.Players {
		pl := &st.Players[i]
		sh.Statuses[i] = g.statuses(i)
		sh.Graveyards = append(sh.Graveyards, ZonePile{PlayerID: rooms.PlayerID(i), Cards: orCards(g.cardViews(pl.Grave))})
		sh.Exile = append(sh.Exile, ZonePile{PlayerID: rooms.PlayerID(i), Cards: orCards(g.cardViews(pl.Exile))})
		if len(pl.Command) > 0 {
			sh.Command = append(sh.Command, ZonePile{PlayerID: rooms.PlayerID(i), Cards: g.cardViews(pl.Command)})
		}
		if st.Config.Commander {
			for j, d := range pl.CmdrDmg {
				if d > 0 {
					sh.CommanderDamage = append(sh.CommanderDamage, CommanderDamage{Commander: rooms.PlayerID(j), Damaged: rooms.PlayerID(i), Amount: d})
				}
			}
			sh.CommanderTax = append(sh.CommanderTax, CommanderTax{Commander: rooms.PlayerID(i), Casts: pl.Casts, Tax: 2 * pl.Casts})
			sh.CommanderIdentity = append(sh.CommanderIdentity, CommanderIdentity{Commander: rooms.PlayerID(i), Name: g.def(pl.Cmdr).Name, ColorIdentity: pl.Identity})
		}
	}
	sts := g.statics()
	for i := range st.Field {
		sh.Battlefield = append(sh.Battlefield, g.permView(&st.Field[i], sts))
	}
	for _, e := range st.Emblems {
		ev := EmblemView{ID: "emblem_" + strconv.Itoa(e.N), Controller: rooms.PlayerID(e.Ctrl)}
		ev.Abilities = []string{card.StaticText("", e.Static)}
		sh.Emblems = append(sh.Emblems, ev)
	}
	for i := range st.Stack {
		sh.Stack = append(sh.Stack, g.stackView(&st.Stack[i]))
	}
	m.shared = sh
	return sh
}

// orCards returns list or an empty non-nil list.
func orCards(list []CardView) []CardView {
	if list == nil {
		return []CardView{}
	}
	return list
}

// statuses lists seat's display-only statuses: public facts about the
// player that no other member states, as sentences, in this order: the
// mulligan in progress (deciding, or kept and how many cards went to
// the bottom), a land played this turn, no maximum hand size, and why
// an eliminated player lost.
func (g *Game) statuses(seat int) []string {
	st := &g.st
	pl := &st.Players[seat]
	var out []string
	if st.Dec.Kind == DecMulligan && pl.Out == "" {
		switch {
		case !pl.Kept && pl.Mulls == 0:
			out = append(out, "Deciding on a mulligan")
		case !pl.Kept:
			out = append(out, "Deciding on a mulligan, after "+plural(pl.Mulls, "mulligan"))
		case pl.Mulls == 0:
			out = append(out, "Kept seven cards")
		default:
			out = append(out, "Kept, with "+plural(pl.Mulls, "card")+" to the bottom")
		}
	}
	if pl.Lands > 0 && pl.Out == "" && st.Dec.Kind != DecMulligan {
		out = append(out, "Played a land this turn")
	}
	if pl.Out == "" && g.noMaxHand(seat) {
		out = append(out, "No maximum hand size")
	}
	if r, ok := lossReasons[pl.Out]; ok {
		out = append(out, r)
	}
	return out
}

// lossReasons are the statuses of an eliminated player, by reason.
var lossReasons = map[string]string{
	"life_zero":        "Lost: no life left",
	"decked":           "Lost: drew from an empty library",
	"poison":           "Lost: ten poison counters",
	"commander_damage": "Lost: 21 damage from one commander",
	"concede":          "Conceded",
}

// playerCounters lists a player's counters.
func playerCounters(pl *Player) []Counter {
	if pl.Poison > 0 {
		return []Counter{{"poison", pl.Poison}}
	}
	return nil
}

// stackView projects a stack item.
func (g *Game) stackView(it *Item) StackItemView {
	v := StackItemView{ID: stackID(it.N), Controller: rooms.PlayerID(it.Ctrl), Description: it.Name, Kind: it.Kind}
	if it.X > 0 || g.cards.cost(g.def(it.ID).Cost).X > 0 && it.Kind == "spell" {
		v.Description += " (X=" + strconv.Itoa(it.X) + ")"
	}
	if it.Kind == "spell" {
		cv := g.cardView(stackID(it.N), g.def(it.ID), false)
		v.Card = &cv
		v.PhysicalCard = g.cardID(it.Card)
	} else {
		v.Source = g.pid(it.Source)
		if d := g.def(it.ID); it.Ab >= 0 && it.Ab < len(d.Abilities) {
			v.Description = card.AbilityText(*d, d.Abilities[it.Ab])
		}
	}
	for _, t := range it.Targets {
		k, n, ok := g.parseID(t)
		switch {
		case !ok:
		case k == "p":
			v.Targets = append(v.Targets, StackTarget{Kind: "player", Player: rooms.PlayerID(n)})
		case k == "perm":
			v.Targets = append(v.Targets, StackTarget{Kind: "permanent", ID: t})
		case k == "stack":
			v.Targets = append(v.Targets, StackTarget{Kind: "stack", ID: t})
		default:
			v.Targets = append(v.Targets, StackTarget{Kind: "card", ID: t})
		}
	}
	return v
}

// revealed lists the hidden cards seat is being shown while it answers a
// choice: library cards it may pick, or another player's hand.
func (g *Game) revealed(seat int) []CardView {
	st := &g.st
	c := st.Dec.Choice
	if st.Dec.Kind != DecChoice || c == nil || c.Seat != seat {
		return nil
	}
	pl := &st.Players[c.Owner]
	var out []CardView
	switch c.Kind {
	case chScry, chSearch, chLook:
		for i, pos := range c.Lib {
			if pos < len(pl.Library) {
				out = append(out, g.cardView(g.cardID(c.Cards[i]), g.def(pl.Library[pos]), false))
			}
		}
	case chLookOrder:
		for i, n := range c.Cards {
			out = append(out, g.cardView(g.cardID(n), g.def(c.IDs[i]), false))
		}
	case chDiscard:
		if c.Owner != seat {
			out = g.cardViews(pl.Hand)
		}
	}
	return out
}

// AppendCanonical appends the view's canonical JSON (canon.Appender), with
// the members every receiver shares encoded once per state. A view not
// made by ViewSeats goes through encoding/json; one made by it must not
// have its shared members replaced.
//
// b grows once, by about the view's length (ownSize estimates the
// receiver's own members): a view is tens of kilobytes, and a larger
// allocation than it needs costs its zeroing (and, past 32 KB, the
// runtime's large-object path).
func (v View) AppendCanonical(b []byte) ([]byte, error) {
	sh := v.shared
	if sh == nil {
		type fields View // View without its methods
		enc, err := canon.Marshal(fields(v))
		return append(b, enc...), err
	}
	if sh.enc == nil {
		sh.enc = sh.encode()
	}
	const head, turn = `{"active_player":`, `,"turn":`
	size := len(head) + len(v.ActivePlayer) + 3 + len(sh.enc.block) + v.ownSize() + 1 + len(sh.enc.stack) + len(turn) + 20 + 1
	o := canon.OpenObject(slices.Grow(b, size))
	o.String("active_player", v.ActivePlayer)
	o.Member(sh.enc.block)
	v.appendOwn(&o)
	o.Member(sh.enc.stack)
	o.Int("turn", int64(v.Turn))
	return o.Close(), nil
}

// ownSize is an estimate of the length appendOwn appends: exact for the
// cards printed as in the catalog, generous for the rest.
func (v *View) ownSize() int {
	n := 256 + len(v.Phase) + len(v.PriorityPlayer) + 8*len(v.ManaPool)
	for _, cards := range [][]CardView{v.MyHand, v.Revealed} {
		for i := range cards {
			n += 1 + cardViewSize(&cards[i])
		}
	}
	if me := v.Me; me != nil {
		n += 160 + 48*len(me.Counters)
		for _, s := range me.Statuses {
			n += len(s) + 3
		}
	}
	for _, players := range [][]OpponentView{v.Opponents, v.Players} {
		for i := range players {
			n += 192 + len(players[i].PlayerID) + 48*len(players[i].Counters)
			for _, s := range players[i].Statuses {
				n += len(s) + 3
			}
		}
	}
	return n
}

// appendOwn writes the members of v that are the receiver's own, those
// between graveyards and stack in key order (mana_pool, me, my_hand,
// opponents, phase, players, priority_player, revealed).
func (v *View) appendOwn(o *canon.Object) {
	o.OptStrings("mana_pool", v.ManaPool)
	canon.OptValue(o, "me", v.Me, appendSelfView)
	canon.OptList(o, "my_hand", v.MyHand, appendCardView)
	canon.OptList(o, "opponents", v.Opponents, appendOpponentView)
	o.String("phase", v.Phase)
	canon.OptList(o, "players", v.Players, appendOpponentView)
	o.OptString("priority_player", v.PriorityPlayer)
	canon.OptList(o, "revealed", v.Revealed, appendCardView)
}

// sharedEnc is the canonical encoding of the shared members, in one
// buffer: block is battlefield, command, commander_damage,
// commander_identity, commander_tax, emblems, exile and graveyards (those
// present, as `"key":value` joined by commas: the members a view writes
// after active_player), stack is the stack member.
type sharedEnc struct{ block, stack []byte }

// encode encodes the shared members into one buffer of about their length.
func (sh *sharedView) encode() *sharedEnc {
	o := canon.OpenObject(make([]byte, 0, sh.size()))
	canon.List(&o, "battlefield", sh.Battlefield, appendPermanentView)
	canon.OptList(&o, "command", sh.Command, appendZonePile)
	canon.OptList(&o, "commander_damage", sh.CommanderDamage, appendCommanderDamage)
	canon.OptList(&o, "commander_identity", sh.CommanderIdentity, appendCommanderIdentity)
	canon.OptList(&o, "commander_tax", sh.CommanderTax, appendCommanderTax)
	canon.OptList(&o, "emblems", sh.Emblems, appendEmblemView)
	canon.List(&o, "exile", sh.Exile, appendZonePile)
	canon.List(&o, "graveyards", sh.Graveyards, appendZonePile)
	n := len(o.B)
	o.Key("stack") // after a comma, at n
	o.B = canon.AppendList(o.B, sh.Stack, appendStackItemView)
	return &sharedEnc{block: o.B[1:n:n], stack: o.B[n+1:]} // without the '{' and the comma
}

// size is an estimate of the length of the shared members' encoding:
// each card printed as in the catalog is counted exactly, everything
// else generously.
func (sh *sharedView) size() int {
	n := 256 + 64*(len(sh.CommanderDamage)+len(sh.CommanderTax))
	for _, c := range sh.CommanderIdentity {
		n += 80 + len(c.Name) + 4*len(c.ColorIdentity)
	}
	for i := range sh.Battlefield {
		p := &sh.Battlefield[i]
		n += 144 + cardViewSize(&p.Card) + 24*(len(p.Blocking)+len(p.Counters)+len(p.GrantedKeywords)) +
			len(p.AttackingPlaneswalker) + len(p.ChosenColor) + len(p.NamedCard)
		if p.Attacking {
			n += 48
		}
	}
	for _, zones := range [][]ZonePile{sh.Command, sh.Exile, sh.Graveyards} {
		for i := range zones {
			n += 32
			for j := range zones[i].Cards {
				n += 1 + cardViewSize(&zones[i].Cards[j])
			}
		}
	}
	for i := range sh.Stack {
		n += 256 + len(sh.Stack[i].Description) + 48*len(sh.Stack[i].Targets)
		if c := sh.Stack[i].Card; c != nil {
			n += cardViewSize(c)
		}
	}
	for i := range sh.Emblems {
		n += 64
		for _, a := range sh.Emblems[i].Abilities {
			n += len(a) + 8
		}
	}
	return n
}

// cardViewSize is an estimate of the length of v's encoding: exact for a
// card printed as in the catalog (whose id needs no escaping), generous
// for another.
func cardViewSize(v *CardView) int {
	n := len(v.ID) + 2
	if e := v.enc; e != nil {
		return n + len(e.pre) + len(e.post)
	}
	n += 224 + len(v.FunctionalID) + len(v.Name) + len(v.TypeLine) + len(v.ManaCost) + len(v.RulesText) +
		len(v.Power) + len(v.Toughness) + len(v.Loyalty)
	for _, list := range [][]string{v.Keywords, v.CardTypes, v.ColorIdentity} {
		for _, s := range list {
			n += len(s) + 3
		}
	}
	return n
}
