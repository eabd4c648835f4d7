package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Cards is the card pool a game plays with: definitions by functional id
// and their generated rules text, indexed once.
type Cards struct {
	defs  map[string]*card.Def
	views map[string]*CardView // each card's view but its id, built once
	ids   []string             // every functional id, sorted: the names a card may name
	costs map[string]cost      // every cost a card prints, parsed once
	mana  map[string][]manaAb  // each card's mana abilities, but those making a chosen colour
}

// NewCards indexes definitions (a catalog's Cards()) for the rules.
func NewCards(defs []card.Def) Cards {
	c := Cards{defs: make(map[string]*card.Def, len(defs)), views: make(map[string]*CardView, len(defs)),
		costs: map[string]cost{}, mana: map[string][]manaAb{}}
	for i := range defs {
		d := &defs[i]
		c.defs[d.ID] = d
		v := printedView(d, false)
		v.enc = encodePrinted(&v)
		c.views[d.ID] = &v
		c.ids = append(c.ids, d.ID)
		c.costs[d.Cost] = parseCost(d.Cost)
		chosen := false
		for _, a := range d.Abilities {
			c.costs[a.Cost] = parseCost(a.Cost)
			chosen = chosen || slices.Contains(a.Produce, "chosen")
			if a.Mode != nil {
				for _, e := range a.Mode.Effects {
					c.costs[e.Pay] = parseCost(e.Pay)
				}
			}
		}
		if !chosen {
			c.mana[d.ID] = manaAbilities(d, "")
		}
	}
	sort.Strings(c.ids)
	return c
}

// cost returns the parsed mana or ability cost s (see parseCost).
func (c Cards) cost(s string) cost {
	if co, ok := c.costs[s]; ok {
		return co
	}
	return parseCost(s)
}

// manaOf lists d's mana abilities (see manaAbilities), chosen being the
// colour the permanent chose.
func (c Cards) manaOf(d *card.Def, chosen string) []manaAb {
	if m, ok := c.mana[d.ID]; ok && c.defs[d.ID] == d {
		return m
	}
	return manaAbilities(d, chosen)
}

// Def returns the definition of functional id.
func (c Cards) Def(id string) (*card.Def, bool) {
	d, ok := c.defs[id]
	return d, ok
}

// Game is one decoded game: the state and the catalog it refers to. It
// implements every method of rooms.Position but AI, which the AI package
// adds.
type Game struct {
	st      State
	cards   Cards
	events  []rooms.Event
	memo    *memo     // what the current state implies, built on demand; Apply drops it
	key     [4]uint32 // the card-id permutation's round keys, derived from the seed
	keyed   bool      // key is derived
	cardIDs idCache   // cardID's answers so far
	permIDs idCache   // pid's answers so far
}

// memo holds what Actions and views derive from the current state, so
// that the room machine's calls for every seat (and an AI's repeated
// reads) derive it once per state rather than once per call. Only Apply
// changes the state, and it drops the memo first; the values handed out
// are shared and must not be changed by callers.
type memo struct {
	acts    map[int][]rooms.Action // by seat
	shared  *sharedView
	statics []staticSrc // the static abilities in force, once listed
	chars   []memoChars // permanents' characteristics, by position on the battlefield
}

// memoized returns the game's memo, making an empty one.
func (g *Game) memoized() *memo {
	if g.memo == nil {
		g.memo = &memo{acts: map[int][]rooms.Action{}}
	}
	return g.memo
}

// HandSize is the maximum hand size kept at cleanup.
const HandSize = 7

// OpeningHand is the number of cards each player draws before mulligans.
const OpeningHand = 7

