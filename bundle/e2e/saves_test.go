package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sceneText is the story scene's text as shown.
func sceneText(p *page) string { return p.text(".scene-text") }

// firstChoice takes the first available choice and waits for the scene.
func firstChoice(t *testing.T, p *page) {
	t.Helper()
	idx := eval[int](p, `[...document.querySelectorAll("[data-numbered]")].findIndex(b => !b.disabled)`)
	if idx < 0 {
		t.Fatalf("no available choice: %s", p.text("main"))
	}
	p.act(fmt.Sprintf(".choices li:nth-child(%d) button", idx+1))
}

// startStory opens the library and starts campaign.
func startStory(t *testing.T, p *page, campaign string) {
	t.Helper()
	p.visit("")
	p.screen("library")
	p.click(fmt.Sprintf(`[data-start=%q]`, campaign))
	p.screen("play")
	p.waitJS(`document.querySelector(".scene-text")?.textContent.length > 0`)
}

// quickSave saves the game from the play screen's quick-save dialog, under
// name (the dialog's suggestion when empty), and waits until the save is
// in the store.
func (p *page) quickSave(name string) {
	p.t.Helper()
	before := eval[int](p, `storyloom.listSaves({}).then((r) => r.saves.length)`)
	p.click(`[data-role="quick-save"]`)
	p.waitJS(`document.querySelector("dialog[open] input") !== null`)
	if name != "" {
		p.do(chromedp.SetValue(chromedp.CSS("dialog[open] input"), name))
	}
	p.dialogButton(`button[type="submit"]`)
	p.waitJS(`document.querySelector("dialog[open]") === null`)
	// The dialog closes as the page starts writing the save: wait until
	// it is written, so that what follows reads it (on a busy machine a
	// test once read the store before the write and found no save). The
	// evaluation's bound fails the test if it never is.
	eval[bool](p, fmt.Sprintf(`new Promise((resolve) => {
		const check = () => storyloom.listSaves({}).then((r) => r.saves.length > %d ? resolve(true) : setTimeout(check, 20));
		check();
	})`, before))
}

// dialogButton clicks sel inside the open dialog.
func (p *page) dialogButton(sel string) {
	p.t.Helper()
	p.waitJS(`document.querySelector("dialog[open]") !== null`)
	p.click("dialog[open] " + sel)
}

func TestReloadResumesTheAutosave(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	for i := 0; i < 3; i++ {
		firstChoice(t, p)
	}
	before := sceneText(p)
	url := eval[string](p, `location.href`)
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if got := sceneText(p); got != before {
		t.Fatalf("after a reload the scene is\n%q\nwant\n%q", got, before)
	}
	if got := eval[string](p, `location.href`); got != url {
		t.Errorf("after a reload the address is %s, want %s", got, url)
	}
	// The library's Continue resumes the same game.
	p.visit("")
	p.screen("library")
	p.click(`[data-continue="gannet-rock"]`)
	p.screen("play")
	if got := sceneText(p); got != before {
		t.Fatalf("Continue shows\n%q\nwant\n%q", got, before)
	}
}

func TestSaveSlotLoadAndDelete(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	firstChoice(t, p)
	firstChoice(t, p)
	saved := sceneText(p)

	p.quickSave("Before the stair")

	firstChoice(t, p)
	firstChoice(t, p)
	if sceneText(p) == saved {
		t.Fatal("playing on did not change the scene")
	}

	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] .slot").length === 1`)
	if got := p.text("dialog[open] .slot strong"); got != "Before the stair" {
		t.Errorf("the slot is named %q", got)
	}
	p.shot("saves-dialog")
	p.axe("saves dialog")
	p.dialogButton(`.slot [data-role="load"]`)
	p.screen("play")
	p.waitJS(fmt.Sprintf(`document.querySelector(".scene-text")?.textContent === %q`, saved))

	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] .slot").length === 1`)
	p.dialogButton(`.slot [data-role="delete"]`)
	// The confirmation: cancel first, and the save stays.
	p.waitJS(`document.querySelectorAll("dialog[open]").length === 2`)
	p.shot("delete-confirmation")
	p.click(`dialog[open] [data-confirm="no"]`)
	p.waitJS(`document.querySelectorAll("dialog[open]").length === 1 && document.querySelectorAll("dialog[open] .slot").length === 1`)
	p.dialogButton(`.slot [data-role="delete"]`)
	p.waitJS(`document.querySelectorAll("dialog[open]").length === 2`)
	p.click(`dialog[open] [data-confirm="yes"]`)
	p.waitJS(`document.querySelectorAll("dialog[open]").length === 1 && document.querySelectorAll("dialog[open] .slot").length === 0`)
	if n := eval[int](p, `storyloom.listSaves({}).then(r => r.saves.length)`); n != 0 {
		t.Errorf("%d saves left after the delete", n)
	}
}

