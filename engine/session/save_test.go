package session_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

func TestSaveAndLoad(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc", "inc")
	h, err := e.store.SaveGame(ctx, id)
	if err != nil || h.SavedAtSeq != 2 || h.SavedAt == "" {
		t.Fatalf("%v %+v", err, h)
	}
	rec := storedSave(t, e.records, h.SaveID)
	env, oerr := session.OpenEnvelope(rec.Blob)
	if oerr != nil {
		t.Fatal(oerr)
	}
	if env.KindID != "tally" || env.KindVersion != "1.0.0" || env.CampaignVersion != "1.0.0" || !env.ReplayCompatible ||
		env.SaveFormatVersion != session.SaveFormatVersion || env.EngineVersion != session.EngineVersion {
		t.Fatalf("envelope %+v", env)
	}
	miscased := bytes.Replace(rec.Blob, []byte(`"kindVersion"`), []byte(`"KindVersion"`), 1)
	if _, oerr := session.OpenEnvelope(miscased); oerr == nil || oerr.Code != core.ReasonMalformedInput {
		t.Fatalf("an envelope with a key in another case opened: %v", oerr)
	}
	if bytes.Contains(rec.Blob, []byte(`"p"`)) {
		t.Fatal("the profile id travelled in the envelope")
	}
	loaded := e.load(t, h.SaveID)
	if loaded.SessionID == id {
		t.Fatal("a load reused the session id")
	}
	src, dst := e.record(t, id), e.record(t, loaded.SessionID)
	if !bytes.Equal(src.Blob, dst.Blob) || dst.Revision != 0 || dst.ProfileID != "p" || !dst.ReplayCompatible {
		t.Fatalf("loaded record %+v", dst)
	}
	if string(dst.Initialization.KindProfileData) != string(src.Initialization.KindProfileData) {
		t.Fatal("initialization not carried through the save")
	}
	if _, err := e.store.LoadGame(ctx, "missing"); session.Code(err) != core.ReasonUnknownSave {
		t.Fatalf("missing save: %v", err)
	}
}

