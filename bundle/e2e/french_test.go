package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/freeport"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/world"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// catalogEntry matches one entry of web/site/js/locales/fr.js.
var catalogEntry = regexp.MustCompile(`(?m)^\s*"((?:[^"\\]|\\.)*)": "((?:[^"\\]|\\.)*)",$`)

// pageWords reads the French catalog and the English words the pages'
// sources ask for (tr("…") and data-tr in the library's, the rooms' and
// Freeport's index.html).
func pageWords(t *testing.T) (fr map[string]string, used []string) {
	t.Helper()
	site := filepath.Join(suite.root, "web", "site")
	src, err := os.ReadFile(filepath.Join(site, "js", "locales", "fr.js"))
	if err != nil {
		t.Fatal(err)
	}
	fr = map[string]string{}
	for _, m := range catalogEntry.FindAllStringSubmatch(string(src), -1) {
		fr[m[1]] = m[2]
	}
	seen := map[string]bool{}
	var files []string
	for _, dir := range []string{"js", "rooms", "freeport", "online"} {
		more, _ := filepath.Glob(filepath.Join(site, dir, "*.js"))
		files = append(files, more...)
	}
	for _, f := range append(files, filepath.Join(site, "app.js"), filepath.Join(site, "index.html"),
		filepath.Join(site, "rooms", "index.html"), filepath.Join(site, "freeport", "index.html")) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// tr("…"), tr(cond ? "…" : "…") (and the same of says, the
		// rooms' tr with names in it), with line breaks where the
		// formatter put them, and data-tr in the shell.
		for _, m := range regexp.MustCompile(`\b(?:tr|says)\(\s*"((?:[^"\\]|\\.)*)"|\b(?:tr|says)\([^"()]*\?\s*"([^"]*)"\s*:\s*"([^"]*)"|data-tr(?:-label="([^"]*)"|[^>]*>([^<]*)<)`).FindAllStringSubmatch(string(data), -1) {
			for _, k := range m[1:] {
				if k != "" && !seen[k] {
					seen[k] = true
					used = append(used, k)
				}
			}
		}
	}
	sort.Strings(used)
	return fr, used
}

// englishLeftJS lists the English keys (those the French catalog says
// differently) found in the page's text or in its aria-labels, outside
// text marked as another language (a card's rules, which the server sends
// in English); a key with {placeholders} is looked for by its longest
// fixed part.
const englishLeftJS = `((keys) => {
	const french = (el) => (el.closest("[lang]")?.lang || "fr").startsWith("fr");
	const texts = [];
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (el && !el.closest("script, style, noscript") && french(el) && (el.checkVisibility ? el.checkVisibility() : true)) texts.push(n.textContent);
	}
	const said = [texts.join(" "), ...[...document.querySelectorAll("[aria-label]")].filter(french).map((e) => e.getAttribute("aria-label"))].join("\n");
	const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return keys.filter((k) => {
		const part = k.split(/\{[A-Za-z]+\}/).map((p) => p.trim()).sort((a, b) => b.length - a.length)[0];
		return part.length >= 4 && new RegExp("(^|[^\\p{L}])" + esc(part) + "($|[^\\p{L}])", "u").test(said);
	}).concat((said.match(/\b\d+ (hours?|guests?|weeks?) (left|here|planned)\b|\+\d+ hours?\b/g) || []));
})(%s)`

