package freeport

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestActionSpecFieldsAreSorted: both decoders visit an action's fields in
// name order, which decides which refusal a request with several faults
// gets, so the tables must stay sorted.
func TestActionSpecFieldsAreSorted(t *testing.T) {
	for _, a := range []string{ActionEnroll, ActionSetTradingName, ActionReadInventory, ActionReadStatement,
		ActionGetExchange, ActionListExchanges, ActionReadStanding, ActionTransfer, ActionProposeExchange,
		ActionRespondToExchange, ActionCounterExchange, ActionCancelExchange} {
		t.Run(a, func(t *testing.T) {
			spec, ok := specFor(a)
			if !ok {
				t.Fatal("no spec")
			}
			var names []string
			for _, f := range spec.fields[:spec.n] {
				names = append(names, f.name)
			}
			if !slices.IsSorted(names) {
				t.Errorf("fields %v are not sorted", names)
			}
		})
	}
}

// TestFastDecoderAgreesOnRecordedBodies runs both decoders on every body of
// the recorded logs, and on variants the fast path must hand over.
func TestFastDecoderAgreesOnRecordedBodies(t *testing.T) {
	fast := 0
	bodies := [][]byte{}
	for _, l := range readReplayLog(t) {
		if l.Body != "" {
			bodies = append(bodies, []byte(l.Body))
		}
	}
	for _, b := range bodies {
		if checkDecodersAgree(t, b) {
			fast++
		}
		// Spellings the fast path refuses to guess at.
		for _, v := range []string{
			strings.Replace(string(b), `"protocolVersion":2`, `"protocolVersion":2.0`, 1),
			strings.Replace(string(b), `"quantity":1`, `"quantity":1e0`, 1),
			strings.Replace(string(b), `"action":"`, `"action":"\u0061`, 1),
			strings.Replace(string(b), `{`, "{ \n", 1),
		} {
			checkDecodersAgree(t, []byte(v))
		}
	}
	if fast < len(bodies)/2 {
		t.Fatalf("the fast path took only %d of %d recorded bodies", fast, len(bodies))
	}
}

// checkDecodersAgree requires decodeRequest to give exactly what the
// reference decoder gives, and reports whether the fast path took body.
func checkDecodersAgree(t testing.TB, body []byte) bool {
	t.Helper()
	want, wantR := decodeRequestSlow(body)
	got, gotR := decodeRequest(body)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotR, wantR) {
		t.Fatalf("decoders differ on %q:\n fast %+v %v\n slow %+v %v", body, got, gotR, want, wantR)
	}
	c, ok := decodeFast(body)
	if ok && !reflect.DeepEqual(c, want) {
		t.Fatalf("fast path differs on %q:\n%+v\n%+v", body, c, want)
	}
	return ok
}

// FuzzFastDecoderAgrees: on any body the one-pass decoder either hands over
// or gives exactly the reference decoder's command.
func FuzzFastDecoderAgrees(f *testing.F) {
	for _, seed := range []string{
		enrol, inv, standing, getX, cancelX, counterX, respondX,
		`{"protocolVersion":2,"action":"setTradingName","commandId":"n","tradingName":null}`,
		`{"protocolVersion":2,"action":"proposeExchange","commandId":"o","counterpartyPlayerId":"p","offered":[{"assetId":"wood","quantity":1},{"quantity":2,"assetId":"wood"}],"requested":[],"expiresAt":"2026-05-28T23:30:00.5+02:00"}`,
		`{"protocolVersion":2,"action":"listExchanges","status":"settled","limit":2,"cursor":"x.1.0"}`,
		`{"protocolVersion":2,"action":"transfer","commandId":"t","toPlayerId":"p-1","assetId":"wood","quantity":1000000000000}`,
		`{"protocolVersion":2,"action":"readStatement","limit":null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkDecodersAgree(t, body) })
}

// TestDirectEncodersMatchReflection renders every view of random games both
// ways and requires the same bytes.
func TestDirectEncodersMatchReflection(t *testing.T) {
	g := testGame(t)
	for gi := 0; gi < 3; gi++ {
		rg := newRandomGame(g, fmt.Sprint("encode", gi), 4)
		for i := 0; i < 300; i++ {
			rg.step()
		}
		s := rg.st
		var views []any
		views = append(views, s.standing(rg.now))
		for p := 0; p < s.players.Len(); p++ {
			views = append(views, s.enrolmentView(p, "enrolled"),
				inventoryView{PlayerID: s.player(p).id, Holdings: s.holdingsView(p)},
				tradingNameView{PlayerID: s.player(p).id}, tradingNameView{PlayerID: "x", TradingName: ptr("a\"b\u0001")},
				transferView{TransferID: "t", ToPlayerID: "p", AssetID: "wood", Quantity: 1 << 60})
			st, _ := s.statement(p, &command{})
			views = append(views, st)
			list, _ := s.listExchanges(p, &command{})
			views = append(views, list)
		}
		for x := 0; x < s.exchanges.Len(); x++ {
			ex := s.exchange(x)
			views = append(views, s.exchangeView(ex, ex.proposer, 2, 0), s.exchangeView(ex, ex.counterparty, 100, 0),
				s.exchangeView(ex, ex.counterparty, 0, 0))
		}
		for _, v := range views {
			direct := appendView(nil, v)
			byReflection := appendCanonicalAny(nil, v)
			if !bytes.Equal(direct, byReflection) {
				t.Fatalf("%T:\n direct %s\n reflect %s", v, direct, byReflection)
			}
		}
		for _, env := range []envelope{{ProtocolVersion: 2, OK: true, StateVersion: 7, Result: views[0]},
			{ProtocolVersion: 2, StateVersion: 9, Error: &errorMsg{Code: "c", Message: "m \"q\""}}} {
			if a, b := env.appendJSON(nil), appendCanonicalAny(nil, env); !bytes.Equal(a, b) {
				t.Fatalf("envelope:\n %s\n %s", a, b)
			}
		}
		tm := terms{ProtocolVersion: 2, ProposerPlayerID: "p-1", CounterpartyPlayerID: "p-2",
			Offered: []item{{"wood", 1}}, Requested: []item{}, ExpiresAt: FormatTime(T0)}
		if a, b := appendTerms(nil, &tm), appendCanonicalAny(nil, tm); !bytes.Equal(a, b) {
			t.Fatalf("terms:\n %s\n %s", a, b)
		}
	}
}
