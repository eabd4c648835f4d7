package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/static/cardgame"
)

// tableHelp is what `help` prints at the table.
const tableHelp = `at the table:
  N        take action N of the list; each of its slots is then asked in turn
           (numbers separated by spaces; Enter takes the suggested answer)
  TYPE     take the first action of that type (pass_priority, concede, …) with
           the suggested answers
  .        take the first action that is not a concession, with the suggested
           answers (keep a hand, pay with the suggested sources, no attack)
  look     show the table again
  help     this list
  quit     leave the table (the seat stays yours: come back with -session)`

// runTable is `bundle table`: a terminal client of the card game's rooms
// over the native host's WebSocket (/rooms/ws).
func runTable(args []string, stdout, stderr io.Writer) int {
	return playTable(context.Background(), args, os.Stdin, stdout, stderr)
}

// tableClient is one seat's terminal client.
type tableClient struct {
	conn   *websocket.Conn
	frames chan []byte
	in     *tableInput
	out    io.Writer

	you     string            // the player id the lobby gave
	names   map[string]string // ids of the last view, by id: display names
	logSeen int64             // the last log sequence printed
	sub     int               // submissions sent
	atTable bool              // the seat is readied: refusals no longer end the client
}

// tableInput reads the script's lines, then stdin's, echoing the script's.
type tableInput struct {
	script []string
	rest   *bufio.Scanner
	out    io.Writer
}

// next returns the next input line; false at the end of every input.
func (in *tableInput) next() (string, bool) {
	fmt.Fprint(in.out, "> ")
	if len(in.script) > 0 {
		line := in.script[0]
		in.script = in.script[1:]
		fmt.Fprintln(in.out, line)
		return strings.TrimSpace(line), true
	}
	if in.rest != nil && in.rest.Scan() {
		return strings.TrimSpace(in.rest.Text()), true
	}
	fmt.Fprintln(in.out)
	return "", false
}

// playTable runs the client with its input from stdin (after -script).
func playTable(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("table", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "http://127.0.0.1:8080", "the host serving /rooms/ws")
	create := fl.String("create", "", "create a room of this format (starter-1v1, standard_ffa, commander)")
	seats := fl.Int("seats", 0, "seats of the room -create makes (default: the format's fewest)")
	join := fl.String("join", "", "join the room with this id (as -create printed it)")
	deckID := fl.String("deck", "", "the preconstructed deck to play, by id (default: the first legal in the format)")
	deckList := fl.String("decklist", "", "play the deck list in FILE (`4 Card Name` lines, `Commander: Name`) instead of -deck")
	aiKind := fl.String("ai", "", "with -create: fill every other seat with this AI kind (pilot, random)")
	name := fl.String("name", "", "your display name")
	script := fl.String("script", "", "read the inputs from FILE first (echoed), then from stdin")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bundle table [-addr URL] (-create FORMAT [-seats N] [-ai KIND] | -join ROOM) [-deck ID | -decklist FILE] [-script FILE]")
		fl.PrintDefaults()
		fmt.Fprintln(stderr, tableHelp)
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if (*create == "") == (*join == "") || fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	cat, precons, err := cardgame.Load()
	if err != nil {
		fmt.Fprintln(stderr, "table:", err)
		return 1
	}
	in := &tableInput{rest: bufio.NewScanner(stdin), out: stdout}
	if *script != "" {
		b, err := os.ReadFile(*script)
		if err != nil {
			fmt.Fprintln(stderr, "table:", err)
			return 1
		}
		in.script = strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	}
	url := "ws" + strings.TrimPrefix(strings.TrimSuffix(*addr, "/"), "http") + "/rooms/ws"
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	conn, _, err := websocket.Dial(dctx, url, nil)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "table: %s: %v\n", url, err)
		return 1
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 22)
	c := &tableClient{conn: conn, frames: make(chan []byte, 64), in: in, out: stdout, names: map[string]string{}}
	go c.read(ctx)
	if err := c.seat(ctx, *create, *seats, *join, *name, *aiKind, func(format string) (deck.List, error) {
		return chooseDeck(format, *deckID, *deckList, cat, precons)
	}); err != nil {
		fmt.Fprintln(stderr, "table:", err)
		return 1
	}
	if err := c.play(ctx); err != nil {
		fmt.Fprintln(stderr, "table:", err)
		return 1
	}
	_ = conn.Close(websocket.StatusNormalClosure, "")
	return 0
}

