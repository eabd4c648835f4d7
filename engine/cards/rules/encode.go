package rules

import (
	"strconv"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Direct canonical encoders of the state and the view types: each writes
// exactly the bytes canon.Marshal gives (keys in order, omitempty as
// encoding/json reads it), without reflection and the re-parse. The
// random-game tests compare both on every state and view they reach. A
// field of a catalog type (a token's or an emblem's definition) or of
// the room machine's (the result) goes through canon.Marshal.

// AppendCanonical appends the state's canonical JSON: State's bytes.
func (st *State) AppendCanonical(b []byte) []byte { return appendState(b, st) }

// objectWriter appends the members of a canonical JSON object, given in
// key order, with the commas between them.
type objectWriter struct {
	b    []byte
	some bool
}

// key starts a member: the comma before it, the key and the colon. Keys
// are plain ASCII names.
func (o *objectWriter) key(k string) {
	if o.some {
		o.b = append(o.b, ',')
	}
	o.b = append(append(append(o.b, '"'), k...), '"', ':')
	o.some = true
}

// appendInts appends a list of integers (null when nil).
func appendInts(b []byte, list []int) []byte {
	return rooms.AppendList(b, list, rooms.AppendInt[int])
}

// appendList appends a list of structs with enc (null when nil).
func appendList[T any](b []byte, list []T, enc func([]byte, *T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = enc(b, &list[i])
	}
	return append(b, ']')
}

// appendMarshal appends canon.Marshal's encoding of v, one of the
// catalog's or the room machine's plain data types, which always encode.
func appendMarshal(b []byte, v any) []byte {
	enc, _ := canon.Marshal(v)
	return append(b, enc...)
}

// appendConfig appends x's canonical JSON.
func appendConfig(b []byte, x *Config) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Commander {
		o.key("commander")
		o.b = strconv.AppendBool(o.b, x.Commander)
	}
	o.key("format")
	o.b = rooms.AppendString(o.b, x.Format)
	o.key("life")
	o.b = strconv.AppendInt(o.b, int64(x.Life), 10)
	return append(o.b, '}')
}

// appendCard appends x's canonical JSON.
func appendCard(b []byte, x *Card) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Cmdr {
		o.key("cmdr")
		o.b = strconv.AppendBool(o.b, x.Cmdr)
	}
	o.key("id")
	o.b = rooms.AppendString(o.b, x.ID)
	o.key("n")
	o.b = strconv.AppendInt(o.b, int64(x.N), 10)
	if x.Since != 0 {
		o.key("since")
		o.b = strconv.AppendInt(o.b, int64(x.Since), 10)
	}
	return append(o.b, '}')
}

// appendPlayer appends x's canonical JSON.
func appendPlayer(b []byte, x *Player) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Casts != 0 {
		o.key("casts")
		o.b = strconv.AppendInt(o.b, int64(x.Casts), 10)
	}
	if x.Cmdr != "" {
		o.key("cmdr")
		o.b = rooms.AppendString(o.b, x.Cmdr)
	}
	if len(x.CmdrDmg) > 0 {
		o.key("cmdr_dmg")
		o.b = appendInts(o.b, x.CmdrDmg)
	}
	if len(x.Command) > 0 {
		o.key("command")
		o.b = appendList(o.b, x.Command, appendCard)
	}
	if x.Drew {
		o.key("drew")
		o.b = strconv.AppendBool(o.b, x.Drew)
	}
	o.key("exile")
	o.b = appendList(o.b, x.Exile, appendCard)
	o.key("grave")
	o.b = appendList(o.b, x.Grave, appendCard)
	o.key("hand")
	o.b = appendList(o.b, x.Hand, appendCard)
	if len(x.Identity) > 0 {
		o.key("identity")
		o.b = rooms.AppendStrings(o.b, x.Identity)
	}
	if x.Kept {
		o.key("kept")
		o.b = strconv.AppendBool(o.b, x.Kept)
	}
	if x.Lands != 0 {
		o.key("lands")
		o.b = strconv.AppendInt(o.b, int64(x.Lands), 10)
	}
	o.key("library")
	o.b = rooms.AppendStrings(o.b, x.Library)
	o.key("life")
	o.b = strconv.AppendInt(o.b, int64(x.Life), 10)
	if x.Mulls != 0 {
		o.key("mulls")
		o.b = strconv.AppendInt(o.b, int64(x.Mulls), 10)
	}
	if x.Out != "" {
		o.key("out")
		o.b = rooms.AppendString(o.b, x.Out)
	}
	if x.Poison != 0 {
		o.key("poison")
		o.b = strconv.AppendInt(o.b, int64(x.Poison), 10)
	}
	if x.Pool != "" {
		o.key("pool")
		o.b = rooms.AppendString(o.b, x.Pool)
	}
	return append(o.b, '}')
}

