package card

import (
	"encoding/json"
	"testing"
)

// def decodes a definition written as JSON, failing the test if it does
// not decode or does not validate.
func def(t *testing.T, src string) Def {
	t.Helper()
	var d Def
	if err := json.Unmarshal([]byte(src), &d); err != nil {
		t.Fatalf("decode %s: %v", src, err)
	}
	if errs := Validate(d); len(errs) > 0 {
		t.Fatalf("validate %s: %v", src, errs)
	}
	return d
}

// spell wraps effects and targets in an instant named Bolt.
func spell(cost, mode string) string {
	return `{"id":"bolt","name":"Bolt","cost":"` + cost + `","types":["instant"],"spell":{"modes":[` + mode + `]}}`
}

func TestTextOps(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"damage any", spell("{R}", `{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}`),
			"Bolt deals 3 damage to any target."},
		{"damage x", spell("{X}{R}", `{"targets":[{"kind":"creature"}],"effects":[{"op":"damage","x":true,"to":"t0"}]}`),
			"Bolt deals X damage to target creature."},
		{"damage each creature", spell("{2}{R}", `{"effects":[{"op":"damage","amount":2,"to":"each_creature"}]}`),
			"Bolt deals 2 damage to each creature."},
		{"destroy", spell("{1}{B}", `{"targets":[{"kind":"creature_opponent_controls"}],"effects":[{"op":"destroy","to":"t0"}]}`),
			"Destroy target creature an opponent controls."},
		{"exile graveyard", spell("{B}", `{"targets":[{"kind":"card_in_a_graveyard"}],"effects":[{"op":"exile","to":"t0"}]}`),
			"Exile target card from a graveyard."},
		{"bounce", spell("{1}{U}", `{"targets":[{"kind":"nonland_permanent"}],"effects":[{"op":"bounce","to":"t0"}]}`),
			"Return target nonland permanent to its owner's hand."},
		{"draw you", spell("{U}", `{"effects":[{"op":"draw","amount":2}]}`), "Draw two cards."},
		{"draw one", spell("{U}", `{"effects":[{"op":"draw","amount":1,"to":"you"}]}`), "Draw a card."},
		{"draw target player", spell("{U}", `{"targets":[{"kind":"player"}],"effects":[{"op":"draw","amount":3,"to":"t0"}]}`),
			"Target player draws three cards."},
		{"discard", spell("{B}", `{"targets":[{"kind":"opponent"}],"effects":[{"op":"discard","amount":2,"to":"t0"}]}`),
			"Target opponent discards two cards."},
		{"discard chosen", spell("{B}", `{"targets":[{"kind":"opponent"}],"effects":[{"op":"discard","to":"t0","chooser":"you","filter":"nonland"}]}`),
			"Look at target opponent's hand and choose a nonland card from it. That player discards that card."},
		{"gain life", spell("{W}", `{"effects":[{"op":"gain_life","amount":4}]}`), "You gain 4 life."},
		{"lose life", spell("{B}", `{"effects":[{"op":"lose_life","amount":2,"to":"each_opponent"},{"op":"gain_life","amount":2}]}`),
			"Each opponent loses 2 life. You gain 2 life."},
		{"counter", spell("{U}{U}", `{"targets":[{"kind":"spell"}],"effects":[{"op":"counter","to":"t0"}]}`), "Counter target spell."},
		{"pump", spell("{G}", `{"targets":[{"kind":"creature"}],"effects":[{"op":"pump","power":3,"toughness":3,"keywords":["trample"],"to":"t0","duration":"end_of_turn"}]}`),
			"Target creature gets +3/+3 and gains trample until end of turn."},
		{"animate", spell("{1}{G}", `{"targets":[{"kind":"land"}],"effects":[{"op":"animate","power":3,"toughness":3,"keywords":["haste"],"to":"t0","duration":"end_of_turn"}]}`),
			"Target land becomes a 3/3 creature with haste until end of turn. It is still a land."},
		{"animate an 8/8", spell("{G}", `{"targets":[{"kind":"nonbasic_land"}],"effects":[{"op":"animate","power":8,"toughness":8,"to":"t0"}]}`),
			"Target nonbasic land becomes an 8/8 creature. It is still a land."},
		{"counters", spell("{G}", `{"targets":[{"kind":"creature"}],"effects":[{"op":"add_counters","counter":"+1/+1","amount":2,"to":"t0"},{"op":"untap","to":"t0"}]}`),
			"Put two +1/+1 counters on target creature. Untap it."},
		{"poison", spell("{B}", `{"targets":[{"kind":"player"}],"effects":[{"op":"add_counters","counter":"poison","to":"t0"}]}`),
			"Target player gets a poison counter."},
		{"token", spell("{1}{G}", `{"effects":[{"op":"create_token","amount":2,"token":{"name":"Sapling","colors":["G"],"types":["creature"],"subtypes":["Sapling"],"power":1,"toughness":1,"keywords":["reach"]}}]}`),
			"Create two 1/1 green Sapling creature tokens with reach."},
		{"token named", spell("{W}", `{"effects":[{"op":"create_token","token":{"name":"Dawn Sentinel","colors":["W","U"],"types":["artifact","creature"],"subtypes":["Construct"],"power":2,"toughness":2}}]}`),
			"Create a 2/2 white and blue Construct artifact creature token named Dawn Sentinel."},
		{"tap skip", spell("{U}", `{"targets":[{"kind":"creature"}],"effects":[{"op":"tap","to":"t0","skip_untap":true}]}`),
			"Tap target creature. It doesn't untap during its controller's next untap step."},
		{"scry", spell("{U}", `{"effects":[{"op":"scry","amount":2},{"op":"draw","amount":1}]}`), "Scry 2. Draw a card."},
		{"search", spell("{1}{G}", `{"effects":[{"op":"search","filter":"basic_land","dest":"battlefield_tapped"}]}`),
			"Search your library for a basic land card, put it onto the battlefield tapped, then shuffle."},
		{"search two", spell("{2}{G}", `{"effects":[{"op":"search","amount":2,"filter":"basic_land","dest":"hand"}]}`),
			"Search your library for up to two basic land cards, reveal them, put them into your hand, then shuffle."},
		{"search top", spell("{1}{B}", `{"effects":[{"op":"search","filter":"card","dest":"top_of_library"}]}`),
			"Search your library for a card, then shuffle and put it on top."},
		{"look top", spell("{1}{G}", `{"effects":[{"op":"look_top","amount":4,"take":1,"rest":"bottom","filter":"creature"}]}`),
			"Look at the top four cards of your library. Put up to one creature card of them into your hand and the rest on the bottom of your library in any order."},
		{"look top graveyard", spell("{U}", `{"effects":[{"op":"look_top","amount":3,"take":2,"rest":"graveyard"}]}`),
			"Look at the top three cards of your library. Put up to two of them into your hand and the rest into your graveyard."},
		{"mill", spell("{U}", `{"targets":[{"kind":"player"}],"effects":[{"op":"mill","amount":3,"to":"t0"}]}`), "Target player mills three cards."},
		{"exile top", spell("{B}", `{"targets":[{"kind":"player"}],"effects":[{"op":"exile_top","amount":3,"to":"t0"}]}`),
			"Exile the top three cards of target player's library."},
		{"edict", spell("{1}{B}", `{"effects":[{"op":"sacrifice","filter":"creature","to":"each_opponent"}]}`),
			"Each opponent sacrifices a creature."},
		{"control", spell("{2}{R}", `{"targets":[{"kind":"creature"}],"effects":[{"op":"gain_control","to":"t0","duration":"end_of_turn"},{"op":"untap","to":"t0"},{"op":"pump","keywords":["haste"],"to":"t0","duration":"end_of_turn"}]}`),
			"Gain control of target creature until end of turn. Untap it. It gains haste until end of turn."},
		{"raise dead", spell("{B}", `{"targets":[{"kind":"creature_card_in_your_graveyard"}],"effects":[{"op":"return","to":"t0","dest":"hand"}]}`),
			"Return target creature card from your graveyard to your hand."},
		{"reanimate", spell("{3}{B}", `{"targets":[{"kind":"creature_card_in_your_graveyard"}],"effects":[{"op":"return","to":"t0","dest":"battlefield"}]}`),
			"Return target creature card from your graveyard to the battlefield under your control."},
		{"may pay", spell("{U}", `{"effects":[{"op":"draw","amount":1},{"op":"may","pay":"{2}","then":[{"op":"draw","amount":1}]}]}`),
			"Draw a card. You may pay {2}. If you do, draw a card."},
		{"may target player", spell("{U}", `{"targets":[{"kind":"player"}],"effects":[{"op":"may","then":[{"op":"mill","amount":2,"to":"t0"}]}]}`),
			"You may have target player mill two cards."},
		{"optional target", spell("{W}", `{"targets":[{"kind":"creature","optional":true}],"effects":[{"op":"tap","to":"t0"}]}`),
			"Tap up to one target creature."},
		{"two targets", spell("{R}", `{"targets":[{"kind":"creature"},{"kind":"player"}],"effects":[{"op":"damage","amount":1,"to":"t0"},{"op":"damage","amount":1,"to":"t1"}]}`),
			"Bolt deals 1 damage to target creature. Bolt deals 1 damage to target player."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(def(t, tt.src)); got != tt.want {
				t.Errorf("Text:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestTextCards(t *testing.T) {
	tests := []struct {
		name, src, want, typeLine string
	}{
		{"modal with additional cost", `{"id":"m","name":"Grim Bargain","cost":"{1}{B}","types":["sorcery"],"spell":{"choose":1,
			"additional_cost":{"sacrifice":"creature"},
			"modes":[{"effects":[{"op":"draw","amount":2}]},{"targets":[{"kind":"creature"}],"effects":[{"op":"destroy","to":"t0"}]}]}}`,
			"As an additional cost to cast this spell, sacrifice a creature.\nChoose one —\n• Draw two cards.\n• Destroy target creature.", "Sorcery"},
		{"creature with trigger", `{"id":"w","name":"Thornback Warden","cost":"{2}{G}","types":["creature"],"subtypes":["Treefolk"],"power":2,"toughness":4,
			"keywords":["reach","first_strike"],"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"gain_life","amount":2}]}},
			{"kind":"triggered","when":"creature_you_control_dies","mode":{"effects":[{"op":"scry","amount":1}]}}]}`,
			"Reach, first strike\nWhen Thornback Warden enters, you gain 2 life.\nWhenever another creature you control dies, scry 1.", "Creature — Treefolk"},
		{"unblockable venom", `{"id":"v","name":"Mire Adder","cost":"{1}{B}","types":["creature"],"subtypes":["Snake"],"power":1,"toughness":1,"keywords":["unblockable","venom"]}`,
			"Venom\nMire Adder can't be blocked.\n(Whenever Mire Adder deals combat damage to a player, that player also gets that many poison counters.)", "Creature — Snake"},
		{"upkeep may pay", `{"id":"u","name":"Tide Scholar","cost":"{1}{U}","types":["creature"],"power":1,"toughness":2,
			"abilities":[{"kind":"triggered","when":"upkeep","optional":true,"pay":"{1}","mode":{"effects":[{"op":"draw","amount":1}]}}]}`,
			"At the beginning of your upkeep, you may pay {1}. If you do, draw a card.", "Creature"},
		{"optional enters target", `{"id":"e","name":"Ash Caller","cost":"{2}{B}","types":["creature"],"power":2,"toughness":2,
			"abilities":[{"kind":"triggered","when":"enters","optional":true,"mode":{"targets":[{"kind":"creature_card_in_your_graveyard"}],"effects":[{"op":"return","to":"t0","dest":"hand"}]}}]}`,
			"When Ash Caller enters, you may return target creature card from your graveyard to your hand.", "Creature"},
		{"dies self damage", `{"id":"d","name":"Cinder Imp","cost":"{R}","types":["creature"],"power":1,"toughness":1,
			"abilities":[{"kind":"triggered","when":"dies","mode":{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":1,"to":"t0"}]}}]}`,
			"When Cinder Imp dies, Cinder Imp deals 1 damage to any target.", "Creature"},
		{"activated with extra", `{"id":"a","name":"Bone Altar","cost":"{2}","types":["artifact"],
			"abilities":[{"kind":"activated","cost":"{2}{B}, {T}","extra":{"exile_from_graveyard":"creature_card_in_your_graveyard","life":2},"sorcery_speed":true,
			"mode":{"effects":[{"op":"draw","amount":1}]}}]}`,
			"{2}{B}, {T}, Exile a creature card from your graveyard, Pay 2 life: Draw a card. Activate only as a sorcery.", "Artifact"},
		{"aura anthem", `{"id":"au","name":"Oak Mantle","cost":"{1}{G}","types":["enchantment"],"subtypes":["Aura"],"enchant":"creature",
			"abilities":[{"kind":"static","static":{"op":"anthem","affects":"enchanted","power":2,"toughness":2,"keywords":["trample"]}}]}`,
			"Enchant creature\nEnchanted creature gets +2/+2 and has trample.", "Enchantment — Aura"},
		{"aura control", `{"id":"c","name":"Siren Bond","cost":"{3}{U}{U}","types":["enchantment"],"subtypes":["Aura"],"enchant":"creature",
			"abilities":[{"kind":"static","static":{"op":"control","affects":"enchanted"}}]}`,
			"Enchant creature\nYou control enchanted creature.", "Enchantment — Aura"},
		{"aura doesnt untap", `{"id":"f","name":"Frost Shackle","cost":"{U}","types":["enchantment"],"subtypes":["Aura"],"enchant":"creature",
			"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"tap","to":"enchanted"}]}},{"kind":"static","static":{"op":"doesnt_untap","affects":"enchanted"}}]}`,
			"Enchant creature\nWhen Frost Shackle enters, tap enchanted creature.\nEnchanted creature doesn't untap during its controller's untap step.", "Enchantment — Aura"},
		{"anthem and hand size", `{"id":"b","name":"Banner Hall","cost":"{2}{W}","types":["enchantment"],
			"abilities":[{"kind":"static","static":{"op":"anthem","affects":"creatures_you_control","power":1,"toughness":1}},{"kind":"static","static":{"op":"no_max_hand_size","affects":"you"}}]}`,
			"Creatures you control get +1/+1.\nYou have no maximum hand size.", "Enchantment"},
		{"cost reducer", `{"id":"r","name":"Grove Herald","cost":"{1}{G}","types":["creature"],"power":1,"toughness":1,
			"abilities":[{"kind":"static","static":{"op":"cost_change","affects":"you","amount":-1,"filter":"creature_spell"}}]}`,
			"Creature spells you cast cost {1} less to cast.", "Creature"},
		{"name a card", `{"id":"n","name":"Hush Totem","cost":"{2}","types":["artifact"],
			"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"name_card"}]}},{"kind":"static","static":{"op":"named_cost_more","affects":"opponents","amount":2}}]}`,
			"As Hush Totem enters, choose a card name.\nSpells your opponents cast with the chosen name cost {2} more to cast.", "Artifact"},
		{"choose color mana", `{"id":"p","name":"Prism Lens","cost":"{3}","types":["artifact"],
			"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"choose_color"}]}},{"kind":"mana","cost":"{T}","produce":["chosen"]}]}`,
			"As Prism Lens enters, choose a color.\n{T}: Add one mana of the chosen color.", "Artifact"},
		{"basic land", `{"id":"forest","name":"Forest","supertypes":["basic"],"types":["land"],"subtypes":["Forest"]}`,
			"{T}: Add {G}.", "Basic Land — Forest"},
		{"dual land", `{"id":"dual","name":"Mossy Ford","types":["land"],"abilities":[{"kind":"mana","cost":"{T}","produce":["G","U"]}]}`,
			"{T}: Add {G} or {U}.", "Land"},
		{"planeswalker", `{"id":"pw","name":"Ilsa, Tide Reader","cost":"{2}{U}{U}","supertypes":["legendary"],"types":["planeswalker"],"subtypes":["Ilsa"],"loyalty":3,
			"abilities":[{"kind":"loyalty","loyalty":1,"mode":{"effects":[{"op":"scry","amount":1},{"op":"draw","amount":1}]}},
			{"kind":"loyalty","loyalty":-2,"mode":{"targets":[{"kind":"creature"}],"effects":[{"op":"bounce","to":"t0"}]}},
			{"kind":"loyalty","loyalty":-7,"mode":{"effects":[{"op":"emblem","emblem":{"op":"anthem","affects":"creatures_you_control","power":1,"toughness":1,"keywords":["flying"]}}]}}]}`,
			"+1: Scry 1. Draw a card.\n−2: Return target creature to its owner's hand.\n−7: You get an emblem with \"Creatures you control get +1/+1 and have flying.\"", "Legendary Planeswalker — Ilsa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := def(t, tt.src)
			if got := Text(d); got != tt.want {
				t.Errorf("Text:\n got %q\nwant %q", got, tt.want)
			}
			if got := TypeLine(d); got != tt.typeLine {
				t.Errorf("TypeLine: got %q, want %q", got, tt.typeLine)
			}
		})
	}
}

func TestSpellTextMode(t *testing.T) {
	d := def(t, `{"id":"m","name":"Split","cost":"{1}{U}","types":["instant"],"spell":{"modes":[
		{"targets":[{"kind":"spell"}],"effects":[{"op":"counter","to":"t0"}]},{"effects":[{"op":"draw","amount":2}]}]}}`)
	if got, want := SpellText(d, 1), "Draw two cards."; got != want {
		t.Errorf("SpellText mode 1: got %q, want %q", got, want)
	}
	if got, want := SpellText(d, -1), "Choose one —\n• Counter target spell.\n• Draw two cards."; got != want {
		t.Errorf("SpellText all: got %q, want %q", got, want)
	}
}

func TestTokenLines(t *testing.T) {
	tok := Token{Name: "Ember Whelp", Colors: []string{"R"}, Types: []string{"creature"}, Subtypes: []string{"Dragon"}, Power: 1, Toughness: 1, Keywords: []string{"flying", "haste"}}
	if got, want := TokenTypeLine(tok), "Token Creature — Dragon"; got != want {
		t.Errorf("TokenTypeLine: got %q, want %q", got, want)
	}
	if got, want := TokenText(tok), "Flying, haste"; got != want {
		t.Errorf("TokenText: got %q, want %q", got, want)
	}
}
