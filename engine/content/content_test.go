package content_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/testkind"
)

var kinds = []core.Kind{testkind.Kind{}}

func src(path, body string) content.Source { return content.Source{Path: path, Campaign: []byte(body)} }

// refused fails t unless the build was refused with a finding of code at
// path for which also (when not nil) holds, and returns that finding.
func refused(t *testing.T, reg *core.Registry, res core.ValidationResult, code, path string, also func(core.ValidationError) bool) core.ValidationError {
	t.Helper()
	if reg != nil || res.OK {
		t.Fatal("built")
	}
	for _, e := range res.Errors {
		if e.Code == code && e.Path == path && (also == nil || also(e)) {
			return e
		}
	}
	t.Fatalf("no such %s at %q in %+v", code, path, res.Errors)
	return core.ValidationError{}
}

func TestBuildRegistry(t *testing.T) {
	reg, res := content.Build(kinds,
		content.Source{Path: "a.json", Campaign: testkind.Campaign("alpha", "1.0.0", 3),
			Translations: map[string][]byte{"fr": []byte(`{"alpha.title":"Compteur alpha"}`)}},
		content.Source{Path: "b.json", Campaign: testkind.Campaign("beta", "2.1.0", 4)},
	)
	if !res.OK || reg == nil {
		t.Fatalf("build: %v", res.Errors)
	}
	if strings.Join(reg.Order, ",") != "alpha,beta" {
		t.Fatalf("order = %v", reg.Order)
	}
	if reg.Strings["alpha.title"] != "Counter alpha" || reg.Strings["alpha.action.inc"] != "Add one" {
		t.Fatalf("authored strings missing: %v", reg.Strings["alpha.title"])
	}
	if reg.Strings["core.reason.unknown_action"] == "" || reg.Strings["counter.reason.goal_not_reached"] == "" {
		t.Fatal("engine strings missing from the merged table")
	}
	if reg.Catalogs["fr"]["alpha.title"] != "Compteur alpha" {
		t.Fatal("translation missing")
	}
	if got := reg.Locales("alpha"); strings.Join(got, ",") != "en,fr" {
		t.Fatalf("locales = %v", got)
	}
	if p := reg.Provenance["alpha"]; p == nil || p.Strings["core.reason.unknown_action"] != "" || p.Strings["alpha.title"] == "" {
		t.Fatal("provenance must hold authored strings only")
	}
	// One missing translation is a warning, not an error.
	found := false
	for _, w := range res.Warnings {
		found = found || w.Code == core.ReasonMissingTranslation && w.Details["campaignId"] == "alpha"
	}
	if !found {
		t.Fatalf("no missing_translation warning: %v", res.Warnings)
	}
}

