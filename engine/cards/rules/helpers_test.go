package rules

import (
	"encoding/json"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// testCards is a small catalog covering every mechanic, written inline
// until the shipped catalog lands.
const testCards = `[
{"id":"plains","name":"Plains","supertypes":["basic"],"types":["land"],"subtypes":["Plains"]},
{"id":"island","name":"Island","supertypes":["basic"],"types":["land"],"subtypes":["Island"]},
{"id":"swamp","name":"Swamp","supertypes":["basic"],"types":["land"],"subtypes":["Swamp"]},
{"id":"mountain","name":"Mountain","supertypes":["basic"],"types":["land"],"subtypes":["Mountain"]},
{"id":"forest","name":"Forest","supertypes":["basic"],"types":["land"],"subtypes":["Forest"]},
{"id":"twin_spring","name":"Twin Spring","types":["land"],"abilities":[{"kind":"mana","cost":"{T}","produce":["G","U"]}]},
{"id":"ember_lash","name":"Ember Lash","cost":"{1}{R}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}},
{"id":"blaze_wave","name":"Blaze Wave","cost":"{X}{R}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","x":true,"to":"t0"}]}]}},
{"id":"hush","name":"Hush","cost":"{U}{U}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"spell"}],"effects":[{"op":"counter","to":"t0"}]}]}},
{"id":"insight","name":"Insight","cost":"{1}{U}","types":["sorcery"],"spell":{"modes":[{"effects":[{"op":"draw","amount":2,"to":"you"}]}]}},
{"id":"mind_rot","name":"Mind Rot","cost":"{1}{B}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"player"}],"effects":[{"op":"discard","amount":2,"to":"t0"}]}]}},
{"id":"pry","name":"Pry","cost":"{B}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"opponent"}],"effects":[{"op":"discard","amount":1,"to":"t0","chooser":"you"}]}]}},
{"id":"choice_bolt","name":"Choice Bolt","cost":"{R}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"creature"}],"effects":[{"op":"damage","amount":2,"to":"t0"}]},{"effects":[{"op":"gain_life","amount":3,"to":"you"}]}]}},
{"id":"dig","name":"Dig","cost":"{G}","types":["sorcery"],"spell":{"modes":[{"effects":[{"op":"search","filter":"land","dest":"hand"}]}]}},
{"id":"peek","name":"Peek","cost":"{U}","types":["instant"],"spell":{"modes":[{"effects":[{"op":"scry","amount":2},{"op":"draw","amount":1}]}]}},
{"id":"glimpse","name":"Glimpse","cost":"{1}{G}","types":["sorcery"],"spell":{"modes":[{"effects":[{"op":"look_top","amount":3,"take":1,"rest":"bottom"}]}]}},
{"id":"grave_pact","name":"Grave Pact","cost":"{1}{B}","types":["sorcery"],"spell":{"modes":[{"effects":[{"op":"sacrifice","amount":1,"filter":"creature","to":"each_opponent"}]}]}},
{"id":"steal","name":"Steal","cost":"{2}{U}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"creature"}],"effects":[{"op":"gain_control","to":"t0"}]}]}},
{"id":"raise","name":"Raise","cost":"{B}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"creature_card_in_your_graveyard"}],"effects":[{"op":"return","to":"t0","dest":"hand"}]}]}},
{"id":"growth","name":"Growth","cost":"{G}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"creature"}],"effects":[{"op":"pump","power":3,"toughness":3,"keywords":["trample"],"to":"t0","duration":"end_of_turn"}]}]}},
{"id":"mill_rite","name":"Mill Rite","cost":"{U}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"player"}],"effects":[{"op":"mill","amount":3,"to":"t0"}]}]}},
{"id":"offering","name":"Offering","cost":"{B}","types":["sorcery"],"spell":{"additional_cost":{"sacrifice":"creature"},"modes":[{"effects":[{"op":"draw","amount":2,"to":"you"}]}]}},
{"id":"bear","name":"Grizzled Bear","cost":"{1}{G}","types":["creature"],"power":2,"toughness":2},
{"id":"hawk","name":"Sky Hawk","cost":"{1}{W}","types":["creature"],"power":1,"toughness":1,"keywords":["flying"]},
{"id":"spider","name":"Web Spider","cost":"{1}{G}","types":["creature"],"power":1,"toughness":3,"keywords":["reach"]},
{"id":"knight","name":"First Knight","cost":"{W}{W}","types":["creature"],"power":2,"toughness":2,"keywords":["first_strike"]},
{"id":"brute","name":"Menace Brute","cost":"{2}{R}","types":["creature"],"power":3,"toughness":2,"keywords":["menace","haste"]},
{"id":"wall","name":"Stone Wall","cost":"{1}{W}","types":["creature"],"power":0,"toughness":5,"keywords":["defender"]},
{"id":"asp","name":"Venom Asp","cost":"{B}","types":["creature"],"power":1,"toughness":1,"keywords":["deathtouch","venom"]},
{"id":"leech","name":"Life Leech","cost":"{1}{B}","types":["creature"],"power":2,"toughness":1,"keywords":["lifelink"]},
{"id":"rhino","name":"Trample Rhino","cost":"{3}{G}","types":["creature"],"power":5,"toughness":4,"keywords":["trample","vigilance"]},
{"id":"ghost","name":"Ghost","cost":"{1}{U}","types":["creature"],"power":1,"toughness":1,"keywords":["unblockable"]},
{"id":"elf","name":"Grove Elf","cost":"{G}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"mana","cost":"{T}","produce":["G"]}]},
{"id":"warden","name":"Thornback Warden","cost":"{2}{G}","types":["creature"],"power":2,"toughness":4,"keywords":["reach"],"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"gain_life","amount":2,"to":"you"}]}}]},
{"id":"sparker","name":"Sparker","cost":"{1}{R}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"triggered","when":"enters","mode":{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":1,"to":"t0"}]}}]},
{"id":"martyr","name":"Martyr","cost":"{W}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"triggered","when":"dies","mode":{"effects":[{"op":"gain_life","amount":3,"to":"you"}]}}]},
{"id":"scout","name":"Scout","cost":"{1}{W}","types":["creature"],"power":2,"toughness":1,"abilities":[{"kind":"triggered","when":"attacks","optional":true,"pay":"{1}","mode":{"effects":[{"op":"draw","amount":1,"to":"you"}]}}]},
{"id":"pinger","name":"Pinger","cost":"{2}{R}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"activated","cost":"{R}, {T}","mode":{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":1,"to":"t0"}]}}]},
{"id":"captain","name":"Captain","cost":"{2}{W}","types":["creature"],"power":2,"toughness":2,"abilities":[{"kind":"static","static":{"op":"anthem","affects":"other_creatures_you_control","power":1,"toughness":1,"keywords":["vigilance"]}}]},
{"id":"wings","name":"Wings","cost":"{U}","types":["enchantment"],"subtypes":["Aura"],"enchant":"creature","abilities":[{"kind":"static","static":{"op":"anthem","affects":"enchanted","power":1,"toughness":1,"keywords":["flying"]}}]},
{"id":"seer","name":"Seer","cost":"{2}","types":["artifact"],"abilities":[{"kind":"activated","cost":"{1}, {T}","mode":{"effects":[{"op":"scry","amount":1}]}},{"kind":"triggered","when":"upkeep","mode":{"effects":[{"op":"may","then":[{"op":"draw","amount":1}]}]}}]},
{"id":"hive","name":"Hive","cost":"{2}{G}","types":["enchantment"],"abilities":[{"kind":"triggered","when":"end_step","mode":{"effects":[{"op":"create_token","amount":1,"token":{"name":"Bee","colors":["G"],"types":["creature"],"subtypes":["Insect"],"power":1,"toughness":1,"keywords":["flying"]}}]}}]},
{"id":"sage","name":"Sage of Ash","cost":"{2}{R}","types":["planeswalker"],"loyalty":3,"abilities":[{"kind":"loyalty","loyalty":1,"mode":{"effects":[{"op":"draw","amount":1}]}},{"kind":"loyalty","loyalty":-2,"mode":{"targets":[{"kind":"creature"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}},{"kind":"loyalty","loyalty":-6,"mode":{"effects":[{"op":"emblem","emblem":{"op":"anthem","affects":"creatures_you_control","power":2,"toughness":2}}]}}]},
{"id":"prism","name":"Prism","cost":"{1}","types":["artifact"],"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"choose_color"}]}},{"kind":"mana","cost":"{T}","produce":["chosen"]}]},
{"id":"naysayer","name":"Naysayer","cost":"{1}{W}","types":["artifact"],"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"name_card"}]}},{"kind":"static","static":{"op":"named_cost_more","affects":"opponents","amount":2}}]},
{"id":"lord","name":"Lord Ember","cost":"{1}{R}{G}","supertypes":["legendary"],"types":["creature"],"power":3,"toughness":3,"keywords":["haste"]},
{"id":"adept","name":"Spell Adept","cost":"{1}{U}","types":["creature"],"power":1,"toughness":2,"abilities":[{"kind":"triggered","when":"you_cast_noncreature","mode":{"effects":[{"op":"pump","power":1,"toughness":1,"to":"self","duration":"end_of_turn"}]}}]},
{"id":"thief","name":"Pocket Thief","cost":"{1}{U}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"triggered","when":"deals_combat_damage_to_player","mode":{"effects":[{"op":"draw","amount":1,"to":"you"}]}}]},
{"id":"grower","name":"Moss Grower","cost":"{G}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"activated","cost":"{G}","sorcery_speed":true,"mode":{"effects":[{"op":"add_counters","counter":"+1/+1","amount":1,"to":"self"}]}}]},
{"id":"twin_rite","name":"Twin Rite","cost":"{1}{R}","types":["sorcery"],"spell":{"choose":2,"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":2,"to":"t0"}]},{"effects":[{"op":"draw","amount":1,"to":"you"}]},{"effects":[{"op":"gain_life","amount":3,"to":"you"}]}]}},
{"id":"poison_shot","name":"Poison Shot","cost":"{B}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"player"}],"effects":[{"op":"add_counters","counter":"poison","amount":5,"to":"t0"}]}]}}
]`

// testLib returns the inline catalog as Cards.
func testLib(t testing.TB) Cards {
	t.Helper()
	var defs []card.Def
	if err := json.Unmarshal([]byte(testCards), &defs); err != nil {
		t.Fatal(err)
	}
	return NewCards(defs)
}

// testDeck is a 40-card deck of every test card plus basics.
func testDeck(t testing.TB, cards Cards) []string {
	var defs []card.Def
	if err := json.Unmarshal([]byte(testCards), &defs); err != nil {
		t.Fatal(err)
	}
	var deck []string
	for _, d := range defs {
		if d.ID != "lord" && !is(&d, "land") {
			deck = append(deck, d.ID)
		}
	}
	for i := 0; len(deck) < 64; i++ {
		deck = append(deck, []string{"forest", "mountain", "island", "swamp", "plains", "twin_spring"}[i%6])
	}
	return deck
}

// players seats n players with the test deck.
func players(t testing.TB, cards Cards, n int, commander bool) []rooms.Player {
	var out []rooms.Player
	for i := 0; i < n; i++ {
		p := rooms.Player{Seat: i, ID: rooms.PlayerID(i), Deck: testDeck(t, cards)}
		if commander {
			p.Commander = "lord"
			p.Deck = append(p.Deck, "lord")
		}
		out = append(out, p)
	}
	return out
}
