package cheat

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// ID is the game_setup id of Cheat.
const ID = "cheat"

// Phases of a game.
const (
	PhasePlay      = "play"      // the seat to play is choosing cards
	PhaseChallenge = "challenge" // every other seat may call or let it stand
	PhaseOver      = "over"      // someone emptied their hand
)

// MaxPlay is the most cards one play may put down.
const MaxPlay = 4

// rankNames returns the ranks' short names, Ace to King.
func rankNames() [13]string {
	return [13]string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
}

// rankWord returns rank i's word, singular or plural: "Queen", "Sixes".
func rankWord(i int, plural bool) string {
	w := [13]string{"Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
		"Jack", "Queen", "King"}[i]
	switch {
	case !plural:
		return w
	case w == "Six":
		return "Sixes"
	}
	return w + "s"
}

type suit struct{ letter, symbol, name string }

// suitList returns the suits in their sort order.
func suitList() [4]suit {
	return [4]suit{{"S", "♠", "spades"}, {"H", "♥", "hearts"}, {"D", "♦", "diamonds"}, {"C", "♣", "clubs"}}
}

// Game is Cheat as a rooms.Game. The zero value is ready to register.
type Game struct{}

// Format describes Cheat to the lobby: 2..=8 seats, no deck, two AI kinds.
func (Game) Format() rooms.Format {
	return rooms.Format{
		ID:          ID,
		Name:        "Cheat",
		Description: "Shed your hand by claiming cards face down; lie when you must, and call out the liars.",
		MinSeats:    2,
		MaxSeats:    8,
		AI: []rooms.AIOption{
			{ID: "fox", Name: "Fox", Description: "Tells the truth when it can, bluffs with the cards it needs least, and calls what cannot be true."},
			{ID: "random", Name: "Random", Description: "Plays random cards and calls at random."},
		},
	}
}

// state is the whole game. Hands and Pile are hidden; the rest is public.
type state struct {
	Hands    [][]string `json:"hands"`               // per seat, sorted
	Pile     []string   `json:"pile"`                // face down, bottom first
	Turn     int        `json:"turn"`                // the seat to play, or that played
	Rank     int        `json:"rank"`                // index into ranks of the rank claimed
	Phase    string     `json:"phase"`               // PhasePlay, PhaseChallenge, PhaseOver
	Play     int        `json:"play"`                // number of the current play, from 1
	Count    int        `json:"count"`               // cards in the play under challenge
	Passed   []bool     `json:"passed,omitempty"`    // per seat, in the challenge window
	LastCall *lastCall  `json:"last_call,omitempty"` // the latest call, public
	Winner   int        `json:"winner"`              // the winner's seat, or -1
}

// lastCall is a resolved call: its revealed cards are public.
type lastCall struct {
	Play     int      `json:"play"`
	Caller   int      `json:"caller"`
	Claimer  int      `json:"claimer"`
	Rank     int      `json:"rank"`
	Cards    []string `json:"cards"`
	Truthful bool     `json:"truthful"`
	Loser    int      `json:"loser"`
	PileSize int      `json:"pile_size"`
}

