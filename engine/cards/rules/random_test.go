package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
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
			lo := p.Count
			if p.Min != nil {
				lo = *p.Min
			}
			ans[p.Slot] = pick(p.Candidates, lo+h.Intn(p.Count-lo+1))
		}
	}
	return ans
}

// randomInput makes the lowest seat asked anything take a random action
// with a random answer (conceding rarely), falling back on its timeout
// default when the answer is refused; the default must be accepted.
func randomInput(g *Game, h *rng.Handle) (int, error) {
	for seat := range g.st.Players {
		acts := g.Actions(seat)
		if len(acts) == 0 {
			continue
		}
		a := acts[h.Intn(len(acts))]
		if a.Type == "concede" && h.Intn(400) != 0 {
			a = acts[0]
		}
		if _, err := g.Apply(seat, rooms.Choice{ActionID: a.ID, Targets: randomAnswer(h, a)}); err == nil {
			return seat, nil
		}
		c, ok := g.Timeout(seat)
		if !ok {
			return seat, fmt.Errorf("no timeout default for seat %d", seat)
		}
		if _, err := g.Apply(seat, c); err != nil {
			return seat, fmt.Errorf("the default %+v was refused: %v", c, err)
		}
		return seat, nil
	}
	return -1, fmt.Errorf("nobody is asked anything; decision %+v", g.st.Dec)
}

// playRandom plays one game with random legal actions, with restore
// reloading the state from its bytes after every input, and returns the
// number of inputs applied.
func playRandom(t testing.TB, cards Cards, seed string, seats int, commander, restore bool) (*Game, int) {
	return playSeats(t, cards, randomConfig(commander), seed, players(t, cards, seats, commander), restore)
}

// randomConfig is the configuration of a random test game.
func randomConfig(commander bool) Config {
	if commander {
		return Config{Format: "commander", Life: 30, Commander: true}
	}
	return Config{Format: "test", Life: 20}
}

// playSeats plays one game of the seated players to its end with random
// answers (falling back on the timeout default when one is refused); with
// restore, the state is reloaded from its bytes after every input and
// must give the same bytes and views.
func playSeats(t testing.TB, cards Cards, cfg Config, seed string, ps []rooms.Player, restore bool) (*Game, int) {
	g, err := Setup(cards, cfg, seed, ps)
	if err != nil {
		t.Fatal(err)
	}
	g, n := playInputs(t, g, seed, 30000, restore)
	if g.Result() == nil {
		t.Fatalf("seed %s: the game did not end", seed)
	}
	return g, n
}

// playInputs applies up to limit random inputs to g (as playSeats says),
// stopping at the game's result, and returns the game and the number of
// number of inputs applied.
func playInputs(t testing.TB, g *Game, seed string, limit int, restore bool) (*Game, int) {
	h := rng.For(seed, rng.System("test", 0))
	for step := 0; step < limit; step++ {
		if g.Result() != nil {
			return g, step
		}
		seat, err := randomInput(g, h)
		if err != nil {
			t.Fatalf("seed %s step %d: %v", seed, step, err)
		}
		if !restore {
			if step%16 == 0 {
				checkPrivacy(t, g)
			}
			continue
		}
		checkPrivacy(t, g)
		saved, err := g.State()
		if err != nil {
			t.Fatal(err)
		}
		r, err := Load(g.cards, saved)
		if err != nil {
			t.Fatalf("seed %s step %d: reload: %v", seed, step, err)
		}
		again, _ := r.State()
		if !bytes.Equal(saved, again) {
			t.Fatalf("seed %s step %d: state bytes changed across a restore", seed, step)
		}
		v1, _ := json.Marshal(g.View(seat))
		v2, _ := json.Marshal(r.View(seat))
		if !bytes.Equal(v1, v2) {
			t.Fatalf("seed %s step %d: view changed across a restore", seed, step)
		}
		g = r
	}
	return g, limit
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

// checkPrivacy checks the state's and every view's direct encoders
// against encoding/json (canontest.Check), and fails when a seat's view or
// actions, or the spectator's view, carry the id of a card in another seat's hand (unless that hand is
// being revealed to the seat) or the seed (when it is long enough to be
// told from ordinary text; hosts draw long seeds).
func checkPrivacy(t testing.TB, g *Game) {
	t.Helper()
	want := canontest.Check(t, &g.st)
	if got, _ := g.State(); !bytes.Equal(got, want) {
		t.Fatalf("the state is\n%s\nnot as it encodes itself\n%s", got, want)
	}
	for s := -1; s < len(g.st.Players); s++ {
		text := string(canontest.Check(t, g.View(s).(View)))
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
