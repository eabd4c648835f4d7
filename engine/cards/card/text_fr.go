package card

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// french is the generator's French template set: the same lines as
// english, in the order textIn lays them out, worded as French cards word
// them ("Ember Lash inflige 3 blessures à n'importe quelle cible."). A
// target is named in full at its first mention and by a demonstrative
// after ("cette créature"), where English says "it".
type french struct{}

func (french) enchant(kind string) string { return "Enchanter : " + frNoun(kind).bare }

func (french) keywordLine(kws []string) string {
	var words []string
	for _, k := range kws {
		if k != "unblockable" {
			words = append(words, frKeywords[k].word)
		}
	}
	return frCapital(strings.Join(words, ", "))
}

func (french) unblockable(name string) string { return name + " est imblocable." }

func (french) venom(name string) string {
	return "(Chaque fois que " + name + " inflige des blessures de combat à un joueur, ce joueur reçoit aussi autant de marqueurs « poison ».)"
}

func (french) additionalCost(x ExtraCost) string {
	return "En tant que coût supplémentaire pour lancer ce sort, " + frExtra(x, false) + "."
}

func (french) chooseModes(n int) string { return "Choisissez " + frNumber(n, false) + " —" }

func (french) mode(d Def, m Mode) string {
	return frSentences(newFrRenderer(d.Name, m).effects(m.Effects))
}

func (f french) ability(d Def, a Ability) string {
	switch a.Kind {
	case AbilityMana:
		return frCostPrefix(a.Cost, a.Extra) + " : " + frMana(a) + "."
	case AbilityActivated:
		s := frCostPrefix(a.Cost, a.Extra) + " : " + f.mode(d, modeOf(a))
		if a.SorcerySpeed {
			s += " N'activez qu'en tant que rituel."
		}
		return s
	case AbilityLoyalty:
		return loyaltyCost(a.Loyalty) + " : " + f.mode(d, modeOf(a))
	case AbilityTriggered:
		return frTrigger(d, a)
	case AbilityStatic:
		if a.Static != nil {
			return f.static(d.Name, *a.Static)
		}
	}
	return ""
}

func (french) static(name string, s Static) string {
	switch s.Op {
	case "anthem":
		subj, one := frAffects(name, s.Affects)
		var parts []string
		if s.Power != 0 || s.Toughness != 0 {
			parts = append(parts, frAgree(one, "gagne", "gagnent")+" "+signed(s.Power)+"/"+signed(s.Toughness))
		}
		if len(s.Keywords) > 0 {
			parts = append(parts, frAgree(one, "a", "ont")+" "+frKeywordList(s.Keywords))
		}
		return frCapital(subj) + " " + strings.Join(parts, " et ") + "."
	case "control":
		return "Vous contrôlez la créature enchantée."
	case "cant_attack_or_block":
		subj, one := frAffects(name, s.Affects)
		return frCapital(subj) + " ne " + frAgree(one, "peut", "peuvent") + " ni attaquer ni bloquer."
	case "doesnt_untap":
		return "La créature enchantée ne se dégage pas pendant l'étape de dégagement de son contrôleur."
	case "cost_change":
		dir := "de plus"
		if s.Amount < 0 {
			dir = "de moins"
		}
		return frCapital(frSpells(s.Filter)) + " " + frWhoCasts(s.Affects) + " coûtent {" + strconv.Itoa(abs(s.Amount)) + "} " + dir + " à lancer."
	case "no_max_hand_size":
		return "Vous n'avez pas de taille maximale de main."
	case "named_cost_more":
		return "Les sorts " + frWhoCasts(s.Affects) + " avec le nom choisi coûtent {" + strconv.Itoa(s.Amount) + "} de plus à lancer."
	}
	return ""
}

func (french) typeLine(types, subtypes []string) string {
	// "Créature légendaire — Elfe druide": the card type first, then the
	// supertypes ("de base", "légendaire") and "jeton" after it.
	var head, tail []string
	for _, t := range types {
		switch t {
		case "basic", "legendary", "token":
			tail = append(tail, frTypes[t])
		default:
			head = append(head, frTypes[t])
		}
	}
	if len(head) > 1 {
		head = []string{strings.Join(head, " et ")}
	}
	s := frCapital(strings.Join(append(head, tail...), " "))
	if len(subtypes) > 0 {
		words := make([]string, len(subtypes))
		for i, st := range subtypes {
			words[i] = FrenchSubtype(st)
			if i > 0 {
				words[i] = frLower(words[i])
			}
		}
		s += " — " + strings.Join(words, " ")
	}
	return s
}