// appendPerm appends x's canonical JSON.
func appendPerm(b []byte, x *Perm) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Attach != 0 {
		o.key("attach")
		o.b = strconv.AppendInt(o.b, int64(x.Attach), 10)
	}
	if x.Attack != "" {
		o.key("attack")
		o.b = rooms.AppendString(o.b, x.Attack)
	}
	if x.Blocked {
		o.key("blocked")
		o.b = strconv.AppendBool(o.b, x.Blocked)
	}
	if len(x.Blockers) > 0 {
		o.key("blockers")
		o.b = appendInts(o.b, x.Blockers)
	}
	if len(x.Blocks) > 0 {
		o.key("blocks")
		o.b = appendInts(o.b, x.Blocks)
	}
	if x.Card != 0 {
		o.key("card")
		o.b = strconv.AppendInt(o.b, int64(x.Card), 10)
	}
	if x.Cmdr {
		o.key("cmdr")
		o.b = strconv.AppendBool(o.b, x.Cmdr)
	}
	if x.Color != "" {
		o.key("color")
		o.b = rooms.AppendString(o.b, x.Color)
	}
	o.key("ctrl")
	o.b = strconv.AppendInt(o.b, int64(x.Ctrl), 10)
	if x.Damage != 0 {
		o.key("damage")
		o.b = strconv.AppendInt(o.b, int64(x.Damage), 10)
	}
	if x.DTouch {
		o.key("dtouch")
		o.b = strconv.AppendBool(o.b, x.DTouch)
	}
	if x.ID != "" {
		o.key("id")
		o.b = rooms.AppendString(o.b, x.ID)
	}
	if x.Loyalty != 0 {
		o.key("loyalty")
		o.b = strconv.AppendInt(o.b, int64(x.Loyalty), 10)
	}
	if x.Minus != 0 {
		o.key("minus")
		o.b = strconv.AppendInt(o.b, int64(x.Minus), 10)
	}
	o.key("n")
	o.b = strconv.AppendInt(o.b, int64(x.N), 10)
	if x.Named != "" {
		o.key("named")
		o.b = rooms.AppendString(o.b, x.Named)
	}
	o.key("owner")
	o.b = strconv.AppendInt(o.b, int64(x.Owner), 10)
	if x.Plus != 0 {
		o.key("plus")
		o.b = strconv.AppendInt(o.b, int64(x.Plus), 10)
	}
	if x.Sick {
		o.key("sick")
		o.b = strconv.AppendBool(o.b, x.Sick)
	}
	if x.Skip {
		o.key("skip")
		o.b = strconv.AppendBool(o.b, x.Skip)
	}
	if x.Tapped {
		o.key("tapped")
		o.b = strconv.AppendBool(o.b, x.Tapped)
	}
	if x.Tok != nil {
		o.key("tok")
		o.b = appendMarshal(o.b, x.Tok)
	}
	o.key("ts")
	o.b = strconv.AppendInt(o.b, int64(x.TS), 10)
	if x.Used {
		o.key("used")
		o.b = strconv.AppendBool(o.b, x.Used)
	}
	return append(o.b, '}')
}

