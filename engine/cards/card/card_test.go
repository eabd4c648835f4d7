package card

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestParseCost(t *testing.T) {
	tests := []struct {
		name, in, canonical string
		mv                  int
		colors              []string
		pips                []string // with X = 2
	}{
		{"generic and colour", "{2}{R}{R}", "{2}{R}{R}", 4, []string{"R"}, []string{"{1}", "{1}", "{R}", "{R}"}},
		{"x", "{X}{R}", "{X}{R}", 1, []string{"R"}, []string{"{1}", "{1}", "{R}"}},
		{"reordered", "{G}{1}{W}", "{1}{G}{W}", 3, []string{"W", "G"}, []string{"{1}", "{G}", "{W}"}},
		{"zero", "{0}", "{0}", 0, nil, nil},
		{"colourless", "{C}{C}", "{C}{C}", 2, nil, []string{"{C}", "{C}"}},
		{"twenty", "{20}", "{20}", 20, nil, slices.Repeat([]string{"{1}"}, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCost(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if c.String() != tt.canonical || c.ManaValue(0) != tt.mv || !slices.Equal(c.Colors(), tt.colors) || !slices.Equal(c.Pips(2), tt.pips) {
				t.Errorf("got %q mv %d colours %v pips %v", c.String(), c.ManaValue(0), c.Colors(), c.Pips(2))
			}
		})
	}
	for _, bad := range []string{"", "2R", "{", "{Q}", "{T}", "{21}", "{01}", "{-1}", "{1}{2}", "{R}x"} {
		if _, err := ParseCost(bad); err == nil {
			t.Errorf("ParseCost(%q) accepted", bad)
		}
	}
}

func TestCostPlus(t *testing.T) {
	c, _ := ParseCost("{2}{U}")
	if got := c.Plus(2).String(); got != "{4}{U}" {
		t.Errorf("plus 2: %s", got)
	}
	if got := c.Plus(-3).String(); got != "{U}" {
		t.Errorf("minus 3: %s", got)
	}
	if got := c.String(); got != "{2}{U}" {
		t.Errorf("original changed: %s", got)
	}
}

func TestParseAbilityCost(t *testing.T) {
	a, err := ParseAbilityCost("{2}{B}, {T}")
	if err != nil || !a.Tap || a.Mana == nil || a.Mana.String() != "{2}{B}" || a.String() != "{2}{B}, {T}" {
		t.Fatalf("got %+v, %v", a, err)
	}
	a, err = ParseAbilityCost("{T}")
	if err != nil || !a.Tap || a.Mana != nil {
		t.Fatalf("tap only: %+v, %v", a, err)
	}
	for _, bad := range []string{"", "{T}, {1}", "{T}, {T}", "{1}, {2}", "{1},{T}"} {
		if _, err := ParseAbilityCost(bad); err == nil {
			t.Errorf("ParseAbilityCost(%q) accepted", bad)
		}
	}
}

func TestIdentity(t *testing.T) {
	tests := []struct {
		name, src string
		colors    []string
		identity  []string
	}{
		{"cost", `{"id":"a","name":"A","cost":"{1}{G}{W}","types":["sorcery"],"spell":{"modes":[{"effects":[{"op":"draw","amount":1}]}]}}`,
			[]string{"W", "G"}, []string{"W", "G"}},
		{"ability cost pip", `{"id":"a","name":"A","cost":"{2}","types":["artifact"],"abilities":[{"kind":"activated","cost":"{B}, {T}","mode":{"effects":[{"op":"draw","amount":1}]}}]}`,
			nil, []string{"B"}},
		{"pay pip", `{"id":"a","name":"A","cost":"{R}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"triggered","when":"upkeep","optional":true,"pay":"{U}","mode":{"effects":[{"op":"draw","amount":1}]}}]}`,
			[]string{"R"}, []string{"U", "R"}},
		{"may pay in spell", `{"id":"a","name":"A","cost":"{R}","types":["instant"],"spell":{"modes":[{"effects":[{"op":"may","pay":"{G}","then":[{"op":"draw","amount":1}]}]}]}}`,
			[]string{"R"}, []string{"R", "G"}},
		{"basic land", `{"id":"a","name":"Swamp","supertypes":["basic"],"types":["land"],"subtypes":["Swamp"]}`, nil, []string{"B"}},
		{"dual land", `{"id":"a","name":"A","types":["land"],"abilities":[{"kind":"mana","cost":"{T}","produce":["U","W"]}]}`, nil, []string{"W", "U"}},
		{"colourless", `{"id":"a","name":"A","cost":"{3}","types":["artifact"],"abilities":[{"kind":"mana","cost":"{T}","produce":["C"]}]}`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := def(t, tt.src)
			if got := d.Colors(); !slices.Equal(got, tt.colors) {
				t.Errorf("Colors: got %v, want %v", got, tt.colors)
			}
			if got := d.Identity(); !slices.Equal(got, tt.identity) {
				t.Errorf("Identity: got %v, want %v", got, tt.identity)
			}
		})
	}
}

