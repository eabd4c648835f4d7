package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestCardTableShowsEveryField hands the rooms page the card game's
// maximal view (engine/cards/testdata/wire-curated/game-maximal.json,
// every GameView field set) as if it came off the WebSocket, and checks
// that the table shows each field's values: the players' life, counts,
// counters and flags, every card of the battlefield (with its flags),
// the hand, the stack with its targets, the graveyards, exile and command
// zones, the emblems, the mana pool, the step, commander damage, tax and
// identity, the log, the steps passed for the seat, undo and the result.
// The cards' names come from the view itself; the words around them are
// the page's.
func TestCardTableShowsEveryField(t *testing.T) {
	needBrowser(t)
	raw := maximalView(t)
	type face struct {
		Name string `json:"name"`
	}
	var v struct {
		MyHand      []face `json:"my_hand"`
		Battlefield []struct {
			Card face `json:"card"`
		} `json:"battlefield"`
		Stack []struct {
			Card        *face  `json:"card"`
			Description string `json:"description"`
		} `json:"stack"`
		Graveyards, Exile, Command []struct {
			Cards []face `json:"cards"`
		}
		Emblems []struct {
			Abilities []string `json:"abilities"`
		} `json:"emblems"`
		Me struct {
			Life        int `json:"life"`
			LibrarySize int `json:"library_size"`
		} `json:"me"`
		Opponents []struct {
			Life          int `json:"life"`
			HandSize      int `json:"hand_size"`
			LibrarySize   int `json:"library_size"`
			GraveyardSize int `json:"graveyard_size"`
		} `json:"opponents"`
		CommanderDamage []struct {
			Amount int `json:"amount"`
		} `json:"commander_damage"`
		CommanderIdentity []struct {
			Name string `json:"name"`
		} `json:"commander_identity"`
		Undo struct {
			Available int `json:"available"`
			Limit     int `json:"limit"`
		} `json:"undo"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	want := []string{
		fmt.Sprintf("Life %d", v.Me.Life), fmt.Sprintf("Library %d", v.Me.LibrarySize), "(no maximum)", "3× poison", "eliminated",
		"Played a land this turn", "No maximum hand size", "disconnected", "AI: Pilot", "Mana pool: {R} {G}", "▶ Blockers",
		"tapped", "attacking Korrin, Ember Sage", "1 damage", "2× +1/+1", "attached to Brakka, Wildfire Chieftain", "vigilance (granted)",
		"summoning sick", "skips next untap", "blocking Brakka, Wildfire Chieftain", "owned by Pilot", "token", "colour Blue",
		"named Ember Lash", "→ Grove Herald", "(X=2)", "cast 2 times, tax {4}", "identity RG", "casts Ember Lash",
		"Passed for you: End step (turn 11), Upkeep (turn 12).", fmt.Sprintf("Undo (%d of %d)", v.Undo.Available, v.Undo.Limit), "You won",
	}
	for _, o := range v.Opponents {
		want = append(want, fmt.Sprintf("Life %d", o.Life), fmt.Sprintf("Hand %d", o.HandSize), fmt.Sprintf("Library %d", o.LibrarySize), fmt.Sprintf("Graveyard %d", o.GraveyardSize))
	}
	for _, d := range v.CommanderDamage {
		want = append(want, fmt.Sprintf("dealt %d combat damage to", d.Amount))
	}
	for _, c := range v.CommanderIdentity {
		want = append(want, c.Name)
	}
	for _, c := range v.MyHand {
		want = append(want, c.Name)
	}
	for _, p := range v.Battlefield {
		want = append(want, p.Card.Name)
	}
	for _, s := range v.Stack {
		if s.Card != nil {
			want = append(want, s.Card.Name)
		} else {
			want = append(want, s.Description)
		}
	}
	for _, zones := range [][]struct {
		Cards []face `json:"cards"`
	}{v.Graveyards, v.Exile, v.Command} {
		for _, z := range zones {
			for _, c := range z.Cards {
				want = append(want, c.Name)
			}
		}
	}
	for _, e := range v.Emblems {
		want = append(want, e.Abilities...)
	}

	p := maximalTable(t, raw)
	text := Eval[string](p, `document.getElementById("card-table").textContent.replace(/\s+/g, " ")`)
	for _, w := range want {
		if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("the table does not show %q", w)
		}
	}
	t.Logf("%d values of the maximal view found on the table", len(want))
	Screenshot(t, p.Ctx, "maximal")
}

// maximalView is the card game's curated maximal view, every GameView
// field set.
func maximalView(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("../../engine/cards/testdata/wire-curated/game-maximal.json")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// maximalTable opens the rooms page in the browser's own window (800 px
// wide, headless) with a stand-in WebSocket (fakeSocket) and hands it
// the view raw as if it came off the wire; it returns once the table is
// drawn.
func maximalTable(t *testing.T, raw []byte) *Page {
	t.Helper()
	p := launch(t).NewPage(t)
	p.Do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fakeSocket})
		return err
	}), chromedp.Navigate(shared.URL()+"rooms/"))
	ctx, cancel := context.WithTimeout(p.Ctx, time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.storyloomSocket?.readyState === 1 && window.storyloomSocket.onmessage != null`, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatal(err)
	}
	frame, _ := json.Marshal(string(raw))
	if !Eval[bool](p, fmt.Sprintf(`(window.storyloomSocket.onmessage({ data: %s }), !document.getElementById("card-table").hidden)`, frame)) {
		t.Fatal("the table is not drawn")
	}
	return p
}

// TestCardTableNarrows draws the maximal view in a window 800 px wide,
// scrolls through the whole table (so that every part of it has been laid
// out at that width), back to the top, and narrows the screen to a phone's
// 390×844: the page must be no wider than the screen. The table's side
// column is laid out only while in view, and once kept the width it had
// when last seen, which held a phone's page 725 px wide.
func TestCardTableNarrows(t *testing.T) {
	needBrowser(t)
	p := maximalTable(t, maximalView(t))
	frames := `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`
	Eval[bool](p, `(scrollTo(0, document.documentElement.scrollHeight), `+frames+`)`)
	Eval[bool](p, `(scrollTo(0, 0), `+frames+`)`)
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	Eval[bool](p, frames)
	if w := Eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("after the window narrowed to a phone's the page is %d px wide: side cards %s px", w,
			Eval[string](p, `[...document.querySelectorAll(".ct-side > .card")].map((c) => Math.round(c.getBoundingClientRect().width)).join(", ")`))
	}
}