// frTypes are the card types and supertypes in French.
var frTypes = map[string]string{
	"land": "terrain", "creature": "créature", "artifact": "artefact", "enchantment": "enchantement",
	"instant": "éphémère", "sorcery": "rituel", "planeswalker": "planeswalker",
	"basic": "de base", "legendary": "légendaire", "token": "jeton",
}

// frSubtypes are the shipped catalog's subtypes in French; a
// planeswalker's subtype is its name and stays as it is.
var frSubtypes = map[string]string{
	"Advisor": "Conseiller", "Aura": "Aura", "Bat": "Chauve-souris", "Bird": "Oiseau", "Boar": "Sanglier",
	"Centaur": "Centaure", "Cleric": "Clerc", "Construct": "Construction", "Dragon": "Dragon", "Druid": "Druide",
	"Elf": "Elfe", "Elk": "Élan", "Elemental": "Élémental", "Forest": "Forêt", "Giant": "Géant",
	"Gryphon": "Griffon", "Horror": "Horreur", "Human": "Humain", "Imp": "Diablotin", "Island": "Île",
	"Knight": "Chevalier", "Lizard": "Lézard", "Merfolk": "Ondin", "Mountain": "Montagne", "Noble": "Noble",
	"Ogre": "Ogre", "Plains": "Plaine", "Rat": "Rat", "Rogue": "Gredin", "Sapling": "Arbrisseau",
	"Shaman": "Chaman", "Snake": "Serpent", "Soldier": "Soldat", "Sphinx": "Sphinx", "Swamp": "Marais",
	"Treefolk": "Sylvin", "Vampire": "Vampire", "Warrior": "Guerrier", "Wizard": "Sorcier", "Zombie": "Zombie",
}

// FrenchSubtype is a subtype in French, or as written when it has none
// (a planeswalker's, which is its name).
func FrenchSubtype(s string) string {
	if fr, ok := frSubtypes[s]; ok {
		return fr
	}
	return s
}

// frKeyword is a keyword in French: its printed word, and the noun with
// its article that "gains …" and "has …" take.
type frKeyword struct{ word, noun string }

var frKeywords = map[string]frKeyword{
	"flying": {"vol", "le vol"}, "reach": {"portée", "la portée"}, "vigilance": {"vigilance", "la vigilance"},
	"haste": {"célérité", "la célérité"}, "trample": {"piétinement", "le piétinement"},
	"first_strike": {"initiative", "l'initiative"}, "deathtouch": {"contact mortel", "le contact mortel"},
	"lifelink": {"lien de vie", "le lien de vie"}, "menace": {"menace", "la menace"},
	"defender": {"défenseur", "défenseur"}, "unblockable": {"imblocable", "imblocable"},
	"flash": {"flash", "le flash"}, "venom": {"venin", "le venin"},
}

func frKeywordList(kws []string) string {
	words := make([]string, len(kws))
	for i, k := range kws {
		words[i] = frKeywords[k].noun
	}
	return frAnd(words)
}

// frNounPhrase is a target kind's noun in French: bare ("créature"), with
// its definite article as a target ("la créature ciblée"), indefinite ("une
// créature ciblée"), as a later mention ("cette créature"), and whether
// it is feminine.
type frNounPhrase struct {
	bare, target, some, this string
	fem                      bool
}