func TestValidateRefuses(t *testing.T) {
	const ok = `{"id":"bolt","name":"Bolt","cost":"{R}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}}`
	tests := []struct {
		name, old, new, field, reason string
	}{
		{"bad id", `"id":"bolt"`, `"id":"Bolt"`, "", `card "Bolt": id: id "Bolt" is not snake_case`},
		{"empty name", `"name":"Bolt"`, `"name":" "`, "name", "printable"},
		{"unknown type", `"types":["instant"]`, `"types":["instant","tribal"]`, "types[1]", `unknown type "tribal"`},
		{"non-canonical cost", `"cost":"{R}"`, `"cost":"{R}{1}"`, "cost", `as "{1}{R}"`},
		{"land with cost", `"types":["instant"],"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}`, `"types":["land"]`, "cost", "no mana cost"},
		{"unknown op", `"op":"damage"`, `"op":"burn"`, "spell.modes[0].effects[0].op", `unknown op "burn"`},
		{"unknown target kind", `"kind":"any"`, `"kind":"anything"`, "spell.modes[0].targets[0].kind", `unknown target kind "anything"`},
		{"field op does not use", `"amount":3,`, `"amount":3,"counter":"+1/+1",`, "spell.modes[0].effects[0].counter", "does not use counter"},
		{"missing amount", `"amount":3,`, ``, "spell.modes[0].effects[0].amount", "needs an amount"},
		{"bad reference", `"to":"t0"`, `"to":"t1"`, "spell.modes[0].effects[0].to", "t1 names no target"},
		{"unused target", `"to":"t0"`, `"to":"each_opponent"`, "spell.modes[0].targets[0]", "not used"},
		{"unknown subject", `"to":"t0"`, `"to":"everyone"`, "spell.modes[0].effects[0].to", `unknown subject "everyone"`},
		{"x without X", `"amount":3,`, `"x":true,`, "spell.modes[0].effects[0].x", "needs {X}"},
		{"counter a creature", `"op":"damage","amount":3,`, `"op":"counter",`, "spell.modes[0].effects[0].to", "cannot apply to any target"},
		{"counter a player", `"kind":"any"}],"effects":[{"op":"damage","amount":3,`, `"kind":"player"}],"effects":[{"op":"counter",`, "spell.modes[0].effects[0].to", "applies to a stack"},
		{"instant with power", `"types":["instant"]`, `"types":["instant"],"power":1`, "power", "only a creature"},
		{"keyword", `"types":["instant"]`, `"types":["instant"],"keywords":["flash","shroud"]`, "keywords[1]", `unknown keyword "shroud"`},
		{"choose too many", `"spell":{`, `"spell":{"choose":1,`, "spell.choose", "choose fewer"},
		{"animate a creature", `"op":"damage","amount":3,`, `"op":"animate","power":3,"toughness":3,`, "spell.modes[0].effects[0].to", "must be a land target"},
		{"animate to nothing", `"kind":"any"}],"effects":[{"op":"damage","amount":3,`, `"kind":"land"}],"effects":[{"op":"animate","power":3,`, "spell.modes[0].effects[0]", "toughness of 1 or more"},
		{"unknown key", `"name":"Bolt"`, `"name":"Bolt","Cost":"{R}"`, "", "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(ok, tt.old, tt.new, 1)
			if src == ok {
				t.Fatalf("replacement %q not found", tt.old)
			}
			_, err := NewCatalog([]byte(`{"cards":[` + src + `]}`))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.reason) || (tt.field != "" && !strings.Contains(err.Error(), `card "bolt": `+tt.field+": ")) {
				t.Errorf("error %q lacks field %q or reason %q", err, tt.field, tt.reason)
			}
		})
	}
}

