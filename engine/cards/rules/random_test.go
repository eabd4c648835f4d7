package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/canon/canontest"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// randomAnswer fills a's slots with a random legal-looking answer: every
// mandatory slot, some optional ones, the suggested payment.
func randomAnswer(h *rng.Handle, a rooms.Action) map[string][]string {
	ans := map[string][]string{}
	pick := func(cands []string, n int) []string {
		c := append([]string(nil), cands...)
		for i := len(c) - 1; i > 0; i-- {
			j := h.Intn(i + 1)
			c[i], c[j] = c[j], c[i]
		}
		return c[:n]
	}
	for _, r := range a.Requirements {
		if len(r.Candidates) == 0 || (r.Optional && h.Intn(2) == 0) {
			continue
		}
		ans[r.Slot] = pick(r.Candidates, 1+h.Intn(min(max(r.Count, 1), len(r.Candidates))))
	}
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptOption:
			ans[p.Slot] = []string{p.Options[h.Intn(len(p.Options))].ID}
		case rooms.PromptNumber:
			ans[p.Slot] = []string{strconv.Itoa(*p.Min + h.Intn(*p.Max-*p.Min+1))}
		case rooms.PromptOrder:
			ans[p.Slot] = pick(p.Items, len(p.Items))
		case rooms.PromptPayMana:
			if p.Min == nil && len(p.ManaCandidates) > 0 {
				ans[p.Slot] = []string{p.ManaCandidates[0].ID}
			}
		default:
			lo := p.Least()
			ans[p.Slot] = pick(p.Candidates, lo+h.Intn(p.Count-lo+1))
		}
	}
	return ans
}

// randomInput makes the lowest seat asked anything take a random action
// with a random answer (conceding rarely), falling back on its timeout
// default when the answer is refused; the default must be accepted. It
// returns the seat, the accepted choice and its events.
func randomInput(g *Game, h *rng.Handle) (int, rooms.Choice, []rooms.Event, error) {
	for seat := range g.st.Players {
		acts := g.Actions(seat)
		if len(acts) == 0 {
			continue
		}
		a := acts[h.Intn(len(acts))]
		if a.Type == "concede" && h.Intn(400) != 0 {
			a = acts[0]
		}
		c := rooms.Choice{ActionID: a.ID, Targets: randomAnswer(h, a)}
		if evs, err := g.Apply(seat, c); err == nil {
			return seat, c, evs, nil
		}
		c, ok := g.Timeout(seat)
		if !ok {
			return seat, c, nil, fmt.Errorf("no timeout default for seat %d", seat)
		}
		evs, err := g.Apply(seat, c)
		if err != nil {
			return seat, c, nil, fmt.Errorf("the default %+v was refused: %v", c, err)
		}
		return seat, c, evs, nil
	}
	return -1, rooms.Choice{}, nil, fmt.Errorf("nobody is asked anything; decision %+v", g.st.Dec)
}

// playRandom plays one game of the inline cards' test deck with random
// legal actions (see playSeats) and returns the number of inputs applied.
func playRandom(t testing.TB, cards Cards, seed string, seats int, commander, watch bool) (*Game, int) {
	return playSeats(t, cards, randomConfig(commander), seed, players(t, cards, seats, commander), watch)
}

// randomConfig is the configuration of a random test game.
func randomConfig(commander bool) Config {
	if commander {
		return Config{Format: "commander", Life: 30, Commander: true}
	}
	return Config{Format: "test", Life: 20}
}

// playSeats plays one game of the seated players to its end with random
// answers, as playInputs says.
func playSeats(t testing.TB, cards Cards, cfg Config, seed string, ps []rooms.Player, watch bool) (*Game, int) {
	g, err := Setup(cards, cfg, seed, ps)
	if err != nil {
		t.Fatal(err)
	}
	g, n := playInputs(t, g, seed, 30000, watch)
	if g.Result() == nil {
		t.Fatalf("seed %s: the game did not end", seed)
	}
	return g, n
}

