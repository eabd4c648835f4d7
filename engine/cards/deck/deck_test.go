package deck_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// starter builds the shipped catalog.
func starter(t testing.TB) *card.Catalog {
	t.Helper()
	c, _, err := cardgame.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ids repeats each "n id" pair: ids("4 ember_lash", "36 mountain").
func ids(pairs ...string) []string {
	var out []string
	for _, p := range pairs {
		var n int
		var id string
		for i, f := range strings.Fields(p) {
			if i == 0 {
				for _, r := range f {
					n = n*10 + int(r-'0')
				}
			} else {
				id = f
			}
		}
		out = append(out, slices.Repeat([]string{id}, n)...)
	}
	return out
}

func TestCheck(t *testing.T) {
	c := starter(t)
	duel, _ := deck.FormatByID(deck.StarterDuel)
	ffa, _ := deck.FormatByID(deck.FreeForAll)
	cmd, _ := deck.FormatByID(deck.Commander)
	brakka := "brakka_wildfire_chieftain"
	tests := []struct {
		name      string
		f         deck.Format
		cards     []string
		commander string
		code      string // "" for a legal deck
		card      string
		colors    []string
	}{
		{"legal duel", duel, ids("4 ember_lash", "4 grovetender", "32 mountain"), "", "", "", []string{"R", "G"}},
		{"basics exempt", ffa, ids("40 forest"), "", "", "", []string{"G"}},
		{"larger duel deck", duel, ids("4 ember_lash", "56 mountain"), "", "", "", []string{"R"}},
		{"unknown card", duel, ids("4 lightning_thing", "36 mountain"), "", rooms.CodeUnknownCard, "lightning_thing", nil},
		{"below minimum", duel, ids("4 ember_lash", "35 mountain"), "", rooms.CodeBelowMinimum, "", nil},
		{"copy limit", duel, ids("5 ember_lash", "35 mountain"), "", rooms.CodeCopyLimit, "ember_lash", nil},
		{"copy limit nonbasic land", duel, ids("5 cinderbog", "35 mountain"), "", rooms.CodeCopyLimit, "cinderbog", nil},
		{"commander not allowed", duel, ids("4 ember_lash", "36 mountain"), "ember_lash", deck.CodeCommanderNotAllowed, "ember_lash", nil},
		{"legal commander", cmd, ids("1 "+brakka, "1 ember_lash", "1 grovetender", "1 prism_lens", "18 mountain", "18 forest"), brakka, "", "", []string{"R", "G"}},
		{"missing commander", cmd, ids("1 "+brakka, "39 mountain"), "", rooms.CodeMissingCommander, "", nil},
		{"commander not in deck", cmd, ids("1 ember_lash", "39 mountain"), brakka, rooms.CodeCommanderNotInDeck, brakka, nil},
		{"commander not legendary creature", cmd, ids("1 ember_lash", "39 mountain"), "ember_lash", rooms.CodeCommanderNotLegendaryCreature, "ember_lash", nil},
		{"planeswalker commander", cmd, ids("1 korrin_ember_sage", "39 mountain"), "korrin_ember_sage", rooms.CodeCommanderNotLegendaryCreature, "korrin_ember_sage", nil},
		{"unknown commander", cmd, ids("40 mountain"), "nobody", rooms.CodeUnknownCard, "nobody", nil},
		{"commander above maximum", cmd, ids("1 "+brakka, "40 mountain"), brakka, rooms.CodeAboveMaximum, "", nil},
		{"commander below minimum", cmd, ids("1 "+brakka, "38 mountain"), brakka, rooms.CodeBelowMinimum, "", nil},
		{"singleton", cmd, ids("1 "+brakka, "2 ember_lash", "37 mountain"), brakka, rooms.CodeCopyLimit, "ember_lash", nil},
		{"out of identity", cmd, ids("1 "+brakka, "1 unravel", "38 mountain"), brakka, rooms.CodeOutOfIdentity, "unravel", nil},
		{"basic land out of identity", cmd, ids("1 "+brakka, "1 island", "38 mountain"), brakka, rooms.CodeOutOfIdentity, "island", nil},
		{"dual land out of identity", cmd, ids("1 "+brakka, "1 cinderbog", "38 mountain"), brakka, rooms.CodeOutOfIdentity, "cinderbog", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			colors, rej := tt.f.Check(c, tt.cards, tt.commander)
			if tt.code == "" {
				if rej != nil {
					t.Fatalf("refused: %v", rej)
				}
				if !slices.Equal(colors, tt.colors) {
					t.Errorf("colours %v, want %v", colors, tt.colors)
				}
				return
			}
			if rej == nil {
				t.Fatalf("accepted, want %s", tt.code)
			}
			if rej.Code != tt.code || rej.Card != tt.card || rej.Reason == "" {
				t.Errorf("got %+v, want code %s card %q", rej, tt.code, tt.card)
			}
		})
	}
}