// frenchOnlyJS lists the words of the page (its text and its aria-label,
// title and placeholder attributes, outside elements marked as another
// language) that no French text of the site uses: vocab is every word of
// the French catalogs, the words Intl writes French dates and language
// names with are added here. Whatever English is left in the page, caught
// by a tr() or not, shows up as a word no French text has.
const frenchOnlyJS = `((vocab) => {
	const known = new Set(vocab);
	for (let m = 0; m < 12; m++) {
		for (const style of ["medium", "long"]) {
			for (const w of new Date(2026, m, 3, 19, 40).toLocaleString("fr", { dateStyle: style, timeStyle: "short" }).toLowerCase().match(/\p{L}+/gu) || []) known.add(w);
		}
	}
	for (const w of new Intl.DisplayNames(["fr"], { type: "language" }).of("fr").toLowerCase().match(/\p{L}+/gu)) known.add(w);
	// Text marked as another language, or as a name not to translate
	// (translate="no": a player's name, a good's id), is not French to
	// check; its words may stand in an attribute (aria-label "Join Cheat").
	const french = (el) => !el || ((el.closest("[lang]")?.lang || "fr").startsWith("fr") && !el.closest('[translate="no"]'));
	for (const el of document.querySelectorAll('[lang]:not([lang^="fr"]), [translate="no"]')) {
		for (const w of el.textContent.toLowerCase().match(/\p{L}+/gu) || []) known.add(w);
	}
	const seen = (el) => el && (el.checkVisibility ? el.checkVisibility() : true);
	const unknown = new Map();
	const look = (text, el) => {
		for (const w of text.match(/\p{L}+/gu) || []) {
			if (w.length < 2 || known.has(w.toLowerCase())) continue;
			if (!unknown.has(w)) unknown.set(w, text.trim().slice(0, 80));
		}
	};
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest("script, style, noscript") || !french(el) || !seen(el)) continue;
		look(n.textContent, el);
	}
	for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
		if (!french(el) || !seen(el)) continue;
		for (const a of ["aria-label", "title", "placeholder"]) if (el.hasAttribute(a)) look(el.getAttribute(a), el);
	}
	return [...unknown].map(([w, where]) => w + " (in “" + where + "”)");
})(%s)`

// icuWords matches what a message's syntax adds to its words: a plural's
// argument and keyword, its case names, and placeholders.
var icuWords = regexp.MustCompile(`\{[A-Za-z0-9_]+, *plural, *|\b(zero|one|two|few|many|other) *\{|=\d+ *\{|\{[A-Za-z0-9_]+\}`)

