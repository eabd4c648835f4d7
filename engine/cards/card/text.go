package card

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Text is the one rules-text generator: a card's rules text in English,
// generated from its definition, lines separated by "\n". The card calls
// itself by its name ("Ember Lash deals 3 damage to any target."), as the
// catalog and the game both show it. A basic land's intrinsic mana ability
// is included. TextIn writes the same text in another language.
func Text(d Def) string { return textIn(english{}, d) }

// textIn is d's rules text in tongue t: the lines in their order, each
// worded by t.
func textIn(t tongue, d Def) string {
	var lines []string
	if d.Enchant != "" {
		lines = append(lines, t.enchant(d.Enchant))
	}
	if kw := t.keywordLine(d.Keywords); kw != "" {
		lines = append(lines, kw)
	}
	if slices.Contains(d.Keywords, "unblockable") {
		lines = append(lines, t.unblockable(d.Name))
	}
	if slices.Contains(d.Keywords, "venom") {
		lines = append(lines, t.venom(d.Name))
	}
	if d.Spell != nil {
		if x := d.Spell.AdditionalCost; x != nil {
			lines = append(lines, t.additionalCost(*x))
		}
		lines = append(lines, spellTextIn(t, d, -1))
	}
	for _, a := range d.AllAbilities() {
		lines = append(lines, t.ability(d, a))
	}
	return strings.Join(lines, "\n")
}

// tongue is one language's template set of the rules-text generator:
// textIn and spellTextIn lay a card's text out, a tongue words each part.
type tongue interface {
	enchant(kind string) string
	keywordLine(kws []string) string
	unblockable(name string) string
	venom(name string) string
	additionalCost(x ExtraCost) string
	chooseModes(n int) string
	mode(d Def, m Mode) string
	ability(d Def, a Ability) string
	static(name string, s Static) string
	typeLine(types, subtypes []string) string
}

// english is the generator's English template set.
type english struct{}

func (english) enchant(kind string) string      { return "Enchant " + permanentNoun(kind) }
func (english) keywordLine(kws []string) string { return keywordLine(kws) }
func (english) unblockable(name string) string  { return name + " can't be blocked." }
func (english) venom(name string) string {
	return "(Whenever " + name + " deals combat damage to a player, that player also gets that many poison counters.)"
}
func (english) additionalCost(x ExtraCost) string {
	return "As an additional cost to cast this spell, " + extraText(x, false) + "."
}
func (english) chooseModes(n int) string                 { return "Choose " + numberWord(n) + " —" }
func (english) mode(d Def, m Mode) string                { return ModeText(d, m) }
func (english) ability(d Def, a Ability) string          { return AbilityText(d, a) }
func (english) static(name string, s Static) string      { return StaticText(name, s) }
func (english) typeLine(types, subtypes []string) string { return typeLine(types, subtypes) }

// SpellText is the text of an instant's or sorcery's effect; mode >= 0
// gives only that mode of a modal spell (a stack item's description), -1
// the whole "Choose one —" list.
func SpellText(d Def, mode int) string { return spellTextIn(english{}, d, mode) }

func spellTextIn(t tongue, d Def, mode int) string {
	if d.Spell == nil {
		return ""
	}
	s := d.Spell
	if mode >= 0 && mode < len(s.Modes) {
		return t.mode(d, s.Modes[mode])
	}
	if len(s.Modes) == 1 {
		return t.mode(d, s.Modes[0])
	}
	n := max(s.Choose, 1)
	lines := []string{t.chooseModes(n)}
	for _, m := range s.Modes {
		lines = append(lines, "• "+t.mode(d, m))
	}
	return strings.Join(lines, "\n")
}

// ModeText is the text of one mode of d's spell or abilities: its effects
// as sentences.
func ModeText(d Def, m Mode) string {
	return sentences(newRenderer(d.Name, m).effects(m.Effects))
}

