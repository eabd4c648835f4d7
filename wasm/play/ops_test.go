//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// TestPlainImportArgsReadAsDecodeDoes checks the import's argument reader
// against the strict decoder: whatever it reads, decode reads the same
// file and name, and what it leaves goes to decode.
func TestPlainImportArgsReadAsDecodeDoes(t *testing.T) {
	file := `{"envelope":{"state":{"actionLog":[{"a":"x\\ny"}]}},"name":"Ünï \"q\""}`
	whole, _ := json.Marshal(map[string]string{"data": file})
	named, _ := json.Marshal(struct {
		Data string `json:"data"`
		Name string `json:"name"`
	}{file, "my save ✓"})
	plainReadsAsDecode(t, []plainCase{
		{string(whole), true},
		{string(named), true},
		{`{"data":""}`, true},
		{`{"data":"a\tb"}`, false},
		{`{"data":"a\u0041"}`, false},
		{`{"data":"a\/b"}`, false},
		{"{\"data\":\"a\x01\"}", false},
		{"{\"data\":\"a\xff\"}", false},
		{`{"data":"a","name":"x\"y"}`, false},
		{`{"name":"x","data":"a"}`, false},
		{`{"data":"a", "name":"x"}`, false},
		{`{"data":"a"} `, false},
		{`{"data":"a","extra":1}`, false},
		{`{"data":"a`, false},
		{`{"data":"a\`, false},
	}, func(fast, slow *importArgs) bool {
		return string(fast.data) == slow.Data && fast.Name == slow.Name && fast.Data == ""
	})
}

// plainCase is an argument and whether the fast reader reads it.
type plainCase struct {
	arg   string
	plain bool
}

// plainReadsAsDecode checks a fast argument reader against the strict
// decoder: plain must read each case's argument or leave it as the case
// says, and what it reads, decode must read too, the same (same says
// whether the two readings agree).
func plainReadsAsDecode[A any, P interface {
	*A
	plain([]byte) bool
}](t *testing.T, cases []plainCase, same func(fast, slow *A) bool) {
	t.Helper()
	for _, tt := range cases {
		var fast, slow A
		if got := P(&fast).plain([]byte(tt.arg)); got != tt.plain {
			t.Errorf("%s: plain %v, want %v", tt.arg, got, tt.plain)
			continue
		}
		if !tt.plain {
			continue
		}
		if err := decode(json.RawMessage(tt.arg), &slow); err != nil {
			t.Errorf("%s: decode refused what plain read: %v", tt.arg, err)
		} else if !same(&fast, &slow) {
			t.Errorf("%s: plain %+v, decode %+v", tt.arg, fast, slow)
		}
	}
}

// TestPlainActionArgsReadAsDecodeDoes checks the choice path's argument
// reader against the strict decoder: whatever it reads, decode reads the
// same, and what it leaves (any other shape) goes to decode.
func TestPlainActionArgsReadAsDecodeDoes(t *testing.T) {
	plainReadsAsDecode(t, []plainCase{
		{`{"sessionId":"s-1","actionId":"go"}`, true},
		{`{"sessionId":"s-1","actionId":"go","params":{}}`, true},
		{`{"sessionId":"","actionId":"ünï ✓"}`, true},
		{`{"sessionId":"s-1","actionId":"go","params":{"n":1}}`, false},
		{`{"actionId":"go","sessionId":"s-1"}`, false},
		{`{"sessionId":"s-1", "actionId":"go"}`, false},
		{`{"sessionId":"s\"1","actionId":"go"}`, false},
		{`{"sessionId":"s\\","actionId":"go"}`, false},
		{"{\"sessionId\":\"s\x01\",\"actionId\":\"go\"}", false},
		{"{\"sessionId\":\"s\xff\",\"actionId\":\"go\"}", false},
		{`{"sessionId":"s-1","actionId":"go"} `, false},
		{`{"sessionId":"s-1","actionId":"go","extra":1}`, false},
		{`{"sessionId":"s-1","actionId":"go"`, false},
	}, func(fast, slow *actionArgs) bool { return reflect.DeepEqual(fast, slow) })
}

// TestExportFileName: a save file is named by its campaign, its slot's name
// and the minute it was saved, with no fraction of a second.
func TestExportFileName(t *testing.T) {
	tests := []struct {
		name, slot, at, want string
	}{
		{"named", "At the light — Tuesday!", "2026-12-03T13:30:09.123456789Z", "storyloom-gannet-rock-at-the-light-tuesday-20261203-1330.json"},
		{"unnamed", "", "2026-12-03T13:30:09.000000001Z", "storyloom-gannet-rock-20261203-1330.json"},
		{"accented", "Café Noël", "2026-01-02T03:04:05Z", "storyloom-gannet-rock-café-noël-20260102-0304.json"},
		{"bad stamp", "x", "yesterday", "storyloom-gannet-rock-x.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exportFileName("gannet-rock", tt.slot, tt.at); got != tt.want {
				t.Errorf("exportFileName = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAnActionsAnswerReadsAsEncodingJSON(t *testing.T) {
	scene := &core.Scene{GameID: "g", Status: core.StatusActive,
		Body:    core.SceneBody{TextKey: "k", Text: "Text <with> \"quotes\"", Params: map[string]any{"n": 2.0}},
		Actions: []core.AvailableAction{{ID: "a", LabelKey: "l", Available: true}, {ID: "b", LabelKey: "m", ReasonKey: "r"}},
		View:    core.PlayerView{GameID: "g", Status: core.StatusActive, KindView: json.RawMessage(`{"node":"n"}`)}}
	tests := []struct {
		name string
		out  actionOut
	}{
		{"accepted", actionOut{ActionResult: session.ActionResult{OK: true, Scene: scene, Errors: []core.ValidationError{}, Warnings: []core.ValidationWarning{},
			Changes: []core.StateChange{}, Messages: []core.OutcomeMessage{}}, News: &newsOut{Achievements: []achievementInfo{{ID: "x", Unlocked: true, New: true}}}}},
		{"plain", actionOut{ActionResult: session.ActionResult{OK: true, Scene: scene, Errors: []core.ValidationError{}, Warnings: []core.ValidationWarning{},
			Changes: []core.StateChange{}, Messages: []core.OutcomeMessage{}}}},
		{"plain but for a change", actionOut{ActionResult: session.ActionResult{OK: true, Scene: scene, Errors: []core.ValidationError{}, Warnings: []core.ValidationWarning{},
			Changes: []core.StateChange{{Path: "gold", Visible: true}}, Messages: []core.OutcomeMessage{}}}},
		{"nil lists", actionOut{ActionResult: session.ActionResult{OK: true, Scene: scene}}},
		{"refused", actionOut{ActionResult: session.ActionResult{Errors: []core.ValidationError{{Code: "c", Message: "m"}}}, Error: &wireError{Code: "c", Message: "m"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want any
			if err := json.Unmarshal(respond(tt.out, nil, nil), &got); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %v\nwant %v", got, want)
			}
		})
	}
}

// TestStampIsTheLayout checks stamp writes what the layout writes.
func TestStampIsTheLayout(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2026, 12, 3, 19, 4, 5, 7, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(12026, 1, 2, 3, 4, 5, 6, time.UTC),
		time.Unix(1764789000, 123456000).UTC(),
	} {
		if got, want := stamp(tm), tm.Format("2006-01-02T15:04:05.000000000Z"); got != want {
			t.Errorf("stamp(%v) = %s, want %s", tm, got, want)
		}
	}
}

// published compiles the campaign files at paths, as an author's build
// does, and returns them as the page hands them over: each campaign's
// built document with its index entry, and the manifest digest.
func published(t *testing.T, paths ...string) ([]campaignDoc, string) {
	t.Helper()
	var sources []content.Source
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, content.Source{Path: p, Campaign: data})
	}
	reg, res := content.Build(kinds(), sources...)
	if !res.OK {
		t.Fatal(res.Errors)
	}
	docs, err := content.Built(kinds(), reg)
	if err != nil {
		t.Fatal(err)
	}
	var campaigns []campaignDoc
	var entries []content.ManifestEntry
	for _, d := range docs {
		b, _ := json.Marshal(d)
		campaigns = append(campaigns, campaignDoc{ID: d.Form.Campaign.ID, Built: string(b), Version: d.Form.Campaign.Version, Digest: d.Digest})
		entries = append(entries, content.ManifestEntry{ID: d.Form.Campaign.ID, Version: d.Form.Campaign.Version, Digest: d.Digest})
	}
	manifest, err := content.ManifestDigest(entries)
	if err != nil {
		t.Fatal(err)
	}
	return campaigns, manifest
}

// TestACampaignIncludingAnotherPlaysComposed: the author's build composed
// a campaign with the chapter it includes; the page hands over the built
// documents, and a game enters the chapter by its composed node.
func TestACampaignIncludingAnotherPlaysComposed(t *testing.T) {
	const dir = "../../engine/kinds/story/testdata/compose/harbour-pack/campaigns/"
	campaigns, manifest := published(t, dir+"harbour-night/campaign.json", dir+"bell-tower/campaign.json")
	arg, _ := json.Marshal(initArgs{Campaigns: campaigns, Storage: "memory", ManifestDigest: manifest})
	ctx := context.Background()
	if _, err := opInit(ctx, arg); err != nil {
		t.Fatal(err)
	}
	out, err := opCreateSession(ctx, json.RawMessage(`{"campaignId":"harbour-night","seed":"s"}`))
	if err != nil {
		t.Fatal(err)
	}
	h := out.(handleOut)
	res, err := opSubmitAction(ctx, json.RawMessage(`{"sessionId":"`+h.SessionID+`","actionId":"climb"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), "The stairs wind up into the dark. Courage: 1.") {
		t.Fatalf("the chapter's scene is not shown: %s", b)
	}
}

// TestInitVerifiesBuiltDocuments: the page hands over each campaign's
// built document and the index's manifest digest. Intact, both campaigns
// are offered and a game plays the document; a document edited after the
// build leaves its campaign out with invalid_state while the other plays,
// and one without its provenance with content_provenance_missing;
// an index that does not match its manifest digest, or whose pack set
// does not match its resolution, is refused.
func TestInitVerifiesBuiltDocuments(t *testing.T) {
	campaigns, manifest := published(t, "../../bundle/testdata/update/1.0.0/ferry/campaign.json", "../../bundle/testdata/update/1.0.0/first-flat/campaign.json")
	ctx := context.Background()
	initWith := func(cs []campaignDoc, digest string, packs ...content.PublishedPack) (map[string]any, error) {
		a := initArgs{Campaigns: cs, Storage: "memory", ManifestDigest: digest}
		if packs != nil {
			a.Packs, a.Resolution = packs, "sha256:0000"
		}
		arg, _ := json.Marshal(a)
		out, err := opInit(ctx, arg)
		if err != nil {
			return nil, err
		}
		return out.(map[string]any), nil
	}

	out, err := initWith(campaigns, manifest)
	if err != nil {
		t.Fatal(err)
	}
	if got := out["campaigns"].([]string); len(got) != 2 || len(out["skipped"].([]skipped)) != 0 {
		t.Fatalf("intact: campaigns %v, skipped %v", got, out["skipped"])
	}
	started, err := opCreateSession(ctx, json.RawMessage(`{"campaignId":"ferry","seed":"s"}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(started); !strings.Contains(string(b), "The ferry waits.") {
		t.Fatalf("the game does not play the built document: %s", b)
	}

	tampered := slices.Clone(campaigns)
	tampered[0].Built = strings.Replace(tampered[0].Built, "The ferry waits.", "The ferry leaves.", 1)
	out, err = initWith(tampered, manifest)
	if err != nil {
		t.Fatal(err)
	}
	skips := out["skipped"].([]skipped)
	if got := out["campaigns"].([]string); len(got) != 1 || got[0] != "first-flat" || len(skips) != 1 || skips[0].ID != "ferry" || skips[0].Code != core.ReasonInvalidState {
		t.Fatalf("tampered: campaigns %v, skipped %+v", got, skips)
	}
	if _, err := opCreateSession(ctx, json.RawMessage(`{"campaignId":"ferry","seed":"s"}`)); err == nil {
		t.Fatal("the tampered campaign still starts")
	}

	// A document without its provenance, re-digested with its index as
	// another tool's build would be: left out with
	// content_provenance_missing.
	var doc content.StoredEpoch
	if err := json.Unmarshal([]byte(campaigns[0].Built), &doc); err != nil {
		t.Fatal(err)
	}
	doc.Form.Strings = nil
	doc.Digest, _ = content.EpochDigest(doc.Form)
	built, _ := json.Marshal(doc)
	bare := slices.Clone(campaigns)
	bare[0].Built, bare[0].Digest = string(built), doc.Digest
	bareManifest, _ := content.ManifestDigest([]content.ManifestEntry{
		{ID: bare[0].ID, Version: bare[0].Version, Digest: bare[0].Digest}, {ID: bare[1].ID, Version: bare[1].Version, Digest: bare[1].Digest}})
	if out, err = initWith(bare, bareManifest); err != nil {
		t.Fatal(err)
	}
	skips = out["skipped"].([]skipped)
	if got := out["campaigns"].([]string); len(got) != 1 || len(skips) != 1 || skips[0].ID != "ferry" || skips[0].Code != core.ReasonContentProvenanceMissing {
		t.Fatalf("without provenance: campaigns %v, skipped %+v", got, skips)
	}

	_, err = initWith(campaigns, "sha256:0000")
	var be *bridgeError
	if !errors.As(err, &be) || be.Code != core.ReasonInvalidState {
		t.Fatalf("a wrong manifest digest gives %v", err)
	}
	pack := content.PublishedPack{ID: "p", Version: "1.0.0", Campaigns: []content.ManifestEntry{{ID: "ferry", Version: campaigns[0].Version, Digest: campaigns[0].Digest}}}
	_, err = initWith(campaigns, manifest, pack)
	if !errors.As(err, &be) || be.Code != core.ReasonInvalidState || !strings.Contains(be.Message, "resolution") {
		t.Fatalf("a pack set that does not match its resolution gives %v", err)
	}
}
