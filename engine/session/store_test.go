package session_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

func TestNewRequiresEveryPort(t *testing.T) {
	e := newEnv(t, envOptions{})
	full := session.Config{Engine: e.engine, Records: e.records, Profiles: e.profiles, Clock: e.clock, IDs: e.ids}
	tests := []struct {
		name  string
		strip func(*session.Config)
	}{
		{"engine", func(c *session.Config) { c.Engine = nil }},
		{"records", func(c *session.Config) { c.Records = nil }},
		{"profiles", func(c *session.Config) { c.Profiles = nil }},
		{"clock", func(c *session.Config) { c.Clock = nil }},
		{"ids", func(c *session.Config) { c.IDs = nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := full
			tt.strip(&c)
			if _, err := session.New(c); err == nil || !strings.HasPrefix(err.Error(), "session: ") {
				t.Fatalf("New without %s: %v", tt.name, err)
			}
		})
	}
}

func TestCreateSession(t *testing.T) {
	tests := []struct {
		name     string
		cfg      session.CreateSessionConfig
		wantCode string
	}{
		{"anonymous", session.CreateSessionConfig{CampaignID: "tally"}, ""},
		{"profiled", session.CreateSessionConfig{CampaignID: "tally", ProfileID: "p"}, ""},
		{"ai audience", session.CreateSessionConfig{CampaignID: "tally", Audience: core.AudienceAI}, ""},
		{"unknown campaign", session.CreateSessionConfig{CampaignID: "nope"}, core.ReasonUnknownCampaign},
		{"unknown audience", session.CreateSessionConfig{CampaignID: "tally", Audience: "god"}, core.ReasonInvalidState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			h, err := e.store.CreateSession(ctx, tt.cfg)
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rec := e.record(t, h.SessionID)
			if rec.Revision != 0 || !rec.ReplayCompatible || rec.ProfileID != tt.cfg.ProfileID || rec.Initialization == nil {
				t.Fatalf("record %+v", rec)
			}
			if rec.CreatedAt == "" || rec.CreatedAt != rec.UpdatedAt {
				t.Fatalf("stamps %q %q", rec.CreatedAt, rec.UpdatedAt)
			}
			if len(h.Scene.Actions) != 2 || h.Scene.Body.TextKey != "tally.scene" {
				t.Fatalf("scene %+v", h.Scene)
			}
			var st map[string]any
			_ = json.Unmarshal(rec.Blob, &st)
			if st["seed"] == "" || st["seed"] == nil {
				t.Fatal("no seed recorded")
			}
		})
	}
}

func TestUnknownSession(t *testing.T) {
	e := newEnv(t, envOptions{})
	ops := map[string]func() error{
		"GetScene":       func() error { _, err := e.store.GetScene(ctx, "x"); return err },
		"GetView":        func() error { _, err := e.store.GetView(ctx, "x"); return err },
		"GetStrings":     func() error { _, err := e.store.GetStrings(ctx, "x", ""); return err },
		"ResumeSession":  func() error { _, err := e.store.ResumeSession(ctx, "x"); return err },
		"SubmitAction":   func() error { _, err := e.store.SubmitAction(ctx, "x", "inc", nil); return err },
		"PreviewAction":  func() error { _, err := e.store.PreviewAction(ctx, "x", "inc", nil); return err },
		"SaveGame":       func() error { _, err := e.store.SaveGame(ctx, "x"); return err },
		"BranchSession":  func() error { _, err := e.store.BranchSession(ctx, "x", 0); return err },
		"CaptureSession": func() error { _, err := e.store.CaptureSession(ctx, "x", "n"); return err },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			err := op()
			wantCode(t, err, core.ReasonUnknownSession)
			if err.Error() != `session: unknown session "x"` {
				t.Fatalf("message %q", err.Error())
			}
		})
	}
}

