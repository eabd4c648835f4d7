package nativehost_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/bundle/nativehost"
	"github.com/storyloom/storyloom/engine/cards/deck"
)

// cardHost serves a native host on a real socket and returns its
// WebSocket URL, the clock it reads, and the preconstructed decks legal in
// format id.
func cardHost(t *testing.T, id string) (string, *atomic.Int64, []deck.Precon) {
	t.Helper()
	now := &atomic.Int64{}
	now.Store(1_780_000_000_000)
	host, err := nativehost.Open(context.Background(), nativehost.Config{
		Path: filepath.Join(t.TempDir(), "host.db"), Clock: now.Load})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	mux := http.NewServeMux()
	for p, hd := range host.Handlers() {
		mux.Handle(p, hd)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/rooms/ws", now, roomsclient.Precons(t, id)
}

// cardTable is a card game's human clients on the native host.
type cardTable struct {
	t       *testing.T
	now     *atomic.Int64
	clients []*roomsclient.Seat
	format  string
}

// seatCards dials humans clients and seats them at a room of format with
// seats seats (roomsclient.SeatCards: the AIs of kind ai fill the
// remaining seats, everyone submits a deck, decks[i] for seat i, and
// readies); it returns them once the game has started.
func seatCards(t *testing.T, url string, now *atomic.Int64, format string, seats, humans int, ai string, decks []deck.Precon) *cardTable {
	t.Helper()
	tb := &cardTable{t: t, now: now, format: format}
	for range humans {
		c := roomsclient.DialSeat(t, url)
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.Session != "" })
		tb.clients = append(tb.clients, c)
	}
	clients := make([]roomsclient.CardClient, len(tb.clients))
	for i, c := range tb.clients {
		clients[i] = c
	}
	roomsclient.SeatCards(clients, format, seats, ai, decks)
	for _, c := range tb.clients {
		c.WaitFor(func(v roomsclient.SeatView, _ int64) bool { return v.You != "" && v.Session == "" })
	}
	return tb
}

// seats are the table's clients as roomsclient plays them.
func (tb *cardTable) seats() []roomsclient.CardSeat {
	out := make([]roomsclient.CardSeat, len(tb.clients))
	for i, c := range tb.clients {
		out[i] = c
	}
	return out
}

// play answers for the human clients until the game has a result (at
// most limit answers), each answer 100 ms after the last on the host's
// clock.
func (tb *cardTable) play(limit int) roomsclient.CardPlay {
	return roomsclient.PlayCards(tb.t, tb.seats(), tb.format, tb.format == deck.Commander, limit, func() { tb.now.Add(100) })
}

// TestCardGameOverWebSocket plays a starter-1v1 game of two WebSocket
// clients on the native host, with preconstructed decks, to its result:
// the host registers the card game, casts are paid through pay_mana, and
// the settle passes for the players between their stops.
func TestCardGameOverWebSocket(t *testing.T) {
	url, now, decks := cardHost(t, deck.StarterDuel)
	tb := seatCards(t, url, now, deck.StarterDuel, 2, 2, "", decks)
	p := tb.play(1500)
	p.EndedDuel(t, tb.clients[0])
	t.Logf("%d moves (%d answers refused), result %+v", p.Moves, p.Refusals, *p.Result)
}

// TestCardGameWithAISeats plays a four-seat commander game of one
// WebSocket client against three pilot AI seats on the native host to
// its result.
func TestCardGameWithAISeats(t *testing.T) {
	url, now, decks := cardHost(t, deck.Commander)
	tb := seatCards(t, url, now, deck.Commander, 4, 1, "pilot", decks)
	p := tb.play(1500)
	p.Ended(t)
	t.Logf("%d moves (%d answers refused), result %+v", p.Moves, p.Refusals, *p.Result)
}
