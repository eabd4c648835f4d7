package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/site"
)

// versions holds the sites of the test campaigns of bundle/testdata/update
// (the ferry story, first-flat and pier-fair), one per version, each built
// once for the package, with its offline file, on first use: building a
// site (the WASM module, its compression) costs several seconds of CPU,
// and the tests that take updates all read the same three builds.
var versions struct {
	dir   string // made by TestMain, removed after the tests
	mu    sync.Mutex
	built map[string]*versionBuild
}

// versionBuild is one version's site, built once.
type versionBuild struct {
	once sync.Once
	res  *site.Result
	err  error
}

// buildVersion returns the site with version of the test campaigns as its
// only campaigns, with its offline file, building it on first use. The
// tests share it: they serve it, read it and copy it, never change it.
func buildVersion(t *testing.T, version string) *site.Result {
	t.Helper()
	versions.mu.Lock()
	if versions.built == nil {
		versions.built = map[string]*versionBuild{}
	}
	b := versions.built[version]
	if b == nil {
		b = &versionBuild{}
		versions.built[version] = b
	}
	versions.mu.Unlock()
	b.once.Do(func() { b.res, b.err = buildCampaigns(versions.dir, version, version, true, nil) })
	if b.err != nil {
		t.Fatalf("building the site with the campaigns at %s: %v", version, b.err)
	}
	return b.res
}

// buildCampaigns builds the site with the test campaigns at version, with
// the offline file when offline is set, into dir's static-name and
// dist-name; edit, when not nil, changes the copied campaigns before the
// build.
func buildCampaigns(dir, name, version string, offline bool, edit func(campaigns string) error) (*site.Result, error) {
	static := filepath.Join(dir, "static-"+name)
	if err := staticTree(static, "campaigns", filepath.Join("bundle", "testdata", "update", version)); err != nil {
		return nil, err
	}
	if edit != nil {
		if err := edit(filepath.Join(static, "campaigns")); err != nil {
			return nil, err
		}
	}
	return browsertest.BuildStatic(context.Background(), filepath.Join(dir, "dist-"+name), os.DirFS(static), offline)
}

// staticTree makes static a tree for the site build: the shipped icons,
// and src (a folder, from the repository's root) as its folder sub.
func staticTree(static, sub, src string) error {
	if err := os.CopyFS(filepath.Join(static, "icons"), os.DirFS(filepath.Join(suite.root, "static", "icons"))); err != nil {
		return err
	}
	return os.CopyFS(filepath.Join(static, sub), os.DirFS(filepath.Join(suite.root, src)))
}

// deploy serves res on the page's origin and takes the update the way a
// player does: a reload finds the new service worker, which precaches the
// new version, the page offers "Reload to update", and the click reloads
// onto the new version. With offline, the network is cut before the click,
// so the new version comes from the service worker's cache alone.
func (p *page) deploy(res *site.Result, offline bool) {
	p.t.Helper()
	p.site.Swap(res.Out)
	p.do(chromedp.Reload())
	p.ready()
	p.waitJS(`!document.getElementById("update").hidden`)
	if offline {
		p.offline()
	}
	p.do(chromedp.Evaluate[chromedp.Void](`window.storyloomOldPage = true`))
	p.click("#update-reload")
	// The page reloads itself: until it has, an evaluation may land on the
	// old page or fail in the navigation, so poll through both.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		fresh, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.storyloomOldPage === undefined && document.documentElement.dataset.storyloom === "ready"`))
		cancel()
		if err == nil && fresh {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the page did not reload onto the new version: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// notice waits for the play screen's content notice of outcome and
// returns its text.
func (p *page) notice(outcome string) string {
	p.t.Helper()
	sel := fmt.Sprintf(`[data-role="content-notice"] p[data-outcome=%q]`, outcome)
	p.waitJS(fmt.Sprintf(`document.querySelector(%q) !== null`, sel))
	return p.text(sel)
}

// keptFor checks that the play screen's notice says the game was kept for
// reason, and returns its text.
func (p *page) keptFor(reason string) string {
	p.t.Helper()
	text := p.notice("kept")
	if got := eval[string](p, `document.querySelector('[data-role="content-notice"] p[data-outcome="kept"]').dataset.reason`); got != reason {
		p.t.Errorf("the notice %q is kept for %q, want %q", text, got, reason)
	}
	return text
}

// stale marks the play screen shown now, so that fresh waits for the
// next one: a screen is drawn some time after its route starts.
func (p *page) stale() {
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(".kind-screen").dataset.stale = "1"`))
}

// fresh waits for a play screen of kind drawn since the last stale.
func (p *page) fresh(kind string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.querySelector(".kind-screen:not([data-stale])")?.dataset.kind === %q`, kind))
}

