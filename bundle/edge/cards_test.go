package edge

import (
	"fmt"
	"testing"
	"time"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rooms"
)

// cardLimit bounds the answers the card tests send in one game; the
// native host's tests (bundle/hostingdb) play the same games within it.
const cardLimit = 1500

// cardSeat is a WebSocket client of the room server's object as
// roomsclient plays a card game with it. Its views are counted apart from
// its rejections; a command the machine refuses over its per-connection
// rate (20 a second) was not applied and is sent again a moment later, as
// a client does.
type cardSeat struct {
	p    *wsPeer
	last rooms.Command
	errs int // rejections handled so far
}

func (s *cardSeat) View() ([]byte, int) {
	_, b := s.p.Latest()
	return b, s.p.Frames() - s.p.ErrCount()
}

func (s *cardSeat) Send(c rooms.Command) {
	s.last = c
	s.p.send(c)
}

func (s *cardSeat) Await(n int, what string) {
	s.p.T.Helper()
	deadline := time.Now().Add(waitLimit)
	for _, got := s.View(); got <= n; _, got = s.View() {
		if errs := s.p.ErrsSince(s.errs); len(errs) > 0 {
			s.errs += len(errs)
			for _, e := range errs {
				if e.Code != rooms.CodeRateLimited {
					s.p.T.Fatalf("%s: %s refused: %+v", s.p.Name, what, e)
				}
			}
			time.Sleep(250 * time.Millisecond)
			s.p.send(s.last)
			deadline = time.Now().Add(waitLimit)
		}
		if time.Now().After(deadline) {
			k, b := s.p.Latest()
			s.p.T.Fatalf("%s: no view came for %s; latest %s view %.300s", s.p.Name, what, k, b)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// seating is a WebSocket client of the room server's object as
// roomsclient.SeatCards seats it.
type seating struct{ *wsPeer }

func (p seating) Send(c rooms.Command) { p.send(c) }

func (p seating) WaitRoom(what string, ok func(r *rooms.RoomView) bool) {
	p.Wait(what, func(_ string, b []byte) bool { r := roomOf(b); return r != nil && ok(r) })
}

// seatCardGame dials humans WebSocket clients and seats them at a room of
// format with seats seats (roomsclient.SeatCards: AI seats of kind ai
// fill the rest, every seat gets a preconstructed deck of the format);
// it returns the humans once the game has started.
func seatCardGame(t *testing.T, base, format string, seats, humans int, ai string) []roomsclient.CardSeat {
	t.Helper()
	decks := roomsclient.Precons(t, format)
	ps := make([]*wsPeer, humans)
	for i := range ps {
		ps[i] = dialWS(t, base, fmt.Sprintf("%s-seat%d", format, i))
		ps[i].Wait("a lobby view", func(k string, _ []byte) bool { return k == rooms.KindLobby })
	}
	clients := make([]roomsclient.CardClient, humans)
	for i, p := range ps {
		clients[i] = seating{p}
	}
	roomsclient.SeatCards(clients, format, seats, ai, decks)
	out := make([]roomsclient.CardSeat, humans)
	for i, p := range ps {
		p.Wait("the game", roomsclient.IsGame)
		out[i] = &cardSeat{p: p}
	}
	return out
}

// TestWorkerCardGame plays a starter-1v1 card game of two WebSocket
// clients to its result through the room server's object under wrangler
// dev, as bundle/hostingdb plays it natively: preconstructed decks, casts
// paid through pay_mana, the settle passing for the players between their
// stops, one loser.
func TestWorkerCardGame(t *testing.T) {
	w := worker(t)
	seats := seatCardGame(t, w.base, deck.StarterDuel, 2, 2, "")
	start := time.Now()
	p := roomsclient.PlayCards(t, seats, deck.StarterDuel, false, cardLimit, nil)
	p.EndedDuel(t, seats[0])
	t.Logf("%d answers (%d refused) in %v, result %+v", p.Moves, p.Refusals, time.Since(start).Round(time.Millisecond), *p.Result)
}

// TestWorkerCardAISeats plays a four-seat commander game of one WebSocket
// client against three pilot AI seats, which the room server's object
// plays itself, to its result under wrangler dev.
func TestWorkerCardAISeats(t *testing.T) {
	w := worker(t)
	seats := seatCardGame(t, w.base, deck.Commander, 4, 1, "pilot")
	start := time.Now()
	p := roomsclient.PlayCards(t, seats, deck.Commander, true, cardLimit, nil)
	p.Ended(t)
	t.Logf("%d answers (%d refused) in %v, result %+v", p.Moves, p.Refusals, time.Since(start).Round(time.Millisecond), *p.Result)
}
