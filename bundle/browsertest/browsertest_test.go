package browsertest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/storyloom/storyloom/bundle/site"
)

func TestSiteLoads(t *testing.T) {
	needBrowser(t)
	b := launch(t)
	p := b.NewPage(t)
	p.WaitReady(shared.URL())

	v := Eval[map[string]any](p, `storyloom.version()`)
	if v["ok"] != true || v["version"] == "" {
		t.Errorf("version() = %v, want {ok: true, version: …}", v)
	}
	if got := Eval[string](p, `storyloomAssets.version`); got != shared.Result.Manifest.Version {
		t.Errorf("page's site version = %q, want %q", got, shared.Result.Manifest.Version)
	}
	// The page loaded each campaign's built document and no source.
	loaded := Eval[[]string](p, `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((u) => u.startsWith("/campaigns/"))`)
	docs := 0
	for _, u := range loaded {
		if strings.Contains(u, "/built.") {
			docs++
		} else if u != "/campaigns/index.json" {
			t.Errorf("the page fetched %s, not a built document", u)
		}
	}
	// Every campaign of the index is fetched through the asset map.
	n := Eval[int](p, `storyloomAssets.fetch("campaigns/index.json").then((r) => r.json()).then(async (idx) => {
		for (const c of idx.campaigns) {
			const doc = await (await storyloomAssets.fetch(c.built)).json();
			if (doc.form.campaign.id !== c.campaignId) throw new Error("bad campaign " + c.id);
		}
		return idx.campaigns.length;
	})`)
	if docs != n {
		t.Errorf("the page fetched %d built documents of %d campaigns", docs, n)
	}
	t.Logf("%d campaigns fetched", n)
	if path := Screenshot(t, p.Ctx, "library"); path != "" {
		if st, err := os.Stat(path); err != nil || st.Size() == 0 {
			t.Errorf("screenshot %s not written: %v", path, err)
		}
	}
	Axe(t, p.Ctx)
}

// TestAxeIsStrict holds Axe to failing on every violation: a page whose
// only faults are a minor one (an empty heading) and a moderate one (a
// heading level skipped) is reported for both.
func TestAxeIsStrict(t *testing.T) {
	needBrowser(t)
	b := launch(t)
	p := b.NewPage(t)
	p.Do(chromedp.Navigate(`data:text/html,<!doctype html><html lang="en"><title>Strict</title><main><h1>Strict</h1><h2></h2><h4>Skipped a level</h4><p>Text.</p></main></html>`))
	got := strings.Join(axeViolations(t, p.Ctx), "\n")
	for _, want := range []string{"axe empty-heading (minor)", "axe heading-order (moderate)"} {
		if !strings.Contains(got, want) {
			t.Errorf("axe-core found:\n%s\nwant a line %q", got, want)
		}
	}
}

func TestServiceWorkerOfflineAndRestart(t *testing.T) {
	needBrowser(t)
	// A site of its own, so that going down does not disturb other tests.
	s := ServeDir(shared.Dir, shared.Result)
	defer s.Close()
	profile := t.TempDir()
	b := launchOn(t, profile)
	p := b.NewPage(t)
	p.WaitReady(s.URL())
	controlled := Eval[bool](p, `navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ? true :
		new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true))))`)
	if !controlled {
		t.Fatal("the service worker does not control the page")
	}
	cached := Eval[int](p, `caches.open("storyloom-"+storyloomAssets.version).then((c) => c.keys()).then((k) => k.length)`)
	if want := len(shared.Result.Manifest.Files); cached != want {
		t.Errorf("precached %d files, want %d", cached, want)
	}

	// Network off, server down: a reload still plays.
	p.Allow("ERR_INTERNET_DISCONNECTED")
	p.Allow("sw.js")
	s.SetDown(true)
	p.SetOffline(true)
	p.Do(chromedp.Reload())
	p.AwaitReady()
	if v := Eval[string](p, `storyloom.version().then((v) => v.version)`); v == "" {
		t.Error("version() answered nothing offline")
	}
	Screenshot(t, p.Ctx, "offline-reload")
	p.Close()
	if err := b.Close(); err != nil {
		t.Logf("closing the browser: %v", err)
	}

	// A new browser on the same profile, still with no server: the second
	// visit works from the precache.
	b2 := launchOn(t, profile)
	p2 := b2.NewPage(t)
	p2.Allow("ERR_INTERNET_DISCONNECTED")
	p2.Allow("sw.js")
	p2.SetOffline(true)
	p2.WaitReady(s.URL())
	Screenshot(t, p2.Ctx, "offline-after-restart")
}

