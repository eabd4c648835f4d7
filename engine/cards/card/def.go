// Package card holds the card game's card definitions: the data format
// authors write (docs/card-game.md), its strict decoding and validation,
// the catalog, and the one rules-text generator that both the catalog and
// the game use.
package card

// Def is one card's functional definition as an author writes it in a
// catalog file under static/cardgame/cards/. Rules text is never stored:
// Text generates it from the definition, for the catalog and the game
// alike. Every vocabulary below is closed; an unknown word is refused when
// the catalog is built.
type Def struct {
	// ID is the functional id, snake_case, unique in the catalog; deck
	// lists and CatalogCard.functional_id use it.
	ID string `json:"id"`
	// Name is the display name, unique in the catalog.
	Name string `json:"name"`
	// Cost is the mana cost in pip notation ("{2}{R}{R}", "{X}{R}");
	// empty for lands.
	Cost string `json:"cost,omitempty"`
	// Supertypes are "basic" and "legendary".
	Supertypes []string `json:"supertypes,omitempty"`
	// Types are card types: land, creature, artifact, enchantment,
	// instant, sorcery, planeswalker.
	Types []string `json:"types"`
	// Subtypes are display words ("Bird", "Aura", "Forest"); "Aura" makes
	// an enchantment an aura, which needs Enchant.
	Subtypes []string `json:"subtypes,omitempty"`
	// Power and Toughness are a creature's printed values.
	Power     *int `json:"power,omitempty"`
	Toughness *int `json:"toughness,omitempty"`
	// Loyalty is a planeswalker's starting loyalty.
	Loyalty *int `json:"loyalty,omitempty"`
	// Keywords are printed keyword abilities (the closed set in docs/card-game.md).
	Keywords []string `json:"keywords,omitempty"`
	// Enchant is what an aura may enchant (a Target kind such as
	// "creature"); the aura targets it as it is cast.
	Enchant string `json:"enchant,omitempty"`
	// Spell is what an instant or sorcery does when it resolves.
	Spell *Spell `json:"spell,omitempty"`
	// Abilities are the card's mana, activated, triggered and static
	// abilities, in printed order.
	Abilities []Ability `json:"abilities,omitempty"`
	// Flavor is optional flavour text shown in the catalog.
	Flavor string `json:"flavor,omitempty"`
}

// Spell is an instant's or sorcery's effect: one mode, or a choice of
// modes ("Choose one —").
type Spell struct {
	// Modes holds one mode for an ordinary spell; two or more make the
	// spell modal and the caster chooses Choose of them (1 when 0).
	Modes []Mode `json:"modes"`
	// Choose is how many modes a modal spell picks; 0 means 1.
	Choose int `json:"choose,omitempty"`
	// AdditionalCost is paid as the spell is cast, beside its mana.
	AdditionalCost *ExtraCost `json:"additional_cost,omitempty"`
}

// Mode is one thing a spell or ability does: the targets it announces and
// the effects that run, in order, as it resolves. Effects name targets by
// their index in Targets ("t0", "t1").
type Mode struct {
	Targets []Target `json:"targets,omitempty"`
	Effects []Effect `json:"effects"`
}

// Target is one target an object announces.
type Target struct {
	// Kind is one of the target kinds in docs/card-game.md.
	Kind string `json:"kind"`
	// Optional makes it "up to one".
	Optional bool `json:"optional,omitempty"`
}

// ExtraCost is a cost beyond mana: paid as a spell is cast or an ability
// is activated.
type ExtraCost struct {
	// Sacrifice is a Target kind naming what to sacrifice ("creature").
	Sacrifice string `json:"sacrifice,omitempty"`
	// Discard is how many cards to discard.
	Discard int `json:"discard,omitempty"`
	// ExileFromGraveyard is a Target kind of a card in your graveyard to
	// exile ("creature_card_in_your_graveyard").
	ExileFromGraveyard string `json:"exile_from_graveyard,omitempty"`
	// Life is life paid.
	Life int `json:"life,omitempty"`
}

// Ability kinds.
const (
	AbilityMana      = "mana"
	AbilityActivated = "activated"
	AbilityTriggered = "triggered"
	AbilityStatic    = "static"
	AbilityLoyalty   = "loyalty" // a planeswalker's loyalty ability
)

