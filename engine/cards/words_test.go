package cards_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/ai"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// wordsFile holds one action of every shape the game asks a player in
// (its type, and each question's slot, kind, zone and wording with the
// card names and numbers taken out), from seeded games of every format
// between AI players: the page's French wording of actions, prompts and
// options (web/test/cardwords.test.mjs) is checked against every one.
// Regenerate with
//
//	go test ./engine/cards -run ActionShapes -update
const wordsFile = "testdata/actions.json"

// TestActionShapes plays seeded games of every format, the pilot against
// random players, and pins one action of every shape they were offered.
// Every input is also applied to the game restored from the state saved
// before it, which must go on byte for byte as the uninterrupted game.
func TestActionShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: the native run checks the file")
	}
	cat, precons := shipped(t)
	cards := rules.NewCards(cat.Cards())
	var names []string
	for _, d := range cat.Cards() {
		names = append(names, regexp.QuoteMeta(d.Name))
	}
	// Longest first, so that "Forest" does not take a bite out of a longer name.
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	name := regexp.MustCompile(strings.Join(names, "|"))
	number, mana := regexp.MustCompile(`\d+`), regexp.MustCompile(`\{[WUBRGC]\}`)
	bare := func(s string) string {
		return mana.ReplaceAllString(number.ReplaceAllString(name.ReplaceAllString(s, "#"), "N"), "{M}")
	}
	shape := func(a rooms.Action) string {
		parts := []string{a.Type, bare(a.Label)}
		slot := func(s string) string { return strings.TrimRight(strings.SplitN(s, ":", 2)[0], "0123456789") }
		for _, r := range a.Requirements {
			parts = append(parts, slot(r.Slot)+" "+bare(r.Prompt))
		}
		for _, p := range a.Prompts {
			parts = append(parts, slot(p.Slot)+" "+string(p.Kind)+" "+p.Zone+" "+bare(p.Prompt))
			if p.Slot != "mode" && p.Kind == rooms.PromptOption && len(p.Options) < 10 {
				for _, o := range p.Options {
					parts = append(parts, o.ID+"="+bare(o.Label))
				}
			}
		}
		return strings.Join(parts, "|")
	}
	seen := map[string]bool{}
	var kept []rooms.Action
	for _, tc := range []struct {
		format string
		seats  int
	}{{deck.StarterDuel, 2}, {deck.FreeForAll, 3}, {deck.Commander, 2}} {
		f, _ := deck.FormatByID(tc.format)
		decks := deck.For(precons, f, cat)
		for game := range 8 {
			seed := fmt.Sprintf("words-%s-%d", tc.format, game)
			var ps []rooms.Player
			kinds := make([]string, tc.seats)
			for i := range kinds {
				kinds[i] = ai.Random
				if i == game%tc.seats {
					kinds[i] = ai.Pilot
				}
				d := decks[(game+i)%len(decks)]
				ps = append(ps, rooms.Player{Seat: i, ID: rooms.PlayerID(i), AI: kinds[i], Deck: d.Cards, Commander: d.Commander})
			}
			g, err := rules.Setup(cards, rules.Config{Format: f.ID, Life: f.Life, Commander: f.RequiresCommander}, seed, ps)
			if err != nil {
				t.Fatal(err)
			}
			seq := make([]int, tc.seats)
			for input := 0; input < 3000 && g.Result() == nil; input++ {
				seat := -1
				var acts []rooms.Action
				for s := range kinds {
					if acts = g.Actions(s); len(acts) > 0 {
						seat = s
						break
					}
				}
				if seat < 0 {
					t.Fatalf("%s: nobody is asked anything", seed)
				}
				for _, a := range acts {
					if k := shape(a); !seen[k] {
						seen[k] = true
						kept = append(kept, trimmed(a))
					}
				}
				h := rng.For(seed, rng.Agent(rooms.PlayerID(seat), seq[seat]))
				seq[seat]++
				saved, err := g.State()
				if err != nil {
					t.Fatal(err)
				}
				c := ai.Choose(kinds[seat], g, seat, acts, h)
				if _, err := g.Apply(seat, c); err != nil {
					t.Fatalf("%s: %v", seed, err)
				}
				restored(t, cards, saved, g, seat, c)
			}
		}
	}
	out, err := json.MarshalIndent(kept, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, wordsFile, append(out, '\n'))
}

// trimmed is a without what the page's words do not read: its token, and
// every requirement's candidates but the first.
func trimmed(a rooms.Action) rooms.Action {
	a.Token = ""
	a.Requirements = slices.Clone(a.Requirements)
	for i := range a.Requirements {
		a.Requirements[i].Candidates = a.Requirements[i].Candidates[:min(1, len(a.Requirements[i].Candidates))]
	}
	return a
}

// restored loads the state saved before g took seat's choice c, applies
// c to it and fails unless the restored game goes on to g's state.
func restored(t *testing.T, cards rules.Cards, saved []byte, g *rules.Game, seat int, c rooms.Choice) {
	t.Helper()
	r, err := rules.Load(cards, saved)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if _, err := r.Apply(seat, c); err != nil {
		t.Fatalf("the restored game refuses seat %d's %+v: %v", seat, c, err)
	}
	want, _ := g.State()
	if got, _ := r.State(); string(got) != string(want) {
		t.Fatalf("the restored game went on to\n%s\nnot\n%s", got, want)
	}
}