func TestBranchFromAnEarlierAction(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	var scenes []string
	for i := 0; i < 4; i++ {
		scenes = append(scenes, sceneText(p))
		firstChoice(t, p)
	}
	first := eval[string](p, `location.hash`)
	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] [data-branch]").length === 4`)
	p.shot("rewind")
	p.dialogButton(`[data-branch="2"]`)
	p.waitJS(fmt.Sprintf(`location.hash !== %q && document.querySelector(".scene-text")?.textContent === %q`, first, scenes[2]))
	// The original game is untouched.
	p.visit(first)
	p.screen("play")
	if got := sceneText(p); got == scenes[2] {
		t.Error("the branch changed the original game")
	}
}

// download makes the browser save downloads into dir.
// waitFile waits for one finished file in dir and returns its path.
func waitFile(t *testing.T, dir string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			info, err := e.Info()
			if err == nil && !strings.HasSuffix(e.Name(), ".crdownload") && info.Size() > 0 {
				return filepath.Join(dir, e.Name())
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no download arrived in %s", dir)
	return ""
}

func TestExportImportAndATamperedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := openDownloading(t, dir)
	startStory(t, p, "gannet-rock")
	firstChoice(t, p)
	firstChoice(t, p)
	saved := sceneText(p)
	p.quickSave("")
	p.click(`[data-role="open-saves"]`)
	p.waitJS(`document.querySelectorAll("dialog[open] .slot").length === 1`)
	p.dialogButton(`.slot [data-role="export"]`)
	file := waitFile(t, dir)
	p.dialogButton(`.actions.end button`)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"storyloom.save/2"`) {
		t.Fatalf("the download is not a save file: %.200s", data)
	}

	// A tampered copy is refused, with a message, and nothing changes.
	tampered := filepath.Join(t.TempDir(), "tampered.json")
	bad := regexp.MustCompile(`"turn":\d+`).ReplaceAllString(string(data), `"turn":42`)
	if bad == string(data) {
		t.Fatalf("found nothing to tamper with in %.300s", data)
	}
	if err := os.WriteFile(tampered, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	before := eval[int](p, `storyloom.listSaves({}).then(r => r.saves.length)`)
	p.visit("")
	p.screen("library")
	p.do(chromedp.SetUploadFiles(chromedp.CSS(`.import input[type="file"]`), []string{tampered}))
	p.waitJS(`document.querySelector(".import .note.error")?.textContent.includes("refused")`)
	p.shot("import-refused")
	if after := eval[int](p, `storyloom.listSaves({}).then(r => r.saves.length)`); after != before {
		t.Errorf("a refused import changed the saves: %d → %d", before, after)
	}

	// The real file imports and plays on from where it was saved.
	p.do(chromedp.SetUploadFiles(chromedp.CSS(`.import input[type="file"]`), []string{file}))
	p.screen("play")
	p.waitJS(fmt.Sprintf(`document.querySelector(".scene-text")?.textContent === %q`, saved))
	firstChoice(t, p)
}

func TestLanguageSwitchMidGame(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	firstChoice(t, p)
	english := sceneText(p)
	count := eval[int](p, `storyloom.getHistory({sessionId: location.hash.split("/")[2]}).then(r => r.entries.length)`)
	eval[bool](p, `(() => { const s = document.querySelector('[data-role="locale"]'); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitJS(fmt.Sprintf(`document.querySelector(".scene-text")?.textContent !== %q && document.documentElement.lang === "fr"`, english))
	french := sceneText(p)
	p.shot("story-french")
	if after := eval[int](p, `storyloom.getHistory({sessionId: location.hash.split("/")[2]}).then(r => r.entries.length)`); after != count {
		t.Errorf("switching language changed the game's log: %d → %d", count, after)
	}
	if !strings.Contains(p.text("#game-title"), "Gardienne") {
		t.Errorf("the title did not switch: %q", p.text("#game-title"))
	}
	// The choice still plays, in French, and a reload keeps the language.
	firstChoice(t, p)
	p.do(chromedp.Reload())
	p.ready()
	p.screen("play")
	if eval[string](p, `document.documentElement.lang`) != "fr" {
		t.Error("the language did not survive a reload")
	}
	eval[bool](p, `(() => { const s = document.querySelector('[data-role="locale"]'); s.value = "en"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitJS(`document.documentElement.lang === "en"`)
	_ = french
}

func TestLockedChoiceShowsItsReason(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "the-marrow-affair")
	for i := 0; i < 60; i++ {
		if p.count(".choices li.locked") > 0 {
			reason := p.text(".choices li.locked .reason")
			if len(strings.TrimSpace(strings.TrimPrefix(reason, "🔒"))) < 5 {
				t.Fatalf("a locked choice's reason reads %q", reason)
			}
			if !eval[bool](p, `document.querySelector(".choices li.locked button").disabled`) {
				t.Fatal("the locked choice is not disabled")
			}
			desc := eval[string](p, `document.getElementById(document.querySelector(".choices li.locked button").getAttribute("aria-describedby"))?.textContent ?? ""`)
			if desc != reason {
				t.Errorf("the locked button is described by %q, want its reason %q", desc, reason)
			}
			p.shot("story-locked-choice")
			return
		}
		if eval[string](p, `document.querySelector(".kind-screen").dataset.status`) == "ended" {
			break
		}
		firstChoice(t, p)
	}
	t.Fatal("no locked choice was shown")
}
