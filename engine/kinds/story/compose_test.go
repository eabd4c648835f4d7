package story

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
	"github.com/storyloom/storyloom/engine/internal/golden"
	"github.com/storyloom/storyloom/engine/validate"
)

// composeDir holds the example pack set: harbour-pack (a campaign that
// includes a chapter) and lantern-pack (a chapter attached to it).
const composeDir = "testdata/compose"

// readPack reads a pack directory as a host would: pack.json and every
// campaigns/<id>/campaign.json.
func readPack(t testing.TB, name string) content.Pack {
	t.Helper()
	dir := filepath.Join(composeDir, name)
	manifest, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := content.Pack{Path: filepath.Join(dir, "pack.json"), Manifest: manifest}
	files, err := filepath.Glob(filepath.Join(dir, "campaigns", "*", "campaign.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p.Campaigns = append(p.Campaigns, content.Source{Path: f, Campaign: data})
	}
	return p
}

func composedRegistry(t testing.TB) *core.Registry {
	t.Helper()
	reg, res := content.BuildPacks([]core.Kind{Kind{}}, readPack(t, "lantern-pack"), readPack(t, "harbour-pack"))
	if reg == nil {
		t.Fatalf("the example packs do not build: %v", res.Errors)
	}
	return reg
}

// TestComposedPlay plays the composed harbour: into the included bell
// tower through a composed id, its bound variable shared with the host,
// out through a bound exit, into the attached lantern chapter and back, and
// out to sea. Composed ids are what the state records.
func TestComposedPlay(t *testing.T) {
	reg := composedRegistry(t)
	if reg.Resolution == "" || strings.Join(reg.Order, ",") != "bell-tower,harbour-night,ferry-lantern" {
		t.Fatalf("resolution %q, order %v", reg.Resolution, reg.Order)
	}
	e := newEngine(t, reg, nil)
	s := mustCreate(t, e, "harbour-night", "compose-1")
	locked := func(id string) bool {
		acts, err := e.AvailableActions(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acts {
			if a.ID == id {
				return !a.Available
			}
		}
		t.Fatalf("no action %q", id)
		return false
	}
	if !locked("sail") {
		t.Fatal("sail is open before the bell was rung")
	}
	for _, a := range []string{"climb", "up"} {
		s = mustSubmit(t, e, s, a)
	}
	scene, err := e.Scene(s)
	if err != nil || scene.Body.Text != "The bell hangs above you, green with age." {
		t.Fatalf("scene %q, %v", scene.Body.Text, err)
	}
	s = mustSubmit(t, e, s, "ring")
	scene, _ = e.Scene(s)
	if scene.Body.Text != "Fog sits on the quay. Your courage stands at 3." || locked("sail") {
		t.Fatalf("back on the quay: %q", scene.Body.Text)
	}
	for _, a := range []string{"lantern", "fill", "light", "sail"} {
		s = mustSubmit(t, e, s, a)
	}
	ks := kindStateJSON(t, s)
	for _, want := range []string{`"bell::top":1`, `"unlockedAchievements":["bell::ringer"]`, `"lantern::oil":true`, `"endingId":"away"`} {
		if !strings.Contains(ks, want) {
			t.Errorf("state lacks %s: %s", want, ks)
		}
	}
	golden.Write(t, composedGolden, harness.FromState("harbour-night", s, nil))
}

// composedGolden holds the composed playthrough's fixture and bytes.
const composedGolden = "testdata/composed"

// TestComposedGolden replays the composed playthrough through the harness
// and compares its bytes and events.
func TestComposedGolden(t *testing.T) {
	reg := composedRegistry(t)
	golden.Fixtures(t, composedGolden, func(em core.Emitter) *core.Engine { return newEngine(t, reg, em) })
}

// TestComposedTiers: tiers 1 to 3 run on the composed content, so the
// module's text placeholders resolve to the bound host variable and the
// host's endings and attached choices are explored.
func TestComposedTiers(t *testing.T) {
	reg := composedRegistry(t)
	c := reg.Campaigns["harbour-night"]
	if vr := (Kind{}).ValidateCampaign(c, reg.Provenance["harbour-night"].Strings); !vr.OK || len(vr.Warnings) != 0 {
		t.Fatalf("%+v", vr)
	}
	ws, ex := validate.Tier3(Kind{}, c, validate.DefaultBudget())
	if len(ws) != 0 || len(ex.Terminals) != 2 || ex.Bounded {
		t.Fatalf("tier 3: %+v, %+v", ws, ex)
	}
}

// TestBindingRefused: a binding or payload naming what is not there is the
// kind's invalid_binding, at the include's path in the host's file.
func TestBindingRefused(t *testing.T) {
	module := content.Source{Path: "m.json", Campaign: campaignFile("module", "1.0.0", `{"start": "a", "variables": [{"id": "n", "type": "int", "initial": 0}],
	 "nodes": [{"id": "a", "type": "choice", "text": "A.", "choices": [{"id": "go", "text": "Go", "effects": [{"var": "n", "op": "increment", "value": 1}], "to": "end"}]},
	 {"id": "end", "type": "ending", "endingId": "end", "title": "End", "text": "End.", "outcome": "neutral"}]}`)}
	host := func(binding string) content.Source {
		file := strings.Replace(string(campaignFile("host", "1.0.0", `{"start": "h", "variables": [{"id": "flag", "type": "bool", "initial": false}],
		 "nodes": [{"id": "h", "type": "choice", "text": "H.", "choices": [{"id": "in", "text": "In", "to": "m::a"}]}]}`)),
			`"format": 1`, `"format": 1, "includes": [{"alias": "m", "ref": {"id": "module", "version": "1.0.0"}, "binding": `+binding+`}]`, 1)
		return content.Source{Path: "h.json", Campaign: []byte(file)}
	}
	tests := []struct{ name, binding, path string }{
		{"an exit that is no ending", `{"exits": {"a": "h"}}`, "includes[0].binding.exits.a"},
		{"an exit into no host node", `{"exits": {"end": "nowhere"}}`, "includes[0].binding.exits.end"},
		{"a variable of another type", `{"variables": {"n": "flag"}}`, "includes[0].binding.variables.n"},
		{"an entry that is no node", `{"entry": "b"}`, "includes[0].binding.entry"},
		{"an unknown field", `{"exit": {}}`, "includes[0].binding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, res := content.Build([]core.Kind{Kind{}}, module, host(tt.binding))
			if reg != nil {
				t.Fatal("built")
			}
			for _, e := range res.Errors {
				if e.Code == ReasonInvalidBinding && e.Path == tt.path && e.Details["file"] == "h.json" {
					return
				}
			}
			t.Fatalf("no invalid_binding at %s: %+v", tt.path, res.Errors)
		})
	}
}

// TestComposedFindingsPointIntoTheModule: a finding in a module's content
// is reported once, against the module's file at its own path, though both
// the module and the campaign composing it find it.
func TestComposedFindingsPointIntoTheModule(t *testing.T) {
	module := content.Source{Path: "m.json", Campaign: campaignFile("module", "1.0.0", `{"start": "a",
	 "nodes": [{"id": "a", "type": "choice", "text": "A.", "choices": [{"id": "go", "text": "Go", "to": "end"}]},
	 {"id": "side", "type": "choice", "text": "Side.", "choices": [{"id": "back", "text": "Back", "to": "a"}]},
	 {"id": "end", "type": "ending", "endingId": "end", "title": "End", "text": "End.", "outcome": "neutral"}]}`)}
	host := content.Source{Path: "h.json", Campaign: []byte(strings.Replace(string(campaignFile("host", "1.0.0", `{"start": "h",
	 "nodes": [{"id": "h", "type": "choice", "text": "H.", "choices": [{"id": "in", "text": "In", "to": "m::a"}]},
	 {"id": "done", "type": "ending", "endingId": "done", "title": "Done", "text": "Done.", "outcome": "win"}]}`)),
		`"format": 1`, `"format": 1, "includes": [{"alias": "m", "ref": {"id": "module", "version": "1.0.0"}, "binding": {"exits": {"end": "done"}}}]`, 1))}
	_, res := content.Build([]core.Kind{Kind{}}, module, host)
	side := 0
	for _, w := range res.Warnings {
		if w.Code == core.ReasonUnreachableContent && w.Path == "content.nodes.side" {
			side++
			if w.Details["file"] != "m.json" || w.Details["campaignId"] != "module" {
				t.Errorf("%+v", w)
			}
		}
	}
	if side != 1 {
		t.Fatalf("want one unreachable side node, reported against the module: %+v", res.Warnings)
	}
}

// TestAuthoredIDsCannotLookComposed: ':' in an authored id is refused.
func TestAuthoredIDsCannotLookComposed(t *testing.T) {
	_, res := content.Build([]core.Kind{Kind{}}, content.Source{Path: "x.json", Campaign: campaignFile("x", "1.0.0", `{"start": "a::b",
	 "nodes": [{"id": "a::b", "type": "ending", "endingId": "e", "title": "E", "text": "E.", "outcome": "win"}]}`)})
	if res.OK || res.Errors[0].Code != core.ReasonInvalidIdentifier || res.Errors[0].Path != "content.nodes.a::b.id" {
		t.Fatalf("%+v", res.Errors)
	}
}

// TestComposedEpochRestores: a composed campaign publishes with its
// includes and attachments in its epoch's form, and a fresh archive
// restores that form as it is, without the modules.
func TestComposedEpochRestores(t *testing.T) {
	reg := composedRegistry(t)
	kinds := []core.Kind{Kind{}}
	a, err := content.NewArchive(kinds, reg)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := a.Stored("harbour-night", "1.0.0")
	if !ok || len(s.Form.Campaign.Includes) != 1 || len(s.Form.Attachments) != 1 || s.Form.Attachments[0].Include.Alias != "lantern" {
		t.Fatalf("form %+v", s.Form)
	}
	if s.Form.Strings["bell-tower.node.top.text"] == "" || s.Form.Strings["ferry-lantern.title"] == "" {
		t.Fatal("the form lacks its modules' strings")
	}
	only, _ := content.Build(kinds, content.Source{Path: "x.json", Campaign: campaignFile("other", "1.0.0", `{"start": "a",
	 "nodes": [{"id": "a", "type": "ending", "endingId": "a", "title": "A", "text": "A.", "outcome": "win"}]}`)})
	fresh, err := content.NewArchive(kinds, only)
	if err != nil {
		t.Fatal(err)
	}
	if r := fresh.Restore(s); r.Outcome != content.Restored || fresh.Resolve("harbour-night", "1.0.0") == nil {
		t.Fatalf("%+v", r)
	}
}

// FuzzCompose: any binding on the example's include and any binding and
// payload on its attachment compose or are refused with findings, never a
// panic; what composes encodes, decodes back to the same bytes and starts a
// game whose actions list.
func FuzzCompose(f *testing.F) {
	f.Add([]byte(`{"exits": {"rung": "quay", "fled": "quay"}, "variables": {"courage": "courage"}}`), []byte(`{"exits": {"lit": "quay"}}`), []byte(`{"node": "quay", "choice": "lantern"}`))
	f.Add([]byte(`{"entry": "top", "variables": {"courage": "nope"}}`), []byte(`{"entry": "shed"}`), []byte(`{"node": "away", "choice": "x", "labelKey": "ferry-lantern.title"}`))
	f.Add([]byte(`null`), []byte(`{}`), []byte(`{"node": "quay", "choice": "climb"}`))
	harbour, lantern := readPack(f, "harbour-pack"), readPack(f, "lantern-pack")
	f.Fuzz(func(t *testing.T, binding, attached, payload []byte) {
		host := harbour
		host.Campaigns = append([]content.Source(nil), harbour.Campaigns...)
		for i, src := range host.Campaigns {
			if strings.HasSuffix(src.Path, filepath.Join("harbour-night", "campaign.json")) {
				var c map[string]any
				if err := json.Unmarshal(src.Campaign, &c); err != nil {
					t.Fatal(err)
				}
				c["includes"].([]any)[0].(map[string]any)["binding"] = json.RawMessage(binding)
				b, err := json.Marshal(c)
				if err != nil {
					return // not JSON: nothing a file could hold
				}
				host.Campaigns[i].Campaign = b
			}
		}
		var m map[string]any
		if err := json.Unmarshal(lantern.Manifest, &m); err != nil {
			t.Fatal(err)
		}
		att := m["attachments"].([]any)[0].(map[string]any)
		att["include"].(map[string]any)["binding"] = json.RawMessage(attached)
		att["payload"] = json.RawMessage(payload)
		pack := lantern
		var err error
		if pack.Manifest, err = json.Marshal(m); err != nil {
			return
		}
		reg, res := content.BuildPacks([]core.Kind{Kind{}}, host, pack)
		if reg == nil {
			if res.OK || len(res.Errors) == 0 {
				t.Fatalf("refused without an error: %+v", res)
			}
			return
		}
		c := reg.Campaigns["harbour-night"]
		b, err := json.Marshal(c.Content)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Kind{}.DecodeContent(b)
		if err != nil {
			t.Fatalf("composed content does not decode: %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(back); string(b2) != string(b) {
			t.Fatalf("round trip:\n%s\n%s", b, b2)
		}
		e := newEngine(t, reg, nil)
		s := mustCreate(t, e, "harbour-night", "fuzz")
		if _, err := e.AvailableActions(s); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAnAttachmentOnAModuleReachesItsHosts: a pack attaching a chapter to
// a module reaches every campaign that includes the module, since a module
// is composed, attachments and all, before its hosts (§10.4).
func TestAnAttachmentOnAModuleReachesItsHosts(t *testing.T) {
	lantern := readPack(t, "lantern-pack")
	lantern.Manifest = []byte(strings.Replace(string(lantern.Manifest), `"hostCampaignId": "harbour-night"`, `"hostCampaignId": "bell-tower"`, 1))
	lantern.Manifest = []byte(strings.Replace(string(lantern.Manifest), `{"exits": {"lit": "quay"}}`, `{"exits": {"lit": "top"}}`, 1))
	lantern.Manifest = []byte(strings.Replace(string(lantern.Manifest), `"node": "quay"`, `"node": "top"`, 1))
	reg, res := content.BuildPacks([]core.Kind{Kind{}}, readPack(t, "harbour-pack"), lantern)
	if reg == nil {
		t.Fatalf("%+v", res.Errors)
	}
	top := reg.Campaigns["harbour-night"].Content.(*Content).NodeByID("bell::top")
	if top == nil || len(top.Choices) != 2 || top.Choices[1].To != "bell::lantern::shed" {
		t.Fatalf("the host's copy of the module lacks the attachment: %+v", top)
	}
	if reg.Campaigns["harbour-night"].Content.(*Content).NodeByID("bell::lantern::lit") == nil {
		t.Fatal("the attached chapter is not composed into the host")
	}
}