// frNoun gives kind's phrases.
func frNoun(kind string) frNounPhrase {
	// A feminine noun may be qualified after "ciblée": "la créature
	// ciblée que vous contrôlez", its bare form "créature que vous
	// contrôlez".
	fem := func(noun, after string) frNounPhrase {
		return frNounPhrase{noun + after, "la " + noun + " ciblée" + after, "une " + noun + " ciblée" + after, "cette " + frHead(noun), true}
	}
	masc := func(bare string) frNounPhrase {
		art := "le "
		if frVowel(bare) {
			art = "l'"
		}
		this := "ce " + frHead(bare)
		if frVowel(bare) {
			this = "cet " + frHead(bare)
		}
		return frNounPhrase{bare, art + bare + " ciblé", "un " + bare + " ciblé", this, false}
	}
	switch kind {
	case "any":
		return frNounPhrase{"cible", "n'importe quelle cible", "n'importe quelle cible", "cette cible", true}
	case "player":
		return masc("joueur")
	case "opponent":
		return masc("adversaire")
	case "creature":
		return fem("créature", "")
	case "creature_you_control":
		return fem("créature", " que vous contrôlez")
	case "creature_opponent_controls":
		return fem("créature", " qu'un adversaire contrôle")
	case "tapped_creature":
		return fem("créature engagée", "")
	case "attacking_creature":
		return fem("créature attaquante", "")
	case "flying_creature":
		return fem("créature", " avec le vol")
	case "planeswalker":
		return masc("planeswalker")
	case "permanent", "card":
		return masc("permanent")
	case "nonland_permanent", "nonland":
		return masc("permanent non-terrain")
	case "artifact_or_enchantment":
		p := masc("artefact ou enchantement")
		p.target, p.some, p.this = "l'artefact ou l'enchantement ciblé", "un artefact ou un enchantement ciblé", "ce permanent"
		return p
	case "land":
		return masc("terrain")
	case "nonbasic_land":
		return masc("terrain non-base")
	case "spell":
		return masc("sort")
	case "creature_spell":
		return masc("sort de créature")
	case "noncreature_spell":
		return masc("sort non-créature")
	case "creature_card_in_your_graveyard":
		return fem("carte de créature", " de votre cimetière")
	case "card_in_a_graveyard":
		return fem("carte", " d'un cimetière")
	}
	return masc(strings.ReplaceAll(kind, "_", " "))
}

// frHead is a noun phrase's head word: "créature" of "créature engagée".
func frHead(noun string) string {
	head, _, _ := strings.Cut(noun, " ")
	return head
}

// frSome is "une créature", "un artefact": a permanent noun with its
// indefinite article.
func frSome(kind string) string {
	p := frNoun(kind)
	if p.fem {
		return "une " + p.bare
	}
	return "un " + p.bare
}

// frCard is a filter as a card noun ("carte de terrain de base"); every
// card noun is feminine.
func frCard(filter string) string {
	switch filter {
	case "", "card":
		return "carte"
	case "basic_land":
		return "carte de terrain de base"
	case "nonland":
		return "carte non-terrain"
	case "artifact_or_enchantment":
		return "carte d'artefact ou d'enchantement"
	case "nonland_permanent":
		return "carte de permanent non-terrain"
	}
	return "carte " + frDe(frNoun(filter).bare)
}

// frCards is n cards of a card noun: "une carte", "deux cartes de
// créature", "X cartes".
func frCards(n int, x bool, noun string) string {
	switch {
	case x:
		return "X " + frPlural(noun)
	case n <= 1:
		return "une " + noun
	}
	return frNumber(n, true) + " " + frPlural(noun)
}

// frPlural makes a noun phrase plural by its head word.
func frPlural(noun string) string {
	head, rest, ok := strings.Cut(noun, " ")
	if !strings.HasSuffix(head, "s") && !strings.HasSuffix(head, "x") {
		head += "s"
	}
	if ok {
		return head + " " + rest
	}
	return head
}

// frNumber spells small numbers, feminine or not: "une", "deux"….
func frNumber(n int, fem bool) string {
	words := [...]string{"zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"}
	switch {
	case n == 1 && fem:
		return "une"
	case n >= 0 && n < len(words):
		return words[n]
	}
	return strconv.Itoa(n)
}

// frVowel reports whether s starts with a vowel sound (for "l'" and "d'").
func frVowel(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return strings.ContainsRune("aeiouyéèêàâîôûAEIOUYÉÈÊÎ", r)
}

// frA is "à" before a noun phrase, contracted: "au joueur ciblé", "à la
// créature ciblée".
func frA(np string) string {
	switch {
	case strings.HasPrefix(np, "le "):
		return "au " + np[3:]
	case strings.HasPrefix(np, "les "):
		return "aux " + np[4:]
	}
	return "à " + np
}

// frDe is "de" before a noun phrase, contracted and elided: "du joueur
// ciblé", "d'une carte", "de la créature ciblée".
func frDe(np string) string {
	switch {
	case strings.HasPrefix(np, "le "):
		return "du " + np[3:]
	case strings.HasPrefix(np, "les "):
		return "des " + np[4:]
	case frVowel(np):
		return "d'" + np
	}
	return "de " + np
}