func TestValidateAbilities(t *testing.T) {
	tests := []struct {
		name, src, reason string
	}{
		{"aura without enchant", `{"id":"a","name":"A","cost":"{W}","types":["enchantment"],"subtypes":["Aura"]}`, "needs enchant"},
		{"enchanted outside aura", `{"id":"a","name":"A","cost":"{W}","types":["enchantment"],"abilities":[{"kind":"static","static":{"op":"control","affects":"enchanted"}}]}`, "only an Aura"},
		{"loyalty on creature", `{"id":"a","name":"A","cost":"{W}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"loyalty","loyalty":1,"mode":{"effects":[{"op":"draw","amount":1}]}}]}`, "only a planeswalker"},
		{"trigger unknown", `{"id":"a","name":"A","cost":"{W}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"triggered","when":"blocks","mode":{"effects":[{"op":"draw","amount":1}]}}]}`, `unknown trigger "blocks"`},
		{"pay not optional", `{"id":"a","name":"A","cost":"{W}","types":["creature"],"power":1,"toughness":1,"abilities":[{"kind":"triggered","when":"upkeep","pay":"{1}","mode":{"effects":[{"op":"draw","amount":1}]}}]}`, "is optional"},
		{"mana ability with mode", `{"id":"a","name":"A","types":["land"],"abilities":[{"kind":"mana","cost":"{T}","produce":["Q"]}]}`, `unknown mana symbol "Q"`},
		{"named without name_card", `{"id":"a","name":"A","cost":"{2}","types":["artifact"],"abilities":[{"kind":"static","static":{"op":"named_cost_more","affects":"opponents","amount":2}}]}`, "needs a name_card"},
		{"static wrong affects", `{"id":"a","name":"A","cost":"{2}","types":["artifact"],"abilities":[{"kind":"static","static":{"op":"no_max_hand_size","affects":"opponents"}}]}`, "affects you"},
		{"poison on creature", `{"id":"a","name":"A","cost":"{B}","types":["sorcery"],"spell":{"modes":[{"targets":[{"kind":"creature"}],"effects":[{"op":"add_counters","counter":"poison","to":"t0"}]}]}}`, "poison counters go on players"},
		{"look without take", `{"id":"a","name":"A","cost":"{U}","types":["sorcery"],"spell":{"modes":[{"effects":[{"op":"look_top","amount":3,"rest":"bottom"}]}]}}`, "take 1 to 3"},
		{"ability x", `{"id":"a","name":"A","cost":"{2}","types":["artifact"],"abilities":[{"kind":"activated","cost":"{X}, {T}","mode":{"effects":[{"op":"draw","amount":1}]}}]}`, "no {X}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Def
			if err := json.Unmarshal([]byte(tt.src), &d); err != nil {
				t.Fatal(err)
			}
			errs := Validate(d)
			if len(errs) == 0 {
				t.Fatal("accepted")
			}
			joined := ""
			for _, e := range errs {
				joined += e.Error() + "\n"
			}
			if !strings.Contains(joined, tt.reason) || !strings.Contains(joined, `card "a": `) {
				t.Errorf("errors %q lack %q", joined, tt.reason)
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	red := `{"cards":[
		{"id":"bolt","name":"Bolt","cost":"{R}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}},
		{"id":"ogre","name":"Big Ogre","cost":"{3}{R}","types":["creature"],"power":4,"toughness":3}]}`
	other := `{"cards":[
		{"id":"mountain","name":"Mountain","supertypes":["basic"],"types":["land"],"subtypes":["Mountain"]},
		{"id":"sage","name":"Sage","cost":"{U}","types":["creature"],"power":1,"toughness":1}]}`
	c, err := NewCatalog([]byte(red), []byte(other))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range c.Cards() {
		ids = append(ids, d.ID)
	}
	if want := []string{"sage", "bolt", "ogre", "mountain"}; !slices.Equal(ids, want) {
		t.Errorf("order %v, want %v", ids, want)
	}
	if d, ok := c.ByName("  big OGRE "); !ok || d.ID != "ogre" {
		t.Errorf("ByName: %v %v", d.ID, ok)
	}
	if _, ok := c.Card("nope"); ok {
		t.Error("Card found an unknown id")
	}
	cc := c.CatalogCards()
	if cc[2].Power != "4" || cc[2].TypeLine != "Creature" || cc[3].RulesText != "{T}: Add {R}." || !slices.Equal(cc[3].ColorID, []string{"R"}) {
		t.Errorf("catalog cards: %+v", cc)
	}
	if _, err := NewCatalog([]byte(red), []byte(red)); err == nil || !strings.Contains(err.Error(), "id used by another card") {
		t.Errorf("duplicate ids: %v", err)
	}
	dupName := strings.Replace(other, `"id":"sage","name":"Sage"`, `"id":"sage","name":"BOLT"`, 1)
	if _, err := NewCatalog([]byte(red), []byte(dupName)); err == nil || !strings.Contains(err.Error(), `name "BOLT" used by "bolt"`) {
		t.Errorf("duplicate names: %v", err)
	}
	if _, err := NewCatalog([]byte(`{"cards":[]} x`)); err == nil || !strings.Contains(err.Error(), "catalog file 0") {
		t.Errorf("trailing data: %v", err)
	}
}

func FuzzNewCatalog(f *testing.F) {
	f.Add([]byte(`{"cards":[{"id":"bolt","name":"Bolt","cost":"{R}","types":["instant"],"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}}]}`))
	f.Add([]byte(`{"cards":[{"id":"f","name":"Forest","supertypes":["basic"],"types":["land"],"subtypes":["Forest"]}]}`))
	f.Add([]byte(`{"cards":[{"id":"p","name":"P","cost":"{X}{2}","types":["artifact"],"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"may","pay":"{1}","then":[{"op":"search","filter":"land","dest":"hand"}]}]}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := NewCatalog(data)
		if err != nil {
			return
		}
		// Everything a valid catalog holds can be rendered and converted.
		for _, d := range c.Cards() {
			cc := CatalogCard(d)
			if cc.FunctionalID != d.ID || cc.TypeLine == "" {
				t.Fatalf("catalog card %+v of %+v", cc, d)
			}
			if got, ok := c.Card(d.ID); !ok || got.Name != d.Name {
				t.Fatalf("lookup of %q", d.ID)
			}
			if d.Cost != "" {
				if _, err := ParseCost(d.Cost); err != nil {
					t.Fatalf("valid card with bad cost: %v", err)
				}
			}
		}
	})
}