// playInputs applies up to limit random inputs to g (falling back on the
// timeout default when one is refused), stopping at the game's result,
// and returns the game and the number of inputs applied. The game is
// played twice in lockstep: g uninterrupted, and a copy restored from the
// saved bytes before every input (restoreStep), which must continue byte
// for byte as g does. Every sixteenth input checkPrivacy checks the
// views of both and the encoders against encoding/json; with watch, the
// views are scanned for leaks after every input too.
func playInputs(t testing.TB, g *Game, seed string, limit int, watch bool) (*Game, int) {
	h := rng.For(seed, rng.System("test", 0))
	saved, err := g.State()
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < limit; step++ {
		if g.Result() != nil {
			return g, step
		}
		seat, c, evs, err := randomInput(g, h)
		if err != nil {
			t.Fatalf("seed %s step %d: %v", seed, step, err)
		}
		var r *Game
		r, saved = restoreStep(t, g, saved, seat, c, evs)
		if watch || step%16 == 0 {
			checkPrivacy(t, g, r, step%16 == 0)
		}
	}
	return g, limit
}

// restoreStep restores the state saved before g took seat's choice c
// (which gave evs), applies c to the restored game and fails unless it
// gives the same events and state bytes as g did. It returns the
// restored game and the state bytes.
func restoreStep(t testing.TB, g *Game, saved []byte, seat int, c rooms.Choice, evs []rooms.Event) (*Game, []byte) {
	t.Helper()
	r, err := Load(g.cards, saved)
	if err != nil {
		t.Fatalf("turn %d: reload: %v", g.st.Turn, err)
	}
	revs, err := r.Apply(seat, c)
	if err != nil {
		t.Fatalf("turn %d: the restored game refuses seat %d's %+v: %v", g.st.Turn, seat, c, err)
	}
	want, _ := g.State()
	got, _ := r.State()
	if !bytes.Equal(want, got) {
		t.Fatalf("turn %d: the restored game went on to\n%s\nnot\n%s", g.st.Turn, got, want)
	}
	if !reflect.DeepEqual(evs, revs) {
		t.Fatalf("turn %d: the restored game's events are\n%v\nnot\n%v", g.st.Turn, revs, evs)
	}
	return r, want
}

func TestRandomGamesTerminate(t *testing.T) {
	cards := testLib(t)
	games := 24
	if testing.Short() {
		games = 8
	}
	for i := 0; i < games; i++ {
		seats := 2 + i%3
		seed := "random-" + strconv.Itoa(i)
		g, n := playRandom(t, cards, seed, seats, i%4 == 3, i%10 == 0)
		t.Logf("%s: %d seats, %d inputs, turn %d, %+v", seed, seats, n, g.st.Turn, g.Result())
	}
}

// checkPrivacy fails when a seat's view or actions, or the spectator's
// view, carry the id of a card in another seat's hand (unless that hand
// is being revealed to the seat) or the seed (when it is long enough to
// be told from ordinary text; hosts draw long seeds), or when a view
// differs in r, the same game restored from its bytes. With reference,
// it also checks the state's and every view's direct encoders against
// encoding/json (canontest.Check).
func checkPrivacy(t testing.TB, g, r *Game, reference bool) {
	t.Helper()
	if reference {
		want := canontest.Check(t, &g.st)
		if got, _ := g.State(); !bytes.Equal(got, want) {
			t.Fatalf("the state is\n%s\nnot as it encodes itself\n%s", got, want)
		}
	}
	for s := -1; s < len(g.st.Players); s++ {
		var view []byte
		if reference {
			view = canontest.Check(t, g.View(s).(View))
		} else {
			view, _ = g.View(s).(View).AppendCanonical(nil)
		}
		if again, _ := r.View(s).(View).AppendCanonical(nil); !bytes.Equal(again, view) {
			t.Fatalf("seat %d's view of the restored game is\n%s\nnot\n%s", s, again, view)
		}
		text := string(view)
		if s >= 0 {
			acts, _ := json.Marshal(g.Actions(s))
			text += string(acts)
		}
		if len(g.st.Seed) >= 8 && strings.Contains(text, g.st.Seed) { // a short seed is in any text
			t.Fatalf("seat %d sees the seed", s)
		}
		for o := range g.st.Players {
			if o == s {
				continue
			}
			if c := g.st.Dec.Choice; g.st.Dec.Kind == DecChoice && c != nil && c.Seat == s && c.Owner == o && c.Kind == chDiscard {
				continue
			}
			for _, c := range g.st.Players[o].Hand {
				if strings.Contains(text, `"`+g.cardID(c.N)+`"`) {
					t.Fatalf("seat %d sees %s in seat %d's hand", s, g.cardID(c.N), o)
				}
			}
		}
	}
}