func frAgree(one bool, singular, plural string) string {
	if one {
		return singular
	}
	return plural
}

func frAnd(words []string) string { return frJoin(words, "et") }

func frOr(words []string) string { return frJoin(words, "ou") }

// frJoin joins words French-style: "a, b et c" (no comma before the last).
func frJoin(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// frCapital upper-cases the first letter of s (a rune, "É").
func frCapital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// frLower lower-cases the first letter of s.
func frLower(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// frAffects is a static's subject and whether it takes a singular verb.
func frAffects(name, affects string) (string, bool) {
	switch affects {
	case "creatures_you_control":
		return "les créatures que vous contrôlez", false
	case "other_creatures_you_control":
		return "les autres créatures que vous contrôlez", false
	case "enchanted":
		return "la créature enchantée", true
	case "self":
		return name, true
	case "opponents":
		return "vos adversaires", false
	}
	return "vous", false
}

// frSpells is a cost-change filter as a plural noun: "les sorts de créature".
func frSpells(filter string) string {
	switch filter {
	case "creature_spell":
		return "les sorts de créature"
	case "noncreature_spell":
		return "les sorts non-créature"
	}
	return "les sorts"
}

// frWhoCasts is "que vous lancez" or "que vos adversaires lancent".
func frWhoCasts(affects string) string {
	if affects == "opponents" {
		return "que vos adversaires lancent"
	}
	return "que vous lancez"
}

// frCostPrefix is an ability's cost before its colon.
func frCostPrefix(cost string, x *ExtraCost) string {
	var parts []string
	if cost != "" {
		parts = append(parts, cost)
	}
	if x != nil {
		parts = append(parts, frCapital(frExtra(*x, true)))
	}
	return strings.Join(parts, ", ")
}

// frExtra is a cost beyond mana; list joins its parts with ", " (an
// ability cost), otherwise with "et".
func frExtra(x ExtraCost, list bool) string {
	var parts []string
	if x.Sacrifice != "" {
		parts = append(parts, "sacrifiez "+frSome(x.Sacrifice))
	}
	if x.Discard > 0 {
		parts = append(parts, "défaussez-vous "+frDe(frCards(x.Discard, false, "carte")))
	}
	if x.ExileFromGraveyard != "" {
		parts = append(parts, "exilez une "+frNoun(x.ExileFromGraveyard).bare)
	}
	if x.Life > 0 {
		parts = append(parts, "payez "+frLife(strconv.Itoa(x.Life)))
	}
	if list {
		for i := 1; i < len(parts); i++ {
			parts[i] = frCapital(parts[i])
		}
		return strings.Join(parts, ", ")
	}
	return frAnd(parts)
}

// frLife is "3 points de vie", "1 point de vie".
func frLife(n string) string {
	if n == "1" {
		return "1 point de vie"
	}
	return n + " points de vie"
}

func frMana(a Ability) string {
	n := max(a.Amount, 1)
	chosen := frNumber(n, false) + " mana de la couleur choisie"
	opts := make([]string, len(a.Produce))
	for i, p := range a.Produce {
		opts[i] = strings.Repeat("{"+p+"}", n)
		if p == "chosen" {
			opts[i] = chosen
		}
	}
	return "Ajoutez " + frOr(opts)
}

func frTrigger(d Def, a Ability) string {
	m := modeOf(a)
	cs := newFrRenderer(d.Name, m).effects(m.Effects)
	if a.When == "enters" && !a.Optional && onlyOps(m.Effects, "choose_color", "name_card") {
		return "Au moment où " + d.Name + " arrive sur le champ de bataille, " + frLowerFirst(frSentences(cs), d.Name)
	}
	var lead string
	switch a.When {
	case "enters":
		lead = "Quand " + d.Name + " arrive sur le champ de bataille, "
	case "dies":
		lead = "Quand " + d.Name + " meurt, "
	case "attacks":
		lead = "Chaque fois " + frQue(d.Name) + " attaque, "
	case "upkeep":
		lead = "Au début de votre entretien, "
	case "end_step":
		lead = "Au début de votre étape de fin, "
	case "you_cast_noncreature":
		lead = "Chaque fois que vous lancez un sort non-créature, "
	case "creature_you_control_dies":
		lead = "Chaque fois qu'une créature que vous contrôlez meurt, "
		if d.Is("creature") {
			lead = "Chaque fois qu'une autre créature que vous contrôlez meurt, "
		}
	case "deals_combat_damage_to_player":
		lead = "Chaque fois " + frQue(d.Name) + " inflige des blessures de combat à un joueur, "
	}
	if a.Optional {
		cs = frMay(a.Pay, cs)
	}
	return lead + frLowerFirst(frSentences(cs), d.Name)
}

// frQue is "que" before a name, elided before a vowel: "qu'Aveline".
func frQue(name string) string {
	if frVowel(name) {
		return "qu'" + name
	}
	return "que " + name
}

// frLowerFirst lower-cases s's first letter unless s begins with the
// card's name.
func frLowerFirst(s, name string) string {
	if strings.HasPrefix(s, name) {
		return s
	}
	return frLower(s)
}

// frClause is one sentence of French effect text: its subject ("" for
// the imperative, addressed to you) and its verb phrase as you do it
// ("piochez deux cartes"), as a third person does it ("pioche deux
// cartes") and in the infinitive, for "vous pouvez …".
type frClause struct {
	subj, vous, third, inf string
}

func (c frClause) text() string {
	switch c.subj {
	case "":
		return c.vous
	case "vous":
		return "vous " + c.vous
	}
	return c.subj + " " + c.third
}

func (c frClause) may() string {
	if c.subj == "" || c.subj == "vous" {
		return "vous pouvez " + c.inf
	}
	return "vous pouvez faire en sorte que " + c.subj + " " + c.third
}

func frSentences(cs []frClause) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = frCapital(c.text()) + "."
	}
	return strings.Join(out, " ")
}

