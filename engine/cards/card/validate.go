package card

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Error is a catalog error: what is wrong with which field of which card.
type Error struct {
	// Card is the card's id, or its position ("cards[3]") when the id is
	// missing.
	Card string
	// Field is the path of the offending field inside the card
	// ("spell.modes[0].effects[1].to"); empty for the card as a whole.
	Field string
	// Reason says what is wrong.
	Reason string
}

// Error reads `card "ember_lash": spell.modes[0].effects[0].op: unknown op "dmg"`.
func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("card %q: %s", e.Card, e.Reason)
	}
	return fmt.Sprintf("card %q: %s: %s", e.Card, e.Field, e.Reason)
}

// Validate checks one definition against the format's closed vocabularies
// and its rules of shape, and returns every problem found (nil when
// there is none).
func Validate(d Def) []error {
	v := &validator{card: d.ID}
	if v.card == "" {
		v.card = d.Name
	}
	v.def(d)
	return v.errs
}

// validator accumulates the errors of one card.
type validator struct {
	card string
	errs []error
	hasX bool // the card's mana cost has {X}
}

func (v *validator) fail(field, format string, args ...any) {
	v.errs = append(v.errs, &Error{Card: v.card, Field: field, Reason: fmt.Sprintf(format, args...)})
}

// words checks a list against a closed set, refusing duplicates.
func (v *validator) words(field string, ws []string, ok func(string) bool, what string) {
	for i, w := range ws {
		if !ok(w) {
			v.fail(fmt.Sprintf("%s[%d]", field, i), "unknown %s %q", what, w)
		}
		if slices.Index(ws, w) != i {
			v.fail(fmt.Sprintf("%s[%d]", field, i), "%s %q listed twice", what, w)
		}
	}
}

// canonicalCost checks a mana cost and that it is written canonically.
func (v *validator) canonicalCost(field, s string) (Cost, bool) {
	c, err := ParseCost(s)
	if err != nil {
		v.fail(field, "%v", err)
		return c, false
	}
	if c.String() != s {
		v.fail(field, "write mana cost %q as %q", s, c.String())
	}
	return c, true
}