// chooseDeck returns the deck the flags name for format: a deck list
// file, a preconstructed deck by id, or the first preconstructed deck
// legal in the format.
func chooseDeck(format, id, listFile string, cat *card.Catalog, precons []deck.Precon) (deck.List, error) {
	f, ok := deck.FormatByID(format)
	if !ok {
		return deck.List{}, fmt.Errorf("this client plays the card game; the room's format is %q", format)
	}
	if listFile != "" {
		b, err := os.ReadFile(listFile)
		if err != nil {
			return deck.List{}, err
		}
		return deck.ParseList(string(b), cat)
	}
	legal := deck.For(precons, f, cat)
	for _, p := range legal {
		if id == "" || p.ID == id {
			return deck.List{Cards: p.Cards, Commander: p.Commander}, nil
		}
	}
	ids := make([]string, len(legal))
	for i, p := range legal {
		ids[i] = p.ID
	}
	return deck.List{}, fmt.Errorf("no preconstructed deck %q for %s (there are: %s)", id, format, strings.Join(ids, ", "))
}

// read passes every frame to c.frames until the socket closes.
func (c *tableClient) read(ctx context.Context) {
	defer close(c.frames)
	for {
		_, b, err := c.conn.Read(ctx)
		if err != nil {
			return
		}
		c.frames <- b
	}
}

// send writes one command.
func (c *tableClient) send(ctx context.Context, cmd rooms.Command) error {
	b, err := rooms.EncodeCommand(cmd)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return c.conn.Write(wctx, websocket.MessageText, b)
}

// frame is what the client reads of any frame: the discriminating
// members and the lobby's room.
type frame struct {
	LobbyError *rooms.Rejection `json:"lobby_error"`
	Session    string           `json:"session"`
	You        string           `json:"you"`
	Room       *rooms.RoomView  `json:"room"`
	RoomID     string           `json:"room_id"`
}

