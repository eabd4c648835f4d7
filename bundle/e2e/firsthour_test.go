package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// watchToasts records, in window.toastLog, the title of every toast shown
// and, in window.toastsCut, every toast removed before it faded out (a
// toast fades with the class "leaving" first).
func (p *page) watchToasts() {
	p.t.Helper()
	eval[bool](p, `(() => {
		window.toastLog = []; window.toastsCut = [];
		new MutationObserver((records) => {
			for (const r of records) {
				for (const n of r.addedNodes) if (n.classList?.contains("toast")) window.toastLog.push(n.querySelector("strong")?.textContent || "");
				for (const n of r.removedNodes) if (n.classList?.contains("toast") && !n.classList.contains("leaving")) window.toastsCut.push(n.querySelector("strong")?.textContent || "");
			}
		}).observe(document.getElementById("toasts"), { childList: true });
		return true;
	})()`)
}

// TestToastsOutliveTheRouteTheyCause: "Rewound" is told on the screen the
// rewind opens, not wiped by the route change it causes; the new screen
// opens at its top with focus on its text.
func TestToastsOutliveTheRouteTheyCause(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	for i := 0; i < 3; i++ {
		firstChoice(t, p)
	}
	p.watchToasts()
	first := eval[string](p, `location.hash`)
	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] [data-branch]").length === 3`)
	if !strings.Contains(p.text(`dialog[open] [data-role="same-dice"]`), "turns out the same way") {
		t.Error("the rewind dialog does not say that chance is replayed")
	}
	p.dialogButton(`[data-branch="1"]`)
	p.waitJS(`location.hash !== "` + first + `" && document.querySelector("main[data-screen=play]") && !document.querySelector("dialog[open]")`)
	p.waitJS(`window.toastLog.includes("Rewound")`)
	p.waitJS(`document.activeElement?.matches("[data-focus-target]")`)
	if cut := eval[[]string](p, `window.toastsCut`); len(cut) > 0 {
		t.Errorf("toasts removed before they faded: %q", cut)
	}
}

