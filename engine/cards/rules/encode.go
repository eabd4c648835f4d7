package rules

import (
	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders of the state and the view types, written
// with package canon's writers: each writes exactly the bytes encoding/json
// gives, made canonical (keys in order, omitempty as encoding/json reads
// it), without reflection and the re-parse. The random-game tests compare
// both on every state and view they reach. A field of a catalog type (a
// token's or an emblem's definition) or of the room machine's (the
// result) goes through canon.Marshal.

// AppendCanonical appends the state's canonical JSON, State's bytes
// (canon.Appender).
func (st *State) AppendCanonical(b []byte) ([]byte, error) { return appendState(b, st), nil }

// appendMarshal appends canon.Marshal's encoding of v, one of the
// catalog's or the room machine's plain data types, which always encode.
func appendMarshal(b []byte, v any) []byte {
	enc, _ := canon.Marshal(v)
	return append(b, enc...)
}

// appendConfig appends x's canonical JSON.
func appendConfig(b []byte, x *Config) []byte {
	o := canon.OpenObject(b)
	o.OptBool("commander", x.Commander)
	o.String("format", x.Format)
	o.Int("life", int64(x.Life))
	return o.Close()
}

// appendCard appends x's canonical JSON.
func appendCard(b []byte, x *Card) []byte {
	o := canon.OpenObject(b)
	o.OptBool("cmdr", x.Cmdr)
	o.String("id", x.ID)
	o.Int("n", int64(x.N))
	o.OptInt("since", int64(x.Since))
	return o.Close()
}

// appendPlayer appends x's canonical JSON.
func appendPlayer(b []byte, x *Player) []byte {
	o := canon.OpenObject(b)
	o.OptInt("casts", int64(x.Casts))
	o.OptString("cmdr", x.Cmdr)
	canon.OptInts(&o, "cmdr_dmg", x.CmdrDmg)
	canon.OptList(&o, "command", x.Command, appendCard)
	o.OptBool("drew", x.Drew)
	canon.List(&o, "exile", x.Exile, appendCard)
	canon.List(&o, "grave", x.Grave, appendCard)
	canon.List(&o, "hand", x.Hand, appendCard)
	o.OptStrings("identity", x.Identity)
	o.OptBool("kept", x.Kept)
	o.OptInt("lands", int64(x.Lands))
	o.Strings("library", x.Library)
	o.Int("life", int64(x.Life))
	o.OptInt("mulls", int64(x.Mulls))
	o.OptString("out", x.Out)
	o.OptInt("poison", int64(x.Poison))
	o.OptString("pool", x.Pool)
	return o.Close()
}

// appendPerm appends x's canonical JSON.
func appendPerm(b []byte, x *Perm) []byte {
	o := canon.OpenObject(b)
	o.OptInt("attach", int64(x.Attach))
	o.OptString("attack", x.Attack)
	o.OptBool("blocked", x.Blocked)
	canon.OptInts(&o, "blockers", x.Blockers)
	canon.OptInts(&o, "blocks", x.Blocks)
	o.OptInt("card", int64(x.Card))
	o.OptBool("cmdr", x.Cmdr)
	o.OptString("color", x.Color)
	o.Int("ctrl", int64(x.Ctrl))
	o.OptInt("damage", int64(x.Damage))
	o.OptBool("dtouch", x.DTouch)
	o.OptString("id", x.ID)
	o.OptInt("loyalty", int64(x.Loyalty))
	o.OptInt("minus", int64(x.Minus))
	o.Int("n", int64(x.N))
	o.OptString("named", x.Named)
	o.Int("owner", int64(x.Owner))
	o.OptInt("plus", int64(x.Plus))
	o.OptBool("sick", x.Sick)
	o.OptBool("skip", x.Skip)
	o.OptBool("tapped", x.Tapped)
	if x.Tok != nil {
		o.Key("tok")
		o.B = appendMarshal(o.B, x.Tok)
	}
	o.Int("ts", int64(x.TS))
	o.OptBool("used", x.Used)
	return o.Close()
}

// appendItem appends x's canonical JSON.
func appendItem(b []byte, x *Item) []byte {
	o := canon.OpenObject(b)
	o.Int("ab", int64(x.Ab))
	o.OptInt("aim", int64(x.Aim))
	o.OptBool("aimed", x.Aimed)
	o.OptInt("card", int64(x.Card))
	o.OptBool("cmdr", x.Cmdr)
	o.Int("ctrl", int64(x.Ctrl))
	o.OptString("event", x.Event)
	o.OptString("id", x.ID)
	o.String("kind", x.Kind)
	canon.OptInts(&o, "modes", x.Modes)
	o.Int("n", int64(x.N))
	o.String("name", x.Name)
	o.Int("owner", int64(x.Owner))
	o.OptInt("source", int64(x.Source))
	if len(x.Targets) > 0 {
		o.Key("targets")
		o.B = appendMarshal(o.B, x.Targets)
	}
	o.OptInt("x", int64(x.X))
	return o.Close()
}

// appendEffect appends x's canonical JSON.
func appendEffect(b []byte, x *Effect) []byte {
	o := canon.OpenObject(b)
	o.OptBool("animate", x.Animate)
	o.Int("control", int64(x.Control))
	o.OptBool("eot", x.EOT)
	o.OptStrings("keywords", x.Keywords)
	o.Int("perm", int64(x.Perm))
	o.OptInt("power", int64(x.Power))
	o.OptInt("tough", int64(x.Tough))
	o.Int("ts", int64(x.TS))
	return o.Close()
}

// appendEmblem appends x's canonical JSON.
func appendEmblem(b []byte, x *Emblem) []byte {
	o := canon.OpenObject(b)
	o.Int("ctrl", int64(x.Ctrl))
	o.Int("n", int64(x.N))
	o.Key("static")
	o.B = appendMarshal(o.B, x.Static)
	return o.Close()
}

// appendDecision appends x's canonical JSON.
func appendDecision(b []byte, x *Decision) []byte {
	o := canon.OpenObject(b)
	canon.OptValue(&o, "choice", x.Choice, appendChoice)
	o.OptInt("item", int64(x.Item))
	o.String("kind", x.Kind)
	o.Int("seat", int64(x.Seat))
	return o.Close()
}

// appendChoice appends x's canonical JSON.
func appendChoice(b []byte, x *Choice) []byte {
	o := canon.OpenObject(b)
	canon.OptInts(&o, "cards", x.Cards)
	o.OptStrings("ids", x.IDs)
	o.String("kind", x.Kind)
	canon.OptInts(&o, "lib", x.Lib)
	o.Int("max", int64(x.Max))
	o.Int("min", int64(x.Min))
	o.Int("owner", int64(x.Owner))
	o.OptString("pay", x.Pay)
	o.OptStrings("pending", x.Pending)
	o.Int("seat", int64(x.Seat))
	return o.Close()
}

// appendRes appends x's canonical JSON.
func appendRes(b []byte, x *Res) []byte {
	o := canon.OpenObject(b)
	canon.Value(&o, "item", &x.Item, appendItem)
	o.Int("mode", int64(x.Mode))
	canon.Ints(&o, "path", x.Path)
	canon.Ints(&o, "seats", x.Seats)
	return o.Close()
}

// appendCombat appends x's canonical JSON.
func appendCombat(b []byte, x *Combat) []byte {
	o := canon.OpenObject(b)
	o.OptBool("attacked", x.Attacked)
	canon.OptInts(&o, "defenders", x.Defenders)
	o.OptBool("first_done", x.FirstDone)
	o.OptBool("split", x.Split)
	return o.Close()
}

// appendPending appends x's canonical JSON.
func appendPending(b []byte, x *Pending) []byte {
	o := canon.OpenObject(b)
	o.Int("ab", int64(x.Ab))
	o.Int("ctrl", int64(x.Ctrl))
	o.OptString("event", x.Event)
	o.String("id", x.ID)
	o.String("name", x.Name)
	o.Int("source", int64(x.Source))
	return o.Close()
}

// appendState appends x's canonical JSON.
func appendState(b []byte, x *State) []byte {
	o := canon.OpenObject(b)
	o.Int("active", int64(x.Active))
	canon.OptInts(&o, "ask", x.Ask)
	canon.OptValue(&o, "combat", x.Combat, appendCombat)
	canon.Value(&o, "config", &x.Config, appendConfig)
	canon.Value(&o, "dec", &x.Dec, appendDecision)
	canon.OptList(&o, "effects", x.Effects, appendEffect)
	canon.OptList(&o, "emblems", x.Emblems, appendEmblem)
	o.Int("entered", int64(x.Entered))
	canon.List(&o, "field", x.Field, appendPerm)
	o.Int("next", int64(x.Next))
	o.Int("passes", int64(x.Passes))
	o.Int("phys", int64(x.Phys))
	canon.List(&o, "players", x.Players, appendPlayer)
	o.Int("prio", int64(x.Prio))
	canon.OptList(&o, "queue", x.Queue, appendPending)
	canon.OptValue(&o, "res", x.Res, appendRes)
	if x.Result != nil {
		o.Key("result")
		o.B = appendMarshal(o.B, x.Result)
	}
	o.String("seed", x.Seed)
	o.Int("serial", int64(x.Serial))
	o.Int("shuffles", int64(x.Shuffles))
	canon.List(&o, "stack", x.Stack, appendItem)
	o.Int("step", int64(x.Step))
	o.Int("ts", int64(x.TS))
	o.Int("turn", int64(x.Turn))
	return o.Close()
}

// appendCardView appends x's canonical JSON.
func appendCardView(b []byte, x *CardView) []byte {
	if e := x.enc; e != nil {
		return append(canon.AppendString(append(b, e.pre...), x.ID), e.post...)
	}
	o := canon.OpenObject(b)
	o.OptStrings("card_types", x.CardTypes)
	o.OptStrings("color_identity", x.ColorIdentity)
	o.OptString("functional_id", x.FunctionalID)
	o.String("id", x.ID)
	o.OptStrings("keywords", x.Keywords)
	o.OptString("loyalty", x.Loyalty)
	o.OptString("mana_cost", x.ManaCost)
	o.String("name", x.Name)
	o.OptString("power", x.Power)
	o.OptString("rules_text", x.RulesText)
	o.OptBool("token", x.Token)
	o.OptString("toughness", x.Toughness)
	o.String("type_line", x.TypeLine)
	return o.Close()
}

// appendCounter appends x's canonical JSON.
func appendCounter(b []byte, x *Counter) []byte {
	o := canon.OpenObject(b)
	o.Int("count", int64(x.Count))
	o.String("kind", x.Kind)
	return o.Close()
}

// appendPermanentView appends x's canonical JSON.
func appendPermanentView(b []byte, x *PermanentView) []byte {
	o := canon.OpenObject(b)
	o.OptString("attached_to", x.AttachedTo)
	o.OptBool("attacking", x.Attacking)
	o.OptString("attacking_planeswalker", x.AttackingPlaneswalker)
	o.OptString("attacking_player", x.AttackingPlayer)
	o.OptStrings("blocking", x.Blocking)
	canon.Value(&o, "card", &x.Card, appendCardView)
	o.OptString("chosen_color", x.ChosenColor)
	o.String("controller", x.Controller)
	canon.OptList(&o, "counters", x.Counters, appendCounter)
	o.OptInt("damage", int64(x.Damage))
	o.OptStrings("granted_keywords", x.GrantedKeywords)
	o.String("id", x.ID)
	o.OptBool("is_commander", x.IsCommander)
	o.OptString("named_card", x.NamedCard)
	o.String("owner", x.Owner)
	o.OptString("physical_card", x.PhysicalCard)
	o.OptBool("skips_next_untap", x.SkipsNextUntap)
	o.OptBool("summoning_sick", x.SummoningSick)
	o.OptBool("tapped", x.Tapped)
	return o.Close()
}

// appendStackTarget appends x's canonical JSON.
func appendStackTarget(b []byte, x *StackTarget) []byte {
	o := canon.OpenObject(b)
	o.OptString("id", x.ID)
	o.String("kind", x.Kind)
	o.OptString("player", x.Player)
	return o.Close()
}

// appendStackItemView appends x's canonical JSON.
func appendStackItemView(b []byte, x *StackItemView) []byte {
	o := canon.OpenObject(b)
	canon.OptValue(&o, "card", x.Card, appendCardView)
	o.String("controller", x.Controller)
	o.String("description", x.Description)
	o.String("id", x.ID)
	o.String("kind", x.Kind)
	o.OptString("physical_card", x.PhysicalCard)
	o.OptString("source", x.Source)
	canon.OptList(&o, "targets", x.Targets, appendStackTarget)
	return o.Close()
}

// appendZonePile appends x's canonical JSON.
func appendZonePile(b []byte, x *ZonePile) []byte {
	o := canon.OpenObject(b)
	canon.List(&o, "cards", x.Cards, appendCardView)
	o.String("player_id", x.PlayerID)
	return o.Close()
}

// appendEmblemView appends x's canonical JSON.
func appendEmblemView(b []byte, x *EmblemView) []byte {
	o := canon.OpenObject(b)
	o.OptStrings("abilities", x.Abilities)
	o.String("controller", x.Controller)
	o.String("id", x.ID)
	return o.Close()
}

// appendSelfView appends x's canonical JSON.
func appendSelfView(b []byte, x *SelfView) []byte {
	o := canon.OpenObject(b)
	o.OptBool("ai", x.AI)
	o.OptBoolPtr("connected", x.Connected)
	canon.OptList(&o, "counters", x.Counters, appendCounter)
	o.OptBool("eliminated", x.Eliminated)
	o.Int("library_size", int64(x.LibrarySize))
	o.Int("life", int64(x.Life))
	o.Key("maximum_hand_size")
	switch m := x.MaximumHandSize.(type) {
	case string:
		o.B = canon.AppendString(o.B, m)
	case HandLimit:
		ho := canon.OpenObject(o.B)
		ho.Int("cards", int64(m.Cards))
		o.B = ho.Close()
	default:
		o.B = appendMarshal(o.B, x.MaximumHandSize)
	}
	o.OptStrings("statuses", x.Statuses)
	return o.Close()
}

// appendOpponentView appends x's canonical JSON.
func appendOpponentView(b []byte, x *OpponentView) []byte {
	o := canon.OpenObject(b)
	o.OptBool("ai", x.AI)
	o.OptBoolPtr("connected", x.Connected)
	canon.OptList(&o, "counters", x.Counters, appendCounter)
	o.OptBool("eliminated", x.Eliminated)
	o.Int("graveyard_size", int64(x.GraveyardSize))
	o.Int("hand_size", int64(x.HandSize))
	o.Int("library_size", int64(x.LibrarySize))
	o.Int("life", int64(x.Life))
	o.String("player_id", x.PlayerID)
	o.OptStrings("statuses", x.Statuses)
	return o.Close()
}

// appendCommanderDamage appends x's canonical JSON.
func appendCommanderDamage(b []byte, x *CommanderDamage) []byte {
	o := canon.OpenObject(b)
	o.Int("amount", int64(x.Amount))
	o.String("commander", x.Commander)
	o.String("damaged", x.Damaged)
	return o.Close()
}

// appendCommanderTax appends x's canonical JSON.
func appendCommanderTax(b []byte, x *CommanderTax) []byte {
	o := canon.OpenObject(b)
	o.OptInt("casts", int64(x.Casts))
	o.String("commander", x.Commander)
	o.OptInt("tax", int64(x.Tax))
	return o.Close()
}

// appendCommanderIdentity appends x's canonical JSON.
func appendCommanderIdentity(b []byte, x *CommanderIdentity) []byte {
	o := canon.OpenObject(b)
	o.OptStrings("color_identity", x.ColorIdentity)
	o.String("commander", x.Commander)
	o.OptString("name", x.Name)
	return o.Close()
}