// AbilityText is the text of one ability of d: a stack item's or an
// activation's description.
func AbilityText(d Def, a Ability) string {
	switch a.Kind {
	case AbilityMana:
		return costPrefix(a.Cost, a.Extra) + ": " + manaText(a) + "."
	case AbilityActivated:
		s := costPrefix(a.Cost, a.Extra) + ": " + ModeText(d, modeOf(a))
		if a.SorcerySpeed {
			s += " Activate only as a sorcery."
		}
		return s
	case AbilityLoyalty:
		return loyaltyCost(a.Loyalty) + ": " + ModeText(d, modeOf(a))
	case AbilityTriggered:
		return triggerText(d, a)
	case AbilityStatic:
		if a.Static != nil {
			return StaticText(d.Name, *a.Static)
		}
	}
	return ""
}

// modeOf returns an ability's mode, or an empty one.
func modeOf(a Ability) Mode {
	if a.Mode == nil {
		return Mode{}
	}
	return *a.Mode
}

// StaticText is the sentence of a continuous effect: a static ability of
// the permanent named name, or an emblem's ability.
func StaticText(name string, s Static) string {
	switch s.Op {
	case "anthem":
		subj, third := affectsSubject(name, s.Affects)
		parts := []string{}
		if s.Power != 0 || s.Toughness != 0 {
			parts = append(parts, agree(third, "get", "gets")+" "+signed(s.Power)+"/"+signed(s.Toughness))
		}
		if len(s.Keywords) > 0 {
			parts = append(parts, agree(third, "have", "has")+" "+keywordList(s.Keywords))
		}
		return capital(subj) + " " + strings.Join(parts, " and ") + "."
	case "control":
		return "You control enchanted creature."
	case "cant_attack_or_block":
		subj, _ := affectsSubject(name, s.Affects)
		return capital(subj) + " can't attack or block."
	case "doesnt_untap":
		return "Enchanted creature doesn't untap during its controller's untap step."
	case "cost_change":
		spells := spellNoun(s.Filter)
		who := "you cast"
		if s.Affects == "opponents" {
			who = "your opponents cast"
		}
		dir := "more"
		if s.Amount < 0 {
			dir = "less"
		}
		return capital(spells) + " " + who + " cost {" + strconv.Itoa(abs(s.Amount)) + "} " + dir + " to cast."
	case "no_max_hand_size":
		return "You have no maximum hand size."
	case "named_cost_more":
		who := "you cast"
		if s.Affects == "opponents" {
			who = "your opponents cast"
		}
		return "Spells " + who + " with the chosen name cost {" + strconv.Itoa(s.Amount) + "} more to cast."
	}
	return ""
}

// TypeLine is a card's type line: "Legendary Creature — Elf Druid".
func TypeLine(d Def) string { return typeLineIn(english{}, d) }

func typeLineIn(t tongue, d Def) string {
	return t.typeLine(append(append([]string(nil), d.Supertypes...), d.Types...), d.Subtypes)
}

// TokenTypeLine is a token's type line: "Token Creature — Sapling".
func TokenTypeLine(t Token) string { return tokenTypeLineIn(english{}, t) }

func tokenTypeLineIn(tg tongue, t Token) string {
	return tg.typeLine(append([]string{"token"}, t.Types...), t.Subtypes)
}

// TokenText is a token's rules text: its keywords.
func TokenText(t Token) string { return Text(Def{Name: t.Name, Keywords: t.Keywords}) }

func typeLine(types, subtypes []string) string {
	words := make([]string, len(types))
	for i, t := range types {
		words[i] = capital(t)
	}
	s := strings.Join(words, " ")
	if len(subtypes) > 0 {
		s += " — " + strings.Join(subtypes, " ")
	}
	return s
}

// keywordLine is the line of printed keywords: "Flying, first strike".
// Unblockable and venom get sentences of their own.
func keywordLine(kws []string) string {
	var words []string
	for _, k := range kws {
		if k == "unblockable" {
			continue
		}
		words = append(words, keywordWord(k))
	}
	if len(words) == 0 {
		return ""
	}
	return capital(strings.Join(words, ", "))
}

// keywordWord is a keyword's printed word: "first strike".
func keywordWord(k string) string {
	if k == "unblockable" {
		return "can't be blocked"
	}
	return strings.ReplaceAll(k, "_", " ")
}