// TestNewScreenOpensAtItsTopWithFocus: on a phone, a new game started from
// the bottom of the library opens with its title in view and keyboard
// focus on the scene, not on <body> at the old scroll position.
func TestNewScreenOpensAtItsTopWithFocus(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	p.visit("")
	p.screen("library")
	eval[bool](p, `(window.scrollTo(0, document.documentElement.scrollHeight), true)`)
	p.waitJS(`window.scrollY > 300`)
	eval[bool](p, `(document.querySelector('[data-start="the-marrow-affair"]').click(), true)`)
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 0`)
	p.waitJS(`document.activeElement?.matches(".scene-text")`)
	if y := eval[float64](p, `window.scrollY`); y > 0 {
		t.Errorf("the new game opens scrolled down by %vpx", y)
	}
	if top := eval[float64](p, `document.getElementById("game-title").getBoundingClientRect().top`); top < 0 || top > 844 {
		t.Errorf("the game's title is at %vpx, out of view", top)
	}
	p.shot("phone-new-game")
}

// TestRewindFromAnEndingAndAchievementsNotToldTwice: from an ending, the
// rewind list has the last move focused; playing the same moves again on a
// branch unlocks the same achievements, which are not announced again.
func TestRewindFromAnEndingAndAchievementsNotToldTwice(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	p.watchToasts()
	moves, _ := playStory(t, p, "")
	p.waitJS(`document.querySelector(".ending-actions") !== null`)
	first := eval[[]string](p, `window.toastLog.filter((t) => t === "Achievement unlocked")`)
	got := eval[[]string](p, `[...document.querySelectorAll(".badges li")].map((li) => li.textContent)`)
	if len(first) == 0 || len(got) == 0 {
		t.Fatalf("the first game unlocked no achievement (toasts %q, badges %q)", first, got)
	}
	p.click(`.ending-actions button`)
	p.waitJS(`document.querySelectorAll("dialog[open] [data-branch]").length > 0`)
	p.waitJS(`document.activeElement === [...document.querySelectorAll("dialog[open] [data-branch]")].at(-1)`)
	if n := p.count("dialog[open] [data-branch]"); n != moves {
		t.Errorf("the rewind list has %d moves, the game took %d", n, moves)
	}
	p.dialogButton(`[data-branch="0"]`)
	p.waitJS(`!document.querySelector("dialog[open]") && document.querySelector(".kind-screen")?.dataset.status === "active"`)
	p.watchToasts()
	playStory(t, p, "")
	again := eval[[]string](p, `[...document.querySelectorAll(".badges li")].map((li) => li.textContent)`)
	if strings.Join(again, "|") != strings.Join(got, "|") {
		t.Fatalf("the same moves unlocked %q, first %q", again, got)
	}
	p.waitJS(`window.toastLog.length > 0`) // the ending's toast
	if told := eval[[]string](p, `window.toastLog.filter((t) => t === "Achievement unlocked")`); len(told) > 0 {
		t.Errorf("achievements the profile had were announced again: %d toasts", len(told))
	}
}

// TestOfflineFileIsOfferedBySite: the served library offers the single
// offline file for download, and what it links to is that file.
func TestOfflineFileIsOfferedBySite(t *testing.T) {
	t.Parallel()
	p := open(t)
	p.visit("")
	p.screen("library")
	if !eval[bool](p, `document.querySelector('[data-role="offline-download"]')?.hasAttribute("download") === true`) {
		t.Fatal("the library offers no offline file to download")
	}
	body := eval[string](p, `fetch(document.querySelector('[data-role="offline-download"]').href).then((r) => r.ok ? r.text() : "HTTP " + r.status)`)
	if !strings.Contains(body, "storyloomAssets") || !strings.Contains(body, `"offline":true`) {
		t.Fatalf("the offered file is not the offline file: %.200s", body)
	}
}

// TestExportNamesTheFileAndImportKeepsTheName: a downloaded save carries
// its slot's name, in the file and in the file's name (with no fraction of
// a second), and importing it gives the slot that name back.
func TestExportNamesTheFileAndImportKeepsTheName(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	firstChoice(t, p)
	// What the page hands the browser to download: the file's name and
	// content, taken from the link it clicks, which then downloads nothing
	// (the browser's download directory is shared by the tests running at
	// once).
	eval[bool](p, `(() => {
		const made = URL.createObjectURL, blobs = new Map();
		URL.createObjectURL = (b) => { const url = made(b); blobs.set(url, b); return url; };
		const click = HTMLAnchorElement.prototype.click;
		HTMLAnchorElement.prototype.click = function () {
			if (!this.download) return click.call(this);
			window.downloadName = this.download;
			blobs.get(this.href)?.text().then((t) => { window.downloadData = t; });
		};
		return true;
	})()`)
	p.quickSave("By the Lamp-room")
	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] .slot").length === 1`)
	p.dialogButton(`.slot [data-role="export"]`)
	p.waitJS(`typeof window.downloadData === "string"`)
	p.dialogButton(`.actions.end button`)
	if name := eval[string](p, `window.downloadName`); !regexp.MustCompile(`^storyloom-gannet-rock-by-the-lamp-room-\d{8}-\d{4}\.json$`).MatchString(name) {
		t.Errorf("the save file is named %q", name)
	}
	data := eval[string](p, `window.downloadData`)
	if !strings.Contains(data, `"name":"By the Lamp-room"`) {
		t.Errorf("the file does not carry the slot's name: %.120s", data)
	}
	renamed := filepath.Join(t.TempDir(), "download(3).json")
	if err := os.WriteFile(renamed, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	p.visit("")
	p.screen("library")
	p.do(chromedp.SetUploadFiles(chromedp.CSS(`.import input[type="file"]`), []string{renamed}))
	p.screen("play")
	names := eval[[]string](p, `storyloom.listSaves({}).then((r) => r.saves.map((s) => s.name))`)
	if len(names) != 2 || names[0] != "By the Lamp-room" || names[1] != "By the Lamp-room" {
		t.Errorf("after the import the saves are named %q", names)
	}
}
