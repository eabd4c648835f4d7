package session_test

import (
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

func TestSummaryAndStateHeader(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc", "inc", "inc")
	for _, forget := range []bool{false, true} {
		if forget {
			e.store.Forget(ctx, id) // read back from the record store
		}
		sum, err := e.store.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sum != (session.SessionSummary{SessionID: id, CampaignID: "tally", KindID: "tally", ActionCount: 3}) {
			t.Fatalf("forget %v: %+v", forget, sum)
		}
	}
	if _, err := e.store.Summary(ctx, "missing"); session.Code(err) != core.ReasonUnknownSession {
		t.Fatalf("missing session: %v", err)
	}
	h, err := session.ReadStateHeader(e.record(t, id).Blob)
	if err != nil || h != (session.StateHeader{KindID: "tally", CampaignID: "tally", CampaignVersion: "1.0.0"}) {
		t.Fatalf("%+v %v", h, err)
	}
	for _, bad := range []string{``, `[]`, `{"kindId":"tally"`, `{"kindId":"tally"} x`} {
		if _, err := session.ReadStateHeader([]byte(bad)); err == nil {
			t.Errorf("%q read as a state", bad)
		}
	}
}