// appendItem appends x's canonical JSON.
func appendItem(b []byte, x *Item) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("ab")
	o.b = strconv.AppendInt(o.b, int64(x.Ab), 10)
	if x.Aim != 0 {
		o.key("aim")
		o.b = strconv.AppendInt(o.b, int64(x.Aim), 10)
	}
	if x.Aimed {
		o.key("aimed")
		o.b = strconv.AppendBool(o.b, x.Aimed)
	}
	if x.Card != 0 {
		o.key("card")
		o.b = strconv.AppendInt(o.b, int64(x.Card), 10)
	}
	if x.Cmdr {
		o.key("cmdr")
		o.b = strconv.AppendBool(o.b, x.Cmdr)
	}
	o.key("ctrl")
	o.b = strconv.AppendInt(o.b, int64(x.Ctrl), 10)
	if x.Event != "" {
		o.key("event")
		o.b = rooms.AppendString(o.b, x.Event)
	}
	if x.ID != "" {
		o.key("id")
		o.b = rooms.AppendString(o.b, x.ID)
	}
	o.key("kind")
	o.b = rooms.AppendString(o.b, x.Kind)
	if len(x.Modes) > 0 {
		o.key("modes")
		o.b = appendInts(o.b, x.Modes)
	}
	o.key("n")
	o.b = strconv.AppendInt(o.b, int64(x.N), 10)
	o.key("name")
	o.b = rooms.AppendString(o.b, x.Name)
	o.key("owner")
	o.b = strconv.AppendInt(o.b, int64(x.Owner), 10)
	if x.Source != 0 {
		o.key("source")
		o.b = strconv.AppendInt(o.b, int64(x.Source), 10)
	}
	if len(x.Targets) > 0 {
		o.key("targets")
		o.b = appendMarshal(o.b, x.Targets)
	}
	if x.X != 0 {
		o.key("x")
		o.b = strconv.AppendInt(o.b, int64(x.X), 10)
	}
	return append(o.b, '}')
}

// appendEffect appends x's canonical JSON.
func appendEffect(b []byte, x *Effect) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("control")
	o.b = strconv.AppendInt(o.b, int64(x.Control), 10)
	if x.EOT {
		o.key("eot")
		o.b = strconv.AppendBool(o.b, x.EOT)
	}
	if len(x.Keywords) > 0 {
		o.key("keywords")
		o.b = rooms.AppendStrings(o.b, x.Keywords)
	}
	o.key("perm")
	o.b = strconv.AppendInt(o.b, int64(x.Perm), 10)
	if x.Power != 0 {
		o.key("power")
		o.b = strconv.AppendInt(o.b, int64(x.Power), 10)
	}
	if x.Tough != 0 {
		o.key("tough")
		o.b = strconv.AppendInt(o.b, int64(x.Tough), 10)
	}
	o.key("ts")
	o.b = strconv.AppendInt(o.b, int64(x.TS), 10)
	return append(o.b, '}')
}

// appendEmblem appends x's canonical JSON.
func appendEmblem(b []byte, x *Emblem) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("ctrl")
	o.b = strconv.AppendInt(o.b, int64(x.Ctrl), 10)
	o.key("n")
	o.b = strconv.AppendInt(o.b, int64(x.N), 10)
	o.key("static")
	o.b = appendMarshal(o.b, x.Static)
	return append(o.b, '}')
}

// appendDecision appends x's canonical JSON.
func appendDecision(b []byte, x *Decision) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Choice != nil {
		o.key("choice")
		o.b = appendChoice(o.b, x.Choice)
	}
	if x.Item != 0 {
		o.key("item")
		o.b = strconv.AppendInt(o.b, int64(x.Item), 10)
	}
	o.key("kind")
	o.b = rooms.AppendString(o.b, x.Kind)
	o.key("seat")
	o.b = strconv.AppendInt(o.b, int64(x.Seat), 10)
	return append(o.b, '}')
}