// frMay puts clauses under "vous pouvez", as mayClauses does in English.
func frMay(pay string, cs []frClause) []frClause {
	if len(cs) == 0 {
		return cs
	}
	var out []frClause
	rest := cs
	if pay != "" {
		out = append(out, frClause{vous: "vous pouvez payer " + pay})
	} else {
		out = append(out, frClause{vous: cs[0].may()})
		rest = cs[1:]
	}
	if len(rest) > 0 {
		out = append(out, frClause{vous: "si vous faites ainsi, " + rest[0].text()})
		out = append(out, rest[1:]...)
	}
	return out
}

// verb is a French verb phrase in its three forms.
func verb(vous, third, inf string) frClause { return frClause{vous: vous, third: third, inf: inf} }

// frRenderer turns one mode's effects into French clauses.
type frRenderer struct {
	name      string
	targets   []Target
	mentioned []bool
}

func newFrRenderer(name string, m Mode) *frRenderer {
	return &frRenderer{name: name, targets: m.Targets, mentioned: make([]bool, len(m.Targets))}
}

func (r *frRenderer) effects(es []Effect) []frClause {
	var cs []frClause
	for _, e := range es {
		cs = append(cs, r.effect(e)...)
	}
	return cs
}

// obj is the phrase for what `to` names.
func (r *frRenderer) obj(to string) string {
	if i, ok := targetIndex(to); ok && i < len(r.targets) {
		t := r.targets[i]
		p := frNoun(t.Kind)
		if r.mentioned[i] {
			return p.this
		}
		r.mentioned[i] = true
		if t.Optional {
			return "jusqu'à " + p.some
		}
		return p.target
	}
	switch to {
	case "", "you":
		return "vous"
	case "each_opponent":
		return "chaque adversaire"
	case "each_player":
		return "chaque joueur"
	case "each_creature":
		return "chaque créature"
	case "each_creature_opponents_control":
		return "chaque créature que vos adversaires contrôlent"
	case "self":
		return r.name
	case "enchanted":
		return "la créature enchantée"
	case "attached":
		return "la créature à laquelle " + r.name + " est attaché"
	case "triggering_player":
		return "ce joueur"
	}
	return to
}

// fem reports whether the target `to` names is feminine.
func (r *frRenderer) fem(to string) bool {
	if i, ok := targetIndex(to); ok && i < len(r.targets) {
		return frNoun(r.targets[i].Kind).fem
	}
	return to == "enchanted" || to == "attached" || to == "each_creature"
}