// Setup deals a new game: libraries from the players' decks shuffled from
// seed, commanders to the command zone, the first player drawn from seed,
// seven cards each, and the mulligan decision for every seat.
func Setup(cards Cards, cfg Config, seed string, players []rooms.Player) (*Game, error) {
	if len(players) < 2 || len(players) > rooms.MaxSeats {
		return nil, fmt.Errorf("rules: %d players", len(players))
	}
	if cfg.Life <= 0 {
		return nil, fmt.Errorf("rules: starting life %d", cfg.Life)
	}
	if !utf8.ValidString(seed) {
		// The state is saved as JSON, where such a seed would come back
		// changed, and with it every draw after a restore.
		return nil, fmt.Errorf("rules: the seed %q is not valid UTF-8", seed)
	}
	g := &Game{cards: cards, st: State{Config: cfg, Seed: seed, Field: []Perm{}, Stack: []Item{}}}
	st := &g.st
	for i, p := range players {
		if p.Seat != i {
			return nil, fmt.Errorf("rules: player %d sits in seat %d", i, p.Seat)
		}
		pl := Player{Life: cfg.Life, Library: []string{}, Hand: []Card{}, Grave: []Card{}, Exile: []Card{}}
		deck := append([]string(nil), p.Deck...)
		if cfg.Commander {
			pl.CmdrDmg = make([]int, len(players))
			if p.Commander == "" {
				return nil, fmt.Errorf("rules: seat %d has no commander", i)
			}
			d, ok := cards.Def(p.Commander)
			if !ok {
				return nil, fmt.Errorf("rules: unknown commander %q", p.Commander)
			}
			for k, id := range deck {
				if id == p.Commander {
					deck = append(deck[:k], deck[k+1:]...)
					break
				}
			}
			pl.Cmdr = p.Commander
			pl.Identity = d.Identity()
			st.Phys++
			pl.Command = []Card{{N: st.Phys, ID: p.Commander, Cmdr: true}}
		}
		for _, id := range deck {
			if _, ok := cards.Def(id); !ok {
				return nil, fmt.Errorf("rules: unknown card %q in seat %d's deck", id, i)
			}
		}
		pl.Library = deck
		st.Players = append(st.Players, pl)
	}
	for i := range st.Players {
		g.shuffle(i)
	}
	st.Active = rng.For(seed, rng.System("first", 0)).Intn(len(players))
	for i := range st.Players {
		g.draw(i, OpeningHand, false)
	}
	st.Dec = Decision{Kind: DecMulligan}
	return g, nil
}

// Load decodes a state State returned and checks its invariants. It is
// strict by round trip: unknown keys are refused, and the decoded state
// must encode back to exactly the bytes given, which refuses a miscased
// key, a duplicate, trailing data or anything else not written by State,
// at the cost of one encoding rather than a second walk of the document.
func Load(cards Cards, data []byte) (*Game, error) {
	g := &Game{cards: cards}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g.st); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	if again := appendState(make([]byte, 0, len(data)), &g.st); !bytes.Equal(again, data) {
		return nil, fmt.Errorf("rules: the state is not in its canonical form")
	}
	if err := g.st.check(); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return g, nil
}

