package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// catalogEntry matches one entry of web/site/js/locales/fr.js.
var catalogEntry = regexp.MustCompile(`(?m)^\s*"((?:[^"\\]|\\.)*)": "((?:[^"\\]|\\.)*)",$`)

// pageWords reads the French catalog and the English words the page's
// sources ask for (tr("…") and data-tr in index.html).
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
	files, _ := filepath.Glob(filepath.Join(site, "js", "*.js"))
	for _, f := range append(files, filepath.Join(site, "app.js"), filepath.Join(site, "index.html")) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// tr("…"), tr(cond ? "…" : "…"), and data-tr in the shell.
		for _, m := range regexp.MustCompile(`\btr\("((?:[^"\\]|\\.)*)"|\btr\([^"()]*\?\s*"([^"]*)"\s*:\s*"([^"]*)"|data-tr(?:-label="([^"]*)"|[^>]*>([^<]*)<)`).FindAllStringSubmatch(string(data), -1) {
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
// differently) found in the page's text or in its aria-labels; a key with
// {placeholders} is looked for by its longest fixed part.
const englishLeftJS = `((keys) => {
	const said = [document.body.innerText, ...[...document.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label"))].join("\n");
	const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return keys.filter((k) => {
		const part = k.split(/\{[a-z]+\}/).map((p) => p.trim()).sort((a, b) => b.length - a.length)[0];
		return part.length >= 4 && new RegExp("(^|[^\\p{L}])" + esc(part) + "($|[^\\p{L}])", "u").test(said);
	});
})(%s)`

// TestFrenchLeavesNoEnglish chooses French in Gannet Rock and checks the
// page's own words follow: the header, the scene, the saves dialog, the
// toasts, the library and the gallery, with <html lang> true to the text
// and the English titles in the French library marked as English.
func TestFrenchLeavesNoEnglish(t *testing.T) {
	t.Parallel()
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
	keys, _ := json.Marshal(english)
	p := open(t)
	left := func(where string) {
		t.Helper()
		if got := eval[[]string](p, fmt.Sprintf(englishLeftJS, keys)); len(got) > 0 {
			p.shot("english-" + sanitize(where))
			t.Errorf("%s, in French, still says in English: %q", where, got)
		}
		if lang := eval[string](p, `document.documentElement.lang`); lang != "fr" {
			t.Errorf("%s: <html lang=%q> over French text", where, lang)
		}
	}
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
	p.shot("french-library")
	p.visit("#/gallery")
	p.screen("gallery")
	left("the gallery")
	// A campaign with no French is played in English, and says so.
	p.visit("#/new/first-flat")
	p.screen("play")
	if lang := eval[string](p, `document.documentElement.lang`); lang != "en" {
		t.Errorf("First Flat, which has no French, plays under <html lang=%q>", lang)
	}
	if strings.Contains(p.text(".play-head"), "Sauvegarder") {
		t.Error("First Flat's header is in French over an English game")
	}
}