func TestUpdateIsOfferedNotForced(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(shared.Dir)); err != nil {
		t.Fatal(err)
	}
	s := ServeDir(dir, shared.Result)
	defer s.Close()
	b := launch(t)
	p := b.NewPage(t)
	p.WaitReady(s.URL())
	Eval[bool](p, `navigator.serviceWorker.ready.then(() => true)`)

	// A new deploy: a different service worker (new version, new cache).
	v := shared.Result.Manifest.Version
	sw, err := os.ReadFile(filepath.Join(dir, site.SWName))
	if err != nil {
		t.Fatal(err)
	}
	sw = bytes.ReplaceAll(sw, []byte(v), []byte(v[:len(v)-1]+"x"))
	if err := os.WriteFile(filepath.Join(dir, site.SWName), sw, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, site.SWName+".gz"))
	os.Remove(filepath.Join(dir, site.SWName+".br"))

	p.Do(chromedp.Reload())
	p.AwaitReady()
	p.Do(chromedp.WaitVisible(chromedp.CSS("#update")))
	// The page still runs the old version until the player asks.
	if got := Eval[string](p, `caches.keys().then((k) => k.join(","))`); !strings.Contains(got, "storyloom-"+v) {
		t.Errorf("old cache gone before the player asked: %s", got)
	}
	Screenshot(t, p.Ctx, "update-offered")
	if _, err := chromedp.Run(p.Ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS("#update-reload")))); err != nil {
		t.Fatalf("reloading to update: %v", err)
	}
	p.AwaitReady()
	got := Eval[string](p, `new Promise((resolve) => {
		const check = () => caches.keys().then((k) => { if (!k.includes("storyloom-`+v+`")) resolve(k.join(",")); else setTimeout(check, 50); });
		check();
	})`)
	if !strings.Contains(got, "x") {
		t.Errorf("caches after the update = %s, want only the new version", got)
	}
}

func TestOfflineFileFromDisk(t *testing.T) {
	needBrowser(t)
	profile := t.TempDir()
	b := launchOn(t, profile)
	p := b.NewPage(t)
	p.WaitReady(shared.OfflineFileURL())
	if !Eval[bool](p, `storyloomAssets.offline`) {
		t.Error("storyloomAssets.offline is false in the offline file")
	}
	if v := Eval[string](p, `storyloom.version().then((v) => v.version)`); v == "" {
		t.Error("version() answered nothing from file://")
	}
	n := Eval[int](p, `storyloomAssets.fetch("campaigns/index.json").then((r) => r.json()).then(async (idx) => {
		for (const c of idx.campaigns) await (await storyloomAssets.fetch(c.built)).json();
		return idx.campaigns.length;
	})`)
	t.Logf("%d campaigns from the offline file", n)
	Eval[bool](p, putRecord)
	Screenshot(t, p.Ctx, "offline-file")
	p.Close()
	if err := b.Close(); err != nil {
		t.Logf("closing the browser: %v", err)
	}

	b2 := launchOn(t, profile)
	p2 := b2.NewPage(t)
	p2.WaitReady(shared.OfflineFileURL())
	if got := Eval[string](p2, getRecord); got != "kept" {
		t.Errorf("after a restart the saved record is %q, want %q", got, "kept")
	}
}

// putRecord stores a record in IndexedDB, as a save would.
const putRecord = `new Promise((resolve, reject) => {
	const req = indexedDB.open("storyloom-harness", 1);
	req.onupgradeneeded = () => req.result.createObjectStore("saves");
	req.onerror = () => reject(req.error);
	req.onsuccess = () => {
		const tx = req.result.transaction("saves", "readwrite");
		tx.objectStore("saves").put("kept", "slot-1");
		tx.oncomplete = () => { req.result.close(); resolve(true); };
		tx.onerror = () => reject(tx.error);
	};
})`

// getRecord reads it back.
const getRecord = `new Promise((resolve, reject) => {
	const req = indexedDB.open("storyloom-harness", 1);
	req.onupgradeneeded = () => req.result.createObjectStore("saves");
	req.onerror = () => reject(req.error);
	req.onsuccess = () => {
		const get = req.result.transaction("saves").objectStore("saves").get("slot-1");
		get.onsuccess = () => resolve(String(get.result));
		get.onerror = () => reject(get.error);
	};
})`