// keywordList joins keywords for a sentence: "flying and haste".
func keywordList(kws []string) string {
	words := make([]string, len(kws))
	for i, k := range kws {
		words[i] = keywordWord(k)
	}
	return andList(words)
}

func triggerText(d Def, a Ability) string {
	m := modeOf(a)
	r := newRenderer(d.Name, m)
	cs := r.effects(m.Effects)
	if a.When == "enters" && !a.Optional && onlyOps(m.Effects, "choose_color", "name_card") {
		return "As " + d.Name + " enters, " + lowerFirstSentence(sentences(cs), d.Name)
	}
	var lead string
	switch a.When {
	case "enters":
		lead = "When " + d.Name + " enters, "
	case "dies":
		lead = "When " + d.Name + " dies, "
	case "attacks":
		lead = "Whenever " + d.Name + " attacks, "
	case "upkeep":
		lead = "At the beginning of your upkeep, "
	case "end_step":
		lead = "At the beginning of your end step, "
	case "you_cast_noncreature":
		lead = "Whenever you cast a noncreature spell, "
	case "creature_you_control_dies":
		lead = "Whenever a creature you control dies, "
		if d.Is("creature") {
			lead = "Whenever another creature you control dies, "
		}
	case "deals_combat_damage_to_player":
		lead = "Whenever " + d.Name + " deals combat damage to a player, "
	}
	if a.Optional {
		cs = mayClauses(a.Pay, cs)
	}
	return lead + lowerFirstSentence(sentences(cs), d.Name)
}

// lowerFirstSentence lowercases the first letter of s unless s begins with
// the card's name.
func lowerFirstSentence(s, name string) string {
	if s == "" || strings.HasPrefix(s, name) {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func onlyOps(es []Effect, ops ...string) bool {
	for _, e := range es {
		if !slices.Contains(ops, e.Op) {
			return false
		}
	}
	return len(es) > 0
}

// costPrefix is an ability's cost as printed before its colon.
func costPrefix(cost string, x *ExtraCost) string {
	parts := []string{}
	if cost != "" {
		parts = append(parts, cost)
	}
	if x != nil {
		parts = append(parts, capital(extraText(*x, true)))
	}
	return strings.Join(parts, ", ")
}

// extraText is a cost beyond mana; list joins its parts with ", "
// (an ability cost), otherwise with "and".
func extraText(x ExtraCost, list bool) string {
	var parts []string
	if x.Sacrifice != "" {
		parts = append(parts, "sacrifice "+article(permanentNoun(x.Sacrifice)))
	}
	if x.Discard > 0 {
		parts = append(parts, "discard "+count(x.Discard, "card"))
	}
	if x.ExileFromGraveyard != "" {
		parts = append(parts, "exile "+article(graveyardNoun(x.ExileFromGraveyard)))
	}
	if x.Life > 0 {
		parts = append(parts, "pay "+strconv.Itoa(x.Life)+" life")
	}
	if list {
		for i := 1; i < len(parts); i++ {
			parts[i] = capital(parts[i])
		}
		return strings.Join(parts, ", ")
	}
	return andList(parts)
}

func manaText(a Ability) string {
	n := max(a.Amount, 1)
	if len(a.Produce) == 1 && a.Produce[0] == "chosen" {
		return "Add " + numberWord(n) + " mana of the chosen color"
	}
	opts := make([]string, len(a.Produce))
	for i, p := range a.Produce {
		opts[i] = strings.Repeat("{"+p+"}", n)
		if p == "chosen" {
			opts[i] = numberWord(n) + " mana of the chosen color"
		}
	}
	return "Add " + orList(opts)
}

func loyaltyCost(l *int) string {
	switch {
	case l == nil:
		return "+0"
	case *l < 0:
		return "−" + strconv.Itoa(-*l)
	}
	return "+" + strconv.Itoa(*l)
}

// clause is one sentence of effect text, kept in parts so that it can be
// put in the imperative, the third person, or under "you may".
type clause struct {
	subj  string // "" for the imperative (you); else the subject phrase
	base  string // the verb phrase in its base form: "draw two cards"
	third string // the verb phrase in the third person: "draws two cards"
}

// text is the clause as a sentence body (no final period).
func (c clause) text() string {
	if c.subj == "" {
		return c.base
	}
	if c.subj == "you" {
		return "you " + c.base
	}
	return c.subj + " " + c.third
}

// may is the clause under "you may".
func (c clause) may() string {
	if c.subj == "" || c.subj == "you" {
		return "you may " + c.base
	}
	return "you may have " + c.subj + " " + c.base
}

// sentences joins clauses into capitalised sentences.
func sentences(cs []clause) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = capital(c.text())
		if !strings.HasSuffix(out[i], ".\"") {
			out[i] += "."
		}
	}
	return strings.Join(out, " ")
}