// check refuses a decoded state that breaks the invariants the engine
// relies on: seats, steps, owners and controllers in range, a decision
// that has what it asks about, a resolution cursor that points somewhere.
func (st *State) check() error {
	n := len(st.Players)
	seat := func(s int) bool { return s >= 0 && s < n }
	switch {
	case n < 2 || n > rooms.MaxSeats:
		return fmt.Errorf("%d players", n)
	case !seat(st.Active) || !seat(st.Dec.Seat):
		return fmt.Errorf("seat out of range")
	case st.Step < 0 || st.Step > StepCleanup:
		return fmt.Errorf("step %d", st.Step)
	case st.Dec.Kind == DecChoice && st.Dec.Choice == nil:
		return fmt.Errorf("a choice decision without its choice")
	case st.Res != nil && (len(st.Res.Path) == 0 || len(st.Res.Path) > 8 || st.Res.Mode < 0 || st.Res.Mode > 16):
		return fmt.Errorf("a resolution cursor out of range")
	case (st.Dec.Kind == DecAttackers || st.Dec.Kind == DecBlockers) && st.Combat == nil:
		return fmt.Errorf("a combat decision outside combat")
	case st.Phys < 0 || st.Phys > maxPhys:
		return fmt.Errorf("physical card number %d out of range", st.Phys)
	}
	if c := st.Dec.Choice; c != nil {
		if !seat(c.Seat) || !seat(c.Owner) || len(c.Lib) > len(c.Cards) || (c.Kind == chLookOrder && len(c.IDs) != len(c.Cards)) ||
			(c.Kind == chCommander && len(c.Cards) != 1) || ((c.Kind == chMay || c.Kind == chOptional || c.Kind == chColor || c.Kind == chName) && st.Res == nil) {
			return fmt.Errorf("malformed choice")
		}
		if c.Min < 0 || c.Min > c.Max || (c.Kind != chLookOrder && c.Max > len(c.Cards) && c.Kind != chMay && c.Kind != chOptional && c.Kind != chColor && c.Kind != chName && c.Kind != chCommander) {
			return fmt.Errorf("choice bounds out of range")
		}
		for _, pos := range c.Lib {
			if pos < 0 || pos >= len(st.Players[c.Owner].Library) {
				return fmt.Errorf("choice outside the library")
			}
		}
	}
	if st.Dec.Kind == DecChoice && st.Dec.Choice.Kind == chCommander && len(st.Ask) == 0 {
		return fmt.Errorf("a commander question with nothing asked")
	}
	named := func(n int, has bool) bool { return has == (n > 0) && n <= st.Phys }
	for _, p := range st.Field {
		if !seat(p.Owner) || !seat(p.Ctrl) {
			return fmt.Errorf("permanent %d: seat out of range", p.N)
		}
		if !named(p.Card, p.Tok == nil) {
			return fmt.Errorf("permanent %d: physical card %d", p.N, p.Card)
		}
	}
	for _, it := range st.Stack {
		if !seat(it.Ctrl) || !seat(it.Owner) {
			return fmt.Errorf("stack item %d: seat out of range", it.N)
		}
		if !named(it.Card, it.Kind == "spell") {
			return fmt.Errorf("stack item %d: physical card %d", it.N, it.Card)
		}
	}
	for _, e := range st.Effects {
		if e.Control < 0 || e.Control > n {
			return fmt.Errorf("effect: controller out of range")
		}
	}
	for _, e := range st.Emblems {
		if !seat(e.Ctrl) {
			return fmt.Errorf("emblem: seat out of range")
		}
	}
	alive := 0
	for _, p := range st.Players {
		if p.Out == "" {
			alive++
		}
		if st.Config.Commander && len(p.CmdrDmg) != n {
			return fmt.Errorf("commander damage for %d seats", len(p.CmdrDmg))
		}
	}
	if alive < 2 && st.Result == nil {
		return fmt.Errorf("%d players left and no result", alive)
	}
	if st.Res != nil {
		if !seat(st.Res.Item.Ctrl) || !seat(st.Res.Item.Owner) {
			return fmt.Errorf("resolution: seat out of range")
		}
		for _, i := range st.Res.Path {
			if i < 0 || i > 64 {
				return fmt.Errorf("resolution: cursor out of range")
			}
		}
	}
	for _, s := range st.Res.seats() {
		if !seat(s) {
			return fmt.Errorf("resolution: seat out of range")
		}
	}
	if st.Combat != nil {
		for _, s := range st.Combat.Defenders {
			if !seat(s) {
				return fmt.Errorf("combat: seat out of range")
			}
		}
	}
	return nil
}

// seats are the seats still to act on a per-player effect.
func (r *Res) seats() []int {
	if r == nil {
		return nil
	}
	return r.Seats
}

// State returns the canonical bytes of the whole state.
func (g *Game) State() ([]byte, error) { return g.st.AppendCanonical(make([]byte, 0, 8192)) }