// of is "votre main", "la main du joueur ciblé": noun of what `to` names.
func (r *frRenderer) of(noun, to string) string {
	switch p := r.obj(to); p {
	case "vous":
		return "votre " + noun
	case "ce joueur":
		return "la " + noun + " de ce joueur"
	default:
		return "la " + noun + " " + frDe(p)
	}
}

// player makes a clause whose subject is the player `to` names (the
// imperative for you).
func (r *frRenderer) player(to string, c frClause) frClause {
	if p := r.obj(to); p != "vous" {
		c.subj = p
	}
	return c
}

// lifePlayer is player for life changes, which name you ("vous gagnez 3
// points de vie").
func (r *frRenderer) lifePlayer(to string, c frClause) frClause {
	c = r.player(to, c)
	if c.subj == "" {
		c.subj = "vous"
	}
	return c
}

func frAmount(e Effect) string {
	if e.XAmount {
		return "X"
	}
	return strconv.Itoa(e.Amount)
}

func (r *frRenderer) effect(e Effect) []frClause {
	on := func(v, inf string) []frClause {
		o := r.obj(e.To)
		return []frClause{verb(v+" "+o, "", inf+" "+o)}
	}
	switch e.Op {
	case "damage":
		n := frAmount(e)
		what := n + " blessures"
		if n == "1" {
			what = "1 blessure"
		}
		to := frA(r.obj(e.To))
		return []frClause{{subj: r.name, vous: "infligez " + what + " " + to, third: "inflige " + what + " " + to, inf: "infliger " + what + " " + to}}
	case "destroy":
		return on("détruisez", "détruire")
	case "exile":
		return on("exilez", "exiler")
	case "bounce":
		o := r.obj(e.To)
		return []frClause{verb("renvoyez "+o+" dans la main de son propriétaire", "", "renvoyer "+o+" dans la main de son propriétaire")}
	case "counter":
		return on("contrecarrez", "contrecarrer")
	case "untap":
		return on("dégagez", "dégager")
	case "draw":
		c := frCards(max(e.Amount, 1), e.XAmount, "carte")
		return []frClause{r.player(e.To, verb("piochez "+c, "pioche "+c, "piocher "+c))}
	case "mill":
		c := frCards(max(e.Amount, 1), e.XAmount, "carte")
		return []frClause{r.player(e.To, verb("meulez "+c, "meule "+c, "meuler "+c))}
	case "gain_life":
		l := frLife(frAmount(e))
		return []frClause{r.lifePlayer(e.To, verb("gagnez "+l, "gagne "+l, "gagner "+l))}
	case "lose_life":
		l := frLife(frAmount(e))
		return []frClause{r.lifePlayer(e.To, verb("perdez "+l, "perd "+l, "perdre "+l))}
	case "discard":
		return r.discard(e)
	case "pump":
		return []frClause{r.pump(e)}
	case "animate":
		return r.animate(e)
	case "add_counters":
		return []frClause{r.counters(e)}
	case "create_token":
		t := frToken(e)
		return []frClause{r.player(e.To, verb("créez "+t, "crée "+t, "créer "+t))}
	case "tap":
		o := r.obj(e.To)
		cs := []frClause{verb("engagez "+o, "", "engager "+o)}
		if e.SkipUntap {
			cs = append(cs, frClause{subj: r.obj(e.To), third: "ne se dégage pas pendant la prochaine étape de dégagement de son contrôleur"})
		}
		return cs
	case "scry":
		n := strconv.Itoa(e.Amount)
		return []frClause{verb("regard "+n, "", "faire regard "+n)}
	case "search":
		s := frSearch(e)
		return []frClause{verb(s, "", s)}
	case "look_top":
		return frLookTop(e)
	case "exile_top":
		n := max(e.Amount, 1)
		top := "la carte du dessus"
		if n > 1 || e.XAmount {
			top = "les " + frNumber(n, true) + " cartes du dessus"
		}
		lib := r.of("bibliothèque", e.To)
		return []frClause{verb("exilez "+top+" "+frDe(lib), "", "exiler "+top+" "+frDe(lib))}
	case "sacrifice":
		what := frSome(e.Filter)
		if e.Amount > 1 {
			what = frNumber(e.Amount, frNoun(e.Filter).fem) + " " + frPlural(frNoun(e.Filter).bare)
		}
		return []frClause{r.player(e.To, verb("sacrifiez "+what, "sacrifie "+what, "sacrifier "+what))}
	case "gain_control":
		o := frDe(r.obj(e.To)) + frDuration(e.Duration)
		return []frClause{verb("acquérez le contrôle "+o, "", "acquérir le contrôle "+o)}
	case "return":
		fem := r.fem(e.To)
		o := r.obj(e.To)
		where := "sur le champ de bataille sous votre contrôle"
		switch e.Dest {
		case "hand":
			where = "dans la main de son propriétaire"
			if r.targetKind(e.To) == "creature_card_in_your_graveyard" {
				where = "dans votre main"
			}
		case "battlefield_tapped":
			where = "sur le champ de bataille " + frAgree(!fem, "engagé", "engagée") + " sous votre contrôle"
		}
		return []frClause{verb("renvoyez "+o+" "+where, "", "renvoyer "+o+" "+where)}
	case "emblem":
		s := ""
		if e.Emblem != nil {
			s = strings.TrimSuffix(french{}.static("", *e.Emblem), ".")
		}
		return []frClause{{subj: "vous", vous: "obtenez un emblème avec « " + s + " »", inf: "obtenir un emblème avec « " + s + " »"}}
	case "may":
		return frMay(e.Pay, r.effects(e.Then))
	case "choose_color":
		return []frClause{verb("choisissez une couleur", "", "choisir une couleur")}
	case "name_card":
		return []frClause{verb("choisissez un nom de carte", "", "choisir un nom de carte")}
	}
	return nil
}