// mayClauses wraps clauses in "you may": with a payment, "you may pay {1}.
// If you do, …"; without, the first clause becomes "you may …" and the
// rest follow "If you do,".
func mayClauses(pay string, cs []clause) []clause {
	if len(cs) == 0 {
		return cs
	}
	var out []clause
	rest := cs
	if pay != "" {
		out = append(out, clause{base: "you may pay " + pay})
	} else {
		out = append(out, clause{base: cs[0].may()})
		rest = cs[1:]
	}
	if len(rest) > 0 {
		first := rest[0]
		out = append(out, clause{base: "if you do, " + first.text()})
		out = append(out, rest[1:]...)
	}
	return out
}

// renderer turns the effects of one mode into clauses, naming each target
// in full at its first mention and by a pronoun after.
type renderer struct {
	name      string
	targets   []Target
	mentioned []bool
}

func newRenderer(name string, m Mode) *renderer {
	return &renderer{name: name, targets: m.Targets, mentioned: make([]bool, len(m.Targets))}
}

func (r *renderer) effects(es []Effect) []clause {
	var cs []clause
	for _, e := range es {
		cs = append(cs, r.effect(e)...)
	}
	return cs
}

// obj is the phrase for what `to` names, as an object or a subject.
func (r *renderer) obj(to string) string {
	if i, ok := targetIndex(to); ok && i < len(r.targets) {
		t := r.targets[i]
		if r.mentioned[i] {
			if isPlayerKind(t.Kind) {
				return "that player"
			}
			return "it"
		}
		r.mentioned[i] = true
		p := targetPhrase(t.Kind)
		if t.Optional {
			p = "up to one " + p
		}
		return p
	}
	switch to {
	case "", "you":
		return "you"
	case "each_opponent":
		return "each opponent"
	case "each_player":
		return "each player"
	case "each_creature":
		return "each creature"
	case "each_creature_opponents_control":
		return "each creature your opponents control"
	case "self":
		return r.name
	case "enchanted":
		return "enchanted creature"
	case "attached":
		return "the creature " + r.name + " is attached to"
	case "triggering_player":
		return "that player"
	}
	return to
}

// possessive is "target player's", "your", "its controller's"…
func (r *renderer) possessive(to string) string {
	p := r.obj(to)
	switch p {
	case "you":
		return "your"
	case "it":
		return "its"
	case "that player":
		return "that player's"
	}
	return p + "'s"
}

// player makes a clause whose subject is the player `to` names (you by
// default).
func (r *renderer) player(to, base, third string) clause {
	p := r.obj(to)
	if p == "you" {
		return clause{base: base}
	}
	return clause{subj: p, base: base, third: third}
}

// lifePlayer is player for life changes, which name you ("you gain 3
// life") rather than take the imperative.
func (r *renderer) lifePlayer(to, base, third string) clause {
	c := r.player(to, base, third)
	if c.subj == "" {
		c.subj = "you"
	}
	return c
}

func amountText(e Effect) string {
	if e.XAmount {
		return "X"
	}
	return strconv.Itoa(e.Amount)
}

// cards is "a card", "two cards", "X cards".
func cards(e Effect, noun string) string {
	if e.XAmount {
		return "X " + plural(noun)
	}
	return count(max(e.Amount, 1), noun)
}