// wait reads frames until done accepts one and returns its bytes. Before
// the game a refusal ends the wait with its reason; at the table (once
// the client knows its seat's game) it is printed, and the view that
// follows it says what is asked now.
func (c *tableClient) wait(ctx context.Context, what string, done func(f frame, raw []byte) bool) ([]byte, error) {
	timeout := time.NewTimer(2 * time.Minute)
	defer timeout.Stop()
	for {
		select {
		case b, ok := <-c.frames:
			if !ok {
				return nil, errors.New("the host closed the connection")
			}
			var f frame
			if err := json.Unmarshal(b, &f); err != nil {
				return nil, fmt.Errorf("a frame does not decode: %v", err)
			}
			if f.LobbyError != nil {
				if f.LobbyError.Code == rooms.CodeRateLimited {
					return nil, errRateLimited
				}
				if !c.atTable {
					return nil, fmt.Errorf("%s: refused: %s (%s)", what, f.LobbyError.Reason, f.LobbyError.Code)
				}
				fmt.Fprintf(c.out, "refused: %s (%s)\n", f.LobbyError.Reason, f.LobbyError.Code)
				continue
			}
			if done(f, b) {
				return b, nil
			}
		case <-timeout.C:
			return nil, fmt.Errorf("%s: no answer from the host", what)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// seat creates or joins the room (filling the other seats with AI seats
// when asked), submits the deck and readies.
func (c *tableClient) seat(ctx context.Context, create string, seats int, join, name, aiKind string, pick func(format string) (deck.List, error)) error {
	first, err := c.wait(ctx, "connecting", func(f frame, _ []byte) bool { return f.Session != "" })
	if err != nil {
		return err
	}
	var lv rooms.LobbyView
	_ = json.Unmarshal(first, &lv)
	c.you = lv.You
	if name != "" {
		if err := c.send(ctx, rooms.SetName{Name: name}); err != nil {
			return err
		}
	}
	if create != "" {
		if seats == 0 {
			f, ok := deck.FormatByID(create)
			if !ok {
				return fmt.Errorf("unknown format %q", create)
			}
			seats = f.MinSeats
		}
		err = c.send(ctx, rooms.CreateRoom{Config: rooms.RoomConfig{Seats: seats, GameSetup: create, Name: "Terminal table"}})
	} else {
		err = c.send(ctx, rooms.JoinRoom{RoomID: join})
	}
	if err != nil {
		return err
	}
	var room *rooms.RoomView
	if _, err := c.wait(ctx, "taking a seat", func(f frame, _ []byte) bool { room = f.Room; return room != nil }); err != nil {
		return err
	}
	mine := slices.IndexFunc(room.Seats, func(s rooms.SeatView) bool { return s.OccupiedBy == c.you })
	fmt.Fprintf(c.out, "room %s: %s, %d seats; you are %s in seat %d\n", room.RoomID, room.Config.GameSetup, len(room.Seats), c.you, mine)
	if create != "" && aiKind == "" {
		fmt.Fprintf(c.out, "the others join with: go run ./bundle table -join %s\n", room.RoomID)
	}
	list, err := pick(room.Config.GameSetup)
	if err != nil {
		return err
	}
	if aiKind != "" {
		for s := range room.Seats {
			if s == mine {
				continue
			}
			if err := c.send(ctx, rooms.AddAI{Seat: s, Kind: aiKind, Cards: list.Cards, Commander: list.Commander}); err != nil {
				return err
			}
		}
	}
	if err := c.send(ctx, rooms.SubmitDeck{Cards: list.Cards, Commander: list.Commander}); err != nil {
		return err
	}
	if _, err := c.wait(ctx, "submitting the deck", func(f frame, _ []byte) bool {
		return f.Room != nil && mine < len(f.Room.Seats) && f.Room.Seats[mine].Decked
	}); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "deck of %d cards submitted; waiting for every seat to be ready\n", len(list.Cards))
	c.atTable = true
	return c.send(ctx, rooms.Ready{Ready: true})
}

// tableView is a game view as the client reads it: the machine's members
// and the card game's.
type tableView struct {
	rooms.GameView
	rules.View
}

// decodeView decodes a game view frame.
func decodeView(b []byte) (tableView, error) {
	var v tableView
	if err := json.Unmarshal(b, &v.GameView); err != nil {
		return v, err
	}
	return v, json.Unmarshal(b, &v.View)
}

// play answers the game's questions from the input until the game has a
// result or the input ends.
func (c *tableClient) play(ctx context.Context) error {
	var latest []byte
	for {
		if latest == nil {
			b, err := c.wait(ctx, "waiting for the game", func(f frame, _ []byte) bool { return f.RoomID != "" })
			if err != nil {
				return err
			}
			latest = b
		}
		latest = c.drain(latest)
		v, err := decodeView(latest)
		if err != nil {
			return fmt.Errorf("a game view does not decode: %v", err)
		}
		c.you = v.You // the seat's player id, which the lobby's may differ from
		c.printLog(v)
		if v.Result != nil {
			c.printTable(v)
			c.printResult(v.Result)
			return nil
		}
		if len(v.ValidActions) == 0 {
			latest = nil
			continue
		}
		c.printTable(v)
		c.printActions(v)
		cmd, err := c.decide(v)
		if err != nil {
			return err
		}
		if cmd == nil { // look or help
			continue
		}
		c.sub++
		cmd.Submission = "s" + strconv.Itoa(c.sub)
		if latest, err = c.submit(ctx, *cmd); err != nil {
			return err
		}
		var a struct {
			Rejected bool `json:"action_rejected"`
		}
		if _ = json.Unmarshal(latest, &a); a.Rejected {
			fmt.Fprintln(c.out, "the table refused that answer (the game moved on, or a slot was wrong); asked again:")
		}
	}
}

// errRateLimited is the host's refusal of a frame sent too soon after
// others.
var errRateLimited = errors.New("rate limited")

// submit sends cmd and returns the view that answers it; a scripted
// client can outrun the host's frame rate, so a frame refused for that is
// sent again a second later.
func (c *tableClient) submit(ctx context.Context, cmd rooms.ChooseAction) ([]byte, error) {
	for {
		if err := c.send(ctx, cmd); err != nil {
			return nil, err
		}
		latest, err := c.wait(ctx, "the answer", func(f frame, raw []byte) bool {
			if f.RoomID == "" {
				return false
			}
			var a struct {
				Ack      *rooms.ActionAck `json:"action_ack"`
				Rejected bool             `json:"action_rejected"`
			}
			_ = json.Unmarshal(raw, &a)
			return a.Rejected || a.Ack != nil && a.Ack.Submission == cmd.Submission
		})
		if !errors.Is(err, errRateLimited) {
			return latest, err
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// drain returns the newest of latest and every frame already received.
func (c *tableClient) drain(latest []byte) []byte {
	for {
		select {
		case b, ok := <-c.frames:
			if !ok {
				return latest
			}
			var f frame
			if json.Unmarshal(b, &f) == nil && f.RoomID != "" {
				latest = b
			}
		default:
			return latest
		}
	}
}

// errQuit ends the client at the player's request.
var errQuit = errors.New("you left the table")

// decide reads the next input and turns it into a choose_action; nil
// for an input that only shows something.
func (c *tableClient) decide(v tableView) (*rooms.ChooseAction, error) {
	for {
		line, ok := c.in.next()
		if !ok {
			return nil, errors.New("the input ended before the game did (the seat stays yours)")
		}
		var a *rooms.Action
		ask := false
		switch {
		case line == "quit":
			return nil, errQuit
		case line == "help":
			fmt.Fprintln(c.out, tableHelp)
			continue
		case line == "look":
			return nil, nil
		case line == ".":
			if i := slices.IndexFunc(v.ValidActions, func(a rooms.Action) bool { return a.Type != "concede" }); i >= 0 {
				a = &v.ValidActions[i]
			}
		default:
			if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(v.ValidActions) {
				a, ask = &v.ValidActions[n-1], true
			} else if i := slices.IndexFunc(v.ValidActions, func(a rooms.Action) bool { return a.Type == line }); i >= 0 {
				a = &v.ValidActions[i]
			}
		}
		if a == nil {
			fmt.Fprintf(c.out, "no action %q: a number from 1 to %d, an action type, . or help\n", line, len(v.ValidActions))
			continue
		}
		return &rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Targets: c.answer(*a, ask)}, nil
	}
}

// answer fills a's slots: the suggested answers, or with ask each slot
// read from the input (an empty line takes the suggestion).
func (c *tableClient) answer(a rooms.Action, ask bool) []rooms.TargetChoice {
	var out []rooms.TargetChoice
	add := func(slot string, ids []string) {
		if len(ids) > 0 {
			out = append(out, rooms.TargetChoice{Slot: slot, Chosen: ids})
		}
	}
	// choose shows the candidates of one slot and reads the answer.
	choose := func(prompt string, cands, labels []string, def []string, most int) []string {
		if !ask || len(cands) == 0 {
			return def
		}
		fmt.Fprintf(c.out, "  %s (up to %d; Enter: %s)\n", prompt, max(most, 1), c.list(def))
		for i := range cands {
			fmt.Fprintf(c.out, "    %d) %s\n", i+1, labels[i])
		}
		for {
			line, ok := c.in.next()
			switch {
			case !ok || line == "":
				return def
			case line == "-":
				return nil
			}
			var got []string
			bad := false
			for _, f := range strings.Fields(line) {
				n, err := strconv.Atoi(f)
				if err != nil || n < 1 || n > len(cands) {
					bad = true
					break
				}
				got = append(got, cands[n-1])
			}
			if !bad {
				return got
			}
			fmt.Fprintf(c.out, "  numbers from 1 to %d separated by spaces, - for none, Enter for the suggestion\n", len(cands))
		}
	}
	owed := map[string]bool{}
	xExtra := 0 // pay slots an X above the smallest needs
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptOption:
			def := p.Options[0].ID
			if slices.ContainsFunc(p.Options, func(o rooms.Option) bool { return o.ID == "keep" }) {
				def = "keep"
			}
			ids, labels := make([]string, len(p.Options)), make([]string, len(p.Options))
			for i, o := range p.Options {
				ids[i], labels[i] = o.ID, o.Label
			}
			got := choose(p.Prompt, ids, labels, []string{def}, 1)
			if len(got) == 0 {
				got = []string{def}
			}
			add(p.Slot, got[:1])
			for _, o := range p.Options {
				if o.ID == got[0] {
					for _, r := range o.Requires {
						owed[r] = true
					}
				}
			}
		case rooms.PromptNumber:
			lo, hi := 0, 0
			if p.Min != nil {
				lo = *p.Min
			}
			if p.Max != nil {
				hi = *p.Max
			}
			var vals, labels []string
			for x := lo; x <= hi; x++ {
				vals, labels = append(vals, strconv.Itoa(x)), append(labels, strconv.Itoa(x))
			}
			for i, nv := range p.Values {
				if i < len(labels) && nv.Cost != "" {
					labels[i] += " (" + nv.Cost + ")"
				}
			}
			got := choose(p.Prompt, vals, labels, []string{strconv.Itoa(lo)}, 1)
			if len(got) == 0 {
				got = []string{strconv.Itoa(lo)}
			}
			add(p.Slot, got[:1])
			x, _ := strconv.Atoi(got[0])
			xExtra = x - lo
		}
	}
	for _, r := range a.Requirements {
		var def []string
		if (!r.Optional || owed[r.Slot]) && len(r.Candidates) > 0 {
			def = r.Candidates[:1]
		}
		add(r.Slot, choose(r.Prompt, r.Candidates, c.labels(r.Candidates), def, r.Count))
	}
	spent := map[string]bool{}
	for _, p := range a.Prompts {
		switch p.Kind {
		case rooms.PromptSelectFromZone:
			n := p.Least()
			add(p.Slot, choose(p.Prompt, p.Candidates, c.labels(p.Candidates), p.Candidates[:min(n, len(p.Candidates))], p.Count))
		case rooms.PromptOrder:
			add(p.Slot, choose(p.Prompt+" (all of them, in order)", p.Items, c.labels(p.Items), p.Items, len(p.Items)))
		case rooms.PromptPayMana:
			if p.Min != nil && *p.Min == 0 {
				if xExtra == 0 {
					continue
				}
				xExtra--
			}
			var ids, labels, def []string
			for _, mc := range p.ManaCandidates {
				ids = append(ids, mc.ID)
				l := c.name(mc.Source)
				if mc.Label != "" {
					l += ": " + mc.Label
				}
				labels = append(labels, l)
				if def == nil && !spent[mc.Source] {
					def = []string{mc.ID}
				}
			}
			got := choose("pay "+p.Pip, ids, labels, def, 1)
			for _, mc := range p.ManaCandidates {
				if len(got) > 0 && mc.ID == got[0] {
					spent[mc.Source] = true
				}
			}
			add(p.Slot, got)
		}
	}
	return out
}

// name is an id's display name from the last view, or the id.
func (c *tableClient) name(id string) string {
	if n, ok := c.names[id]; ok {
		return n
	}
	return id
}

// labels names a candidate list.
func (c *tableClient) labels(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = c.name(id)
	}
	return out
}

// list names ids for a suggestion.
func (c *tableClient) list(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(c.labels(ids), ", ")
}

// cardText is one card's short text: name, cost, power/toughness.
func cardText(cv rules.CardView) string {
	s := cv.Name
	if cv.ManaCost != "" {
		s += " " + cv.ManaCost
	}
	if cv.Power != "" {
		s += " " + cv.Power + "/" + cv.Toughness
	}
	if cv.Loyalty != "" {
		s += " loyalty " + cv.Loyalty
	}
	return s
}

// printTable shows the public table and the seat's hand, and learns the
// names of every id it shows.
func (c *tableClient) printTable(v tableView) {
	w := c.out
	c.names = map[string]string{}
	for _, pid := range v.SeatOrder {
		c.names[pid] = pid
		if n := v.PlayerNames[pid]; n != "" {
			c.names[pid] = n + " (" + pid + ")"
		}
	}
	c.names[v.You] = "you (" + v.You + ")"
	turn := v.ActivePlayer + "'s turn"
	if v.ActivePlayer == v.You {
		turn = "your turn"
	}
	fmt.Fprintf(w, "\n== turn %d, %s, %s", v.Turn, strings.ReplaceAll(v.Phase, "_", " "), turn)
	if v.PriorityPlayer != "" {
		fmt.Fprintf(w, "; priority: %s", c.name(v.PriorityPlayer))
	}
	fmt.Fprintln(w)
	if v.Me != nil {
		fmt.Fprintf(w, "you: %d life, %d in library, %d in hand", v.Me.Life, v.Me.LibrarySize, len(v.MyHand))
		for _, k := range v.Me.Counters {
			fmt.Fprintf(w, ", %d %s", k.Count, k.Kind)
		}
		if len(v.ManaPool) > 0 {
			fmt.Fprintf(w, ", mana floating %s", strings.Join(v.ManaPool, ""))
		}
		fmt.Fprintln(w)
	}
	for _, o := range v.Opponents {
		fmt.Fprintf(w, "%s: %d life, %d in library, %d in hand, %d in graveyard", c.name(o.PlayerID), o.Life, o.LibrarySize, o.HandSize, o.GraveyardSize)
		for _, k := range o.Counters {
			fmt.Fprintf(w, ", %d %s", k.Count, k.Kind)
		}
		if o.Eliminated {
			fmt.Fprint(w, ", out of the game")
		}
		fmt.Fprintln(w)
	}
	for _, p := range v.Battlefield {
		c.names[p.ID] = cardText(p.Card)
	}
	for _, pid := range v.SeatOrder {
		var parts []string
		for _, p := range v.Battlefield {
			if p.Controller != pid {
				continue
			}
			s := cardText(p.Card)
			var marks []string
			for _, m := range []struct {
				on   bool
				text string
			}{{p.Tapped, "tapped"}, {p.SummoningSick, "sick"}, {p.Attacking, "attacking"}, {len(p.Blocking) > 0, "blocking"},
				{p.Damage > 0, strconv.Itoa(p.Damage) + " damage"}, {p.IsCommander, "commander"}} {
				if m.on {
					marks = append(marks, m.text)
				}
			}
			for _, k := range p.Counters {
				marks = append(marks, strconv.Itoa(k.Count)+" "+k.Kind)
			}
			if len(marks) > 0 {
				s += " (" + strings.Join(marks, ", ") + ")"
			}
			parts = append(parts, s)
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", c.name(pid), strings.Join(parts, "; "))
		}
	}
	for i := len(v.Stack) - 1; i >= 0; i-- {
		it := v.Stack[i]
		c.names[it.ID] = it.Description
		fmt.Fprintf(w, "stack: %s (%s)\n", it.Description, c.name(it.Controller))
	}
	for _, pile := range append(append([]rules.ZonePile(nil), v.Graveyards...), v.Command...) {
		for _, cv := range pile.Cards {
			c.names[cv.ID] = cardText(cv)
		}
	}
	for _, cv := range v.Revealed {
		c.names[cv.ID] = cardText(cv)
	}
	if len(v.Revealed) > 0 {
		fmt.Fprintf(w, "revealed to you: %s\n", c.list(cardIDs(v.Revealed)))
	}
	for _, cv := range v.MyHand {
		c.names[cv.ID] = cardText(cv)
	}
	if len(v.MyHand) > 0 {
		fmt.Fprintf(w, "your hand: %s\n", c.list(cardIDs(v.MyHand)))
	}
}

// cardIDs lists the ids of cards.
func cardIDs(cards []rules.CardView) []string {
	out := make([]string, len(cards))
	for i, cv := range cards {
		out[i] = cv.ID
	}
	return out
}

// printActions numbers the seat's actions.
func (c *tableClient) printActions(v tableView) {
	fmt.Fprintln(c.out, "your move (a number, ., or help):")
	for i, a := range v.ValidActions {
		label := a.Label
		if a.Cost != nil && a.Cost.Modified != "" && !strings.Contains(label, a.Cost.Modified) {
			label += " " + a.Cost.Modified
		}
		fmt.Fprintf(c.out, "  %d. %s\n", i+1, label)
	}
}

// printLog prints the log entries not printed yet, one line each: the
// event's type and its other members.
func (c *tableClient) printLog(v tableView) {
	for _, e := range v.Log {
		if e.Sequence <= c.logSeen {
			continue
		}
		c.logSeen = e.Sequence
		var ev map[string]any
		if json.Unmarshal(e.Event, &ev) != nil {
			continue
		}
		keys := make([]string, 0, len(ev))
		for k := range ev {
			if k != "type" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		parts := []string{fmt.Sprint(ev["type"])}
		for _, k := range keys {
			val := ev[k]
			if s, ok := val.(string); ok {
				val = c.name(s)
			}
			parts = append(parts, fmt.Sprintf("%s=%v", k, val))
		}
		fmt.Fprintf(c.out, "  · %s\n", strings.Join(parts, " "))
	}
}

// printResult announces the result.
func (c *tableClient) printResult(r *rooms.Result) {
	switch {
	case r.Winner == c.you:
		fmt.Fprintf(c.out, "game over: you win (%s)\n", r.Reason)
	case r.Winner != "":
		fmt.Fprintf(c.out, "game over: %s wins (%s)\n", c.name(r.Winner), r.Reason)
	default:
		fmt.Fprintf(c.out, "game over: a draw (%s)\n", r.Reason)
	}
}