// frenchVocabulary is every word (lower case) of the site's French texts:
// the page's catalogs (js/locales/*fr.js), every campaign's
// strings/fr.json and the card game's French phrasebook.
func frenchVocabulary(t *testing.T) []string {
	t.Helper()
	var texts []string
	locales, _ := filepath.Glob(filepath.Join(suite.root, "web", "site", "js", "locales", "*fr.js"))
	for _, f := range locales {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range catalogEntry.FindAllStringSubmatch(string(src), -1) {
			texts = append(texts, m[2])
		}
	}
	tables, _ := filepath.Glob(filepath.Join(suite.root, "static", "campaigns", "*", "strings", "fr.json"))
	for _, f := range tables {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var table map[string]string
		if err := json.Unmarshal(src, &table); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, text := range table {
			texts = append(texts, text)
		}
	}
	// The card game's rules text in French, as the site build publishes it.
	books, err := cardgame.Phrasebooks()
	if err != nil {
		t.Fatal(err)
	}
	var cardText map[string]string
	if err := json.Unmarshal(books["fr"], &cardText); err != nil {
		t.Fatal(err)
	}
	for _, text := range cardText {
		texts = append(texts, text)
	}
	seen := map[string]bool{}
	word := regexp.MustCompile(`\p{L}+`)
	for _, text := range texts {
		for _, w := range word.FindAllString(icuWords.ReplaceAllString(text, " "), -1) {
			seen[strings.ToLower(w)] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// englishWords returns the English words the French page must not show:
// the page's own (tr and data-tr) that its French catalog says otherwise,
// failing t on a word the catalog lacks, and the engine's own words of the
// simulation and world kinds and the core's update notices, failing t on
// a key js/locales/engine-fr.js lacks.
func englishWords(t *testing.T) []string {
	t.Helper()
	fr, used := pageWords(t)
	var missing, english []string
	for _, k := range used {
		v, ok := fr[k]
		if !ok {
			missing = append(missing, k)
		} else if v != k {
			english = append(english, k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the French catalog lacks %d of the page's words: %q", len(missing), missing)
	}
	src, err := os.ReadFile(filepath.Join(suite.root, "web", "site", "js", "locales", "engine-fr.js"))
	if err != nil {
		t.Fatal(err)
	}
	engineFr := map[string]string{}
	for _, m := range catalogEntry.FindAllStringSubmatch(string(src), -1) {
		engineFr[m[1]] = m[2]
	}
	missing = nil
	notices := map[string]string{}
	for k, v := range core.CoreMessages() {
		if strings.HasPrefix(k, "core.notice.") {
			notices[k] = v
		}
	}
	for _, table := range []map[string]string{sim.Kind{}.ReasonMessages(), world.Kind{}.ReasonMessages(), notices} {
		for _, k := range slices.Sorted(maps.Keys(table)) {
			switch v, ok := engineFr[k]; {
			case !ok:
				missing = append(missing, k)
			case v != table[k]:
				english = append(english, table[k])
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("js/locales/engine-fr.js lacks %d of the engine's words: %q", len(missing), missing)
	}
	return english
}

// frenchCheck returns left(where), which fails t when the page shows one
// of english (englishWords) or an English count ("3 hours left"), a word
// no French text of the site has (frenchOnlyJS), or when <html lang> is
// not "fr".
func frenchCheck(t *testing.T, p *page, english []string) func(where string) {
	words := frenchVocabulary(t)
	// A one-word key French writes the same way ("instant", "Places")
	// cannot be told apart from French.
	english = slices.DeleteFunc(slices.Clone(english), func(k string) bool {
		_, french := slices.BinarySearch(words, strings.ToLower(k))
		return french
	})
	keys, _ := json.Marshal(english)
	vocab, _ := json.Marshal(words)
	return func(where string) {
		t.Helper()
		if got := eval[[]string](p, fmt.Sprintf(englishLeftJS, keys)); len(got) > 0 {
			p.shot("english-" + sanitize(where))
			t.Errorf("%s, in French, still says in English: %q", where, got)
		}
		if got := eval[[]string](p, fmt.Sprintf(frenchOnlyJS, vocab)); len(got) > 0 {
			p.shot("unknown-" + sanitize(where))
			t.Errorf("%s, in French, shows words no French text has: %q", where, got)
		}
		if lang := eval[string](p, `document.documentElement.lang`); lang != "fr" {
			t.Errorf("%s: <html lang=%q> over French text", where, lang)
		}
	}
}

// englishAmount matches an amount written the English way: a currency
// symbol before the number, a comma between thousands or a decimal point.
var englishAmount = regexp.MustCompile(`[£$€]\s*\d|\d,\d{3}\b|\d\.\d\d\b`)

// englishMoney fails t when the scene's status line (.scene-line) of the
// French page writes an amount the English way.
func englishMoney(t *testing.T, p *page, where string) {
	t.Helper()
	if got := p.text(".scene-line"); englishAmount.MatchString(got) {
		t.Errorf("%s, in French, writes money the English way: %q", where, got)
	}
}

// TestFrenchLeavesNoEnglish chooses French in Gannet Rock and checks the
// page's own words follow: the header, the scene, the saves dialog, the
// toasts, the library and the gallery, with <html lang> true to the text
// and the English titles in the French library marked as English.
func TestFrenchLeavesNoEnglish(t *testing.T) {
	t.Parallel()
	english := englishWords(t)
	p := open(t)
	left := frenchCheck(t, p, english)
	startStory(t, p, "gannet-rock")
	n := p.seq()
	eval[bool](p, `(() => { const s = document.querySelector('[data-role="locale"]'); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitSeq(n)
	p.waitJS(`document.documentElement.lang === "fr"`)
	left("the scene")
	firstChoice(t, p)
	left("the next scene")
	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] [data-branch]").length > 0`)
	left("the saves dialog")
	p.shot("french-saves")
	p.dialogButton(`[data-branch="0"]`)
	p.waitJS(`!document.querySelector("dialog[open]") && document.querySelectorAll("#toasts .toast").length > 0`)
	left("the rewound game and its toast")
	p.visit("")
	p.screen("library")
	left("the library")
	if got := eval[[]string](p, `[...document.querySelectorAll(".card h2")].filter((h) => /^(The|First) /.test(h.textContent) && h.closest("[lang]").lang !== "en").map((h) => h.textContent)`); len(got) > 0 {
		t.Errorf("English titles in the French library are not marked English: %q", got)
	}
	if got := p.text(`[data-campaign="gannet-rock"] .progress`); regexp.MustCompile(`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|AM|PM)\b`).MatchString(got) {
		t.Errorf("the French library dates in English: %q", got)
	}
	// The blurbs: Gannet Rock's in French, the Marrow Affair's (which has
	// no French) in English and marked so.
	if got := p.text(`[data-campaign="gannet-rock"] .blurb`); !strings.Contains(got, "bateau de relève") {
		t.Errorf("Gannet Rock's blurb in the French library reads %q", got)
	}
	if got := eval[string](p, `document.querySelector('[data-campaign="the-marrow-affair"] .blurb')?.closest("[lang]")?.lang ?? ""`); got != "en" {
		t.Errorf("the Marrow Affair's English blurb is marked lang=%q in the French library", got)
	}
	p.shot("french-library")
	p.visit("#/gallery")
	p.screen("gallery")
	left("the gallery")
	// A campaign with no French is played in English, and says so.
	p.visit("#/new/harbour-bakery")
	p.screen("play")
	if lang := eval[string](p, `document.documentElement.lang`); lang != "en" {
		t.Errorf("Harbour Bakery, which has no French, plays under <html lang=%q>", lang)
	}
	if strings.Contains(p.text(".play-head"), "Sauvegarder") {
		t.Error("Harbour Bakery's header is in French over an English game")
	}
}

// TestFrenchSimulationAndWorld plays First Flat and the Pier Fair with
// French chosen: the simulation's plan, its week's changes and chart, and
// the world's map, places, staff and time, all in French, the engine's
// own words (actions, messages) included.
func TestFrenchSimulationAndWorld(t *testing.T) {
	t.Parallel()
	english := englishWords(t)
	p := open(t)
	left := frenchCheck(t, p, english)
	p.visit("")
	p.screen("library")
	eval[bool](p, `(localStorage.setItem("storyloom-locale", "fr"), true)`)
	p.visit("#/new/first-flat")
	p.screen("play")
	p.waitJS(`document.querySelector(".kind-screen")?.dataset.kind === "simulation"`)
	left("the simulation's first week")
	for week := 0; week < 2; week++ {
		if week == 0 {
			p.act(`[data-add="invest"]`)
		}
		p.act(`[data-add="cafe_shift"]`)
		p.act(`[data-add="cafe_shift"]`)
		p.act(`[data-add="run"]`)
		left("the simulation's plan")
		p.act(`[data-action-id="end_week"]`)
	}
	p.waitJS(`document.querySelectorAll("svg.chart").length > 0`)
	eval[bool](p, `(document.querySelectorAll("details").forEach((d) => d.open = true), true)`)
	left("the simulation after two weeks")
	englishMoney(t, p, "the simulation's status line")
	// The week's news of the investment account says its amount in French.
	if got := p.text("ul.messages"); !strings.Contains(got, "placements") || englishAmount.MatchString(got) {
		t.Errorf("the simulation's news of the investment, in French: %q", got)
	}
	p.shot("french-simulation")
	p.visit("#/new/pier-fair")
	p.screen("play")
	p.waitJS(`document.querySelector(".kind-screen")?.dataset.kind === "world-graph"`)
	left("the world at its start")
	englishMoney(t, p, "the world's status line")
	node := eval[string](p, `document.querySelector("[data-build]").dataset.build`)
	p.act(fmt.Sprintf(`[data-build=%q]`, node))
	p.act(`[data-advance="24"]`)
	eval[bool](p, `(document.querySelectorAll("details").forEach((d) => d.open = true), true)`)
	left("the world after a day")
	englishMoney(t, p, "the world's status line after a day")
	p.shot("french-world")
}

// TestFrenchRoomsAndFreeport: with French chosen in a game, the rooms
// lobby, a room with an AI seat, and the Freeport market before and after
// joining speak French; what the servers send in English (a game's name,
// an AI's description) is marked as English, players' names and goods as
// not for translation.
func TestFrenchRoomsAndFreeport(t *testing.T) {
	t.Parallel()
	need(t)
	english := englishWords(t)
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	_, mounts, err := browsertest.Freeport(suite.root)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := roomServerMounting(t, reg, true, mounts, &rooms.DerivedIDs{Secret: "french duel"})
	p := &page{t: t, base: base}
	// The game Freeport is asked for at the end does not exist: the host
	// answers its token request 404.
	p.attach([]string{"/freeport/no-such-game/token"})
	left := frenchCheck(t, p, english)
	p.visit("")
	p.screen("library")
	eval[bool](p, `(localStorage.setItem("storyloom-locale", "fr"), true)`)

	p.do(chromedp.Navigate(base + "rooms/"))
	p.waitJS(`document.documentElement.dataset.storyloom === "ready" && !!document.querySelector('[data-key="c-create"]') && document.getElementById("conn").dataset.state === "open"`)
	left("the rooms lobby")
	set := func(sel, value string) {
		eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event("input", { bubbles: true })); s.dispatchEvent(new Event("change", { bubbles: true })); return true; })()`, sel, value))
	}
	// refused checks that the refusal shown in sel is worded by the page
	// in French (no part of it marked English but card names) and says
	// want.
	refused := func(where, sel, want string) {
		t.Helper()
		left(where)
		if got := p.text(sel); !strings.Contains(got, want) {
			t.Errorf("%s reads %q, want it to say %q", where, got, want)
		}
		if got := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((e) => e.closest("[lang]")?.lang === "en" ? e.textContent : "").filter((s) => s && !s.includes("Cinder"))`, sel+" [lang], "+sel+" span")); len(got) > 0 {
			t.Errorf("%s shows the server's English: %q", where, got)
		}
	}

	// onlyNames fails t when what sel holds marks anything English but a
	// card's name (lang="en" translate="no"): everything else is the
	// page's, in French.
	onlyNames := func(where, sel string) {
		t.Helper()
		if got := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].filter((e) => e.getAttribute("translate") !== "no").map((e) => e.textContent)`, sel+` [lang]:not([lang^="fr"])`)); len(got) > 0 {
			t.Errorf("%s, in French, shows the server's English: %q", where, got)
		}
	}

	// A name the server refuses (an invisible character): the reason is
	// the page's, in French, from the refusal's code and detail.
	set("#name", "Ada\u200b")
	p.click(`[data-key="name-save"]`)
	p.waitJS(`!document.getElementById("notice").hidden && document.getElementById("notice").dataset.code === "invalid_name"`)
	refused("a refused name", "#notice", "caractères invisibles")
	p.click("#notice button")

	// A card duel against an AI: the card table, a prompt and the result
	// speak French, and the server's card names, labels and prompts are
	// marked English.
	p.waitJS(`!!document.querySelector('#c-format option[value="starter-1v1"]')`)
	set("#c-format", "starter-1v1")
	set("#c-seats", "2")
	p.click(`[data-key="c-create"]`)
	p.waitJS(`!document.getElementById("room").hidden && !!document.querySelector('[data-precon="thornwild_stampede"]')`)
	// A deck the server refuses (too few cards): the rule it breaks, in
	// French, with the format's minimum.
	p.click(`[data-key="deck-tab-paste"]`)
	set("#deck-text", "4 Cinder Imp\n")
	p.click(`[data-key="deck-submit-list"]`)
	p.waitJS(`document.getElementById("deck-error")?.textContent.includes("below_minimum")`)
	refused("a refused deck", "#deck-error", "trop peu de cartes : il lui en faut au moins")
	p.click(`[data-key="deck-tab-build"]`)
	p.waitJS(`!!document.querySelector(".catalog li")`)
	left("the deck builder's catalog")
	onlyNames("the deck builder's catalog", "#room")
	p.click(`[data-key="deck-tab-precon"]`)
	left("the preconstructed decks")
	p.click(`[data-precon="thornwild_stampede"]`)
	// The room is drawn again when the server accepts the deck: wait for
	// that drawing before clicking in it.
	p.waitJS(`!!document.getElementById("deck-status") && !!document.querySelector('[data-key="ai-add"]')`)
	left("an accepted deck")
	p.click(`[data-key="ai-add"]`)
	p.waitJS(`document.querySelectorAll(".seat.ai").length > 0 && !document.getElementById("ready").disabled`)
	p.click("#ready")
	p.waitJS(`!document.getElementById("card-table").hidden && !!document.querySelector("#card-table .act-mulligan_decision")`)
	left("the card table")
	p.click("#card-table .act-mulligan_decision")
	p.waitJS(`!!document.getElementById("ct-prompt")`)
	left("the card table's prompt")
	p.click("#ct-confirm")
	p.waitJS(`!document.getElementById("ct-prompt") && !!document.getElementById("ct-concede")`)
	// Play on in French to a main phase of ours: the hand's rules text,
	// the actions, a land played, and a spell's prompt when one can be
	// cast, with nothing in English on the table but the cards' names.
	p.waitJS(`!!document.querySelector("#card-table .act-pass_priority") && !!document.querySelector("#ct-hand .ct-rules:not([lang])")`)
	left("the card table in a main phase")
	onlyNames("the card table in a main phase", "#card-table")
	if got := eval[[]string](p, `[...document.querySelectorAll("#card-table .ct-rules, #card-table .ct-facts > span")].filter((e) => e.closest("[lang]")?.lang === "en").map((e) => e.textContent)`); len(got) > 0 {
		t.Errorf("the French card table shows rules text in English: %q", got)
	}
	p.click(`details.ct-more summary`)
	p.waitJS(`!!document.querySelector("details.ct-more[open] .act")`)
	left("every action of the card table")
	onlyNames("every action of the card table", "#card-table")
	// Play on (the room's seed is derived, so the game is the same every
	// run) until a spell can be cast: a land each turn, every other
	// question answered, each prompt checked; the spell's prompt is
	// checked and left.
	asked := map[string]bool{}
	for step := 0; step < 80 && !asked["cast_spell"]; step++ {
		p.waitJS(`!!document.getElementById("ct-result") || [...document.querySelectorAll("#card-table button.act")].some((b) => !b.disabled)`)
		if p.count("#ct-result") > 0 {
			break
		}
		before := eval[string](p, `JSON.stringify(window.storyloomRooms.game?.valid_actions?.map((a) => a.id))`)
		typ := eval[string](p, `(() => {
			const acts = [...document.querySelectorAll("#card-table button.act")].filter((b) => !b.disabled);
			const of = (t) => acts.find((b) => b.dataset.actionType === t);
			const b = ["cast_spell", "play_land", "declare_attackers", "declare_blockers", "order_combat_damage", "player_choice", "choose_targets", "discard", "mulligan_decision", "pass_priority"].map(of).find(Boolean);
			if (!b) return "";
			b.click();
			return b.dataset.actionType;
		})()`)
		if typ == "" {
			t.Fatalf("the French card table offers nothing to do: %s", p.text("#ct-actions"))
		}
		if p.count("#ct-prompt") > 0 {
			where := "the card table's " + typ + " prompt"
			if !asked[typ] {
				left(where)
				onlyNames(where, "#card-table")
			}
			if typ == "cast_spell" {
				p.shot("french-card-cast")
				asked[typ] = true
				break
			}
			// Answer what must be answered: the first choices, until Confirm is enabled.
			for i := 0; i < 8 && eval[bool](p, `document.getElementById("ct-confirm").disabled`); i++ {
				eval[bool](p, `(() => { const c = document.querySelector("#ct-prompt input:not(:checked)"); c?.click(); return true; })()`)
			}
			eval[bool](p, `(document.getElementById("ct-confirm").click(), true)`)
		}
		asked[typ] = true
		p.waitJS(fmt.Sprintf(`!!document.getElementById("ct-result") || JSON.stringify(window.storyloomRooms.game?.valid_actions?.map((a) => a.id)) !== %q`, before))
		if typ == "play_land" {
			left("the card table after a land")
			onlyNames("the card table after a land", "#card-table")
		}
	}
	if !asked["play_land"] || !asked["cast_spell"] {
		t.Fatalf("the French duel never came to play a land and cast a spell: it was asked %v", slices.Sorted(maps.Keys(asked)))
	}
	p.click(`[data-key="ct-cancel"]`)
	p.waitJS(`!document.getElementById("ct-prompt")`)
	p.click("#ct-concede")
	p.waitJS(`!!document.getElementById("ct-concede-yes")`)
	left("the card table asking to concede")
	p.click("#ct-concede-yes")
	p.waitJS(`!!document.getElementById("ct-result")`)
	left("the card table's result")
	if got := p.text("#ct-result"); !strings.Contains(got, "par abandon") {
		t.Errorf("the card table's result, in French, reads %q", got)
	}
	if got := p.text(".ct-player.out .ct-statuses"); got != "A abandonné" {
		t.Errorf("the conceded player's status, in French, reads %q", got)
	}
	p.shot("french-card-table")
	p.click("#ct-back-lobby")
	p.waitJS(`!!document.querySelector('[data-key="c-create"]') && document.getElementById("table").hidden`)

	// Cheat, with two seats (the AI's and yours), so that readying starts
	// the game.
	set("#c-format", "cheat")
	set("#c-seats", "2")
	p.click(`[data-key="c-create"]`)
	p.waitJS(`!document.getElementById("room").hidden && !!document.querySelector('[data-key="ai-add"]')`)
	p.click(`[data-key="ai-add"]`)
	p.waitJS(`document.querySelectorAll(".seat.ai").length > 0`)
	left("a room with an AI seat")
	p.shot("french-rooms")
	// Ready: the game starts against the AI, and the Cheat table speaks
	// French, before a play, while picking cards and after one.
	p.click("#ready")
	p.waitJS(`!document.getElementById("table").hidden && document.querySelectorAll("#hand .card-face").length > 0`)
	left("the Cheat table")
	// When the AI played first, let its claim stand to get the turn.
	p.waitJS(`!!document.querySelector('[data-key="act-play_cards"], [data-key="act-pass"]')`)
	if eval[bool](p, `!!document.querySelector('[data-key="act-pass"]')`) {
		left("the Cheat table facing a claim")
		p.click(`[data-key="act-pass"]`)
	}
	p.waitJS(`!!document.querySelector('[data-key="act-play_cards"]') && !!document.querySelector("#hand .card-face:not([disabled])")`)
	p.click("#hand .card-face:not([disabled])")
	p.waitJS(`!!document.getElementById("hand-prompt") && !document.querySelector('[data-key="act-play_cards"]').disabled`)
	left("the Cheat table while picking a card")
	n := eval[int](p, `document.querySelectorAll("#log li").length`)
	p.click(`[data-key="act-play_cards"]`)
	p.waitJS(fmt.Sprintf(`document.querySelectorAll("#log li").length > %d`, n))
	left("the Cheat table after a play")
	p.shot("french-cheat")

	p.do(chromedp.Navigate(base + "freeport/"))
	p.waitJS(`document.documentElement.dataset.freeport === "ready" && !!document.getElementById("enrol")`)
	left("Freeport before joining")
	p.click("#enrol")
	p.waitJS(`!!document.getElementById("holdings") && !document.getElementById("statement").hidden`)
	left("Freeport after joining")
	p.shot("french-freeport")

	// A game the host does not have: its refusal, worded by the page.
	p.do(chromedp.Navigate(base + "freeport/?game=no-such-game"))
	p.waitJS(`!document.getElementById("notice").hidden`)
	refused("Freeport's host refusing an unknown game", "#notice", "Il n’y a pas de partie de Freeport ici.")
}

// reasonCodes lists the keys of the table named table in
// web/site/online/reasons.js: the codes the page words itself.
func reasonCodes(t *testing.T, table string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(suite.root, "web", "site", "online", "reasons.js"))
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)const ` + table + ` = \{\n(.*?)\n\};`).FindStringSubmatch(string(src))
	if body == nil {
		t.Fatalf("reasons.js has no table %s", table)
	}
	codes := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z0-9_]+): `).FindAllStringSubmatch(body[1], -1) {
		codes[m[1]] = true
	}
	return codes
}

// sourceCodes lists the first group of every match of re in the Go files
// (tests left out) that glob names under the module root.
func sourceCodes(t *testing.T, re string, globs ...string) []string {
	t.Helper()
	var out []string
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join(suite.root, g))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(string(src), -1) {
				out = append(out, m[1])
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s in %v", re, globs)
	}
	return out
}

// TestServerCodesAreWorded: every code the servers refuse with (the room
// server's, a name's detail, Freeport's Game Master's and its host's) and
// every reason a game ends for has the page's own words
// (web/site/online/reasons.js), so that the player reads them in the
// page's language; the server's English is only the fallback of a code
// the page does not know.
func TestServerCodesAreWorded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		table string
		codes []string
	}{
		{"roomsText", sourceCodes(t, `(?m)^\s*Code\w+ += "(\w+)"`, "engine/rooms/codes.go")},
		{"nameDetail", sourceCodes(t, `(?m)^\s*Reason\w+ += "(\w+)"`, "bundle/displayname/displayname.go")},
		{"freeportText", append(freeport.ErrorCodes(), sourceCodes(t, `hostError\(w, [^,]+, "(\w+)"`, "bundle/hosting/*.go")...)},
		{"resultText", sourceCodes(t, `(?:lose\(\w+, |eliminate\([^,]+, |g\.end\([^,]+, [^,]+, |rooms\.Result\{[^}]*Reason: )"(\w+)"`, "engine/cards/rules/*.go", "engine/rooms/cheat/*.go")},
	} {
		worded := reasonCodes(t, tc.table)
		var missing []string
		for _, c := range tc.codes {
			if c != "" && !worded[c] && !slices.Contains(missing, c) {
				missing = append(missing, c)
			}
		}
		if len(missing) > 0 {
			t.Errorf("online/reasons.js's %s does not word %q", tc.table, missing)
		}
	}
}