func (r *renderer) effect(e Effect) []clause {
	switch e.Op {
	case "damage":
		n := amountText(e)
		to := r.obj(e.To)
		return []clause{{subj: r.name, base: "deal " + n + " damage to " + to, third: "deals " + n + " damage to " + to}}
	case "destroy":
		return []clause{{base: "destroy " + r.obj(e.To)}}
	case "exile":
		return []clause{{base: "exile " + r.obj(e.To)}}
	case "bounce":
		return []clause{{base: "return " + r.obj(e.To) + " to its owner's hand"}}
	case "counter":
		return []clause{{base: "counter " + r.obj(e.To)}}
	case "untap":
		return []clause{{base: "untap " + r.obj(e.To)}}
	case "draw":
		c := cards(e, "card")
		return []clause{r.player(e.To, "draw "+c, "draws "+c)}
	case "mill":
		c := cards(e, "card")
		return []clause{r.player(e.To, "mill "+c, "mills "+c)}
	case "gain_life":
		n := amountText(e)
		return []clause{r.lifePlayer(e.To, "gain "+n+" life", "gains "+n+" life")}
	case "lose_life":
		n := amountText(e)
		return []clause{r.lifePlayer(e.To, "lose "+n+" life", "loses "+n+" life")}
	case "discard":
		return r.discard(e)
	case "pump":
		return []clause{r.pump(e)}
	case "animate":
		return r.animate(e)
	case "add_counters":
		return []clause{r.counters(e)}
	case "create_token":
		t := tokenPhrase(e)
		return []clause{r.player(e.To, "create "+t, "creates "+t)}
	case "tap":
		cs := []clause{{base: "tap " + r.obj(e.To)}}
		if e.SkipUntap {
			cs = append(cs, clause{subj: r.obj(e.To), base: "not untap during its controller's next untap step",
				third: "doesn't untap during its controller's next untap step"})
		}
		return cs
	case "scry":
		return []clause{{base: "scry " + strconv.Itoa(e.Amount)}}
	case "search":
		return []clause{{base: searchText(e)}}
	case "look_top":
		return r.lookTop(e)
	case "exile_top":
		return []clause{{base: "exile the top " + cards(e, "card") + " of " + r.possessive(e.To) + " library"}}
	case "sacrifice":
		what := article(permanentNoun(e.Filter))
		if e.Amount > 1 {
			what = count(e.Amount, permanentNoun(e.Filter))
		}
		return []clause{r.player(e.To, "sacrifice "+what, "sacrifices "+what)}
	case "gain_control":
		return []clause{{base: "gain control of " + r.obj(e.To) + durationText(e.Duration)}}
	case "return":
		to := r.obj(e.To)
		switch e.Dest {
		case "hand":
			if r.targetKind(e.To) == "creature_card_in_your_graveyard" {
				return []clause{{base: "return " + to + " to your hand"}}
			}
			return []clause{{base: "return " + to + " to its owner's hand"}}
		case "battlefield_tapped":
			return []clause{{base: "return " + to + " to the battlefield tapped under your control"}}
		}
		return []clause{{base: "return " + to + " to the battlefield under your control"}}
	case "emblem":
		s := ""
		if e.Emblem != nil {
			s = StaticText("", *e.Emblem)
		}
		return []clause{{subj: "you", base: "get an emblem with \"" + s + "\""}}
	case "may":
		return mayClauses(e.Pay, r.effects(e.Then))
	case "choose_color":
		return []clause{{base: "choose a color"}}
	case "name_card":
		return []clause{{base: "choose a card name"}}
	}
	return nil
}

// targetKind returns the kind of the target `to` names, or "".
func (r *renderer) targetKind(to string) string {
	if i, ok := targetIndex(to); ok && i < len(r.targets) {
		return r.targets[i].Kind
	}
	return ""
}

func (r *renderer) discard(e Effect) []clause {
	noun := "card"
	if e.Filter != "" && e.Filter != "card" {
		noun = cardNoun(e.Filter)
	}
	n := max(e.Amount, 1)
	if e.Chooser == "you" {
		whose := r.possessive(e.To)
		what, those := article(noun), "that card"
		if n > 1 {
			what, those = count(n, noun), "those cards"
		}
		return []clause{
			{base: "look at " + whose + " hand and choose " + what + " from it"},
			{subj: "that player", base: "discard " + those, third: "discards " + those},
		}
	}
	c := count(n, noun)
	return []clause{r.player(e.To, "discard "+c, "discards "+c)}
}