// Result returns the verdict once the game is over.
func (g *Game) Result() *rooms.Result {
	if g.st.Result == nil {
		return nil
	}
	r := *g.st.Result
	return &r
}

// def returns the definition of a functional id; an id the catalog lost
// reads as a vanilla card so that a game never fails on it.
func (g *Game) def(id string) *card.Def {
	if d, ok := g.cards.Def(id); ok {
		return d
	}
	return &card.Def{ID: id, Name: id}
}

// permDef returns the definition a permanent has: its card's, or one
// built from its token description.
func (g *Game) permDef(p *Perm) *card.Def {
	if p.Tok == nil {
		return g.def(p.ID)
	}
	pw, tg := p.Tok.Power, p.Tok.Toughness
	return &card.Def{Name: p.Tok.Name, Types: p.Tok.Types, Subtypes: p.Tok.Subtypes,
		Power: &pw, Toughness: &tg, Keywords: p.Tok.Keywords}
}

// emit records a log event.
func (g *Game) emit(typ string, kv ...any) {
	ev := rooms.Event{"type": typ}
	for i := 0; i+1 < len(kv); i += 2 {
		ev[kv[i].(string)] = kv[i+1]
	}
	g.events = append(g.events, ev)
}

// mintCard returns a fresh physical card number, for a card leaving a
// library.
func (g *Game) mintCard() int {
	g.st.Phys++
	return g.st.Phys
}

// mint returns a fresh object number: for a permanent, a stack object or
// an emblem, each minted at a public event.
func (g *Game) mint() int {
	g.st.Next++
	return g.st.Next
}

// stamp returns a fresh timestamp.
func (g *Game) stamp() int {
	g.st.TS++
	return g.st.TS
}

// shuffle shuffles seat's library from the game's "shuffle" stream.
func (g *Game) shuffle(seat int) {
	h := rng.For(g.st.Seed, rng.System("shuffle", g.st.Shuffles))
	g.st.Shuffles++
	lib := g.st.Players[seat].Library
	for i := len(lib) - 1; i > 0; i-- {
		j := h.Intn(i + 1)
		lib[i], lib[j] = lib[j], lib[i]
	}
}

// draw moves n cards from the top of seat's library to its hand. Drawing
// from an empty library marks the player for the state-based loss when
// lose is set.
func (g *Game) draw(seat, n int, lose bool) int {
	pl := &g.st.Players[seat]
	drawn := 0
	for ; drawn < n; drawn++ {
		if len(pl.Library) == 0 {
			if lose {
				pl.Drew = true
			}
			break
		}
		pl.Hand = append(pl.Hand, Card{N: g.mintCard(), ID: pl.Library[0]})
		pl.Library = pl.Library[1:]
	}
	return drawn
}

// alive reports whether seat is still playing.
func (g *Game) alive(seat int) bool { return g.st.Players[seat].Out == "" }

// nextAlive returns the next seat after seat in turn order still playing.
func (g *Game) nextAlive(seat int) int {
	n := len(g.st.Players)
	for k := 1; k <= n; k++ {
		if s := (seat + k) % n; g.alive(s) {
			return s
		}
	}
	return seat
}

// apnap returns the seats still playing, the active player first.
func (g *Game) apnap() []int {
	n := len(g.st.Players)
	out := make([]int, 0, n)
	for k := 0; k < n; k++ {
		if s := (g.st.Active + k) % n; g.alive(s) {
			out = append(out, s)
		}
	}
	return out
}

// perm returns the permanent numbered n, or nil.
func (g *Game) perm(n int) *Perm {
	for i := range g.st.Field {
		if g.st.Field[i].N == n {
			return &g.st.Field[i]
		}
	}
	return nil
}

// Wire ids of objects.
func permID(n int) string  { return wireID("perm_", uint64(n)) }
func stackID(n int) string { return wireID("stack_", uint64(n)) }

