package freeport

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDecodeRequest feeds arbitrary bodies to the request decoder and the
// reducer. Neither may panic; every response must be one canonical
// envelope; a refusal must carry a code of the closed set and change
// nothing. Crashers are kept under testdata/fuzz/FuzzDecodeRequest.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		enrol, inv, standing, getX, cancelX, counterX, respondX,
		`{"protocolVersion":2,"action":"setTradingName","commandId":"n","tradingName":null}`,
		`{"protocolVersion":2,"action":"proposeExchange","commandId":"o","counterpartyPlayerId":"p","offered":[{"assetId":"wood","quantity":1}],"requested":[],"expiresAt":"2026-05-28T23:30:00.5+02:00"}`,
		`{"protocolVersion":2,"action":"listExchanges","status":"settled","limit":2,"cursor":"x.1.0"}`,
		`{"protocolVersion":2.0,"action":"readStatement","limit":1e2}`,
		`{"protocolVersion":1}`, `[]`, `null`, `{"a":1,"a":2}`, "{\"protocolVersion\":2,\"action\":\"enroll\",\"commandId\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	g, err := ParseGame([]byte(testGameJSON))
	if err != nil {
		f.Fatal(err)
	}
	base := g.NewState("fuzz")
	for _, o := range []string{"alice", "bob"} {
		base, _ = base.Apply(o, T0, []byte(enrol))
	}
	codes := map[string]bool{}
	for _, c := range ErrorCodes() {
		codes[c] = true
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, r := decodeRequest(body)
		if (c == nil) == (r == nil) {
			t.Fatalf("decodeRequest returned %v, %v", c, r)
		}
		next, resp := base.Apply("alice", T0, body)
		var env struct {
			ProtocolVersion int  `json:"protocolVersion"`
			OK              bool `json:"ok"`
			Error           *struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		dec := json.NewDecoder(bytes.NewReader(resp))
		dec.DisallowUnknownFields()
		if err := json.Unmarshal(resp, &env); err != nil || env.ProtocolVersion != ProtocolVersion {
			t.Fatalf("response %s: %v", resp, err)
		}
		if !env.OK {
			if env.Error == nil || !codes[env.Error.Code] {
				t.Fatalf("refusal outside the closed set: %s", resp)
			}
			if next != base {
				t.Fatalf("a refusal changed state: %s", resp)
			}
		}
		checkInvariants(t, next)
	})
}
