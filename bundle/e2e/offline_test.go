package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// offline cuts the tab off the network: the emulated connection is down
// (service worker included) and the server drops every connection.
func (p *page) offline() {
	p.t.Helper()
	p.bp.SetOffline(true)
	p.site.SetDown(true)
}

func TestOfflineAfterTheFirstVisit(t *testing.T) {
	t.Parallel()
	// With the network gone, the browser's own update check of sw.js fails;
	// Chromium reports that on the console, and it is expected.
	p := open(t, "sw.js", "ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_REFUSED")
	p.visit("")
	p.screen("library")
	p.waitJS(`navigator.serviceWorker.controller !== null`)
	p.waitJS(`caches.keys().then(k => k.length > 0)`)
	p.offline()
	p.do(chromedp.Reload())
	p.ready()
	p.screen("library")
	// The pages that need the server say so instead of leading to the
	// browser's connection error.
	p.waitJS(`document.querySelector('a[href="rooms/"]')?.getAttribute("aria-disabled") === "" && document.querySelector('a[href="rooms/"]').textContent.includes("needs the network")`)
	p.click(`a[href="freeport/"]`)
	p.waitJS(`[...document.querySelectorAll("#toasts .toast strong")].some((s) => s.textContent === "Freeport needs the network")`)
	if eval[string](p, `document.querySelector("main").dataset.screen`) != "library" {
		t.Error("the Freeport link left the page while offline")
	}
	p.shot("offline-links")
	p.click(`[data-start="gannet-rock"]`)
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 0`)
	firstChoice(t, p)
	firstChoice(t, p)
	p.shot("offline-story")
	// A reload while offline resumes the game.
	before := sceneText(p)
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if got := sceneText(p); got != before {
		t.Fatalf("offline reload shows %q, want %q", got, before)
	}
}

func TestOfflineFilePlaysAndSaves(t *testing.T) {
	t.Parallel()
	need(t)
	p := openFile(t, suite.offline)
	p.visit("")
	p.screen("library")
	if eval[bool](p, `storyloomAssets.offline`) != true {
		t.Fatal("the offline file does not say it is offline")
	}
	if p.count(`[data-role="offline-download"]`) != 0 {
		t.Error("the offline file offers itself for download")
	}
	p.click(`[data-start="gannet-rock"]`)
	p.screen("play")
	firstChoice(t, p)
	firstChoice(t, p)
	saved := sceneText(p)
	p.quickSave("")
	storage := eval[string](p, `storyloom.storageStatus().then(r => r.storage.backend)`)
	t.Logf("the offline file keeps its saves in %s", storage)
	p.shot("offline-file")
	// A reload keeps both the autosave and the slot.
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if got := sceneText(p); got != saved {
		t.Fatalf("after a reload the offline file shows %q, want %q", got, saved)
	}
	if n := eval[int](p, `storyloom.listSaves({}).then(r => r.saves.length)`); n != 1 {
		t.Errorf("the offline file kept %d saves, want 1", n)
	}
}

func TestBridgeRecoversFromAPanic(t *testing.T) {
	t.Parallel()
	p := open(t, "storyloom.debugPanic: internal error")
	p.visit("")
	p.screen("library")
	code := eval[string](p, `storyloom.debugPanic().then(r => r.ok ? "ok" : r.error.code)`)
	if code != "internal_error" {
		t.Fatalf("a panic resolved to %q, want internal_error", code)
	}
	if v := eval[bool](p, `storyloom.listCampaigns({}).then(r => r.ok && r.campaigns.length > 0)`); !v {
		t.Fatal("the module did not survive the panic")
	}
	bad := eval[string](p, `storyloom.submitAction("not json").then(r => r.error.code)`)
	if bad != "malformed_input" {
		t.Errorf("bad JSON gave %q", bad)
	}
	unknown := eval[string](p, `storyloom.resumeSession({sessionId: "nope"}).then(r => r.error.code)`)
	if unknown != "unknown_session" {
		t.Errorf("an unknown session gave %q", unknown)
	}
}