func TestBuildRefuses(t *testing.T) {
	good := string(testkind.Campaign("alpha", "1.0.0", 3))
	tests := []struct {
		name    string
		sources []content.Source
		code    string
		path    string
	}{
		{"not json", []content.Source{src("x.json", "{")}, core.ReasonMalformedInput, ""},
		{"unknown field", []content.Source{src("x.json", strings.Replace(good, `"format":1`, `"format":1,"colour":"red"`, 1))}, core.ReasonMalformedInput, ""},
		{"key in another case", []content.Source{src("x.json", strings.Replace(good, `"format":1`, `"Format":1`, 1))}, core.ReasonMalformedInput, ""},
		{"content key in another case", []content.Source{src("x.json", strings.Replace(good, `"goal":`, `"Goal":`, 1))}, core.ReasonMalformedInput, "content"},
		{"no format", []content.Source{src("x.json", strings.Replace(good, `"format":1,`, ``, 1))}, core.ReasonMalformedInput, "format"},
		{"future format", []content.Source{src("x.json", strings.Replace(good, `"format":1`, `"format":2`, 1))}, core.ReasonUnsupportedVersion, "format"},
		{"bad id", []content.Source{src("x.json", strings.Replace(good, `"id":"alpha"`, `"id":"Alpha_1"`, 1))}, core.ReasonInvalidIdentifier, "id"},
		{"bad version", []content.Source{src("x.json", strings.Replace(good, `"version":"1.0.0"`, `"version":"1 0"`, 1))}, core.ReasonInvalidIdentifier, "version"},
		{"unknown kind", []content.Source{src("x.json", strings.Replace(good, `"kind":"counter"`, `"kind":"chess"`, 1))}, core.ReasonUnknownKind, "kind"},
		{"duplicate id", []content.Source{src("x.json", good), src("y.json", good)}, core.ReasonDuplicateCampaignID, "id"},
		{"kind refusal", []content.Source{src("x.json", string(testkind.Campaign("alpha", "1.0.0", -1)))}, core.ReasonInvalidState, "content.goal"},
		{"reserved key", []content.Source{src("x.json", strings.Replace(good, `"step":"Add one"`, `"step":{"key":"core.reason.unknown_action","text":"Mine"}`, 1))}, core.ReasonProtectedStringKey, "content"},
		{"reserved namespace", []content.Source{src("x.json", strings.Replace(good, `"step":"Add one"`, `"step":{"key":"core.reason.not_yet_a_code","text":"Mine"}`, 1))}, core.ReasonProtectedStringKey, "content"},
		{"alias namespace", []content.Source{src("x.json", strings.Replace(good, `"step":"Add one"`, `"step":{"key":"~a.b","text":"Mine"}`, 1))}, core.ReasonProtectedStringKey, "content"},
		{"bad key", []content.Source{src("x.json", strings.Replace(good, `"step":"Add one"`, `"step":{"key":"Bad Key","text":"Mine"}`, 1))}, core.ReasonInvalidLocKey, "content"},
		{"empty text", []content.Source{src("x.json", strings.Replace(good, `"step":"Add one"`, `"step":""`, 1))}, core.ReasonMissingStringKey, "content"},
		{"cross-campaign conflict", []content.Source{
			src("x.json", strings.Replace(good, `"step":"Add one"`, `"step":{"key":"shared.step","text":"One"}`, 1)),
			src("y.json", strings.Replace(strings.Replace(good, `"id":"alpha"`, `"id":"beta"`, 1), `"step":"Add one"`, `"step":{"key":"shared.step","text":"Two"}`, 1)),
		}, core.ReasonStringConflict, "strings.shared.step"},
		{"translation of unknown key", []content.Source{{Path: "x.json", Campaign: []byte(good), Translations: map[string][]byte{"fr": []byte(`{"nope.key":"x"}`)}}}, core.ReasonMissingStringKey, "strings/fr.json#nope.key"},
		{"bad locale", []content.Source{{Path: "x.json", Campaign: []byte(good), Translations: map[string][]byte{"French": []byte(`{}`)}}}, core.ReasonInvalidIdentifier, "strings/French.json"},
		{"too large", []content.Source{src("x.json", `{"x":"`+strings.Repeat("a", content.MaxCampaignBytes)+`"}`)}, core.ReasonInputTooLarge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, res := content.Build(kinds, tt.sources...)
			e := refused(t, reg, res, tt.code, tt.path, nil)
			if e.Message == "" || e.Details["file"] == nil {
				t.Fatalf("finding lacks a message or file: %+v", e)
			}
		})
	}
}

type silentKind struct{ testkind.Kind }

func (silentKind) ReasonMessages() map[core.LocKey]string { return map[core.LocKey]string{} }

func TestBuildRefusesAKindWithoutMessages(t *testing.T) {
	_, res := content.Build([]core.Kind{silentKind{}}, src("x.json", string(testkind.Campaign("alpha", "1.0.0", 3))))
	if res.OK || res.Errors[0].Code != core.ReasonMissingKindReasonMessage {
		t.Fatalf("got %v", res.Errors)
	}
}

func build(t *testing.T, id, version string, goal int) *core.Registry {
	t.Helper()
	reg, res := content.Build(kinds, content.Source{Campaign: testkind.Campaign(id, version, goal)})
	if !res.OK {
		t.Fatal(res.Errors)
	}
	return reg
}

