package card

// The closed vocabularies of the definition format. Each is a switch, so
// nothing can add a word at run time; docs/card-game.md lists them.

// isType reports whether s is a card type.
func isType(s string) bool {
	switch s {
	case "land", "creature", "artifact", "enchantment", "instant", "sorcery", "planeswalker":
		return true
	}
	return false
}

// isSupertype reports whether s is a supertype.
func isSupertype(s string) bool { return s == "basic" || s == "legendary" }

// isKeyword reports whether s is a keyword ability.
func isKeyword(s string) bool {
	switch s {
	case "flying", "reach", "vigilance", "haste", "trample", "first_strike", "deathtouch",
		"lifelink", "menace", "defender", "unblockable", "flash", "venom":
		return true
	}
	return false
}

// isTargetKind reports whether s is a target kind.
func isTargetKind(s string) bool {
	switch s {
	case "any", "player", "opponent", "creature", "creature_you_control",
		"creature_opponent_controls", "tapped_creature", "attacking_creature",
		"flying_creature", "planeswalker", "permanent", "nonland_permanent",
		"artifact_or_enchantment", "land", "nonbasic_land", "spell", "creature_spell",
		"noncreature_spell", "creature_card_in_your_graveyard", "card_in_a_graveyard":
		return true
	}
	return false
}

// isPlayerKind reports whether a target kind names a player only.
func isPlayerKind(s string) bool { return s == "player" || s == "opponent" }

// isStackKind reports whether a target kind names a spell on the stack.
func isStackKind(s string) bool {
	return s == "spell" || s == "creature_spell" || s == "noncreature_spell"
}

// isGraveyardKind reports whether a target kind names a card in a graveyard.
func isGraveyardKind(s string) bool {
	return s == "creature_card_in_your_graveyard" || s == "card_in_a_graveyard"
}

// isFilter reports whether s may restrict a search, look, discard or
// sacrifice: the card-describing target kinds, and the filter-only words
// card (any card), basic_land and nonland.
func isFilter(s string) bool {
	switch s {
	case "card", "basic_land", "nonland", "creature", "land", "nonbasic_land", "planeswalker",
		"permanent", "nonland_permanent", "artifact_or_enchantment":
		return true
	}
	return false
}

// isSpellFilter reports whether s may narrow a cost change.
func isSpellFilter(s string) bool { return isStackKind(s) }

// isAbilityKind reports whether s is an ability kind.
func isAbilityKind(s string) bool {
	switch s {
	case AbilityMana, AbilityActivated, AbilityTriggered, AbilityStatic, AbilityLoyalty:
		return true
	}
	return false
}

// isTrigger reports whether s is a trigger event.
func isTrigger(s string) bool {
	switch s {
	case "enters", "dies", "attacks", "upkeep", "end_step", "you_cast_noncreature",
		"creature_you_control_dies", "deals_combat_damage_to_player":
		return true
	}
	return false
}

// isSubject reports whether s is a non-target subject of an effect.
func isSubject(s string) bool {
	switch s {
	case "you", "each_opponent", "each_player", "each_creature",
		"each_creature_opponents_control", "self", "enchanted", "attached", "triggering_player":
		return true
	}
	return false
}

// isPlayerSubject reports whether a subject names players.
func isPlayerSubject(s string) bool {
	switch s {
	case "you", "each_opponent", "each_player", "triggering_player":
		return true
	}
	return false
}

// isStaticOp reports whether s is a static op.
func isStaticOp(s string) bool {
	switch s {
	case "anthem", "control", "cant_attack_or_block", "doesnt_untap", "cost_change",
		"no_max_hand_size", "named_cost_more":
		return true
	}
	return false
}

// isAffects reports whether s is what a static effect may apply to.
func isAffects(s string) bool {
	switch s {
	case "creatures_you_control", "other_creatures_you_control", "enchanted", "self", "you", "opponents":
		return true
	}
	return false
}

// isCounterKind reports whether s is a counter kind.
func isCounterKind(s string) bool {
	switch s {
	case "+1/+1", "-1/-1", "loyalty", "poison":
		return true
	}
	return false
}

// isDest reports whether s is a destination of a search or a return.
func isDest(s string) bool {
	switch s {
	case "hand", "battlefield", "battlefield_tapped", "top_of_library":
		return true
	}
	return false
}

// isManaColor reports whether s is a mana symbol a mana ability produces:
// a colour, C for colourless, or "chosen" for the colour the permanent's
// controller chose as it entered.
func isManaColor(s string) bool {
	switch s {
	case "W", "U", "B", "R", "G", "C", "chosen":
		return true
	}
	return false
}

// basicLandColor returns the colour a basic land type taps for, or "".
func basicLandColor(subtype string) string {
	switch subtype {
	case "Plains":
		return "W"
	case "Island":
		return "U"
	case "Swamp":
		return "B"
	case "Mountain":
		return "R"
	case "Forest":
		return "G"
	}
	return ""
}

// colorIndex orders the five colours W U B R G; -1 for anything else.
func colorIndex(c string) int {
	switch c {
	case "W":
		return 0
	case "U":
		return 1
	case "B":
		return 2
	case "R":
		return 3
	case "G":
		return 4
	}
	return -1
}

// colorName is a colour letter's English name.
func colorName(c string) string {
	switch c {
	case "W":
		return "white"
	case "U":
		return "blue"
	case "B":
		return "black"
	case "R":
		return "red"
	case "G":
		return "green"
	}
	return "colorless"
}

// opFields lists the Effect fields an op may use, by JSON name; a field
// outside the list is a catalog error.
func opFields(op string) (fields string, ok bool) {
	switch op {
	case "damage", "gain_life", "lose_life", "draw", "mill":
		return "amount x to", true
	case "destroy", "exile", "bounce", "counter", "untap":
		return "to", true
	case "discard":
		return "amount to chooser filter", true
	case "pump", "animate":
		return "to power toughness keywords duration", true
	case "add_counters":
		return "amount to counter", true
	case "create_token":
		return "amount x to token", true
	case "tap":
		return "to skip_untap", true
	case "scry":
		return "amount", true
	case "search":
		return "amount filter dest", true
	case "look_top":
		return "amount take rest filter", true
	case "exile_top":
		return "amount to", true
	case "sacrifice":
		return "amount to filter", true
	case "gain_control":
		return "to duration", true
	case "return":
		return "to dest", true
	case "emblem":
		return "emblem", true
	case "may":
		return "pay then", true
	case "choose_color", "name_card":
		return "", true
	}
	return "", false
}
