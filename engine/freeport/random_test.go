package freeport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/rng"
)

// logged is one request of a recorded game.
type logged struct {
	owner string
	now   int64
	body  []byte
	resp  []byte
}

// randomGame drives a game of steps random requests by players owners
// through the reducer, drawing from seed. Some requests are deliberately
// wrong; some are retries of earlier Commands. after runs after each request.
type randomGame struct {
	g      *Game
	owners []string
	r      *rng.Handle
	st     *State
	now    int64
	log    []logged
	cmds   map[string]int // owner+commandId → log index of its first success
	n      int
}

func newRandomGame(g *Game, seed string, players int) *randomGame {
	rg := &randomGame{g: g, r: rng.For(seed, rng.System("random-game", 0)), st: g.NewState(seed), now: T0, cmds: map[string]int{}}
	for i := 0; i < players; i++ {
		rg.owners = append(rg.owners, fmt.Sprintf("OWNER-%s-%d", seed, i))
	}
	return rg
}

func (rg *randomGame) pick(n int) int { return rg.r.Intn(n) }

func (rg *randomGame) playerID(i int) string {
	if o, ok := rg.st.playerByOwner.Get(rg.owners[i]); ok {
		return rg.st.player(o).id
	}
	return "p-unknown"
}

func (rg *randomGame) ownerIndex(player int) int {
	owner := rg.st.player(player).owner
	for i, o := range rg.owners {
		if o == owner {
			return i
		}
	}
	return 0
}