func (r *frRenderer) targetKind(to string) string {
	if i, ok := targetIndex(to); ok && i < len(r.targets) {
		return r.targets[i].Kind
	}
	return ""
}

func (r *frRenderer) discard(e Effect) []frClause {
	noun := "carte"
	if e.Filter != "" && e.Filter != "card" {
		noun = frCard(e.Filter)
	}
	n := max(e.Amount, 1)
	if e.Chooser == "you" {
		hand := r.of("main", e.To)
		what, those := "une "+noun, "cette carte"
		if n > 1 {
			what, those = frCards(n, false, noun), "ces cartes"
		}
		return []frClause{
			verb("regardez "+hand+" et choisissez-y "+what, "", "regarder "+hand+" et y choisir "+what),
			{subj: "ce joueur", vous: "vous défaussez " + frDe(those), third: "se défausse " + frDe(those), inf: "se défausser " + frDe(those)},
		}
	}
	c := frDe(frCards(n, false, noun))
	return []frClause{r.player(e.To, verb("défaussez-vous "+c, "se défausse "+c, "vous défausser "+c))}
}

func (r *frRenderer) pump(e Effect) frClause {
	subj := r.obj(e.To)
	var third, inf []string
	if e.Power != 0 || e.Toughness != 0 {
		pt := signed(e.Power) + "/" + signed(e.Toughness)
		third = append(third, "gagne "+pt)
		inf = append(inf, "gagner "+pt)
	}
	if len(e.Keywords) > 0 {
		k := frKeywordList(e.Keywords)
		third = append(third, "acquiert "+k)
		inf = append(inf, "acquérir "+k)
	}
	d := frDuration(e.Duration)
	return frClause{subj: subj, third: strings.Join(third, " et ") + d, inf: strings.Join(inf, " et ") + d}
}

// animate words a land becoming a creature: "Le terrain ciblé devient
// une créature 3/3 avec la célérité jusqu'à la fin du tour. Il reste un
// terrain."
func (r *frRenderer) animate(e Effect) []frClause {
	what := "une créature " + strconv.Itoa(e.Power) + "/" + strconv.Itoa(e.Toughness)
	if len(e.Keywords) > 0 {
		what += " avec " + frKeywordList(e.Keywords)
	}
	what += frDuration(e.Duration)
	return []frClause{
		{subj: r.obj(e.To), third: "devient " + what, inf: "devenir " + what},
		{subj: "il", third: "reste un terrain", inf: "rester un terrain"},
	}
}

