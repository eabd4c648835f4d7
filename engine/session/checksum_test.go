package session_test

import (
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// TestSaveChecksumIsTheWholeState checks every save's checksum against the
// SHA-256 of its whole state, whichever way the session came to its state:
// the store keeps a running checksum of each session's log and hashes
// only what follows it at a save, so this holds only if every write that
// extends a log extends the running checksum exactly. Action ids and
// params carry the characters a log scanner could trip on.
func TestSaveChecksumIsTheWholeState(t *testing.T) {
	e := newEnv(t, envOptions{epochs: []epoch{v1, v2}})
	check := func(t *testing.T, id string) session.SaveHandle {
		t.Helper()
		h := e.save(t, id)
		env := e.envelope(t, h.SaveID)
		if want := session.Checksum(env.ReplayCompatible, env.State); env.Checksum != want {
			t.Fatalf("save %s: checksum %s, the whole state hashes to %s", h.SaveID, env.Checksum, want)
		}
		return h
	}
	notes := []string{`]`, `],"campaignId":"x"`, `"quoted"`, `back\slash\`, `{"nested":[1,2]}`, "line\nbreak\u0001", `ünïcödé ✓ 𝄞`, `\"]`, ""}
	note := func(t *testing.T, id, text string) {
		t.Helper()
		res, err := e.store.SubmitAction(ctx, id, "note", core.Params{"text": text, "n": 1.5, "flag": true, "]": "["})
		if err != nil || !res.OK {
			t.Fatalf("note %q: %v %+v", text, err, res.Errors)
		}
	}

	id := e.create(t, "p")
	check(t, id) // an empty log
	for i, text := range notes {
		note(t, id, text)
		e.submit(t, id, "inc")
		if i%3 == 0 {
			check(t, id)
		}
	}
	check(t, id)
	check(t, id) // twice on one state

	// An adoption appends a content entry, on a submit and on a resume.
	e.channel.set("2.0.0")
	e.submit(t, id, "inc")
	check(t, id)
	e.channel.set("")
	other := e.create(t, "p")
	e.submit(t, other, "inc")
	e.channel.set("2.0.0")
	if _, err := e.store.ResumeSession(ctx, other); err != nil {
		t.Fatal(err)
	}
	check(t, other)
	e.channel.set("")

	// A loaded game goes on from the checksum its load verified.
	h := check(t, id)
	loaded := e.load(t, h.SaveID)
	check(t, loaded.SessionID)
	note(t, loaded.SessionID, `]]`)
	check(t, loaded.SessionID)

	// A branch, an imported save and a session read back from the record
	// store start with no running checksum.
	b, err := e.store.BranchSession(ctx, id, 5)
	if err != nil {
		t.Fatal(err)
	}
	e.submit(t, b.SessionID, "inc")
	check(t, b.SessionID)
	doc, err := e.store.ExportSave(ctx, "p", h.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := e.store.ImportSave(ctx, "p", doc)
	if err != nil {
		t.Fatal(err)
	}
	if rec, _, _ := e.records.GetSave(ctx, imp.SaveID); !strings.Contains(string(rec.Blob), `"checksum":"`) {
		t.Fatal("an imported save has no checksum")
	}
	e.store.Forget(ctx, id)
	check(t, id)
	note(t, id, `\`)
	check(t, id)
	e.store.Forget(ctx, id)
	e.submit(t, id, "inc")
	check(t, id)
}