// Ability is one non-keyword ability of a card.
type Ability struct {
	// Kind is one of the Ability kinds.
	Kind string `json:"kind"`
	// Cost is a mana or activated ability's cost in pip notation, with
	// "{T}" for tapping the source ("{T}", "{2}{B}, {T}"); loyalty
	// abilities use Loyalty instead.
	Cost string `json:"cost,omitempty"`
	// Extra is an activated ability's non-mana cost.
	Extra *ExtraCost `json:"extra,omitempty"`
	// Loyalty is a loyalty ability's cost: +1, -3 (0 is "+0").
	Loyalty *int `json:"loyalty,omitempty"`
	// Produce lists the colours a mana ability can make ("W","U","B","R",
	// "G","C", or "chosen": the colour a choose_color effect of the card
	// chose): one of them per activation; Amount of it (0 means 1).
	Produce []string `json:"produce,omitempty"`
	Amount  int      `json:"amount,omitempty"`
	// SorcerySpeed restricts an activated ability to its controller's main
	// phase with an empty stack.
	SorcerySpeed bool `json:"sorcery_speed,omitempty"`
	// When is a triggered ability's event (docs/card-game.md lists them).
	When string `json:"when,omitempty"`
	// Optional makes a trigger "you may"; Pay is its optional mana cost
	// ("you may pay {1}. If you do, …").
	Optional bool   `json:"optional,omitempty"`
	Pay      string `json:"pay,omitempty"`
	// Mode is what an activated, loyalty or triggered ability does.
	Mode *Mode `json:"mode,omitempty"`
	// Static is a static ability's continuous effect.
	Static *Static `json:"static,omitempty"`
}

// Effect is one step of a resolution. Op selects the meaning of the other
// fields.
type Effect struct {
	// Op is one of the effect ops in docs/card-game.md.
	Op string `json:"op"`
	// Amount is a count, damage or life amount; XAmount uses X instead.
	Amount  int  `json:"amount,omitempty"`
	XAmount bool `json:"x,omitempty"`
	// To says whom or what the effect applies to: a target ("t0"), or one
	// of Subjects.
	To string `json:"to,omitempty"`
	// Power and Toughness are a pump's or an anthem's modifiers.
	Power     int `json:"power,omitempty"`
	Toughness int `json:"toughness,omitempty"`
	// Keywords are keywords granted.
	Keywords []string `json:"keywords,omitempty"`
	// Counter is a counter kind: "+1/+1", "-1/-1", "loyalty", "poison".
	Counter string `json:"counter,omitempty"`
	// Token describes created tokens.
	Token *Token `json:"token,omitempty"`
	// Filter restricts a search, look, discard or sacrifice: a Target kind
	// read as a card or permanent type, or one of the filter-only words
	// "card" (any), "basic_land", "nonland".
	Filter string `json:"filter,omitempty"`
	// Take and Rest shape a look at the top of a library: take up to Take
	// cards into the hand, the rest "bottom" (in any order) or "graveyard".
	Take int    `json:"take,omitempty"`
	Rest string `json:"rest,omitempty"`
	// Dest is where a search or a return puts cards: "hand",
	// "battlefield", "battlefield_tapped", "top_of_library".
	Dest string `json:"dest,omitempty"`
	// Chooser is who picks cards for discard: "them" (default) or "you"
	// (you look at their hand and choose).
	Chooser string `json:"chooser,omitempty"`
	// Duration of a pump or control change: "end_of_turn" or "" (permanent).
	Duration string `json:"duration,omitempty"`
	// SkipUntap makes a tapped permanent skip its controller's next untap.
	SkipUntap bool `json:"skip_untap,omitempty"`
	// Emblem is an emblem's static ability.
	Emblem *Static `json:"emblem,omitempty"`
	// Pay is the mana cost of an optional "may" effect; Then are the
	// effects it gates.
	Pay  string   `json:"pay,omitempty"`
	Then []Effect `json:"then,omitempty"`
}

// Static is a continuous effect.
type Static struct {
	// Op is one of the static ops in docs/card-game.md.
	Op string `json:"op"`
	// Affects is who or what: "creatures_you_control", "other_creatures_you_control",
	// "enchanted", "self", "you", "opponents".
	Affects   string   `json:"affects"`
	Power     int      `json:"power,omitempty"`
	Toughness int      `json:"toughness,omitempty"`
	Keywords  []string `json:"keywords,omitempty"`
	// Amount is a cost change (positive more, negative less).
	Amount int `json:"amount,omitempty"`
	// Filter narrows a cost change to spells of a Target kind's type
	// ("creature_spell").
	Filter string `json:"filter,omitempty"`
}

// Token describes a token an effect creates.
type Token struct {
	Name      string   `json:"name"`
	Colors    []string `json:"colors,omitempty"`
	Types     []string `json:"types"`
	Subtypes  []string `json:"subtypes,omitempty"`
	Power     int      `json:"power"`
	Toughness int      `json:"toughness"`
	Keywords  []string `json:"keywords,omitempty"`
}