func TestCheckReason(t *testing.T) {
	c := starter(t)
	duel, _ := deck.FormatByID(deck.StarterDuel)
	_, rej := duel.Check(c, ids("5 ember_lash", "35 mountain"), "")
	if want := "Ember Lash appears 5 times, above the 4-copy limit"; rej == nil || rej.Reason != want {
		t.Errorf("got %v, want %q", rej, want)
	}
}

func TestRulesRegister(t *testing.T) {
	c := starter(t)
	for _, f := range deck.Formats() {
		r := f.Rules(c)
		rf := rooms.Format{ID: f.ID, MinSeats: f.MinSeats, MaxSeats: f.MaxSeats, Deck: r}
		if _, err := rooms.NewRegistry(fixedFormat{rf}); err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if len(r.Cards) != len(c.Cards()) || r.MinDeckSize != 40 || r.RequiresCommander != (f.ID == deck.Commander) {
			t.Errorf("%s: rules %+v", f.ID, r)
		}
		if _, rej := r.Check(ids("3 ember_lash", "1 nope"), ""); rej == nil || rej.Code != rooms.CodeUnknownCard || rej.Card != "nope" {
			t.Errorf("%s: Check of an unknown card: %v", f.ID, rej)
		}
	}
	if _, ok := deck.FormatByID("vintage"); ok {
		t.Error("unknown format found")
	}
}

// fixedFormat is a rooms.Game that only describes itself.
type fixedFormat struct{ f rooms.Format }

func (g fixedFormat) Format() rooms.Format                               { return g.f }
func (fixedFormat) Setup(string, []rooms.Player) (rooms.Position, error) { return nil, nil }
func (fixedFormat) Load([]byte) (rooms.Position, error)                  { return nil, nil }

func TestParseList(t *testing.T) {
	c := starter(t)
	l, err := deck.ParseList("# burn\n4 Ember Lash\r\n2x cinder imp\n\n// lands\nMountain\n  33   MOUNTAIN  \n", c)
	if err != nil {
		t.Fatal(err)
	}
	if want := ids("4 ember_lash", "2 cinder_imp", "34 mountain"); !slices.Equal(l.Cards, want) || l.Commander != "" {
		t.Errorf("got %v %q", l.Cards, l.Commander)
	}
	l, err = deck.ParseList("Commander: Brakka, Wildfire Chieftain\n39 Forest", c)
	if err != nil || l.Commander != "brakka_wildfire_chieftain" || len(l.Cards) != 40 || l.Cards[0] != l.Commander {
		t.Errorf("commander list: %+v %v", l, err)
	}
	_, err = deck.ParseList("4 Ember Lash\n4 Emberlash\n0 Forest\n100 Forest\nCommander: Forest\ncommander: Island\nfour Forest", c)
	var le deck.ListError
	if err == nil {
		t.Fatal("accepted")
	}
	le = err.(deck.ListError)
	var lines []int
	for _, e := range le {
		lines = append(lines, e.Line)
	}
	if want := []int{2, 3, 4, 6, 7}; !slices.Equal(lines, want) {
		t.Errorf("bad lines %v, want %v: %v", lines, want, err)
	}
	if got := le[0].Error(); got != `line 2: "4 Emberlash": no card is named "Emberlash"` {
		t.Errorf("message %q", got)
	}
	if _, err := deck.ParseList(strings.Repeat("Forest\n", deck.MaxListLines+1), c); err == nil {
		t.Error("over-long list accepted")
	}
}