func TestArchivePublishAndRestore(t *testing.T) {
	v1 := build(t, "tally", "1.0.0", 10)
	a, err := content.NewArchive(kinds, v1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Current("tally") != "1.0.0" || a.Resolve("tally", "1.0.0") == nil || a.Resolve("tally", "2.0.0") != nil {
		t.Fatal("initial publication not held")
	}
	// An identical republish adds nothing; other content under a held
	// version is refused.
	if res := a.Publish(build(t, "tally", "1.0.0", 10)); !res.OK || len(res.Value) != 0 {
		t.Fatalf("republish: %+v", res)
	}
	if res := a.Publish(build(t, "tally", "1.0.0", 11)); res.OK || res.Errors[0].Code != core.ReasonContentVersionConflict {
		t.Fatalf("conflict: %+v", res)
	}
	if res := a.Publish(build(t, "tally", "2.0.0", 4)); !res.OK || len(res.Value) != 1 || a.Current("tally") != "2.0.0" {
		t.Fatalf("publish 2.0.0: %+v", res)
	}
	if res := a.Publish(&core.Registry{}); res.OK || res.Errors[0].Code != core.ReasonContentProvenanceMissing {
		t.Fatalf("no provenance: %+v", res)
	}

	stored, ok := a.Stored("tally", "1.0.0")
	if !ok || stored.Publication.KindID != "counter" || len(stored.Digest) != 64 {
		t.Fatalf("stored = %+v", stored)
	}
	// A new process restores the epoch from exactly what was persisted.
	fresh, err := content.NewArchive(kinds, build(t, "tally", "2.0.0", 4))
	if err != nil {
		t.Fatal(err)
	}
	if r := fresh.Restore(stored); r.Outcome != content.Restored {
		t.Fatalf("restore: %+v", r)
	}
	if fresh.Resolve("tally", "1.0.0") == nil || fresh.Current("tally") != "2.0.0" {
		t.Fatal("restore must add the epoch without moving current")
	}
	tampered := stored
	tampered.Form.Strings = map[core.LocKey]string{"tally.title": "Hacked", "tally.action.inc": "Add one"}
	if r := fresh.Restore(tampered); r.Outcome != content.IntegrityFailure {
		t.Fatalf("tampered restore: %+v", r)
	}
	bad := stored
	bad.Form.Campaign.Content = []byte(`{"start":0,"goal":-3,"stepKey":"tally.action.inc","achieveAt":5}`)
	bad.Form.Campaign.Version = "0.1.0"
	bad.Digest, _ = content.EpochDigest(bad.Form)
	if r := fresh.Restore(bad); r.Outcome != content.Unsupported || r.Warnings[0].Code != core.ReasonEpochUnsupported ||
		*r.RejectedBy != (content.KindRef{KindID: "counter", KindVersion: kinds[0].Version()}) || *r.PublishedBy != *r.RejectedBy {
		t.Fatalf("unsupported restore: %+v", r)
	}
	if got := fresh.Versions("tally"); strings.Join(got, ",") != "1.0.0,2.0.0" {
		t.Fatalf("versions = %v", got)
	}
}

func TestEpochDigestIgnoresEngineWording(t *testing.T) {
	a1, _ := content.NewArchive(kinds, build(t, "tally", "1.0.0", 10))
	s1, _ := a1.Stored("tally", "1.0.0")
	// Another registry holding the same campaign beside a second one
	// publishes the same digest.
	reg, res := content.Build(kinds, content.Source{Campaign: testkind.Campaign("tally", "1.0.0", 10)}, content.Source{Campaign: testkind.Campaign("other", "1.0.0", 2)})
	if !res.OK {
		t.Fatal(res.Errors)
	}
	a2, _ := content.NewArchive(kinds, reg)
	s2, _ := a2.Stored("tally", "1.0.0")
	if s1.Digest != s2.Digest {
		t.Fatal("an epoch's digest depends on other campaigns")
	}
}

func FuzzBuild(f *testing.F) {
	f.Add(testkind.Campaign("alpha", "1.0.0", 3), []byte(`{"alpha.title":"x"}`))
	f.Add([]byte(`{"format":1,"id":"a","kind":"counter","version":"1","title":{"key":"a.t","text":"T"},"content":{"goal":2,"step":"s"}}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, campaign, translation []byte) {
		reg, res := content.Build(kinds, content.Source{Path: "f.json", Campaign: campaign, Translations: map[string][]byte{"fr": translation}})
		if (reg != nil) != res.OK {
			t.Fatalf("registry %v with ok=%v", reg != nil, res.OK)
		}
		for _, e := range res.Errors {
			if e.Code == "" || e.Message == "" {
				t.Fatalf("finding without code or message: %+v", e)
			}
		}
	})
}

func TestReopen(t *testing.T) {
	first, err := content.Reopen(kinds, build(t, "tally", "1.0.0", 10), nil)
	if err != nil || len(first.Persist) != 1 || len(first.Warnings) != 0 {
		t.Fatalf("%v %+v", err, first)
	}
	s1 := first.Persist[0]
	second, err := content.Reopen(kinds, build(t, "tally", "2.0.0", 4), []content.StoredEpoch{s1})
	if err != nil || len(second.Persist) != 1 || second.Persist[0].Form.Campaign.Version != "2.0.0" || len(second.Warnings) != 0 {
		t.Fatalf("%v %+v", err, second)
	}
	a := second.Archive
	if a.Resolve("tally", "1.0.0") == nil || a.Current("tally") != "2.0.0" {
		t.Fatal("the kept epoch is not held beside the served one")
	}
	t.Run("nothing new to persist", func(t *testing.T) {
		r, _ := content.Reopen(kinds, build(t, "tally", "2.0.0", 4), []content.StoredEpoch{second.Persist[0], s1})
		if len(r.Persist) != 0 || len(r.Warnings) != 0 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a served version kept with other content", func(t *testing.T) {
		r, _ := content.Reopen(kinds, build(t, "tally", "1.0.0", 11), []content.StoredEpoch{s1})
		if len(r.Persist) != 1 || len(r.Warnings) != 1 || r.Warnings[0].Code != core.ReasonContentVersionConflict {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("an epoch this build cannot run", func(t *testing.T) {
		bad := s1
		bad.Form.Campaign.Content = []byte(`{"start":0,"goal":-3,"stepKey":"tally.action.inc","achieveAt":5}`)
		bad.Form.Campaign.Version = "0.1.0"
		bad.Digest, _ = content.EpochDigest(bad.Form)
		r, _ := content.Reopen(kinds, build(t, "tally", "2.0.0", 4), []content.StoredEpoch{bad})
		if len(r.Warnings) != 1 || r.Warnings[0].Code != core.ReasonEpochUnsupported || r.Archive.Resolve("tally", "0.1.0") != nil {
			t.Fatalf("%+v", r)
		}
		if !r.Archive.Unsupported("tally", "0.1.0") || r.Archive.Unsupported("tally", "2.0.0") {
			t.Fatal("the archive does not remember which kept version it cannot run")
		}
		d := r.Warnings[0].Details
		if d["campaignId"] != "tally" || d["campaignVersion"] != "0.1.0" || d["potentialRegression"] != true {
			t.Fatalf("details %+v", d)
		}
	})
	t.Run("a corrupt stored epoch", func(t *testing.T) {
		bad := s1
		bad.Digest = strings.Repeat("0", 64)
		r, _ := content.Reopen(kinds, build(t, "tally", "2.0.0", 4), []content.StoredEpoch{bad})
		if len(r.Warnings) != 1 || r.Warnings[0].Code != core.ReasonInvalidState || r.Archive.Resolve("tally", "1.0.0") != nil {
			t.Fatalf("%+v", r)
		}
	})
}

// pinned is the counter kind without its migrations: a kind whose games
// stay on the version they started.
type pinned struct{ core.Kind }

func TestBuildChecksTheMigration(t *testing.T) {
	v2 := strings.Replace(string(testkind.Campaign("alpha", "2.0.0", 3)), `"format":1`, `"format":1,"migration":{"from":["1.0.0"]}`, 1)
	if _, res := content.Build(kinds, src("x.json", v2)); !res.OK {
		t.Fatalf("a migration the kind applies was refused: %v", res.Errors)
	}
	_, res := content.Build([]core.Kind{pinned{testkind.Kind{}}}, src("x.json", v2))
	if res.OK || res.Errors[0].Code != core.ReasonMigrationUnsupported || res.Errors[0].Path != "migration" {
		t.Fatalf("%+v", res.Errors)
	}
	bad := strings.Replace(v2, `"from":["1.0.0"]`, `"from":["1.0.0"],"renames":{"node":{"a":"b"}}`, 1)
	if _, res := content.Build(kinds, src("x.json", bad)); res.OK || res.Errors[0].Code != core.ReasonInvalidIdentifier || res.Errors[0].Path != "migration.renames.node" {
		t.Fatalf("%+v", res.Errors)
	}
}

func TestPublishRefuses(t *testing.T) {
	with := func(key, text string) *core.Registry {
		r := build(t, "tally", "2.0.0", 4)
		p := *r.Provenance["tally"]
		p.Strings = maps.Clone(p.Strings)
		p.Strings[key] = text
		c := *r
		c.Provenance = map[string]*core.Provenance{"tally": &p}
		return &c
	}
	tests := []struct {
		name   string
		reg    *core.Registry
		code   string
		reason string
	}{
		{"an alias key", with("tally.~x", "x"), core.ReasonProtectedStringKey, "response_alias_namespace"},
		{"a key under core.reason.", with("core.reason.someday", "x"), core.ReasonProtectedStringKey, "engine_reserved"},
		{"a campaign its kind refuses", func() *core.Registry {
			r := build(t, "tally", "2.0.0", 4)
			p := *r.Provenance["tally"]
			p.Strings = map[core.LocKey]string{}
			c := *r
			c.Provenance = map[string]*core.Provenance{"tally": &p}
			return &c
		}(), core.ReasonMissingStringKey, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := content.NewArchive(kinds, build(t, "tally", "1.0.0", 10))
			if err != nil {
				t.Fatal(err)
			}
			res := a.Publish(tt.reg)
			if res.OK || res.Errors[0].Code != tt.code || (tt.reason != "" && res.Errors[0].Details["reason"] != tt.reason) {
				t.Fatalf("%+v", res)
			}
			if a.Resolve("tally", "2.0.0") != nil || a.Current("tally") != "1.0.0" {
				t.Fatal("a refused publication left a trace")
			}
		})
	}
}

func TestIncludes(t *testing.T) {
	including := func(id, includes string) content.Source {
		return src(id+".json", strings.Replace(string(testkind.Campaign(id, "1.0.0", 3)), `"format":1`, `"format":1,"includes":`+includes, 1))
	}
	module := src("m.json", string(testkind.Campaign("module", "1.0.0", 2)))
	other := content.Source{Path: "o.json", Campaign: []byte(strings.Replace(string(testkind.Campaign("other", "1.0.0", 2)), `"kind":"counter"`, `"kind":"abacus"`, 1))}
	tests := []struct {
		name    string
		sources []content.Source
		code    string
		path    string
	}{
		{"a module not in the input", []content.Source{including("host", `[{"alias":"m","ref":{"id":"nowhere","version":"1.0.0"}}]`)}, core.ReasonIncludeMissing, "includes[0].ref.id"},
		{"another version pinned", []content.Source{module, including("host", `[{"alias":"m","ref":{"id":"module","version":"0.9.0"}}]`)}, core.ReasonIncludeVersionMismatch, "includes[0].ref.version"},
		{"a malformed alias", []content.Source{module, including("host", `[{"alias":"M:1","ref":{"id":"module","version":"1.0.0"}}]`)}, core.ReasonInvalidIdentifier, "includes[0].alias"},
		{"one alias twice", []content.Source{module, including("host", `[{"alias":"m","ref":{"id":"module","version":"1.0.0"}},{"alias":"m","ref":{"id":"module","version":"1.0.0"}}]`)}, core.ReasonIncludeAliasCollision, "includes[1].alias"},
		{"a cycle", []content.Source{including("host", `[{"alias":"b","ref":{"id":"back","version":"1.0.0"}}]`), including("back", `[{"alias":"h","ref":{"id":"host","version":"1.0.0"}}]`)}, core.ReasonIncludeCycle, "includes[0].ref.id"},
		{"a kind that cannot compose", []content.Source{module, including("host", `[{"alias":"m","ref":{"id":"module","version":"1.0.0"}}]`)}, core.ReasonComposeUnsupported, "includes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, res := content.Build(kinds, tt.sources...)
			refused(t, reg, res, tt.code, tt.path, func(e core.ValidationError) bool { return e.Details["campaignId"] != nil })
		})
	}
	t.Run("a module of another kind", func(t *testing.T) {
		// Both kinds must be registered for the module to build at all.
		_, res := content.Build([]core.Kind{testkind.Kind{}, otherKind{}}, other, including("host", `[{"alias":"o","ref":{"id":"other","version":"1.0.0"}}]`))
		for _, e := range res.Errors {
			if e.Code == core.ReasonIncludeKindMismatch && e.Path == "includes[0].ref.id" {
				return
			}
		}
		t.Fatalf("%+v", res.Errors)
	})
}

// otherKind is the counter under another kind id.
type otherKind struct{ testkind.Kind }

func (otherKind) ID() string { return "abacus" }

// TestBuildChecksPluralsInEveryTable: a translation's plurals are checked
// as the default text's are, against the plural categories of their own
// language, and may count only what the default text shows.
func TestBuildChecksPluralsInEveryTable(t *testing.T) {
	counted := strings.Replace(string(testkind.Campaign("alpha", "1.0.0", 3)), `"step":"Add one"`,
		`"step":{"key":"alpha.step","text":"Add {n, plural, one {# step} other {# steps}}"}`, 1)
	withFr := func(fr string) content.Source {
		return content.Source{Path: "x.json", Campaign: []byte(counted), Translations: map[string][]byte{"fr": []byte(`{"alpha.step":` + fr + `}`)}}
	}
	tests := []struct {
		name   string
		source content.Source
		path   string // "" when the campaign builds
		syntax string
	}{
		{"French with its own cases", withFr(`"Ajouter {n, plural, one {# pas} many {# de pas} other {# pas}}"`), "", ""},
		{"French with an exact case", withFr(`"{n, plural, =0 {Rien} other {Ajouter # pas}}"`), "", ""},
		{"French with no other", withFr(`"Ajouter {n, plural, one {# pas}}"`), "strings/fr.json#alpha.step", "plural_no_other"},
		{"French unterminated", withFr(`"Ajouter {n, plural, one {# pas} other {# pas}"`), "strings/fr.json#alpha.step", "plural_unterminated"},
		{"French with an unknown category", withFr(`"Ajouter {n, plural, single {# pas} other {# pas}}"`), "strings/fr.json#alpha.step", "plural_unknown_category"},
		{"French with a case French never picks", withFr(`"Ajouter {n, plural, one {# pas} two {# pas} other {# pas}}"`), "strings/fr.json#alpha.step", "plural_category_unused"},
		{"French counting what English does not show", withFr(`"Ajouter {m, plural, one {# pas} other {# pas}}"`), "strings/fr.json#alpha.step", "plural_unknown_argument"},
		{"English with a case English never picks", src("x.json", strings.Replace(counted, "one {# step}", "one {# step} few {# steps}", 1)), "strings#alpha.step", "plural_category_unused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, res := content.Build(kinds, tt.source)
			if tt.path == "" {
				if reg == nil || !res.OK {
					t.Fatalf("refused: %v", res.Errors)
				}
				return
			}
			refused(t, reg, res, core.ReasonInvalidPlural, tt.path, func(e core.ValidationError) bool { return e.Details["syntax"] == tt.syntax })
		})
	}
}

// TestBuildBlurb: a campaign's blurb is one of its own strings, under
// "<id>.blurb" or the key it names, translated like any other.
func TestBuildBlurb(t *testing.T) {
	good := string(testkind.Campaign("alpha", "1.0.0", 3))
	blurbed := strings.Replace(good, `"title":"Counter alpha",`, `"title":"Counter alpha","blurb":"Count to three.",`, 1)
	reg, res := content.Build(kinds, content.Source{Path: "a.json", Campaign: []byte(blurbed),
		Translations: map[string][]byte{"fr": []byte(`{"alpha.blurb":"Comptez jusqu'à trois."}`)}})
	if !res.OK {
		t.Fatalf("build: %v", res.Errors)
	}
	c := reg.Campaign("alpha")
	if c.BlurbKey != "alpha.blurb" || reg.Strings["alpha.blurb"] != "Count to three." || reg.Catalogs["fr"]["alpha.blurb"] != "Comptez jusqu'à trois." {
		t.Fatalf("blurb key %q, text %q, French %q", c.BlurbKey, reg.Strings["alpha.blurb"], reg.Catalogs["fr"]["alpha.blurb"])
	}
	// A host that kept this version restores it with its blurb.
	a, err := content.NewArchive(kinds, reg)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := a.Stored("alpha", "1.0.0")
	fresh, err := content.NewArchive(kinds, build(t, "alpha", "2.0.0", 4))
	if err != nil {
		t.Fatal(err)
	}
	if r := fresh.Restore(stored); r.Outcome != content.Restored || fresh.Resolve("alpha", "1.0.0").Campaign("alpha").BlurbKey != "alpha.blurb" {
		t.Fatalf("restored without its blurb: %+v", r)
	}
	named := strings.Replace(good, `"title":"Counter alpha",`, `"title":"Counter alpha","blurb":{"key":"alpha.pitch","text":"Count."},`, 1)
	if reg, res := content.Build(kinds, src("a.json", named)); !res.OK || reg.Campaign("alpha").BlurbKey != "alpha.pitch" {
		t.Fatalf("a blurb with its own key: %v", res.Errors)
	}
	if reg, _ := content.Build(kinds, src("a.json", good)); reg.Campaign("alpha").BlurbKey != "" {
		t.Fatal("a campaign without a blurb has a blurb key")
	}
	for _, bad := range []string{`"blurb":""`, `"blurb":{"key":"Bad Key","text":"x"}`} {
		if reg, res := content.Build(kinds, src("a.json", strings.Replace(good, `"title":"Counter alpha",`, `"title":"Counter alpha",`+bad+",", 1))); reg != nil || res.Errors[0].Path != "blurb" {
			t.Errorf("%s: accepted or misplaced: %v", bad, res.Errors)
		}
	}
}