// game goes to the play screen of session, a game of kind, and returns
// the text of its content notice of outcome ("" for none).
func (p *page) game(session, kind, outcome string) string {
	p.t.Helper()
	p.stale()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = "#/play/" + %q`, session)))
	p.fresh(kind)
	if outcome == "" {
		return ""
	}
	return p.notice(outcome)
}

// started starts campaign from the library, plays a first step with the
// selector act, and returns the session.
func (p *page) started(campaign, kind, act string) string {
	p.t.Helper()
	if eval[string](p, `document.querySelector("main").dataset.screen`) != "library" {
		p.do(chromedp.Evaluate[chromedp.Void](`location.hash = "#/"`))
		p.screen("library")
	}
	// Clicked from script, found and clicked at once: the screens redraw
	// as they settle.
	p.waitJS(fmt.Sprintf(`document.querySelector('[data-start=%q]')?.click() === undefined`, campaign))
	p.waitJS(fmt.Sprintf(`document.querySelector(".kind-screen")?.dataset.kind === %q && !!document.querySelector(%q)`, kind, act))
	n := p.seq()
	p.waitJS(fmt.Sprintf(`(() => { const b = document.querySelector(%q); if (!b || b.disabled) return false; b.click(); return true; })()`, act))
	p.waitSeq(n)
	return eval[string](p, `decodeURIComponent(location.hash.split("/")[2])`)
}

// TestCampaignUpdatesNeverStrandAPlayer plays version 1 of a story, a
// simulation and a world partway and saves each, then the host deploys
// version 2 (a scene reworded, a node added, a variable, a stat and a
// building renamed with declared migrations): the games go on where they
// were, on version 2, and say so, and the old saves load onto version 2
// too; a world played to its end stays on version 1 (content_not_adoptable).
// Offline, the game still plays version 2. Then version 3, which
// nothing can adopt (the story drops the node the game stands on and
// declares no migration), taken offline from the service worker's cache:
// the games keep playing version 2, the saves version 1, and say so
// (content_incompatible), offline and online again.
func TestCampaignUpdatesNeverStrandAPlayer(t *testing.T) {
	t.Parallel()
	need(t)
	v1, v2, v3 := buildVersion(t, "1.0.0"), buildVersion(t, "2.0.0"), buildVersion(t, "3.0.0")
	// Offline, the browser's own update check of sw.js fails, and says so.
	p := origin(t, v1)
	p.attach([]string{"sw.js", "ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_REFUSED"})

	// A simulation and a world, a step into each; the story last.
	p.visit("")
	sim := p.started("first-flat", "simulation", `[data-action-id="end_week"]`)
	world := p.started("pier-fair", "world-graph", `[data-advance="8"]`)
	// Each saved, through the bridge the page saves with.
	saves := map[string]string{}
	for kind, session := range map[string]string{"simulation": sim, "world-graph": world} {
		saves[kind] = eval[string](p, `storyloom.saveGame({sessionId: `+jsString(session)+`}).then((r) => r.saveId)`)
	}
	// A world played to its end: it stays on the version it ended on.
	ended := eval[string](p, `storyloom.createSession({campaignId: "pier-fair"}).then((g) => storyloom.submitAction({sessionId: g.sessionId, actionId: "advance_ticks", params: {ticks: 720}}).then((r) => r.scene.status === "ended" ? g.sessionId : "not ended"))`)
	loadSaves := func(want string) {
		t.Helper()
		for kind, id := range saves {
			if got := eval[string](p, `storyloom.loadGame({saveId: `+jsString(id)+`}).then((r) => r.ok ? (r.notices || []).map((n) => (n.outcome + " " + n.from + "→" + n.to + " " + (n.reason || "")).trim()).join() : r.error.code)`); got != want {
				t.Errorf("the %s's version 1 save loads with %q, want %q", kind, got, want)
			}
		}
	}
	startStory(t, p, "ferry")
	firstChoice(t, p) // board: the deck, with one coin left
	if got := sceneText(p); got != "The deck rolls." {
		t.Fatalf("version 1 shows %q", got)
	}
	p.quickSave("On deck")
	p.waitJS(`navigator.serviceWorker.controller !== null`)

	p.deploy(v2, false)
	p.screen("play")
	if got := p.notice("adopted"); got != "The campaign was updated: this game now plays version 2.0.0 (it was on 1.0.0)." {
		t.Errorf("the notice reads %q", got)
	}
	p.waitJS(`document.querySelector(".scene-text")?.textContent === "The deck rolls under a grey sky."`)
	if n := p.count("[data-numbered]"); n != 2 {
		t.Errorf("version 2's deck has %d choices, want 2", n)
	}
	p.shot("update-adopted")
	p.axe("play screen with a content notice")

	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] .slot").length === 1`)
	p.stale()
	p.dialogButton(`.slot [data-role="load"]`)
	p.fresh("story-graph")
	if got := p.notice("adopted"); got == "" {
		t.Error("the old save loaded without a notice")
	}
	p.waitJS(`document.querySelector(".scene-text")?.textContent === "The deck rolls under a grey sky."`)
	ferry := eval[string](p, `decodeURIComponent(location.hash.split("/")[2])`)

	for _, g := range []struct{ session, kind string }{{sim, "simulation"}, {world, "world-graph"}} {
		if got := p.game(g.session, g.kind, "adopted"); got != "The campaign was updated: this game now plays version 2.0.0 (it was on 1.0.0)." {
			t.Errorf("the %s's notice reads %q", g.kind, got)
		}
	}
	if got := p.text("main"); !strings.Contains(got, "Candy cart") {
		t.Errorf("the world does not show version 2's renamed building: %.300s", got)
	}
	p.game(ended, "world-graph", "")
	if got := p.keptFor("content_not_adoptable"); got != "Version 2.0.0 of the campaign cannot take this game over, so it goes on playing version 1.0.0." {
		t.Errorf("the ended world's notice reads %q", got)
	}
	loadSaves("adopted 1.0.0→2.0.0")
	p.game(ferry, "story-graph", "")

	p.offline()
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent === "The deck rolls under a grey sky."`)
	p.bp.SetOffline(false)
	p.site.SetDown(false)

	// The player takes version 3 with the network gone: the service
	// worker serves it from its cache, and the games' versions come from
	// the page's own storage.
	p.deploy(v3, true)
	p.screen("play")
	if !eval[bool](p, `navigator.serviceWorker.controller !== null && !navigator.onLine`) {
		t.Error("version 3 is not served by the service worker offline")
	}
	if got := p.keptFor("content_incompatible"); got != "Version 3.0.0 of the campaign cannot take this game over, so it goes on playing version 2.0.0." {
		t.Errorf("the notice reads %q", got)
	}
	p.shot("update-kept")
	for _, g := range []struct{ session, kind string }{{sim, "simulation"}, {world, "world-graph"}} {
		p.game(g.session, g.kind, "")
		if got := p.keptFor("content_incompatible"); got != "Version 3.0.0 of the campaign cannot take this game over, so it goes on playing version 2.0.0." {
			t.Errorf("the %s's notice reads %q", g.kind, got)
		}
	}
	loadSaves("kept 1.0.0→3.0.0 content_incompatible")
	p.game(ferry, "story-graph", "kept")
	p.act(`[data-action-id="watch"]`)
	if got := sceneText(p); got != "The gulls wheel over the wake." {
		t.Errorf("the kept game does not play version 2: %q", got)
	}

	// Online again, the same step: still kept, and said again.
	p.bp.SetOffline(false)
	p.site.SetDown(false)
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if got := p.notice("kept"); !strings.Contains(got, "3.0.0") || !strings.Contains(got, "2.0.0") {
		t.Errorf("online, the notice reads %q", got)
	}
}

// TestOfflineFileKeepsOldVersions plays the story, a simulation and a
// world in the offline file of version 1, then replaces the file with
// version 2's, as a player who downloads the new file over the old one
// does: the games go on on version 2 and say so, because the file's own
// IndexedDB kept version 1; then with version 3's, which nothing can
// adopt: they go on on version 2 and say so.
// The player switched to French before the update, so the notice is in
// French and marked lang="fr".
func TestOfflineFileKeepsOldVersions(t *testing.T) {
	t.Parallel()
	need(t)
	dir := t.TempDir()
	v1, v2, v3 := buildVersion(t, "1.0.0"), buildVersion(t, "2.0.0"), buildVersion(t, "3.0.0")
	file := filepath.Join(dir, "storyloom-offline.html")
	put := func(res *site.Result) {
		data, err := os.ReadFile(res.OfflinePath)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(v1)
	p := openFile(t, file)
	p.visit("")
	sim := p.started("first-flat", "simulation", `[data-action-id="end_week"]`)
	world := p.started("pier-fair", "world-graph", `[data-advance="8"]`)
	startStory(t, p, "ferry")
	ferry := eval[string](p, `decodeURIComponent(location.hash.split("/")[2])`)
	firstChoice(t, p)
	if got := sceneText(p); got != "The deck rolls." {
		t.Fatalf("version 1 shows %q", got)
	}
	// The player goes on in French: the notice is said in the game's
	// language, and marked as French.
	eval[bool](p, `(() => { const s = document.querySelector('[data-role="locale"]'); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitJS(`document.querySelector(".scene-text")?.textContent === "Le pont tangue."`)
	put(v2)
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if got := p.notice("adopted"); got != "La campagne a été mise à jour : cette partie joue maintenant la version 2.0.0 (elle était en version 1.0.0)." {
		t.Errorf("the notice reads %q", got)
	}
	if lang := eval[string](p, `document.querySelector('[data-role="content-notice"] p').lang`); lang != "fr" {
		t.Errorf("the French notice has lang %q", lang)
	}
	p.waitJS(`document.querySelector(".scene-text")?.textContent === "Le pont tangue sous un ciel gris."`)
	others := []struct{ session, kind string }{{sim, "simulation"}, {world, "world-graph"}}
	for _, g := range others {
		if got := p.game(g.session, g.kind, "adopted"); !strings.Contains(got, "2.0.0") {
			t.Errorf("the %s's notice in the file of version 2 reads %q", g.kind, got)
		}
	}

	// Version 3's file: nothing can take the games over; they go on.
	p.game(ferry, "story-graph", "")
	put(v3)
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if got := p.notice("kept"); !strings.Contains(got, "3.0.0") || !strings.Contains(got, "2.0.0") {
		t.Errorf("the notice in the file of version 3 reads %q", got)
	}
	p.waitJS(`document.querySelector(".scene-text")?.textContent === "Le pont tangue sous un ciel gris."`)
	for _, g := range others {
		if got := p.game(g.session, g.kind, "kept"); !strings.Contains(got, "3.0.0") {
			t.Errorf("the %s's notice in the file of version 3 reads %q", g.kind, got)
		}
	}
}

// TestABuiltDocumentWithoutProvenanceIsLeftOut serves a site one of whose
// built documents carries no provenance, re-digested with its index as
// another tool's build might be: the page leaves that campaign out, says
// why on the console with content_provenance_missing, and plays the
// others.
func TestABuiltDocumentWithoutProvenanceIsLeftOut(t *testing.T) {
	t.Parallel()
	need(t)
	// A copy of version 1's site: the shared build stays as it was built.
	shared := buildVersion(t, "1.0.0")
	v1 := *shared
	v1.Out = filepath.Join(t.TempDir(), "dist")
	v1.OfflinePath = filepath.Join(v1.Out, site.OfflineName)
	if err := os.CopyFS(v1.Out, os.DirFS(shared.Out)); err != nil {
		t.Fatal(err)
	}
	if err := browsertest.DropProvenance(v1.Out, "ferry"); err != nil {
		t.Fatal(err)
	}
	p := served(t, &v1)
	p.screen("library")
	if p.count(`[data-start="ferry"]`) != 0 || p.count(`[data-start="first-flat"]`) != 1 || p.count(`[data-start="pier-fair"]`) != 1 {
		t.Errorf("the library offers %q", p.text("main"))
	}
	warned := false
	for _, w := range p.bp.Warnings() {
		warned = warned || strings.Contains(w, "campaign ferry was left out (content_provenance_missing)")
	}
	if !warned {
		t.Errorf("no content_provenance_missing warning on the console: %q", p.bp.Warnings())
	}
	p.started("first-flat", "simulation", `[data-action-id="end_week"]`)
}
