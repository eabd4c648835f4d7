package card_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/static/cardgame"
)

// starter builds the catalog the game ships.
func starter(t *testing.T) *card.Catalog {
	t.Helper()
	c, _, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStarterCatalog validates the shipped catalog and logs every card's
// generated text (go test -v shows it for review).
func TestStarterCatalog(t *testing.T) {
	c := starter(t)
	for _, d := range c.Cards() {
		t.Logf("%s  %s  [%s]\n%s\n", d.Name, d.Cost, card.TypeLine(d), card.Text(d))
	}
}

// TestStarterCoverage checks that the shipped catalog exercises every
// word of the format's effect, trigger, static and keyword vocabularies,
// and holds the promised shape: legendary creatures for commanders, two
// planeswalkers with an emblem, artifacts, five basic and five dual lands.
func TestStarterCoverage(t *testing.T) {
	c := starter(t)
	used := map[string]bool{}
	var walk func(es []card.Effect)
	walk = func(es []card.Effect) {
		for _, e := range es {
			used["op "+e.Op] = true
			if e.Chooser != "" {
				used["chooser "+e.Chooser] = true
			}
			if e.SkipUntap {
				used["skip untap"] = true
			}
			if e.XAmount {
				used["x"] = true
			}
			walk(e.Then)
		}
	}
	var legends, walkers, artifacts, basics, duals int
	for _, d := range c.Cards() {
		for _, k := range d.Keywords {
			used["keyword "+k] = true
		}
		if d.Spell != nil {
			if len(d.Spell.Modes) > 1 {
				used["modal"] = true
			}
			if x := d.Spell.AdditionalCost; x != nil {
				used["additional sacrifice"] = used["additional sacrifice"] || x.Sacrifice != ""
				used["additional discard"] = used["additional discard"] || x.Discard > 0
			}
			for _, m := range d.Spell.Modes {
				walk(m.Effects)
			}
		}
		for _, a := range d.Abilities {
			if a.When != "" {
				used["when "+a.When] = true
			}
			if a.Pay != "" {
				used["trigger pay"] = true
			}
			if a.Static != nil {
				used["static "+a.Static.Op] = true
			}
			if a.Extra != nil && a.Extra.ExileFromGraveyard != "" {
				used["ability exile"] = true
			}
			if a.Mode != nil {
				walk(a.Mode.Effects)
			}
		}
		switch {
		case d.Legendary() && d.Is("creature"):
			legends++
		case d.Is("planeswalker"):
			walkers++
		case d.Basic():
			basics++
		case d.Is("land") && len(d.Identity()) == 2:
			duals++
		}
		if d.Is("artifact") && len(d.Colors()) == 0 {
			artifacts++
		}
	}
	var missing []string
	for _, w := range strings.Fields(`op_damage op_destroy op_exile op_bounce op_draw op_discard op_gain_life
		op_lose_life op_counter op_pump op_animate op_add_counters op_create_token op_tap op_untap op_scry op_search
		op_look_top op_mill op_exile_top op_sacrifice op_gain_control op_return op_emblem op_choose_color
		op_name_card chooser_you skip_untap x modal additional_sacrifice additional_discard ability_exile trigger_pay
		when_enters when_dies when_attacks when_upkeep when_end_step when_you_cast_noncreature
		when_creature_you_control_dies when_deals_combat_damage_to_player
		static_anthem static_control static_cant_attack_or_block static_doesnt_untap static_cost_change
		static_no_max_hand_size static_named_cost_more
		keyword_flying keyword_reach keyword_vigilance keyword_haste keyword_trample keyword_first_strike
		keyword_deathtouch keyword_lifelink keyword_menace keyword_defender keyword_unblockable keyword_flash keyword_venom`) {
		if w = strings.Replace(w, "_", " ", 1); !used[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the starter catalog never uses: %v", missing)
	}
	if n := len(c.Cards()); n < 75 || legends < 5 || walkers != 2 || artifacts < 4 || basics != 5 || duals != 5 {
		t.Errorf("%d cards, %d legendary creatures, %d planeswalkers, %d artifacts, %d basics, %d duals", n, legends, walkers, artifacts, basics, duals)
	}
}

// englishWord matches a word of English rules text that French text
// never has.
var englishWord = regexp.MustCompile(`\b(?i:the|target|you|your|creature|card|cards|damage|draw|until|turn|enters|gets|gains|each|player|with|and|of|from|library|hand|graveyard|token|tokens|add|may|choose|counter|counters|life|spell|spells|control|whenever|when|at|put|search|look|exile|destroy|return|tap|untap|sacrifice|discard|instant|sorcery|land|artifact|enchantment|legendary|basic|flying|reach|haste|trample|lifelink|deathtouch|first|strike)\b`)

// TestFrenchTextOfTheStarterCatalog: every shipped card's rules text and
// type line, and every text of the French phrasebook, written by the
// French template set, has no English word left (the card names aside,
// which stay as they are), and every subtype of the catalog has a French
// word (a planeswalker's, its name, aside).
func TestFrenchTextOfTheStarterCatalog(t *testing.T) {
	c := starter(t)
	defs := c.Cards()
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Name)
	}
	bare := func(s string) string {
		for _, n := range names {
			s = strings.ReplaceAll(s, n, "")
		}
		return s
	}
	check := func(where, s string) {
		if w := englishWord.FindString(bare(s)); w != "" {
			t.Errorf("%s in French says %q: %q", where, w, s)
		}
	}
	for _, d := range defs {
		check(d.Name, card.TextIn(card.French, d))
		check(d.Name+"'s type line", card.TypeLineIn(card.French, d))
		if !d.Is("planeswalker") {
			for _, st := range d.Subtypes {
				if card.FrenchSubtype(st) == st && !slices.Contains([]string{"Aura", "Dragon", "Noble", "Ogre", "Rat", "Sphinx", "Vampire", "Zombie"}, st) {
					t.Errorf("%s: subtype %q has no French word", d.Name, st)
				}
			}
		}
	}
	book := card.Phrasebook(card.French, defs)
	if len(book) < len(defs) {
		t.Fatalf("the phrasebook holds %d texts for %d cards", len(book), len(defs))
	}
	for en, fr := range book {
		check("the phrasebook's "+strconv.Quote(en), fr)
	}
}