func TestLoadGameRefusesDamagedSaves(t *testing.T) {
	tests := []struct {
		name   string
		damage func(blob []byte) []byte
		code   string
	}{
		{"flipped byte in state", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"count":2`), []byte(`"count":9`), 1)
		}, core.ReasonInvalidState},
		{"replayCompatible flipped", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"replayCompatible":true`), []byte(`"replayCompatible":false`), 1)
		}, core.ReasonInvalidState},
		{"outer campaign version differs", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"campaignVersion":"1.0.0","checksum"`), []byte(`"campaignVersion":"2.0.0","checksum"`), 1)
		}, core.ReasonInvalidState},
		{"checksum replaced", func(b []byte) []byte {
			i := bytes.Index(b, []byte(`"checksum":"`)) + len(`"checksum":"`)
			c := append([]byte(nil), b...)
			c[i] = 'x'
			return c
		}, core.ReasonInvalidState},
		{"unknown save format", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"saveFormatVersion":1`), []byte(`"saveFormatVersion":7`), 1)
		}, core.ReasonSaveRequiresMigration},
		{"unknown serialization", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"serializationVersion":1`), []byte(`"serializationVersion":2`), 1)
		}, core.ReasonSaveRequiresMigration},
		{"kind migration fails", func(b []byte) []byte {
			return resealed(b, func(env *session.SaveEnvelope) { env.KindVersion = "0.5.0" })
		}, core.ReasonMigrationFailed},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, core.ReasonMalformedInput},
		{"not json", func([]byte) []byte { return []byte("hello") }, core.ReasonMalformedInput},
		{"extra field", func(b []byte) []byte { return append([]byte(`{"x":1,`), b[1:]...) }, core.ReasonMalformedInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			id := e.create(t, "p")
			e.submit(t, id, "inc", "inc")
			h, _ := e.store.SaveGame(ctx, id)
			rec := storedSave(t, e.records, h.SaveID)
			rec.Blob = tt.damage(rec.Blob)
			if err := e.records.PutSave(ctx, rec); err != nil {
				t.Fatal(err)
			}
			sessionsBefore := e.ids.NewSessionID()
			_, err := e.store.LoadGame(ctx, h.SaveID)
			wantCode(t, err, tt.code)
			after, _, _ := e.records.GetSave(ctx, h.SaveID)
			if !bytes.Equal(after.Blob, rec.Blob) {
				t.Fatal("a refused load overwrote the save")
			}
			next := e.ids.NewSessionID()
			if _, ok, _ := e.records.GetSession(ctx, next); ok || sessionsBefore == next {
				t.Fatal("ids out of step")
			}
			// Every session id minted between the two probes must be unwritten.
			for _, s := range []string{"session-2", "session-3"} {
				if _, ok, _ := e.records.GetSession(ctx, s); ok && s != sessionsBefore {
					t.Fatalf("a refused load wrote session %s", s)
				}
			}
		})
	}
}

// resealed edits a save envelope and recomputes its checksum, as a build
// that wrote those values would have.
func resealed(b []byte, edit func(*session.SaveEnvelope)) []byte {
	env, err := session.OpenEnvelope(b)
	if err != nil {
		panic(err)
	}
	edit(&env)
	env.Checksum = session.Checksum(env.ReplayCompatible, env.State)
	out, _ := json.Marshal(env)
	return out
}

func TestLoadGameMigratesAndStaysReplayIncompatible(t *testing.T) {
	records := session.NewMemoryRecords()
	profiles := session.NewMemoryProfiles()
	ids := &session.CountingRecordIDs{}
	old := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids})
	id := old.create(t, "p")
	old.submit(t, id, "inc")
	h, _ := old.store.SaveGame(ctx, id)

	// A later build holds only 3.0.0, which declares a migration from 1.0.0.
	v3 := epoch{version: "3.0.0", step: 2, title: "Tally III", migrates: []string{"1.0.0"}}
	now := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids, epochs: []epoch{v3}})
	loaded, err := now.store.LoadGame(ctx, h.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	rec := now.record(t, loaded.SessionID)
	if rec.ReplayCompatible {
		t.Fatal("a migrated load stayed replay-compatible")
	}
	if !strings.Contains(string(rec.Blob), `"campaignVersion":"3.0.0"`) {
		t.Fatalf("not restamped: %s", rec.Blob)
	}
	now.submit(t, loaded.SessionID, "inc")
	h2, _ := now.store.SaveGame(ctx, loaded.SessionID)
	saved := storedSave(t, records, h2.SaveID)
	env, _ := session.OpenEnvelope(saved.Blob)
	if env.ReplayCompatible {
		t.Fatal("replayCompatible false was not sticky through a further save")
	}
	again, err := now.store.LoadGame(ctx, h2.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	if now.record(t, again.SessionID).ReplayCompatible {
		t.Fatal("a second load made the lineage replay-compatible")
	}
	_, err = now.store.BranchSession(ctx, again.SessionID, 0)
	wantCode(t, err, core.ReasonInvalidState)
	_, err = now.store.CaptureSession(ctx, again.SessionID, "x")
	wantCode(t, err, core.ReasonInvalidState)

	t.Run("no migration declared", func(t *testing.T) {
		v4 := epoch{version: "4.0.0", step: 1, title: "Tally IV"}
		bare := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids, epochs: []epoch{v4}})
		_, err := bare.store.LoadGame(ctx, h.SaveID)
		wantCode(t, err, core.ReasonSaveRequiresMigration)
	})
	t.Run("kind migration", func(t *testing.T) {
		e := newEnv(t, envOptions{records: records, profiles: profiles, ids: ids})
		state := []byte(`{"actionLog":[],"campaignId":"tally","campaignVersion":"1.0.0","formatVersion":1,"gameId":"g","kindId":"tally","kindState":{"n":4},"seed":"s","status":"active"}`)
		blob := resealed(mustSeal(t, state), func(env *session.SaveEnvelope) { env.KindVersion = "0.9.0" })
		h, err := e.store.ImportSave(ctx, "p", blob)
		if err != nil {
			t.Fatal(err)
		}
		l := e.load(t, h.SaveID)
		if !strings.Contains(string(l.Scene.View.KindView), `"count":4`) || e.record(t, l.SessionID).ReplayCompatible {
			t.Fatalf("kind migration: %s", l.Scene.View.KindView)
		}
	})
}

func mustSeal(t *testing.T, state []byte) []byte {
	t.Helper()
	env := session.SaveEnvelope{SaveFormatVersion: 1, SerializationVersion: 1, EngineVersion: "x", KindID: "tally", KindVersion: "1.0.0",
		CampaignID: "tally", CampaignVersion: "1.0.0", ReplayCompatible: true, State: state}
	env.Checksum = session.Checksum(true, state)
	b, _ := json.Marshal(env)
	return b
}

func TestExportImport(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc", "inc", "inc")
	h, _ := e.store.SaveGame(ctx, id)
	doc, err := e.store.ExportSave(ctx, "p", h.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(doc, []byte(`"profileId"`)) {
		t.Fatal("an export carries the profile id")
	}
	if _, err := e.store.ExportSave(ctx, "q", h.SaveID); session.Code(err) != core.ReasonUnknownSave {
		t.Fatalf("another profile exported the save: %v", err)
	}
	other := newEnv(t, envOptions{})
	in, err := other.store.ImportSave(ctx, "q", doc)
	if err != nil {
		t.Fatal(err)
	}
	if in.SavedAtSeq != 3 {
		t.Fatalf("imported %+v", in)
	}
	list, _ := other.store.ListSaves(ctx, "q")
	if len(list) != 1 || list[0].SaveID != in.SaveID {
		t.Fatalf("list %+v", list)
	}
	l, err := other.store.LoadGame(ctx, in.SaveID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.store.BranchSession(ctx, l.SessionID, 1); err != nil {
		t.Fatalf("an imported save lost its initialization: %v", err)
	}
	t.Run("refused documents write nothing", func(t *testing.T) {
		tests := []struct {
			name string
			doc  []byte
			code string
		}{
			{"garbage", []byte("{}"), core.ReasonMalformedInput},
			{"tampered", bytes.Replace(doc, []byte(`"count":3`), []byte(`"count":8`), 1), core.ReasonInvalidState},
			{"unknown file format", []byte(`{"format":"storyloom.save/9","envelope":{}}`), core.ReasonSaveRequiresMigration},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := other.store.ImportSave(ctx, "z", tt.doc)
				wantCode(t, err, tt.code)
				if l, _ := other.store.ListSaves(ctx, "z"); len(l) != 0 {
					t.Fatal("a refused import was stored")
				}
			})
		}
	})
}

// TestExportedSaveChecksumCoversEveryByte changes, removes and duplicates
// each byte of an exported save in turn, its engineVersion,
// initialization and name included, and checks every such file is refused with
// nothing written; and that a file in the earlier format 1 still imports.
func TestExportedSaveChecksumCoversEveryByte(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create(t, "p")
	e.submit(t, id, "inc", "inc")
	h, _ := e.store.SaveGame(ctx, id)
	doc, err := e.store.ExportNamedSave(ctx, "p", h.SaveID, "At the light")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"format":"storyloom.save/2"`, `"fileChecksum":"`, `"engineVersion":`, `"initialization":`, `"name":"At the light"`} {
		if !bytes.Contains(doc, []byte(part)) {
			t.Fatalf("the export has no %s: %s", part, doc)
		}
	}
	other := newEnv(t, envOptions{})
	if _, err := other.store.ImportSave(ctx, "q", doc); err != nil {
		t.Fatalf("the export as written: %v", err)
	}
	edits := map[string]func(i int) []byte{
		"changed": func(i int) []byte { d := bytes.Clone(doc); d[i] ^= 0x01; return d },
		"removed": func(i int) []byte { return slices.Concat(doc[:i], doc[i+1:]) },
		"doubled": func(i int) []byte { return slices.Concat(doc[:i+1], doc[i:]) },
	}
	for name, edit := range edits {
		for i := range doc {
			if _, err := other.store.ImportSave(ctx, "z", edit(i)); err == nil {
				t.Errorf("byte %d (%q in %.40q) %s: the file was accepted", i, doc[i], doc[max(0, i-20):], name)
			}
		}
	}
	if l, _ := other.store.ListSaves(ctx, "z"); len(l) != 0 {
		t.Fatalf("refused imports stored %d saves", len(l))
	}

	t.Run("format 1 still imports", func(t *testing.T) {
		var file map[string]json.RawMessage
		if err := json.Unmarshal(doc, &file); err != nil {
			t.Fatal(err)
		}
		delete(file, "fileChecksum")
		file["format"] = json.RawMessage(`"storyloom.save/1"`)
		v1, _ := json.Marshal(file)
		in, err := other.store.ImportSave(ctx, "v1", v1)
		if err != nil {
			t.Fatalf("a format 1 file: %v", err)
		}
		l, err := other.store.LoadGame(ctx, in.SaveID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := other.store.BranchSession(ctx, l.SessionID, 1); err != nil {
			t.Fatalf("a format 1 file lost its initialization: %v", err)
		}
		file["fileChecksum"] = json.RawMessage(`"00"`)
		relabelled, _ := json.Marshal(file)
		_, err = other.store.ImportSave(ctx, "v1", relabelled)
		wantCode(t, err, core.ReasonInvalidState)
	})
}