// items draws one side of Terms, sometimes empty, sometimes unknown.
func (rg *randomGame) items() string {
	var parts []string
	for k := rg.pick(3); k > 0; k-- {
		asset := []string{"credits", "wood", "rum", "credits", "wood", "rum", "credits", "wood", "rum", "medal", "tea"}[rg.pick(11)]
		if rg.pick(4) != 0 && asset == "medal" || asset == "tea" && rg.pick(4) != 0 {
			asset = "credits"
		}
		parts = append(parts, fmt.Sprintf(`{"assetId":%q,"quantity":%d}`, asset, 1+rg.pick(25)))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// next builds one request: (owner index, body). Command IDs are
// CMD-<sender>-<n>, so a test can tell whose they are.
func (rg *randomGame) next() (int, string) {
	who, body := rg.draw()
	return who, strings.ReplaceAll(body, "{{cid}}", fmt.Sprintf("CMD-%d-%d", who, rg.n))
}

func (rg *randomGame) draw() (int, string) {
	me := rg.pick(len(rg.owners))
	other := rg.pick(len(rg.owners))
	rg.n++
	const cid = "{{cid}}"
	if rg.pick(10) == 0 && len(rg.log) > 0 { // retry an earlier request verbatim
		l := rg.log[rg.pick(len(rg.log))]
		for i, o := range rg.owners {
			if o == l.owner {
				return i, string(l.body)
			}
		}
	}
	xid, xver, xhash := "x-none", int64(1), strings.Repeat("0", 64)
	answering, author := me, me
	if n := rg.st.exchanges.Len(); n > 0 {
		x := rg.st.exchange(n - 1 - min(rg.pick(n), rg.pick(8)))
		xid, xver, xhash = x.id, x.version, x.live().hash
		if rg.pick(10) == 0 {
			xver++
		}
		if a := x.answering(); a >= 0 && rg.pick(5) != 0 {
			answering, author = rg.ownerIndex(a), rg.ownerIndex(x.live().author)
		}
	}
	switch rg.pick(14) {
	case 0:
		return me, fmt.Sprintf(`{"protocolVersion":2,"action":"enroll","commandId":%q}`, cid)
	case 1:
		return me, fmt.Sprintf(`{"protocolVersion":2,"action":"setTradingName","commandId":%q,"tradingName":%q}`, cid, []string{"Ahab", "", "Queequeg", strings.Repeat("z", 40)}[rg.pick(4)])
	case 2, 3:
		return me, fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":%q,"toPlayerId":%q,"assetId":%q,"quantity":%d}`,
			cid, rg.playerID(other), []string{"credits", "wood", "rum", "medal"}[rg.pick(4)], 1+rg.pick(30))
	case 4, 5, 6:
		exp := ""
		if rg.pick(2) == 0 {
			exp = fmt.Sprintf(`,"expiresAt":%q`, FormatTime(rg.now+int64(1+rg.pick(7200))*1000))
		}
		return me, fmt.Sprintf(`{"protocolVersion":2,"action":"proposeExchange","commandId":%q,"counterpartyPlayerId":%q,"offered":%s,"requested":%s%s}`,
			cid, rg.playerID(other), rg.items(), rg.items(), exp)
	case 7, 8:
		return answering, fmt.Sprintf(`{"protocolVersion":2,"action":"respondToExchange","commandId":%q,"exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"decision":%q}`,
			cid, xid, xver, xhash, []string{"approve", "approve", "decline"}[rg.pick(3)])
	case 9:
		return answering, fmt.Sprintf(`{"protocolVersion":2,"action":"counterExchange","commandId":%q,"exchangeId":%q,"exchangeVersion":%d,"termsHash":%q,"offered":%s,"requested":%s}`,
			cid, xid, xver, xhash, rg.items(), rg.items())
	case 10:
		return author, fmt.Sprintf(`{"protocolVersion":2,"action":"cancelExchange","commandId":%q,"exchangeId":%q,"exchangeVersion":%d}`, cid, xid, xver)
	case 11:
		return me, fmt.Sprintf(`{"protocolVersion":2,"action":"getExchange","exchangeId":%q,"roundLimit":%d}`, xid, 1+rg.pick(3))
	case 12:
		return me, []string{
			`{"protocolVersion":2,"action":"readInventory"}`,
			`{"protocolVersion":2,"action":"readStatement","limit":100}`,
			`{"protocolVersion":2,"action":"readStanding"}`,
		}[rg.pick(3)]
	default:
		return me, `{"protocolVersion":2,"action":"listExchanges","limit":5}`
	}
}

// step sends one request and returns it as logged.
func (rg *randomGame) step() logged {
	me, body := rg.next()
	rg.now += int64(rg.pick(5*60)) * 1000
	l := logged{owner: rg.owners[me], now: rg.now, body: []byte(body)}
	rg.st, l.resp = rg.st.Apply(l.owner, l.now, l.body)
	rg.log = append(rg.log, l)
	return l
}

// TestPrivacyOverRandomGames plays many random games and checks every
// response against what its reader may learn, and conservation after every
// request.
func TestPrivacyOverRandomGames(t *testing.T) {
	g := testGame(t)
	games, steps := 40, 400
	if testing.Short() {
		games = 8
	}
	for gi := 0; gi < games; gi++ {
		t.Run(fmt.Sprint("game", gi), func(t *testing.T) {
			rg := newRandomGame(g, fmt.Sprint("privacy", gi), 4)
			for i := 0; i < steps; i++ {
				l := rg.step()
				checkInvariants(t, rg.st)
				checkPrivacy(t, rg, l)
			}
		})
	}
}

func checkPrivacy(t *testing.T, rg *randomGame, l logged) {
	t.Helper()
	if c, err := canon.Canonicalize(l.resp); err != nil || !bytes.Equal(c, l.resp) {
		t.Fatalf("response is not canonical JSON (%v): %s", err, l.resp)
	}
	me, enrolled := rg.st.playerByOwner.Get(l.owner)
	for i, o := range rg.owners {
		if o != l.owner && bytes.Contains(l.resp, []byte(o)) {
			t.Fatalf("response to %s carries Owner ID %s: %s", l.owner, o, l.resp)
		}
		// Command IDs are CMD-<issuer>-n: none of another Player's may appear.
		if o != l.owner && bytes.Contains(l.resp, []byte(fmt.Sprintf("CMD-%d-", i))) {
			t.Fatalf("response to %s carries another Player's commandId: %s", l.owner, l.resp)
		}
	}
	for _, leak := range []string{"game_rule", "rum-duty", "wood-bonus", Treasury, Issuance, "ownerId", "sequence"} {
		if bytes.Contains(l.resp, []byte(leak)) {
			t.Fatalf("response carries %q: %s", leak, l.resp)
		}
	}
	var env struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(l.resp, &env); err != nil {
		t.Fatal(err)
	}
	if !env.OK || !enrolled {
		return
	}
	var res map[string]any
	_ = json.Unmarshal(env.Result, &res)
	myID := rg.st.player(me).id
	if _, ok := res["holdings"]; ok && res["playerId"] != myID {
		t.Fatalf("%s reads another Player's holdings: %s", l.owner, l.resp)
	}
	if entries, ok := res["entries"].([]any); ok {
		if res["playerId"] != myID {
			t.Fatalf("%s reads another Player's statement", l.owner)
		}
		if n := rg.st.player(me).entries.Len(); len(entries) != min(n, 100) {
			t.Fatalf("statement carries %d entries, the Player has %d movements", len(entries), n)
		}
	}
	var views []map[string]any
	if _, ok := res["exchangeId"]; ok {
		views = append(views, res)
	}
	if xs, ok := res["exchanges"].([]any); ok {
		for _, x := range xs {
			views = append(views, x.(map[string]any))
		}
	}
	for _, x := range views {
		if x["proposerPlayerId"] != myID && x["counterpartyPlayerId"] != myID {
			t.Fatalf("%s reads an Exchange it is not party to", l.owner)
		}
		if x["status"] == StatusUnfunded && (x["ruleApplied"] != false || x["ruleNote"] != nil) {
			t.Fatalf("unfunded Exchange carries a rule signal: %s", l.resp)
		}
	}
}

// TestReplayAndRestoreAreByteIdentical replays a recorded request log on a
// fresh State and on a State saved and restored between every step, and
// requires the same response bytes and the same serialized State.
func TestReplayAndRestoreAreByteIdentical(t *testing.T) {
	g := testGame(t)
	rg := newRandomGame(g, "replay", 4)
	for i := 0; i < 300; i++ {
		rg.step()
	}
	want, err := rg.st.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		restore bool
	}{{"replay", false}, {"replay with save and load between steps", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := g.NewState("replay")
			for i, l := range rg.log {
				if tt.restore {
					b, err := st.Marshal()
					if err != nil {
						t.Fatal(err)
					}
					if st, err = g.Restore(b); err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
				}
				var resp []byte
				st, resp = st.Apply(l.owner, l.now, l.body)
				if !bytes.Equal(resp, l.resp) {
					t.Fatalf("step %d: response\n%s\nwant\n%s", i, resp, l.resp)
				}
			}
			got, _ := st.Marshal()
			if !bytes.Equal(got, want) {
				t.Fatal("final state differs")
			}
		})
	}
}