// appendChoice appends x's canonical JSON.
func appendChoice(b []byte, x *Choice) []byte {
	o := objectWriter{b: append(b, '{')}
	if len(x.Cards) > 0 {
		o.key("cards")
		o.b = appendInts(o.b, x.Cards)
	}
	if len(x.IDs) > 0 {
		o.key("ids")
		o.b = rooms.AppendStrings(o.b, x.IDs)
	}
	o.key("kind")
	o.b = rooms.AppendString(o.b, x.Kind)
	if len(x.Lib) > 0 {
		o.key("lib")
		o.b = appendInts(o.b, x.Lib)
	}
	o.key("max")
	o.b = strconv.AppendInt(o.b, int64(x.Max), 10)
	o.key("min")
	o.b = strconv.AppendInt(o.b, int64(x.Min), 10)
	o.key("owner")
	o.b = strconv.AppendInt(o.b, int64(x.Owner), 10)
	if x.Pay != "" {
		o.key("pay")
		o.b = rooms.AppendString(o.b, x.Pay)
	}
	if len(x.Pending) > 0 {
		o.key("pending")
		o.b = rooms.AppendStrings(o.b, x.Pending)
	}
	o.key("seat")
	o.b = strconv.AppendInt(o.b, int64(x.Seat), 10)
	return append(o.b, '}')
}

// appendRes appends x's canonical JSON.
func appendRes(b []byte, x *Res) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("item")
	o.b = appendItem(o.b, &x.Item)
	o.key("mode")
	o.b = strconv.AppendInt(o.b, int64(x.Mode), 10)
	o.key("path")
	o.b = appendInts(o.b, x.Path)
	o.key("seats")
	o.b = appendInts(o.b, x.Seats)
	return append(o.b, '}')
}

// appendCombat appends x's canonical JSON.
func appendCombat(b []byte, x *Combat) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Attacked {
		o.key("attacked")
		o.b = strconv.AppendBool(o.b, x.Attacked)
	}
	if len(x.Defenders) > 0 {
		o.key("defenders")
		o.b = appendInts(o.b, x.Defenders)
	}
	if x.FirstDone {
		o.key("first_done")
		o.b = strconv.AppendBool(o.b, x.FirstDone)
	}
	if x.Split {
		o.key("split")
		o.b = strconv.AppendBool(o.b, x.Split)
	}
	return append(o.b, '}')
}

// appendPending appends x's canonical JSON.
func appendPending(b []byte, x *Pending) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("ab")
	o.b = strconv.AppendInt(o.b, int64(x.Ab), 10)
	o.key("ctrl")
	o.b = strconv.AppendInt(o.b, int64(x.Ctrl), 10)
	if x.Event != "" {
		o.key("event")
		o.b = rooms.AppendString(o.b, x.Event)
	}
	o.key("id")
	o.b = rooms.AppendString(o.b, x.ID)
	o.key("name")
	o.b = rooms.AppendString(o.b, x.Name)
	o.key("source")
	o.b = strconv.AppendInt(o.b, int64(x.Source), 10)
	return append(o.b, '}')
}

// appendState appends x's canonical JSON.
func appendState(b []byte, x *State) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("active")
	o.b = strconv.AppendInt(o.b, int64(x.Active), 10)
	if len(x.Ask) > 0 {
		o.key("ask")
		o.b = appendInts(o.b, x.Ask)
	}
	if x.Combat != nil {
		o.key("combat")
		o.b = appendCombat(o.b, x.Combat)
	}
	o.key("config")
	o.b = appendConfig(o.b, &x.Config)
	o.key("dec")
	o.b = appendDecision(o.b, &x.Dec)
	if len(x.Effects) > 0 {
		o.key("effects")
		o.b = appendList(o.b, x.Effects, appendEffect)
	}
	if len(x.Emblems) > 0 {
		o.key("emblems")
		o.b = appendList(o.b, x.Emblems, appendEmblem)
	}
	o.key("entered")
	o.b = strconv.AppendInt(o.b, int64(x.Entered), 10)
	o.key("field")
	o.b = appendList(o.b, x.Field, appendPerm)
	o.key("next")
	o.b = strconv.AppendInt(o.b, int64(x.Next), 10)
	o.key("passes")
	o.b = strconv.AppendInt(o.b, int64(x.Passes), 10)
	o.key("phys")
	o.b = strconv.AppendInt(o.b, int64(x.Phys), 10)
	o.key("players")
	o.b = appendList(o.b, x.Players, appendPlayer)
	o.key("prio")
	o.b = strconv.AppendInt(o.b, int64(x.Prio), 10)
	if len(x.Queue) > 0 {
		o.key("queue")
		o.b = appendList(o.b, x.Queue, appendPending)
	}
	if x.Res != nil {
		o.key("res")
		o.b = appendRes(o.b, x.Res)
	}
	if x.Result != nil {
		o.key("result")
		o.b = appendMarshal(o.b, x.Result)
	}
	o.key("seed")
	o.b = rooms.AppendString(o.b, x.Seed)
	o.key("serial")
	o.b = strconv.AppendInt(o.b, int64(x.Serial), 10)
	o.key("shuffles")
	o.b = strconv.AppendInt(o.b, int64(x.Shuffles), 10)
	o.key("stack")
	o.b = appendList(o.b, x.Stack, appendItem)
	o.key("step")
	o.b = strconv.AppendInt(o.b, int64(x.Step), 10)
	o.key("ts")
	o.b = strconv.AppendInt(o.b, int64(x.TS), 10)
	o.key("turn")
	o.b = strconv.AppendInt(o.b, int64(x.Turn), 10)
	return append(o.b, '}')
}