func TestPrecons(t *testing.T) {
	c := starter(t)
	data, err := fs.ReadFile(cardgame.FS, "decks.json")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := deck.LoadPrecons(data, c)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, p := range ps {
		count[p.Format]++
		lands := 0
		var curve [8]int
		for _, id := range p.Cards {
			d, _ := c.Card(id)
			if d.Is("land") {
				lands++
				continue
			}
			mc, _ := d.ManaCost()
			curve[min(mc.ManaValue(0), 7)]++
		}
		if len(p.Cards) != 40 || lands < 16 || lands > 18 {
			t.Errorf("%s: %d cards, %d lands", p.ID, len(p.Cards), lands)
		}
		if curve[1]+curve[2]+curve[3] < 13 || curve[5]+curve[6]+curve[7] > 5 {
			t.Errorf("%s: mana curve %v leans too high", p.ID, curve)
		}
		if p.Description == "" || p.Name == "" {
			t.Errorf("%s: no name or description", p.ID)
		}
	}
	if count[deck.StarterDuel] < 6 || count[deck.Commander] < 2 {
		t.Errorf("decks per format: %v", count)
	}
	ffa, _ := deck.FormatByID(deck.FreeForAll)
	if got := len(deck.For(ps, ffa, c)); got != count[deck.StarterDuel] {
		t.Errorf("%d decks legal in free-for-all, want %d", got, count[deck.StarterDuel])
	}
	cmd, _ := deck.FormatByID(deck.Commander)
	for _, p := range deck.For(ps, cmd, c) {
		if p.Format != deck.Commander {
			t.Errorf("%s is legal in commander", p.ID)
		}
	}
}

func TestLoadPreconsRefuses(t *testing.T) {
	c := starter(t)
	tests := []struct{ name, data, want string }{
		{"unknown key", `{"decks":[{"id":"a","name":"A","format":"starter-1v1","description":"","cards":[],"extra":1}]}`, "unknown field"},
		{"unknown format", `{"decks":[{"id":"a","name":"A","format":"vintage","description":"","cards":["40 Forest"]}]}`, `unknown format "vintage"`},
		{"bad line", `{"decks":[{"id":"a","name":"A","format":"starter-1v1","description":"","cards":["40 Forrest"]}]}`, `deck "a": deck: line 1`},
		{"illegal", `{"decks":[{"id":"a","name":"A","format":"starter-1v1","description":"","cards":["39 Forest"]}]}`, "below_minimum"},
		{"duplicate id", `{"decks":[{"id":"a","name":"A","format":"starter-1v1","description":"","cards":["40 Forest"]},{"id":"a","name":"B","format":"starter-1v1","description":"","cards":["40 Forest"]}]}`, "used twice"},
		{"unknown commander", `{"decks":[{"id":"a","name":"A","format":"commander","description":"","commander":"Nobody","cards":["40 Forest"]}]}`, `no card is named "Nobody"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := deck.LoadPrecons([]byte(tt.data), c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func FuzzParseList(f *testing.F) {
	c := starter(f)
	f.Add("4 Ember Lash\n36 Mountain")
	f.Add("Commander: Vesk, the Hollow Archivist\n2x island\n# note\n")
	f.Add("99 forest\n0 x\n\r\n//")
	f.Fuzz(func(t *testing.T, text string) {
		l, err := deck.ParseList(text, c)
		if err != nil {
			if len(err.(deck.ListError)) == 0 {
				t.Fatal("empty ListError")
			}
			return
		}
		for _, id := range l.Cards {
			if _, ok := c.Card(id); !ok {
				t.Fatalf("unknown id %q in a parsed list", id)
			}
		}
		if l.Commander != "" && !slices.Contains(l.Cards, l.Commander) {
			t.Fatalf("commander %q not in the list", l.Commander)
		}
	})
}