func (r *renderer) pump(e Effect) clause {
	subj := r.obj(e.To)
	var base, third []string
	if e.Power != 0 || e.Toughness != 0 {
		pt := signed(e.Power) + "/" + signed(e.Toughness)
		base = append(base, "get "+pt)
		third = append(third, "gets "+pt)
	}
	if len(e.Keywords) > 0 {
		k := keywordList(e.Keywords)
		base = append(base, "gain "+k)
		third = append(third, "gains "+k)
	}
	d := durationText(e.Duration)
	return clause{subj: subj, base: strings.Join(base, " and ") + d, third: strings.Join(third, " and ") + d}
}

// animate words a land becoming a creature: "Target land becomes a 3/3
// creature with haste until end of turn. It is still a land."
func (r *renderer) animate(e Effect) []clause {
	pt := strconv.Itoa(e.Power) + "/" + strconv.Itoa(e.Toughness)
	what := "a " + pt + " creature"
	if pt[0] == '8' || strings.HasPrefix(pt, "11/") || strings.HasPrefix(pt, "18/") {
		what = "an " + pt + " creature"
	}
	if len(e.Keywords) > 0 {
		what += " with " + keywordList(e.Keywords)
	}
	what += durationText(e.Duration)
	return []clause{
		{subj: r.obj(e.To), base: "become " + what, third: "becomes " + what},
		{subj: "it", base: "be still a land", third: "is still a land"},
	}
}

func (r *renderer) counters(e Effect) clause {
	n := max(e.Amount, 1)
	noun := e.Counter + " counter"
	what := article(noun)
	if n > 1 {
		what = count(n, noun)
	}
	if e.Counter == "poison" {
		return r.player(e.To, "get "+what, "gets "+what)
	}
	return clause{base: "put " + what + " on " + r.obj(e.To)}
}

func (r *renderer) lookTop(e Effect) []clause {
	take := e.Take
	what := "up to " + numberWord(take)
	if e.Filter != "" && e.Filter != "card" {
		what += " " + cardNoun(e.Filter)
		if take > 1 {
			what = "up to " + numberWord(take) + " " + plural(cardNoun(e.Filter))
		}
	}
	rest := "the rest on the bottom of your library in any order"
	if e.Rest == "graveyard" {
		rest = "the rest into your graveyard"
	}
	return []clause{
		{base: "look at the top " + numberWord(e.Amount) + " cards of your library"},
		{base: "put " + what + " of them into your hand and " + rest},
	}
}

func searchText(e Effect) string {
	n := max(e.Amount, 1)
	noun := cardNoun(e.Filter)
	what, it := article(noun), "it"
	if n > 1 {
		what, it = "up to "+numberWord(n)+" "+plural(noun), "them"
	}
	switch e.Dest {
	case "top_of_library":
		return "search your library for " + what + ", then shuffle and put " + it + " on top"
	case "battlefield":
		return "search your library for " + what + ", put " + it + " onto the battlefield, then shuffle"
	case "battlefield_tapped":
		return "search your library for " + what + ", put " + it + " onto the battlefield tapped, then shuffle"
	}
	return "search your library for " + what + ", reveal " + it + ", put " + it + " into your hand, then shuffle"
}

func tokenPhrase(e Effect) string {
	t := e.Token
	if t == nil {
		return ""
	}
	var colors []string
	for _, c := range t.Colors {
		colors = append(colors, colorName(c))
	}
	color := "colorless"
	if len(colors) > 0 {
		color = andList(colors)
	}
	desc := fmt.Sprintf("%d/%d %s", t.Power, t.Toughness, color)
	if len(t.Subtypes) > 0 {
		desc += " " + strings.Join(t.Subtypes, " ")
	}
	desc += " " + strings.Join(t.Types, " ")
	n := max(e.Amount, 1)
	switch {
	case e.XAmount:
		desc = "X " + desc + " tokens"
	case n == 1:
		desc = "a " + desc + " token"
	default:
		desc = numberWord(n) + " " + desc + " tokens"
	}
	if t.Name != strings.Join(t.Subtypes, " ") {
		desc += " named " + t.Name
	}
	if len(t.Keywords) > 0 {
		desc += " with " + keywordList(t.Keywords)
	}
	return desc
}