func validID(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

func validName(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || len([]rune(s)) > 40 {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func (v *validator) def(d Def) {
	if !validID(d.ID) {
		v.fail("id", "id %q is not snake_case (a-z, 0-9, _; starting with a letter)", d.ID)
	}
	if !validName(d.Name) {
		v.fail("name", "name %q must be 1 to 40 printable characters without surrounding spaces", d.Name)
	}
	if len(d.Types) == 0 {
		v.fail("types", "a card needs at least one type")
	}
	v.words("types", d.Types, isType, "type")
	v.words("supertypes", d.Supertypes, isSupertype, "supertype")
	v.words("keywords", d.Keywords, isKeyword, "keyword")
	for i, s := range d.Subtypes {
		if !validName(s) || strings.ContainsRune(s, ' ') {
			v.fail(fmt.Sprintf("subtypes[%d]", i), "subtype %q must be one printable word", s)
		}
	}
	spell := d.Is("instant") || d.Is("sorcery")
	if spell && len(d.Types) > 1 {
		v.fail("types", "an instant or sorcery has no other type")
	}
	if slices.Contains(d.Supertypes, "basic") && !d.Is("land") {
		v.fail("supertypes", "only a land can be basic")
	}
	switch {
	case d.Is("land") && d.Cost != "":
		v.fail("cost", "a land has no mana cost")
	case !d.Is("land") && d.Cost == "":
		v.fail("cost", "a nonland card needs a mana cost")
	case d.Cost != "":
		if c, ok := v.canonicalCost("cost", d.Cost); ok {
			v.hasX = c.X > 0
		}
	}
	pt := d.Power != nil && d.Toughness != nil
	if d.Is("creature") != pt || (d.Power == nil) != (d.Toughness == nil) {
		v.fail("power", "a creature, and only a creature, has power and toughness")
	}
	if pt && (*d.Power < 0 || *d.Toughness < 0) {
		v.fail("power", "power and toughness are not negative")
	}
	if d.Is("planeswalker") != (d.Loyalty != nil) {
		v.fail("loyalty", "a planeswalker, and only a planeswalker, has loyalty")
	}
	if d.Loyalty != nil && *d.Loyalty <= 0 {
		v.fail("loyalty", "starting loyalty must be positive")
	}
	aura := slices.Contains(d.Subtypes, "Aura")
	switch {
	case aura && !d.Is("enchantment"):
		v.fail("subtypes", "an Aura is an enchantment")
	case aura && d.Enchant == "":
		v.fail("enchant", "an Aura needs enchant")
	case !aura && d.Enchant != "":
		v.fail("enchant", "only an Aura has enchant")
	case d.Enchant != "" && v.class(d.Enchant) != classPermanent:
		v.fail("enchant", "an Aura enchants a permanent kind, not %q", d.Enchant)
	}
	switch {
	case spell && d.Spell == nil:
		v.fail("spell", "an instant or sorcery needs spell")
	case !spell && d.Spell != nil:
		v.fail("spell", "only an instant or sorcery has spell")
	case d.Spell != nil:
		v.spell("spell", *d.Spell)
	}
	names := false
	for i, a := range d.Abilities {
		v.ability(fmt.Sprintf("abilities[%d]", i), a, d, aura)
		if a.Mode != nil && hasOp(a.Mode.Effects, "name_card") {
			names = true
		}
	}
	for i, a := range d.Abilities {
		if a.Static != nil && a.Static.Op == "named_cost_more" && !names {
			v.fail(fmt.Sprintf("abilities[%d].static.op", i), "named_cost_more needs a name_card effect on the card")
		}
		if slices.Contains(a.Produce, "chosen") && !slices.ContainsFunc(d.Abilities, func(b Ability) bool {
			return b.Mode != nil && hasOp(b.Mode.Effects, "choose_color")
		}) {
			v.fail(fmt.Sprintf("abilities[%d].produce", i), "chosen mana needs a choose_color effect on the card")
		}
	}
}

func hasOp(es []Effect, op string) bool {
	return slices.ContainsFunc(es, func(e Effect) bool { return e.Op == op || hasOp(e.Then, op) })
}

func (v *validator) spell(field string, s Spell) {
	if len(s.Modes) == 0 {
		v.fail(field+".modes", "a spell needs at least one mode")
	}
	if s.Choose < 0 || (s.Choose > 0 && s.Choose >= len(s.Modes)) {
		v.fail(field+".choose", "choose %d of %d modes: choose fewer modes than there are", s.Choose, len(s.Modes))
	}
	for i, m := range s.Modes {
		v.mode(fmt.Sprintf("%s.modes[%d]", field, i), m)
	}
	if s.AdditionalCost != nil {
		v.extra(field+".additional_cost", *s.AdditionalCost)
	}
}

func (v *validator) extra(field string, x ExtraCost) {
	if x == (ExtraCost{}) {
		v.fail(field, "an extra cost needs sacrifice, discard, exile_from_graveyard or life")
	}
	if x.Sacrifice != "" && (!isFilter(x.Sacrifice) || x.Sacrifice == "card" || x.Sacrifice == "nonland") {
		v.fail(field+".sacrifice", "unknown permanent kind %q to sacrifice", x.Sacrifice)
	}
	if x.ExileFromGraveyard != "" && !isGraveyardKind(x.ExileFromGraveyard) {
		v.fail(field+".exile_from_graveyard", "unknown graveyard card kind %q", x.ExileFromGraveyard)
	}
	if x.Discard < 0 || x.Life < 0 {
		v.fail(field, "amounts are not negative")
	}
}

func (v *validator) mode(field string, m Mode) {
	for i, t := range m.Targets {
		if !isTargetKind(t.Kind) {
			v.fail(fmt.Sprintf("%s.targets[%d].kind", field, i), "unknown target kind %q", t.Kind)
		}
	}
	if len(m.Effects) == 0 {
		v.fail(field+".effects", "a mode needs at least one effect")
	}
	used := make([]bool, len(m.Targets))
	for i, e := range m.Effects {
		v.effect(fmt.Sprintf("%s.effects[%d]", field, i), e, m.Targets, used)
	}
	for i, u := range used {
		if !u {
			v.fail(fmt.Sprintf("%s.targets[%d]", field, i), "target t%d is not used by any effect", i)
		}
	}
}

// Classes of what a target kind or subject names.
const (
	classPlayer    = "player"
	classPermanent = "permanent"
	classAny       = "any"
	classStack     = "stack"
	classGraveyard = "graveyard"
)

// class says what a target kind or subject names.
func (v *validator) class(k string) string {
	switch {
	case k == "any":
		return classAny
	case isPlayerKind(k), isPlayerSubject(k):
		return classPlayer
	case isStackKind(k):
		return classStack
	case isGraveyardKind(k):
		return classGraveyard
	}
	return classPermanent
}

// opTo says which classes an op's `to` accepts, and whether it may be
// omitted (then it means "you").
func opTo(op string) (classes string, optional bool) {
	switch op {
	case "damage":
		return "any player permanent", false
	case "draw", "gain_life", "create_token", "mill":
		return "player", true
	case "discard", "lose_life", "exile_top", "sacrifice":
		return "player", false
	case "destroy", "bounce", "tap", "untap", "pump", "gain_control", "animate":
		return "permanent", false
	case "add_counters":
		return "player permanent", false
	case "exile":
		return "permanent graveyard", false
	case "counter":
		return "stack", false
	case "return":
		return "graveyard", false
	}
	return "", true
}

func effectFields(e Effect) []string {
	var fs []string
	add := func(set bool, name string) {
		if set {
			fs = append(fs, name)
		}
	}
	add(e.Amount != 0, "amount")
	add(e.XAmount, "x")
	add(e.To != "", "to")
	add(e.Power != 0, "power")
	add(e.Toughness != 0, "toughness")
	add(len(e.Keywords) > 0, "keywords")
	add(e.Counter != "", "counter")
	add(e.Token != nil, "token")
	add(e.Filter != "", "filter")
	add(e.Take != 0, "take")
	add(e.Rest != "", "rest")
	add(e.Dest != "", "dest")
	add(e.Chooser != "", "chooser")
	add(e.Duration != "", "duration")
	add(e.SkipUntap, "skip_untap")
	add(e.Emblem != nil, "emblem")
	add(e.Pay != "", "pay")
	add(len(e.Then) > 0, "then")
	return fs
}

func (v *validator) effect(field string, e Effect, targets []Target, used []bool) {
	allowed, ok := opFields(e.Op)
	if !ok {
		v.fail(field+".op", "unknown op %q", e.Op)
		return
	}
	for _, f := range effectFields(e) {
		if !slices.Contains(strings.Fields(allowed), f) {
			v.fail(field+"."+f, "op %s does not use %s", e.Op, f)
		}
	}
	if e.Amount < 0 {
		v.fail(field+".amount", "amount is not negative")
	}
	if e.XAmount && !v.hasX {
		v.fail(field+".x", "x needs {X} in the card's mana cost")
	}
	switch e.Op {
	case "damage", "gain_life", "lose_life", "draw", "mill", "scry", "exile_top", "look_top":
		if e.Amount == 0 && !e.XAmount {
			v.fail(field+".amount", "op %s needs an amount", e.Op)
		}
	}
	v.to(field+".to", e, targets, used)
	switch e.Op {
	case "discard", "sacrifice", "add_counters", "create_token", "search":
		// amount 0 means one
	case "pump":
		if e.Power == 0 && e.Toughness == 0 && len(e.Keywords) == 0 {
			v.fail(field, "a pump needs power, toughness or keywords")
		}
	case "animate":
		if i, ok := targetIndex(e.To); !ok || i >= len(targets) || (targets[i].Kind != "land" && targets[i].Kind != "nonbasic_land") {
			v.fail(field+".to", "animate makes a target land a creature: its to must be a land target")
		}
		if e.Power < 0 || e.Toughness <= 0 {
			v.fail(field, "an animated land needs a power of 0 or more and a toughness of 1 or more")
		}
	}
	v.words(field+".keywords", e.Keywords, isKeyword, "keyword")
	if e.Counter != "" && !isCounterKind(e.Counter) {
		v.fail(field+".counter", "unknown counter kind %q", e.Counter)
	}
	if e.Op == "add_counters" {
		switch {
		case e.Counter == "":
			v.fail(field+".counter", "add_counters needs a counter kind")
		case (e.Counter == "poison") != (v.toClass(e.To, targets) == classPlayer):
			v.fail(field+".counter", "poison counters go on players, other counters on permanents")
		}
	}
	if e.Filter != "" && !isFilter(e.Filter) {
		v.fail(field+".filter", "unknown filter %q", e.Filter)
	}
	if (e.Op == "search" || e.Op == "sacrifice") && e.Filter == "" {
		v.fail(field+".filter", "op %s needs a filter", e.Op)
	}
	if e.Op == "sacrifice" && e.Filter == "card" {
		v.fail(field+".filter", "a sacrifice names a permanent kind")
	}
	switch e.Chooser {
	case "", "them", "you":
	default:
		v.fail(field+".chooser", "chooser is \"them\" or \"you\", not %q", e.Chooser)
	}
	switch e.Duration {
	case "", "end_of_turn":
	default:
		v.fail(field+".duration", "duration is \"end_of_turn\" or omitted, not %q", e.Duration)
	}
	if e.Dest != "" && !isDest(e.Dest) {
		v.fail(field+".dest", "unknown destination %q", e.Dest)
	}
	if (e.Op == "search" || e.Op == "return") && e.Dest == "" {
		v.fail(field+".dest", "op %s needs a destination", e.Op)
	}
	if e.Op == "return" && e.Dest == "top_of_library" {
		v.fail(field+".dest", "a return goes to the hand or the battlefield")
	}
	if e.Op == "look_top" {
		switch e.Rest {
		case "bottom", "graveyard":
		default:
			v.fail(field+".rest", "rest is \"bottom\" or \"graveyard\", not %q", e.Rest)
		}
		if e.Take < 1 || e.Take > e.Amount {
			v.fail(field+".take", "take 1 to %d of the cards looked at, not %d", e.Amount, e.Take)
		}
	}
	if e.Token != nil {
		v.token(field+".token", *e.Token)
	}
	if e.Op == "create_token" && e.Token == nil {
		v.fail(field+".token", "create_token needs a token")
	}
	if e.Op == "emblem" {
		if e.Emblem == nil {
			v.fail(field+".emblem", "emblem needs its static ability")
		} else {
			v.static(field+".emblem", *e.Emblem, false)
			if e.Emblem.Affects == "self" {
				v.fail(field+".emblem.affects", "an emblem has no self")
			}
		}
	}
	if e.Op == "may" {
		if len(e.Then) == 0 {
			v.fail(field+".then", "may needs the effects it gates")
		}
		if e.Pay != "" {
			v.canonicalCost(field+".pay", e.Pay)
		}
		for i, t := range e.Then {
			v.effect(fmt.Sprintf("%s.then[%d]", field, i), t, targets, used)
		}
	}
}

// toClass returns the class `to` names, with "" meaning you.
func (v *validator) toClass(to string, targets []Target) string {
	if to == "" {
		return classPlayer
	}
	if i, ok := targetIndex(to); ok && i < len(targets) {
		return v.class(targets[i].Kind)
	}
	return v.class(to)
}

// targetIndex parses a target reference "t3".
func targetIndex(to string) (int, bool) {
	if len(to) < 2 || to[0] != 't' {
		return 0, false
	}
	n, err := strconv.Atoi(to[1:])
	if err != nil || strconv.Itoa(n) != to[1:] {
		return 0, false
	}
	return n, true
}

func (v *validator) to(field string, e Effect, targets []Target, used []bool) {
	classes, optional := opTo(e.Op)
	if classes == "" {
		return
	}
	if e.To == "" {
		if !optional {
			v.fail(field, "op %s needs to", e.Op)
		}
		return
	}
	if i, ok := targetIndex(e.To); ok {
		if i >= len(targets) {
			v.fail(field, "%s names no target (the mode has %d)", e.To, len(targets))
			return
		}
		used[i] = true
	} else if !isSubject(e.To) {
		v.fail(field, "unknown subject %q (a target t0, t1… or a subject)", e.To)
		return
	}
	c := v.toClass(e.To, targets)
	if c == classAny && e.Op != "damage" {
		v.fail(field, "op %s cannot apply to any target", e.Op)
		return
	}
	if !slices.Contains(strings.Fields(classes), c) {
		v.fail(field, "op %s applies to a %s, not %q", e.Op, strings.ReplaceAll(classes, " ", " or "), e.To)
	}
}

func (v *validator) token(field string, t Token) {
	if !validName(t.Name) {
		v.fail(field+".name", "token name %q must be 1 to 40 printable characters", t.Name)
	}
	v.words(field+".colors", t.Colors, func(c string) bool { return colorIndex(c) >= 0 }, "colour")
	v.words(field+".types", t.Types, func(s string) bool { return s == "creature" || s == "artifact" }, "token type")
	if !slices.Contains(t.Types, "creature") {
		v.fail(field+".types", "a token is a creature")
	}
	v.words(field+".keywords", t.Keywords, isKeyword, "keyword")
	if t.Power < 0 || t.Toughness < 0 {
		v.fail(field, "power and toughness are not negative")
	}
}

func abilityFields(a Ability) []string {
	var fs []string
	add := func(set bool, name string) {
		if set {
			fs = append(fs, name)
		}
	}
	add(a.Cost != "", "cost")
	add(a.Extra != nil, "extra")
	add(a.Loyalty != nil, "loyalty")
	add(len(a.Produce) > 0, "produce")
	add(a.Amount != 0, "amount")
	add(a.SorcerySpeed, "sorcery_speed")
	add(a.When != "", "when")
	add(a.Optional, "optional")
	add(a.Pay != "", "pay")
	add(a.Mode != nil, "mode")
	add(a.Static != nil, "static")
	return fs
}

// abilityKindFields lists the fields each ability kind may use.
func abilityKindFields(kind string) string {
	switch kind {
	case AbilityMana:
		return "cost extra produce amount"
	case AbilityActivated:
		return "cost extra sorcery_speed mode"
	case AbilityTriggered:
		return "when optional pay mode"
	case AbilityStatic:
		return "static"
	case AbilityLoyalty:
		return "loyalty mode"
	}
	return ""
}

func (v *validator) ability(field string, a Ability, d Def, aura bool) {
	if !isAbilityKind(a.Kind) {
		v.fail(field+".kind", "unknown ability kind %q", a.Kind)
		return
	}
	allowed := strings.Fields(abilityKindFields(a.Kind))
	for _, f := range abilityFields(a) {
		if !slices.Contains(allowed, f) {
			v.fail(field+"."+f, "a %s ability does not use %s", a.Kind, f)
		}
	}
	if a.Cost != "" {
		ac, err := ParseAbilityCost(a.Cost)
		switch {
		case err != nil:
			v.fail(field+".cost", "%v", err)
		case ac.String() != a.Cost:
			v.fail(field+".cost", "write ability cost %q as %q", a.Cost, ac.String())
		case ac.Mana != nil && ac.Mana.X > 0:
			v.fail(field+".cost", "an ability cost has no {X}")
		}
	}
	if a.Extra != nil {
		v.extra(field+".extra", *a.Extra)
	}
	switch a.Kind {
	case AbilityMana:
		if a.Cost == "" && a.Extra == nil {
			v.fail(field+".cost", "a mana ability needs a cost")
		}
		if len(a.Produce) == 0 {
			v.fail(field+".produce", "a mana ability needs produce")
		}
		v.words(field+".produce", a.Produce, isManaColor, "mana symbol")
		if a.Amount < 0 {
			v.fail(field+".amount", "amount is not negative")
		}
	case AbilityActivated:
		if a.Cost == "" && a.Extra == nil {
			v.fail(field+".cost", "an activated ability needs a cost")
		}
	case AbilityTriggered:
		if !isTrigger(a.When) {
			v.fail(field+".when", "unknown trigger %q", a.When)
		}
		if a.Pay != "" {
			v.canonicalCost(field+".pay", a.Pay)
			if !a.Optional {
				v.fail(field+".pay", "a trigger with pay is optional")
			}
		}
	case AbilityStatic:
		if a.Static == nil {
			v.fail(field+".static", "a static ability needs static")
		} else {
			v.static(field+".static", *a.Static, aura)
		}
	case AbilityLoyalty:
		if !d.Is("planeswalker") {
			v.fail(field+".kind", "only a planeswalker has loyalty abilities")
		}
		if a.Loyalty == nil {
			v.fail(field+".loyalty", "a loyalty ability needs its loyalty cost")
		}
	}
	needsMode := a.Kind == AbilityActivated || a.Kind == AbilityTriggered || a.Kind == AbilityLoyalty
	if needsMode && a.Mode == nil {
		v.fail(field+".mode", "a %s ability needs mode", a.Kind)
	}
	if a.Mode != nil {
		v.mode(field+".mode", *a.Mode)
	}
}

func (v *validator) static(field string, s Static, aura bool) {
	if !isStaticOp(s.Op) {
		v.fail(field+".op", "unknown static op %q", s.Op)
		return
	}
	if !isAffects(s.Affects) {
		v.fail(field+".affects", "unknown affects %q", s.Affects)
		return
	}
	var affects string
	switch s.Op {
	case "anthem":
		affects = "creatures_you_control other_creatures_you_control enchanted self"
		if s.Power == 0 && s.Toughness == 0 && len(s.Keywords) == 0 {
			v.fail(field, "an anthem needs power, toughness or keywords")
		}
	case "control", "doesnt_untap":
		affects = "enchanted"
	case "cant_attack_or_block":
		affects = "enchanted self"
	case "cost_change":
		affects = "you opponents"
		if s.Amount == 0 {
			v.fail(field+".amount", "a cost change needs a nonzero amount")
		}
		if s.Filter != "" && !isSpellFilter(s.Filter) {
			v.fail(field+".filter", "a cost change filter is a spell kind, not %q", s.Filter)
		}
	case "no_max_hand_size":
		affects = "you"
	case "named_cost_more":
		affects = "opponents you"
		if s.Amount <= 0 {
			v.fail(field+".amount", "named_cost_more needs a positive amount")
		}
	}
	if !slices.Contains(strings.Fields(affects), s.Affects) {
		v.fail(field+".affects", "static %s affects %s, not %q", s.Op, strings.ReplaceAll(affects, " ", " or "), s.Affects)
	}
	if s.Affects == "enchanted" && !aura {
		v.fail(field+".affects", "only an Aura affects the enchanted creature")
	}
	if s.Op != "anthem" && (s.Power != 0 || s.Toughness != 0 || len(s.Keywords) > 0) {
		v.fail(field, "only an anthem uses power, toughness and keywords")
	}
	if s.Op != "cost_change" && s.Op != "named_cost_more" && s.Amount != 0 {
		v.fail(field+".amount", "static %s does not use amount", s.Op)
	}
	if s.Op != "cost_change" && s.Filter != "" {
		v.fail(field+".filter", "static %s does not use filter", s.Op)
	}
	v.words(field+".keywords", s.Keywords, isKeyword, "keyword")
}