// appendCardView appends x's canonical JSON.
func appendCardView(b []byte, x *CardView) []byte {
	if e := x.enc; e != nil {
		return append(rooms.AppendString(append(b, e.pre...), x.ID), e.post...)
	}
	o := objectWriter{b: append(b, '{')}
	if len(x.CardTypes) > 0 {
		o.key("card_types")
		o.b = rooms.AppendStrings(o.b, x.CardTypes)
	}
	if len(x.ColorIdentity) > 0 {
		o.key("color_identity")
		o.b = rooms.AppendStrings(o.b, x.ColorIdentity)
	}
	if x.FunctionalID != "" {
		o.key("functional_id")
		o.b = rooms.AppendString(o.b, x.FunctionalID)
	}
	o.key("id")
	o.b = rooms.AppendString(o.b, x.ID)
	if len(x.Keywords) > 0 {
		o.key("keywords")
		o.b = rooms.AppendStrings(o.b, x.Keywords)
	}
	if x.Loyalty != "" {
		o.key("loyalty")
		o.b = rooms.AppendString(o.b, x.Loyalty)
	}
	if x.ManaCost != "" {
		o.key("mana_cost")
		o.b = rooms.AppendString(o.b, x.ManaCost)
	}
	o.key("name")
	o.b = rooms.AppendString(o.b, x.Name)
	if x.Power != "" {
		o.key("power")
		o.b = rooms.AppendString(o.b, x.Power)
	}
	if x.RulesText != "" {
		o.key("rules_text")
		o.b = rooms.AppendString(o.b, x.RulesText)
	}
	if x.Token {
		o.key("token")
		o.b = strconv.AppendBool(o.b, x.Token)
	}
	if x.Toughness != "" {
		o.key("toughness")
		o.b = rooms.AppendString(o.b, x.Toughness)
	}
	o.key("type_line")
	o.b = rooms.AppendString(o.b, x.TypeLine)
	return append(o.b, '}')
}

// appendCounter appends x's canonical JSON.
func appendCounter(b []byte, x *Counter) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("count")
	o.b = strconv.AppendInt(o.b, int64(x.Count), 10)
	o.key("kind")
	o.b = rooms.AppendString(o.b, x.Kind)
	return append(o.b, '}')
}