func (r *frRenderer) counters(e Effect) frClause {
	n := max(e.Amount, 1)
	noun := "marqueur " + e.Counter
	switch e.Counter {
	case "poison":
		noun = "marqueur « poison »"
	case "loyalty":
		noun = "marqueur de loyauté"
	}
	what := "un " + noun
	if n > 1 {
		what = frNumber(n, false) + " " + frPlural(noun)
	}
	if e.Counter == "poison" {
		return r.player(e.To, verb("recevez "+what, "reçoit "+what, "recevoir "+what))
	}
	o := r.obj(e.To)
	return verb("mettez "+what+" sur "+o, "", "mettre "+what+" sur "+o)
}

func frLookTop(e Effect) []frClause {
	take := e.Take
	what := "jusqu'à " + frNumber(take, true)
	if e.Filter != "" && e.Filter != "card" {
		noun := frCard(e.Filter)
		if take > 1 {
			noun = frPlural(noun)
		}
		what += " " + noun
	}
	rest := "le reste au-dessous de votre bibliothèque dans l'ordre de votre choix"
	if e.Rest == "graveyard" {
		rest = "le reste dans votre cimetière"
	}
	look := "les " + frNumber(e.Amount, true) + " cartes du dessus de votre bibliothèque"
	put := what + " d'entre elles dans votre main et " + rest
	return []frClause{
		verb("regardez "+look, "", "regarder "+look),
		verb("mettez "+put, "", "mettre "+put),
	}
}

func frSearch(e Effect) string {
	n := max(e.Amount, 1)
	noun := frCard(e.Filter)
	what, it, tapped := "une "+noun, "la", "engagée"
	if n > 1 {
		what, it, tapped = "jusqu'à "+frNumber(n, true)+" "+frPlural(noun), "les", "engagées"
	}
	s := "cherchez dans votre bibliothèque " + what + ", "
	switch e.Dest {
	case "top_of_library":
		return s + "puis mélangez et mettez-" + it + " au-dessus"
	case "battlefield":
		return s + "mettez-" + it + " sur le champ de bataille, puis mélangez"
	case "battlefield_tapped":
		return s + "mettez-" + it + " sur le champ de bataille " + tapped + ", puis mélangez"
	}
	return s + "révélez-" + it + ", mettez-" + it + " dans votre main, puis mélangez"
}

// frColors are the colours as adjectives agreeing with a feminine noun
// (a creature token), singular and plural.
var frColors = map[string][2]string{
	"W": {"blanche", "blanches"}, "U": {"bleue", "bleues"}, "B": {"noire", "noires"},
	"R": {"rouge", "rouges"}, "G": {"verte", "vertes"},
}

func frToken(e Effect) string {
	t := e.Token
	if t == nil {
		return ""
	}
	n := max(e.Amount, 1)
	many := n > 1 || e.XAmount
	pl := 0
	if many {
		pl = 1
	}
	var colors []string
	for _, c := range t.Colors {
		colors = append(colors, frColors[c][pl])
	}
	color := frAgree(!many, "incolore", "incolores")
	if len(colors) > 0 {
		color = frAnd(colors)
	}
	types := make([]string, len(t.Types))
	for i, ty := range t.Types {
		types[i] = frTypes[ty]
	}
	desc := frDe(strings.Join(types, " ")) + " " + strconv.Itoa(t.Power) + "/" + strconv.Itoa(t.Toughness) + " " + color
	for _, st := range t.Subtypes {
		desc += " " + FrenchSubtype(st)
	}
	switch {
	case e.XAmount:
		desc = "X jetons " + desc
	case n == 1:
		desc = "un jeton " + desc
	default:
		desc = frNumber(n, false) + " jetons " + desc
	}
	if t.Name != strings.Join(t.Subtypes, " ") {
		desc += " " + frAgree(!many, "appelé", "appelés") + " " + t.Name
	}
	if len(t.Keywords) > 0 {
		desc += " avec " + frKeywordList(t.Keywords)
	}
	return desc
}

func frDuration(d string) string {
	if d == "end_of_turn" {
		return " jusqu'à la fin du tour"
	}
	return ""
}

// FrenchTokenName is a token's name in French: its subtypes' when its
// name is theirs ("Arbrisseau" for a Sapling), else its own.
func FrenchTokenName(t Token) string {
	if t.Name != strings.Join(t.Subtypes, " ") {
		return t.Name
	}
	words := make([]string, len(t.Subtypes))
	for i, st := range t.Subtypes {
		words[i] = FrenchSubtype(st)
	}
	return strings.Join(words, " ")
}