// TestApplyNeverModifiesItsState applies two different requests to the same
// State and checks the first State still serializes as before.
func TestApplyNeverModifiesItsState(t *testing.T) {
	g := testGame(t)
	rg := newRandomGame(g, "pure", 3)
	for i := 0; i < 200; i++ {
		rg.step()
	}
	base := rg.st
	before, _ := base.Marshal()
	for i := 0; i < 50; i++ {
		_, body := rg.next()
		next, _ := base.Apply(rg.owners[i%3], rg.now+int64(i)*60000, []byte(body))
		checkInvariants(t, next)
		after, _ := base.Marshal()
		if !bytes.Equal(before, after) {
			t.Fatalf("Apply modified its State on %s", body)
		}
	}
}

// TestRetryAfterLostResponseMovesNothingTwice commits every request but
// loses some responses; the client retries a lost Command with the same body
// a few requests later. A retry of a committed Command must return the
// original bytes and move nothing.
func TestRetryAfterLostResponseMovesNothingTwice(t *testing.T) {
	g := testGame(t)
	rg := newRandomGame(g, "lossy", 4)
	var pending []logged
	retried := 0
	for i := 0; i < 1500; i++ {
		l := rg.step()
		checkInvariants(t, rg.st)
		if bytes.Contains(l.body, []byte(`"commandId"`)) && rg.pick(3) == 0 {
			pending = append(pending, l) // this response never arrived
		}
		if len(pending) == 0 || rg.pick(2) == 0 {
			continue
		}
		lost := pending[0]
		pending = pending[1:]
		me, _ := rg.st.playerByOwner.Get(lost.owner)
		_, recorded := rg.st.commands.Get(commandKey(me, cidOf(lost.body)))
		ledger, commands := rg.st.ledger.Len(), rg.st.commands.Len()
		next, retry := rg.st.Apply(lost.owner, rg.now, lost.body)
		checkInvariants(t, next)
		if recorded && bytes.Contains(lost.resp, []byte(`"ok":true`)) {
			retried++
			if !bytes.Equal(retry, lost.resp) {
				t.Fatalf("retry bytes differ:\n%s\n%s", retry, lost.resp)
			}
			if next.ledger.Len() != ledger || next.commands.Len() != commands {
				t.Fatalf("retry of a committed Command changed state: %s", lost.body)
			}
		}
		rg.st = next
	}
	if retried == 0 {
		t.Fatal("no committed Command was retried")
	}
}

func cidOf(body []byte) string {
	var m struct {
		CommandID string `json:"commandId"`
	}
	_ = json.Unmarshal(body, &m)
	return m.CommandID
}

// TestDefaultGameFileParses keeps static/freeport/freeport.json valid and
// playable.
func TestDefaultGameFileParses(t *testing.T) {
	data, err := os.ReadFile("../../static/freeport/freeport.json")
	if err != nil {
		t.Skip("default game file not reachable:", err)
	}
	g, err := ParseGame(data)
	if err != nil {
		t.Fatal(err)
	}
	rg := newRandomGame(g, "default", 3)
	for i := 0; i < 300; i++ {
		rg.step()
		checkInvariants(t, rg.st)
	}
}