func durationText(d string) string {
	if d == "end_of_turn" {
		return " until end of turn"
	}
	return ""
}

// targetPhrase is a target kind as a noun phrase: "target creature an
// opponent controls".
func targetPhrase(kind string) string {
	switch kind {
	case "any":
		return "any target"
	case "creature_you_control":
		return "target creature you control"
	case "creature_opponent_controls":
		return "target creature an opponent controls"
	case "flying_creature":
		return "target creature with flying"
	case "creature_card_in_your_graveyard":
		return "target creature card from your graveyard"
	case "card_in_a_graveyard":
		return "target card from a graveyard"
	}
	return "target " + strings.ReplaceAll(kind, "_", " ")
}

// permanentNoun is a kind or filter as a permanent noun: "creature",
// "nonland permanent".
func permanentNoun(kind string) string {
	switch kind {
	case "creature_you_control":
		return "creature you control"
	case "creature_opponent_controls":
		return "creature an opponent controls"
	case "flying_creature":
		return "creature with flying"
	case "nonland":
		return "nonland permanent"
	case "card", "any":
		return "permanent"
	}
	return strings.ReplaceAll(kind, "_", " ")
}

// cardNoun is a filter as a card noun: "basic land card", "card".
func cardNoun(filter string) string {
	switch filter {
	case "", "card":
		return "card"
	case "nonland_permanent":
		return "nonland permanent card"
	}
	return strings.ReplaceAll(filter, "_", " ") + " card"
}

// graveyardNoun is a graveyard kind as a noun: "creature card from your
// graveyard".
func graveyardNoun(kind string) string {
	if kind == "creature_card_in_your_graveyard" {
		return "creature card from your graveyard"
	}
	return "card from your graveyard"
}

// spellNoun is a cost-change filter as a plural noun: "creature spells".
func spellNoun(filter string) string {
	switch filter {
	case "creature_spell":
		return "creature spells"
	case "noncreature_spell":
		return "noncreature spells"
	}
	return "spells"
}

// affectsSubject is a static's subject and whether it takes a singular
// verb.
func affectsSubject(name, affects string) (subj string, third bool) {
	switch affects {
	case "creatures_you_control":
		return "creatures you control", false
	case "other_creatures_you_control":
		return "other creatures you control", false
	case "enchanted":
		return "enchanted creature", true
	case "self":
		return name, true
	case "opponents":
		return "your opponents", false
	}
	return "you", false
}

func agree(third bool, base, s string) string {
	if third {
		return s
	}
	return base
}

// numberWord spells small numbers: "one" … "ten", digits beyond.
func numberWord(n int) string {
	words := [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// count is "a card" for one, "two cards" for more.
func count(n int, noun string) string {
	if n == 1 {
		return article(noun)
	}
	return numberWord(n) + " " + plural(noun)
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// plural makes a noun phrase plural: its head word (the first word before
// " you", " an", " with", " from" or " card") gets an s.
func plural(noun string) string {
	for _, sep := range []string{" you ", " an ", " with ", " from "} {
		if head, tail, ok := strings.Cut(noun, sep); ok {
			return plural(head) + sep + tail
		}
	}
	if head, ok := strings.CutSuffix(noun, " or enchantment"); ok {
		return head + "s or enchantments"
	}
	return noun + "s"
}

func signed(n int) string {
	if n < 0 {
		return strconv.Itoa(n)
	}
	return "+" + strconv.Itoa(n)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func andList(words []string) string { return joinList(words, "and") }

func orList(words []string) string { return joinList(words, "or") }

func joinList(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	case 2:
		return words[0] + " " + conj + " " + words[1]
	}
	return strings.Join(words[:len(words)-1], ", ") + ", " + conj + " " + words[len(words)-1]
}