// appendPermanentView appends x's canonical JSON.
func appendPermanentView(b []byte, x *PermanentView) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.AttachedTo != "" {
		o.key("attached_to")
		o.b = rooms.AppendString(o.b, x.AttachedTo)
	}
	if x.Attacking {
		o.key("attacking")
		o.b = strconv.AppendBool(o.b, x.Attacking)
	}
	if x.AttackingPlaneswalker != "" {
		o.key("attacking_planeswalker")
		o.b = rooms.AppendString(o.b, x.AttackingPlaneswalker)
	}
	if x.AttackingPlayer != "" {
		o.key("attacking_player")
		o.b = rooms.AppendString(o.b, x.AttackingPlayer)
	}
	if len(x.Blocking) > 0 {
		o.key("blocking")
		o.b = rooms.AppendStrings(o.b, x.Blocking)
	}
	o.key("card")
	o.b = appendCardView(o.b, &x.Card)
	if x.ChosenColor != "" {
		o.key("chosen_color")
		o.b = rooms.AppendString(o.b, x.ChosenColor)
	}
	o.key("controller")
	o.b = rooms.AppendString(o.b, x.Controller)
	if len(x.Counters) > 0 {
		o.key("counters")
		o.b = appendList(o.b, x.Counters, appendCounter)
	}
	if x.Damage != 0 {
		o.key("damage")
		o.b = strconv.AppendInt(o.b, int64(x.Damage), 10)
	}
	if len(x.GrantedKeywords) > 0 {
		o.key("granted_keywords")
		o.b = rooms.AppendStrings(o.b, x.GrantedKeywords)
	}
	o.key("id")
	o.b = rooms.AppendString(o.b, x.ID)
	if x.IsCommander {
		o.key("is_commander")
		o.b = strconv.AppendBool(o.b, x.IsCommander)
	}
	if x.NamedCard != "" {
		o.key("named_card")
		o.b = rooms.AppendString(o.b, x.NamedCard)
	}
	o.key("owner")
	o.b = rooms.AppendString(o.b, x.Owner)
	if x.PhysicalCard != "" {
		o.key("physical_card")
		o.b = rooms.AppendString(o.b, x.PhysicalCard)
	}
	if x.SkipsNextUntap {
		o.key("skips_next_untap")
		o.b = strconv.AppendBool(o.b, x.SkipsNextUntap)
	}
	if x.SummoningSick {
		o.key("summoning_sick")
		o.b = strconv.AppendBool(o.b, x.SummoningSick)
	}
	if x.Tapped {
		o.key("tapped")
		o.b = strconv.AppendBool(o.b, x.Tapped)
	}
	return append(o.b, '}')
}

// appendStackTarget appends x's canonical JSON.
func appendStackTarget(b []byte, x *StackTarget) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.ID != "" {
		o.key("id")
		o.b = rooms.AppendString(o.b, x.ID)
	}
	o.key("kind")
	o.b = rooms.AppendString(o.b, x.Kind)
	if x.Player != "" {
		o.key("player")
		o.b = rooms.AppendString(o.b, x.Player)
	}
	return append(o.b, '}')
}

// appendStackItemView appends x's canonical JSON.
func appendStackItemView(b []byte, x *StackItemView) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Card != nil {
		o.key("card")
		o.b = appendCardView(o.b, x.Card)
	}
	o.key("controller")
	o.b = rooms.AppendString(o.b, x.Controller)
	o.key("description")
	o.b = rooms.AppendString(o.b, x.Description)
	o.key("id")
	o.b = rooms.AppendString(o.b, x.ID)
	o.key("kind")
	o.b = rooms.AppendString(o.b, x.Kind)
	if x.PhysicalCard != "" {
		o.key("physical_card")
		o.b = rooms.AppendString(o.b, x.PhysicalCard)
	}
	if x.Source != "" {
		o.key("source")
		o.b = rooms.AppendString(o.b, x.Source)
	}
	if len(x.Targets) > 0 {
		o.key("targets")
		o.b = appendList(o.b, x.Targets, appendStackTarget)
	}
	return append(o.b, '}')
}

// appendZonePile appends x's canonical JSON.
func appendZonePile(b []byte, x *ZonePile) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("cards")
	o.b = appendList(o.b, x.Cards, appendCardView)
	o.key("player_id")
	o.b = rooms.AppendString(o.b, x.PlayerID)
	return append(o.b, '}')
}

// appendEmblemView appends x's canonical JSON.
func appendEmblemView(b []byte, x *EmblemView) []byte {
	o := objectWriter{b: append(b, '{')}
	if len(x.Abilities) > 0 {
		o.key("abilities")
		o.b = rooms.AppendStrings(o.b, x.Abilities)
	}
	o.key("controller")
	o.b = rooms.AppendString(o.b, x.Controller)
	o.key("id")
	o.b = rooms.AppendString(o.b, x.ID)
	return append(o.b, '}')
}