func TestSubmitAction(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "")
	res, err := e.store.SubmitAction(ctx, id, "inc", nil)
	if err != nil || !res.OK || res.Scene == nil {
		t.Fatalf("%v %+v", err, res)
	}
	for _, c := range res.Changes {
		if !c.Visible {
			t.Fatalf("invisible change returned: %+v", c)
		}
	}
	for _, m := range res.Messages {
		if !m.Visible {
			t.Fatalf("invisible message returned: %+v", m)
		}
	}
	if len(res.Changes) != 1 || len(res.Messages) != 1 {
		t.Fatalf("changes %+v messages %+v", res.Changes, res.Messages)
	}
	if rec := e.record(t, id); rec.Revision != 1 || rec.AttemptCounter != 1 {
		t.Fatalf("revision %d attempts %d", rec.Revision, rec.AttemptCounter)
	}

	t.Run("rejection writes nothing and counts an attempt", func(t *testing.T) {
		res, err := e.store.SubmitAction(ctx, id, "fly", nil)
		if err != nil || res.OK || len(res.Errors) != 1 || res.Errors[0].Code != core.ReasonUnknownAction {
			t.Fatalf("%v %+v", err, res)
		}
		if rec := e.record(t, id); rec.Revision != 1 {
			t.Fatalf("a rejection moved the revision to %d", rec.Revision)
		}
		e.submit(t, id, "inc")
		if rec := e.record(t, id); rec.Revision != 2 || rec.AttemptCounter != 3 {
			t.Fatalf("revision %d attempts %d", rec.Revision, rec.AttemptCounter)
		}
	})
	t.Run("ended game", func(t *testing.T) {
		e.submit(t, id, "end")
		res, err := e.store.SubmitAction(ctx, id, "inc", nil)
		if err != nil || res.OK || res.Errors[0].Code != core.ReasonSessionEnded {
			t.Fatalf("%v %+v", err, res)
		}
	})
}

func TestPreviewAction(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	before := e.record(t, id)
	e.channel.set("2.0.0")
	calls := e.channel.count()
	res, err := e.store.PreviewAction(ctx, id, "inc", nil)
	if err != nil || !res.OK || res.Scene == nil {
		t.Fatalf("%v %+v", err, res)
	}
	var view map[string]any
	_ = json.Unmarshal(res.Scene.View.KindView, &view)
	if view["count"] != float64(1) {
		t.Fatalf("preview scene %s", res.Scene.View.KindView)
	}
	after := e.record(t, id)
	if !bytes.Equal(before.Blob, after.Blob) || before.Revision != after.Revision || before.AttemptCounter != after.AttemptCounter {
		t.Fatal("a preview changed the record")
	}
	if e.channel.count() != calls {
		t.Fatal("a preview consulted the content channel")
	}
	if e.profiles.Writes() != 0 {
		t.Fatal("a preview wrote the profile")
	}
	sc, _ := e.store.GetScene(ctx, id)
	_ = json.Unmarshal(sc.View.KindView, &view)
	if view["count"] != float64(0) {
		t.Fatal("a preview changed the session")
	}
}

func TestGetView(t *testing.T) {
	e := newEnv(t, envOptions{})
	h, err := e.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally", Audience: core.AudienceAI})
	if err != nil {
		t.Fatal(err)
	}
	e.submit(t, h.SessionID, "inc", "inc")
	v, err := e.store.GetView(ctx, h.SessionID)
	if err != nil || string(v.KindView) != `{"count":2,"done":false}` || v.Status != core.StatusActive {
		t.Fatalf("%v %+v", err, v)
	}
}

func TestForgetRereadsFromPersistence(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "")
	e.submit(t, id, "inc")
	e.store.Forget(ctx, id)
	sc, err := e.store.GetScene(ctx, id)
	if err != nil || !strings.Contains(string(sc.View.KindView), `"count":1`) {
		t.Fatalf("%v %s", err, sc.View.KindView)
	}
	e.submit(t, id, "inc")
	if r := e.record(t, id); r.Revision != 2 {
		t.Fatalf("revision %d", r.Revision)
	}
}

func TestSessionCacheLimit(t *testing.T) {
	e := newEnv(t, envOptions{})
	st, err := session.New(session.Config{Engine: e.engine, Records: e.records, Profiles: e.profiles, Clock: e.clock, IDs: e.ids, SessionCacheLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := 0; i < 5; i++ {
		h, err := st.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, h.SessionID)
	}
	for _, id := range ids {
		if res, err := st.SubmitAction(ctx, id, "inc", nil); err != nil || !res.OK {
			t.Fatalf("%s: %v", id, err)
		}
	}
}