// wireID is prefix and n in decimal, built in one allocation: the views
// name every object on the table by such an id.
func wireID(prefix string, n uint64) string {
	var b [32]byte
	return string(strconv.AppendUint(append(b[:0], prefix...), n, 10))
}

// pid is permID(n), kept on the game: the number a permanent has never
// changes while it stays on the battlefield, and every view and action
// list names it, so a game the machine keeps between commands builds
// each permanent's id once.
func (g *Game) pid(n int) string {
	if id, ok := g.permIDs.at(n); ok {
		return id
	}
	id := permID(n)
	g.permIDs.put(n, id)
	return id
}

// cardID is the wire id of the physical card numbered n: card_ and n
// under a permutation of the 32-bit numbers keyed by the game's seed.
// Physical numbers are minted in the order cards leave libraries, so a
// plain number would tell an opponent, once the card is cast, when it
// was drawn; the permuted one tells nothing without the seed.
// The ids are kept on the game, as the number they name never changes:
// a game the machine keeps between commands builds each once.
func (g *Game) cardID(n int) string {
	if id, ok := g.cardIDs.at(n); ok {
		return id
	}
	id := wireID("card_", uint64(g.permute(uint32(n), false)))
	g.cardIDs.put(n, id)
	return id
}

// idCache keeps the wire ids built so far of the numbers below
// maxCachedID, indexed by number ("" where not built yet): a slice
// rather than a map, as numbers are minted densely from 1 and a map's
// hashing is much of a lookup's cost under WASM.
type idCache []string

// maxCachedID bounds the numbers an idCache keeps (a game mints a few
// hundred to a few thousand); a larger one is built on each use.
const maxCachedID = 1 << 14

// at returns n's id and whether it is kept.
func (c idCache) at(n int) (string, bool) {
	if n < 0 || n >= len(c) || c[n] == "" {
		return "", false
	}
	return c[n], true
}

// put keeps id as n's.
func (c *idCache) put(n int, id string) {
	if n < 0 || n >= maxCachedID {
		return
	}
	if n >= len(*c) {
		*c = slices.Grow(*c, n+1-len(*c))[:max(n+1, cap(*c))]
	}
	(*c)[n] = id
}

// maxPhys is the largest physical card number cardID can name.
const maxPhys = 1<<32 - 1

// permute is a four-round Feistel network over 32-bit numbers (16-bit
// halves), keyed from the seed: a bijection, so that distinct cards get
// distinct ids, and inverse undoes it.
func (g *Game) permute(v uint32, inverse bool) uint32 {
	if !g.keyed {
		h := rng.For(g.st.Seed, rng.System("card_ids", 0))
		for i := range g.key {
			g.key[i] = h.Uint32()
		}
		g.keyed = true
	}
	l, r := v>>16, v&0xffff
	round := func(x uint32, k uint32) uint32 {
		x ^= k
		x ^= x >> 16
		x *= 0x7feb352d
		x ^= x >> 15
		x *= 0x846ca68b
		x ^= x >> 16
		return x & 0xffff
	}
	if inverse {
		for i := len(g.key) - 1; i >= 0; i-- {
			l, r = r^round(l, g.key[i]), l
		}
	} else {
		for i := range g.key {
			l, r = r, l^round(r, g.key[i])
		}
	}
	return l<<16 | r
}

// parseID splits a wire id into its kind ("perm", "card", "stack", "p")
// and number; a card's is its physical card number.
func (g *Game) parseID(id string) (kind string, n int, ok bool) {
	for _, k := range [...]string{"perm_", "card_", "stack_", "p"} {
		if len(id) > len(k) && id[:len(k)] == k {
			v, err := strconv.ParseUint(id[len(k):], 10, 32)
			if err != nil || strconv.FormatUint(v, 10) != id[len(k):] {
				return "", 0, false
			}
			kind := strings.TrimSuffix(k, "_")
			if kind == "card" {
				v = uint64(g.permute(uint32(v), true))
			}
			return kind, int(v), true
		}
	}
	return "", 0, false
}