// appendSelfView appends x's canonical JSON.
func appendSelfView(b []byte, x *SelfView) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.AI {
		o.key("ai")
		o.b = strconv.AppendBool(o.b, x.AI)
	}
	if x.Connected != nil {
		o.key("connected")
		o.b = strconv.AppendBool(o.b, *x.Connected)
	}
	if len(x.Counters) > 0 {
		o.key("counters")
		o.b = appendList(o.b, x.Counters, appendCounter)
	}
	if x.Eliminated {
		o.key("eliminated")
		o.b = strconv.AppendBool(o.b, x.Eliminated)
	}
	o.key("library_size")
	o.b = strconv.AppendInt(o.b, int64(x.LibrarySize), 10)
	o.key("life")
	o.b = strconv.AppendInt(o.b, int64(x.Life), 10)
	o.key("maximum_hand_size")
	switch m := x.MaximumHandSize.(type) {
	case string:
		o.b = rooms.AppendString(o.b, m)
	case HandLimit:
		o.b = strconv.AppendInt(append(o.b, `{"cards":`...), int64(m.Cards), 10)
		o.b = append(o.b, '}')
	default:
		o.b = appendMarshal(o.b, x.MaximumHandSize)
	}
	if len(x.Statuses) > 0 {
		o.key("statuses")
		o.b = rooms.AppendStrings(o.b, x.Statuses)
	}
	return append(o.b, '}')
}

// appendOpponentView appends x's canonical JSON.
func appendOpponentView(b []byte, x *OpponentView) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.AI {
		o.key("ai")
		o.b = strconv.AppendBool(o.b, x.AI)
	}
	if x.Connected != nil {
		o.key("connected")
		o.b = strconv.AppendBool(o.b, *x.Connected)
	}
	if len(x.Counters) > 0 {
		o.key("counters")
		o.b = appendList(o.b, x.Counters, appendCounter)
	}
	if x.Eliminated {
		o.key("eliminated")
		o.b = strconv.AppendBool(o.b, x.Eliminated)
	}
	o.key("graveyard_size")
	o.b = strconv.AppendInt(o.b, int64(x.GraveyardSize), 10)
	o.key("hand_size")
	o.b = strconv.AppendInt(o.b, int64(x.HandSize), 10)
	o.key("library_size")
	o.b = strconv.AppendInt(o.b, int64(x.LibrarySize), 10)
	o.key("life")
	o.b = strconv.AppendInt(o.b, int64(x.Life), 10)
	o.key("player_id")
	o.b = rooms.AppendString(o.b, x.PlayerID)
	if len(x.Statuses) > 0 {
		o.key("statuses")
		o.b = rooms.AppendStrings(o.b, x.Statuses)
	}
	return append(o.b, '}')
}

// appendCommanderDamage appends x's canonical JSON.
func appendCommanderDamage(b []byte, x *CommanderDamage) []byte {
	o := objectWriter{b: append(b, '{')}
	o.key("amount")
	o.b = strconv.AppendInt(o.b, int64(x.Amount), 10)
	o.key("commander")
	o.b = rooms.AppendString(o.b, x.Commander)
	o.key("damaged")
	o.b = rooms.AppendString(o.b, x.Damaged)
	return append(o.b, '}')
}

// appendCommanderTax appends x's canonical JSON.
func appendCommanderTax(b []byte, x *CommanderTax) []byte {
	o := objectWriter{b: append(b, '{')}
	if x.Casts != 0 {
		o.key("casts")
		o.b = strconv.AppendInt(o.b, int64(x.Casts), 10)
	}
	o.key("commander")
	o.b = rooms.AppendString(o.b, x.Commander)
	if x.Tax != 0 {
		o.key("tax")
		o.b = strconv.AppendInt(o.b, int64(x.Tax), 10)
	}
	return append(o.b, '}')
}

// appendCommanderIdentity appends x's canonical JSON.
func appendCommanderIdentity(b []byte, x *CommanderIdentity) []byte {
	o := objectWriter{b: append(b, '{')}
	if len(x.ColorIdentity) > 0 {
		o.key("color_identity")
		o.b = rooms.AppendStrings(o.b, x.ColorIdentity)
	}
	o.key("commander")
	o.b = rooms.AppendString(o.b, x.Commander)
	if x.Name != "" {
		o.key("name")
		o.b = rooms.AppendString(o.b, x.Name)
	}
	return append(o.b, '}')
}
