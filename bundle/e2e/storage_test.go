package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// TestStorageFailureIsToldAndPlayGoesOn takes IndexedDB away mid-game (the
// browser clears the site's data, which force-closes the connection, as
// clearing site data or a storage eviction does): the next writes fail,
// the page says so plainly and offers a save file, the game goes on in
// memory, and the file it offers holds the game.
func TestStorageFailureIsToldAndPlayGoesOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := openDownloading(t, dir, "storyloom: storage:")
	startStory(t, p, "gannet-rock")
	firstChoice(t, p)
	origin := strings.TrimSuffix(p.base, "/")
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "indexeddb"})
		return err
	}))
	firstChoice(t, p)
	p.waitJS(`!document.getElementById("storage-banner").hidden`)
	msg := p.text("#storage-message")
	if !strings.Contains(msg, "download a save file") {
		t.Errorf("the banner says %q", msg)
	}
	p.shot("storage-full")
	// The game goes on.
	before := sceneText(p)
	firstChoice(t, p)
	if sceneText(p) == before {
		t.Error("the game stopped when storage failed")
	}
	p.click("#storage-download")
	file := waitFile(t, dir)
	t.Logf("rescued the game as %s", file)
}