// Setup shuffles the deck from seed, deals it round-robin from seat 0 and
// picks the first player at random; the first claim is Aces.
func (Game) Setup(seed string, players []rooms.Player) (rooms.Position, error) {
	n := len(players)
	if n < 2 || n > 8 {
		return nil, fmt.Errorf("cheat: %d seats, want 2..8", n)
	}
	deck := make([]string, 0, 52)
	for _, s := range suitList() {
		for _, r := range rankNames() {
			deck = append(deck, r+s.letter)
		}
	}
	h := rng.For(seed, rng.System("deal", 0))
	for i := len(deck) - 1; i > 0; i-- {
		j := h.Intn(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	st := &state{Hands: make([][]string, n), Pile: []string{}, Phase: PhasePlay, Play: 1, Winner: -1}
	for i, c := range deck {
		st.Hands[i%n] = append(st.Hands[i%n], c)
	}
	for i := range st.Hands {
		sortHand(st.Hands[i])
	}
	st.Turn = rng.For(seed, rng.System("first", 0)).Intn(n)
	return st, nil
}

// Load decodes a state, refusing one that breaks the game's invariants.
func (Game) Load(data []byte) (rooms.Position, error) {
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("cheat: %w", err)
	}
	n := len(st.Hands)
	var seen [52]bool // by suit*13 + rank
	var unknown []string
	total, distinct := 0, 0
	see := func(cards []string) {
		total += len(cards)
		for _, c := range cards {
			r, su, ok := parse(c)
			switch {
			case !ok:
				if !slices.Contains(unknown, c) {
					unknown = append(unknown, c)
					distinct++
				}
			case !seen[su*13+r]:
				seen[su*13+r] = true
				distinct++
			}
		}
	}
	see(st.Pile)
	for _, hand := range st.Hands {
		see(hand)
	}
	switch {
	case n < 2 || n > 8:
		return nil, fmt.Errorf("cheat: %d hands", n)
	case total != 52 || distinct != 52:
		return nil, fmt.Errorf("cheat: %d cards, want 52 distinct", total)
	case st.Turn < 0 || st.Turn >= n || st.Rank < 0 || st.Rank >= 13 || st.Winner < -1 || st.Winner >= n:
		return nil, fmt.Errorf("cheat: turn, rank or winner out of range")
	case st.Phase == PhaseChallenge && (len(st.Passed) != n || st.Count < 1 || st.Count > MaxPlay || st.Count > len(st.Pile)):
		return nil, fmt.Errorf("cheat: malformed challenge")
	case st.Phase != PhasePlay && st.Phase != PhaseChallenge && st.Phase != PhaseOver:
		return nil, fmt.Errorf("cheat: unknown phase %q", st.Phase)
	case st.Phase == PhaseOver && st.Winner < 0:
		return nil, fmt.Errorf("cheat: over without a winner")
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("cheat: unknown card %q", unknown[0])
	}
	return &st, nil
}

// parse splits a card id into rank and suit indexes: a rank of
// rankNames and a suit letter of suitList, -1 and false otherwise. It runs
// for every card of every sort, load and view, so it switches on bytes
// rather than comparing names.
func parse(card string) (rank, suit int, ok bool) {
	rank, suit = -1, -1
	if len(card) < 2 || len(card) > 3 {
		return rank, suit, false
	}
	switch card[len(card)-1] {
	case 'S':
		suit = 0
	case 'H':
		suit = 1
	case 'D':
		suit = 2
	case 'C':
		suit = 3
	}
	switch r := card[:len(card)-1]; {
	case r == "10":
		rank = 9
	case len(r) != 1:
	case r[0] >= '2' && r[0] <= '9':
		rank = int(r[0] - '1')
	case r[0] == 'A':
		rank = 0
	case r[0] == 'J':
		rank = 10
	case r[0] == 'Q':
		rank = 11
	case r[0] == 'K':
		rank = 12
	}
	return rank, suit, rank >= 0 && suit >= 0
}

func rankOf(card string) int {
	r, _, _ := parse(card)
	return r
}

func sortHand(h []string) {
	sort.Slice(h, func(i, j int) bool {
		ri, si, _ := parse(h[i])
		rj, sj, _ := parse(h[j])
		if ri != rj {
			return ri < rj
		}
		return si < sj
	})
}

// State returns the canonical encoding of the game.
func (st *state) State() ([]byte, error) { return st.AppendCanonical(make([]byte, 0, 512)) }

// CardView is a card as its holder, or everyone after a call, sees it.
type CardView struct {
	ID   string `json:"id"`   // card identity, e.g. "QH"
	Name string `json:"name"` // display, e.g. "Q♥"
	Rank string `json:"rank"` // "A", "2", … "K"
	Suit string `json:"suit"` // "spades", "hearts", "diamonds", "clubs"
}

func cardView(c string) CardView {
	r, s, _ := parse(c)
	return CardView{ID: c, Name: rankNames()[r] + suitList()[s].symbol, Rank: rankNames()[r], Suit: suitList()[s].name}
}

func cardViews(cs []string) []CardView {
	out := make([]CardView, len(cs))
	for i, c := range cs {
		out[i] = cardView(c)
	}
	return out
}

// PlayerView is one seat's public state.
type PlayerView struct {
	PlayerID string `json:"player_id"`
	HandSize int    `json:"hand_size"`
}

// ClaimView is the play under challenge: who claimed how many of what, and
// who has let it stand so far. The cards themselves stay face down.
type ClaimView struct {
	Player string   `json:"player"`
	Count  int      `json:"count"`
	Rank   string   `json:"rank"`
	Passed []string `json:"passed,omitempty"`
}

// CallView is the latest resolved call, with the called cards face up.
type CallView struct {
	Play       int        `json:"play"`
	Caller     string     `json:"caller"`
	Player     string     `json:"player"`
	Rank       string     `json:"rank"`
	Cards      []CardView `json:"cards"`
	Truthful   bool       `json:"truthful"`
	PickedUpBy string     `json:"picked_up_by"`
	PileSize   int        `json:"pile_size"`
}

// View is the projection spliced into GameView and SpectatorView.
type View struct {
	Game         string       `json:"game"`              // "cheat"
	MyHand       []CardView   `json:"my_hand,omitempty"` // the receiver's hand only
	Players      []PlayerView `json:"players"`
	PileSize     int          `json:"pile_size"`
	Phase        string       `json:"phase"`
	Play         int          `json:"play"`
	Rank         string       `json:"rank"`          // the rank to claim, or claimed
	ActivePlayer string       `json:"active_player"` // the seat to play, or that played
	Claim        *ClaimView   `json:"claim,omitempty"`
	LastCall     *CallView    `json:"last_call,omitempty"`
}

// View projects the game for seat (or rooms.Spectator): hands other than
// the receiver's and the pile's faces are never included.
func (st *state) View(seat int) any {
	v := View{Game: ID, PileSize: len(st.Pile), Phase: st.Phase, Play: st.Play, Rank: rankNames()[st.Rank],
		ActivePlayer: rooms.PlayerID(st.Turn)}
	if seat >= 0 && seat < len(st.Hands) {
		v.MyHand = cardViews(st.Hands[seat])
	}
	for i, h := range st.Hands {
		v.Players = append(v.Players, PlayerView{PlayerID: rooms.PlayerID(i), HandSize: len(h)})
	}
	if st.Phase == PhaseChallenge {
		c := &ClaimView{Player: rooms.PlayerID(st.Turn), Count: st.Count, Rank: rankNames()[st.Rank]}
		for i, p := range st.Passed {
			if p {
				c.Passed = append(c.Passed, rooms.PlayerID(i))
			}
		}
		v.Claim = c
	}
	if lc := st.LastCall; lc != nil {
		v.LastCall = &CallView{Play: lc.Play, Caller: rooms.PlayerID(lc.Caller), Player: rooms.PlayerID(lc.Claimer),
			Rank: rankNames()[lc.Rank], Cards: cardViews(lc.Cards), Truthful: lc.Truthful,
			PickedUpBy: rooms.PlayerID(lc.Loser), PileSize: lc.PileSize}
	}
	return v
}

// Action ids carry the play number, so an answer to an earlier play is
// stale.
func (st *state) playID() string { return "play:" + strconv.Itoa(st.Play) }
func (st *state) callID() string { return "call:" + strconv.Itoa(st.Play) }
func (st *state) passID() string { return "pass:" + strconv.Itoa(st.Play) }

// SlotCards is the slot of the play action: the cards put down.
const SlotCards = "cards"

// Actions offers the seat to play one play_cards action, and every other
// seat a call_cheat and a pass while a play is under challenge.
func (st *state) Actions(seat int) []rooms.Action {
	if seat < 0 || seat >= len(st.Hands) {
		return nil
	}
	switch st.Phase {
	case PhasePlay:
		if seat != st.Turn {
			return nil
		}
		hand := st.Hands[seat]
		one := 1
		return []rooms.Action{{
			ID: st.playID(), Type: "play_cards", Label: "Play as " + rankWord(st.Rank, true),
			Prompts: []rooms.Prompt{{
				Kind: rooms.PromptSelectFromZone, Slot: SlotCards,
				Prompt: fmt.Sprintf("Put down 1 to %d cards, face down, as %s", min(MaxPlay, len(hand)), rankWord(st.Rank, true)),
				Zone:   "hand", Owner: rooms.PlayerID(seat), Count: min(MaxPlay, len(hand)), Min: &one,
				Candidates: append([]string(nil), hand...),
			}},
		}}
	case PhaseChallenge:
		if seat == st.Turn || st.Passed[seat] {
			return nil
		}
		claim := fmt.Sprintf("%d %s", st.Count, rankWord(st.Rank, st.Count > 1))
		who := rooms.PlayerID(st.Turn)
		return []rooms.Action{
			{ID: st.callID(), Type: "call_cheat", Label: "Cheat! (" + claim + ")", Subject: []string{who}},
			{ID: st.passID(), Type: "pass", Label: "Let it stand"},
		}
	}
	return nil
}

// Apply plays, calls or passes for seat.
func (st *state) Apply(seat int, c rooms.Choice) ([]rooms.Event, error) {
	switch {
	case st.Phase == PhasePlay && c.ActionID == st.playID() && seat == st.Turn:
		return st.play(seat, c.Targets[SlotCards])
	case st.Phase == PhaseChallenge && seat != st.Turn && seat >= 0 && seat < len(st.Passed) && !st.Passed[seat]:
		switch c.ActionID {
		case st.passID():
			return st.pass(seat), nil
		case st.callID():
			return st.call(seat), nil
		}
	}
	return nil, fmt.Errorf("cheat: action %q is not open to seat %d", c.ActionID, seat)
}

func (st *state) play(seat int, cards []string) ([]rooms.Event, error) {
	hand := st.Hands[seat]
	if len(cards) < 1 || len(cards) > MaxPlay {
		return nil, fmt.Errorf("cheat: play 1..%d cards, not %d", MaxPlay, len(cards))
	}
	in := map[string]bool{}
	for _, c := range hand {
		in[c] = true
	}
	for _, c := range cards {
		if !in[c] {
			return nil, fmt.Errorf("cheat: %q is not in hand", c)
		}
		in[c] = false
	}
	rest := make([]string, 0, len(hand)-len(cards))
	for _, c := range hand {
		if in[c] {
			rest = append(rest, c)
		}
	}
	st.Hands[seat] = rest
	st.Pile = append(st.Pile, cards...)
	st.Count = len(cards)
	st.Phase = PhaseChallenge
	st.Passed = make([]bool, len(st.Hands))
	return []rooms.Event{{"type": "played", "player": rooms.PlayerID(seat), "count": len(cards), "rank": rankNames()[st.Rank]}}, nil
}

func (st *state) pass(seat int) []rooms.Event {
	st.Passed[seat] = true
	evs := []rooms.Event{{"type": "passed", "player": rooms.PlayerID(seat)}}
	for i, p := range st.Passed {
		if i != st.Turn && !p {
			return evs
		}
	}
	return append(evs, st.next()...)
}

func (st *state) call(seat int) []rooms.Event {
	shown := append([]string(nil), st.Pile[len(st.Pile)-st.Count:]...)
	truthful := true
	for _, c := range shown {
		truthful = truthful && rankOf(c) == st.Rank
	}
	loser := st.Turn
	if truthful {
		loser = seat
	}
	st.LastCall = &lastCall{Play: st.Play, Caller: seat, Claimer: st.Turn, Rank: st.Rank, Cards: shown,
		Truthful: truthful, Loser: loser, PileSize: len(st.Pile)}
	st.Hands[loser] = append(st.Hands[loser], st.Pile...)
	sortHand(st.Hands[loser])
	evs := []rooms.Event{{"type": "called", "player": rooms.PlayerID(seat), "claimer": rooms.PlayerID(st.Turn),
		"cards": shown, "truthful": truthful, "picked_up_by": rooms.PlayerID(loser), "count": len(st.Pile)}}
	st.Pile = []string{}
	return append(evs, st.next()...)
}

// next closes the challenge window: a claimer with an empty hand wins,
// otherwise the next seat plays the next rank.
func (st *state) next() []rooms.Event {
	st.Passed, st.Count = nil, 0
	if len(st.Hands[st.Turn]) == 0 {
		st.Phase, st.Winner = PhaseOver, st.Turn
		return []rooms.Event{{"type": "game_over", "winner": rooms.PlayerID(st.Turn)}}
	}
	st.Turn = (st.Turn + 1) % len(st.Hands)
	st.Rank = (st.Rank + 1) % 13
	st.Play++
	st.Phase = PhasePlay
	return nil
}

// Timeout is the auto-pass: a play puts down one card (a true one when the
// hand has one), and a challenge lets the play stand.
func (st *state) Timeout(seat int) (rooms.Choice, bool) {
	acts := st.Actions(seat)
	if len(acts) == 0 {
		return rooms.Choice{}, false
	}
	if st.Phase == PhaseChallenge {
		return rooms.Choice{ActionID: st.passID()}, true
	}
	hand := st.Hands[seat]
	card := hand[0]
	for _, c := range hand {
		if rankOf(c) == st.Rank {
			card = c
			break
		}
	}
	return playChoice(st, card), true
}

func playChoice(st *state, cards ...string) rooms.Choice {
	return rooms.Choice{ActionID: st.playID(), Targets: map[string][]string{SlotCards: cards}}
}

// Result names the winner once someone has emptied their hand.
func (st *state) Result() *rooms.Result {
	if st.Phase != PhaseOver {
		return nil
	}
	res := &rooms.Result{Winner: rooms.PlayerID(st.Winner), Reason: "emptied_hand"}
	for i := range st.Hands {
		if i != st.Winner {
			res.Losers = append(res.Losers, rooms.PlayerID(i))
		}
	}
	return res
}
