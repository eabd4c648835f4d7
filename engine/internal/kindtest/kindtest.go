// Package kindtest holds the helpers the kinds' tests share: building a
// registry and an engine for one kind, reading the shipped campaigns,
// starting and playing games that must not fail, and the rules every verb
// keeps (a refusal changes nothing and carries its reason code; an accepted
// state saves and loads back to the same bytes).
package kindtest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

// Registry builds a registry of sources for kind k, failing t on any tier
// 1 error.
func Registry(t testing.TB, k core.Kind, sources ...content.Source) *core.Registry {
	t.Helper()
	reg, res := content.Build([]core.Kind{k}, sources...)
	if !res.OK {
		t.Fatalf("registry does not build: %v", res.Errors)
	}
	return reg
}

// Engine builds an engine playing kind k over reg, with emitter em.
func Engine(t testing.TB, k core.Kind, reg *core.Registry, em core.Emitter) *core.Engine {
	t.Helper()
	e, err := core.New(core.Host{Kinds: []core.Kind{k}, Registry: reg, Emitter: em})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// AliasedEngine builds an engine playing kind k over reg that aliases
// every engine-owned key (core.Host.AliasAllEngineKeys), as a host does
// to check that those keys reach responses only through EngineRef.
func AliasedEngine(t testing.TB, k core.Kind, reg *core.Registry) *core.Engine {
	t.Helper()
	e, err := core.New(core.Host{Kinds: []core.Kind{k}, Registry: reg, AliasAllEngineKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// AliasedScene returns the scene of s on an AliasedEngine, failing t
// unless its text key begins with text and every action's label with
// label: the aliased prefixes of the kind's engine-owned keys.
func AliasedScene(t testing.TB, e *core.Engine, s *core.GameState, text, label string) core.Scene {
	t.Helper()
	sc, err := e.Scene(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sc.Body.TextKey, text) {
		t.Fatalf("scene text key %q is not aliased", sc.Body.TextKey)
	}
	for _, a := range sc.Actions {
		if !strings.HasPrefix(a.LabelKey, label) {
			t.Fatalf("action label %q is not aliased", a.LabelKey)
		}
	}
	return sc
}

// Shipped reads shipped campaign id from campaigns (static/campaigns, as
// os.DirFS opens it from the test's package): its campaign.json and any
// translations under strings/<locale>.json.
func Shipped(t testing.TB, campaigns fs.FS, id string) content.Source {
	t.Helper()
	data, err := fs.ReadFile(campaigns, id+"/campaign.json")
	if err != nil {
		t.Fatal(err)
	}
	src := content.Source{Path: "static/campaigns/" + id + "/campaign.json", Campaign: data}
	files, _ := fs.Glob(campaigns, id+"/strings/*.json")
	for _, f := range files {
		b, err := fs.ReadFile(campaigns, f)
		if err != nil {
			t.Fatal(err)
		}
		if src.Translations == nil {
			src.Translations = map[string][]byte{}
		}
		src.Translations[strings.TrimSuffix(path.Base(f), ".json")] = b
	}
	return src
}

// ShippedRegistry builds the registry of shipped campaigns ids for kind k.
func ShippedRegistry(t testing.TB, k core.Kind, campaigns fs.FS, ids ...string) *core.Registry {
	t.Helper()
	var sources []content.Source
	for _, id := range ids {
		sources = append(sources, Shipped(t, campaigns, id))
	}
	return Registry(t, k, sources...)
}

// Start creates a game of campaign with seed, failing t if it is refused.
func Start(t testing.TB, e *core.Engine, campaign, seed string) *core.GameState {
	t.Helper()
	res := e.CreateGame(core.NewGameConfig{CampaignID: campaign, Seed: seed}, "")
	if !res.OK {
		t.Fatalf("create %s: %v", campaign, res.Errors)
	}
	return res.Value
}

// Submit submits action with params, failing t if it is refused.
func Submit(t testing.TB, e *core.Engine, s *core.GameState, action string, params core.Params) *core.GameState {
	t.Helper()
	res := e.SubmitAction(s, action, params)
	if !res.OK {
		t.Fatalf("%s %v: %v", action, params, res.Errors)
	}
	return res.Value
}

// SceneView returns s's scene and its kind view decoded into a V, failing
// t on an error.
func SceneView[V any](t testing.TB, e *core.Engine, s *core.GameState) (core.Scene, V) {
	t.Helper()
	sc, err := e.Scene(s)
	if err != nil {
		t.Fatal(err)
	}
	var v V
	if err := json.Unmarshal(sc.View.KindView, &v); err != nil {
		t.Fatal(err)
	}
	return sc, v
}

// Serialize saves s, failing t on an error.
func Serialize(t testing.TB, e *core.Engine, s *core.GameState) []byte {
	t.Helper()
	b, err := e.Serialize(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Verb submits action with params to s and checks what every verb keeps:
// s itself never changes, and a refusal carries a reason code and exactly
// one message, with the error's key. want is the code the action must be
// refused with, or "" when it must be accepted. It returns the result,
// whose Value is the new state when accepted.
func Verb(t testing.TB, e *core.Engine, s *core.GameState, action string, params core.Params, want string) core.ActionResult {
	t.Helper()
	res := submitKeeping(t, e, s, action, params)
	switch {
	case want == "" && !res.OK:
		t.Fatalf("refused: %v", res.Errors)
	case want != "" && (res.OK || res.Errors[0].Code != want):
		t.Fatalf("got ok=%v %v, want %s", res.OK, res.Errors, want)
	}
	return res
}

// Fuzzed submits arbitrary action and params to s: s never changes, a
// refusal carries a reason code, and an accepted state serializes and
// loads back to the same bytes.
func Fuzzed(t testing.TB, e *core.Engine, s *core.GameState, action string, params core.Params) {
	t.Helper()
	res := submitKeeping(t, e, s, action, params)
	if !res.OK {
		return
	}
	out := Serialize(t, e, res.Value)
	back := e.Deserialize(out)
	if !back.OK {
		t.Fatalf("accepted state does not load: %v", back.Errors)
	}
	if again := Serialize(t, e, back.Value); !bytes.Equal(out, again) {
		t.Fatal("reload changed the state")
	}
}

// submitKeeping submits and checks that s is unchanged and that a refusal
// is well-formed.
func submitKeeping(t testing.TB, e *core.Engine, s *core.GameState, action string, params core.Params) core.ActionResult {
	t.Helper()
	before := Serialize(t, e, s)
	res := e.SubmitAction(s, action, params)
	if !bytes.Equal(Serialize(t, e, s), before) {
		t.Fatal("the input state changed")
	}
	if !res.OK {
		if len(res.Errors) == 0 || res.Errors[0].Code == "" {
			t.Fatal("a refusal without a reason code")
		}
		if len(res.Messages) != 1 || res.Messages[0].Key != res.Errors[0].MessageKey {
			t.Fatalf("a rejection carries one message with its key, got %v", res.Messages)
		}
	}
	return res
}

// Finding builds src with kind k and requires a finding of code at path
// among its tier 1 errors.
func Finding(t testing.TB, k core.Kind, src content.Source, code, path string) {
	t.Helper()
	_, res := content.Build([]core.Kind{k}, src)
	if res.OK {
		t.Fatal("accepted")
	}
	for _, e := range res.Errors {
		if e.Code == code && e.Path == path {
			return
		}
	}
	t.Fatalf("no %s at %s in %v", code, path, res.Errors)
}

// Valid builds each of sources with kind k and requires no error and no
// warning.
func Valid(t testing.TB, k core.Kind, sources ...content.Source) {
	t.Helper()
	for _, src := range sources {
		_, res := content.Build([]core.Kind{k}, src)
		if !res.OK || len(res.Warnings) > 0 {
			t.Errorf("%s: errors %v warnings %v", src.Path, res.Errors, res.Warnings)
		}
	}
}

// Concurrently runs play(i) for i in [0, n) once one after another and
// once all at the same time, and requires the same bytes from each: what
// the games share (a registry, an engine, compiled content) must be read
// only. Run it under -race. play returns what the game ended with (its
// kind state, say: an engine numbers its games, so saves differ in id).
func Concurrently(t *testing.T, n int, play func(i int) []byte) {
	t.Helper()
	want := make([][]byte, n)
	for i := range want {
		want[i] = play(i)
	}
	got := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = play(i)
		}()
	}
	wg.Wait()
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("game %d played concurrently differs from the same game played alone", i)
		}
	}
}

// Reaches explores campaign id of reg with kind k within b (tier 3) and
// requires every terminal of want to be reached and no dead end or
// unwinnable state; it logs the other findings, which are leads.
func Reaches(t *testing.T, k core.Kind, reg *core.Registry, id string, b validate.Budget, want ...string) ([]core.ValidationWarning, validate.Exploration) {
	t.Helper()
	warnings, ex := validate.Tier3(k, reg.Campaign(id), b)
	for _, r := range want {
		if _, ok := ex.Terminals[r]; !ok {
			t.Errorf("tier 3 never reaches %s", r)
		}
	}
	if len(ex.DeadEnds) > 0 || len(ex.Unwinnable) > 0 {
		t.Errorf("dead ends %v, unwinnable %v", ex.DeadEnds, ex.Unwinnable)
	}
	t.Logf("%d states, bounded %v, %d warnings", ex.States, ex.Bounded, len(warnings))
	for _, w := range warnings {
		t.Logf("  %v", w)
	}
	return warnings, ex
}

// Revised returns a later version of src: each old, new pair of renames
// replaced throughout its text (ids and everything naming them), edit (if
// not nil) applied to the decoded document, the version set, and
// migration (a JSON object, or "" for none) declared.
func Revised(t testing.TB, src content.Source, version, migration string, edit func(doc map[string]any), renames ...string) content.Source {
	t.Helper()
	text := strings.NewReplacer(renames...).Replace(string(src.Campaign))
	var doc map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(doc)
	}
	doc["version"] = version
	if migration != "" {
		doc["migration"] = json.RawMessage(migration)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return content.Source{Path: src.Path, Campaign: out}
}

// Without returns list (a JSON array of objects) without the object whose
// "id" is id.
func Without(list any, id string) []any {
	var out []any
	for _, o := range list.([]any) {
		if o.(map[string]any)["id"] != id {
			out = append(out, o)
		}
	}
	return out
}

// Epochs returns an engine for k over every registry of regs, each
// published in turn into one archive: the first is the default epoch, and
// every other version resolves too.
func Epochs(t testing.TB, k core.Kind, regs ...*core.Registry) *core.Engine {
	t.Helper()
	a, err := content.NewArchive([]core.Kind{k}, regs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range regs[1:] {
		if res := a.Publish(r); !res.OK {
			t.Fatal(res.Errors)
		}
	}
	e, err := core.New(core.Host{Kinds: []core.Kind{k}, Registry: regs[0], Archive: a})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Unlocked returns the achievements an action's result unlocked, from its
// achievement_unlocked changes at "achieved.<id>", failing t when one
// comes without the message of its title, "<campaign>.achievement.<id>.title".
func Unlocked(t testing.TB, res core.ActionResult, campaign string) []string {
	t.Helper()
	var ids []string
	for _, c := range res.Changes {
		if c.Reason != core.ReasonAchievementUnlocked {
			continue
		}
		id := strings.TrimPrefix(c.Path, "achieved.")
		ids = append(ids, id)
		title := campaign + ".achievement." + id + ".title"
		found := false
		for _, m := range res.Messages {
			found = found || m.Key == title
		}
		if !found {
			t.Errorf("%s unlocked without its title in the messages: %+v", id, res.Messages)
		}
	}
	return ids
}

// MigratedSave returns a save of s, taken by e, migrated on an engine of
// kind k holding only reg (the save's version gone), failing t unless it
// migrates, and migrates no more once migrated.
func MigratedSave(t *testing.T, k core.Kind, e *core.Engine, s *core.GameState, reg *core.Registry) []byte {
	t.Helper()
	only := Engine(t, k, reg, nil)
	res, migrated := only.MigrateSave(Serialize(t, e, s), k.Version())
	if !migrated || !res.OK {
		t.Fatalf("not migrated: %v", res.Errors)
	}
	got := Serialize(t, only, res.Value)
	if again, m := only.MigrateSave(got, k.Version()); !again.OK || m {
		t.Fatal("a migrated save migrated again")
	}
	return got
}

// EarlierSave loads data, a save made by an earlier version of the code
// and of its campaign (kept in a test's testdata), on e, whose registry
// serves only the versions shipped now: it must load through the
// campaign's declared migration, onto the version e serves, or t fails.
func EarlierSave(t testing.TB, e *core.Engine, data []byte, kindVersion string) *core.GameState {
	t.Helper()
	res, migrated := e.MigrateSave(data, kindVersion)
	if !res.OK {
		t.Fatalf("the earlier save does not load: %v", res.Errors)
	}
	if !migrated {
		t.Fatal("the earlier save loaded without its campaign's migration")
	}
	return res.Value
}

// PreAchievements checks a game saved before its kind had achievements:
// data, a save made by the code of kindVersion's day, loads on e
// (EarlierSave) onto the version e serves now, holding no achievement;
// next, the kind's move that lets time pass, then unlocks every one of
// want its past already earned, which the state holds after, and the
// same move again unlocks none of them a second time.
func PreAchievements(t *testing.T, e *core.Engine, data []byte, kindVersion string, next func(*core.GameState) core.ActionResult, want ...string) {
	t.Helper()
	s := EarlierSave(t, e, data, kindVersion)
	if got, want := s.CampaignVersion, e.Registry().Campaign(s.CampaignID).Version; got != want {
		t.Fatalf("the save plays version %s, not %s", got, want)
	}
	held := func(s *core.GameState) []string {
		return *s.KindState.(interface{ UnlockedAchievements() *[]string }).UnlockedAchievements()
	}
	if got := held(s); len(got) != 0 {
		t.Fatalf("the loaded game holds achievements %v", got)
	}
	res := next(s)
	if !res.OK {
		t.Fatal(res.Errors)
	}
	got := Unlocked(t, res, s.CampaignID)
	for _, id := range want {
		if !slices.Contains(got, id) {
			t.Errorf("the next move unlocked %v, not %s", got, id)
		}
	}
	if h := held(res.Value); !slices.Equal(h, got) {
		t.Errorf("the state holds %v after unlocking %v", h, got)
	}
	again := next(res.Value)
	if !again.OK {
		t.Fatal(again.Errors)
	}
	for _, id := range Unlocked(t, again, s.CampaignID) {
		if slices.Contains(got, id) {
			t.Errorf("%s unlocked twice", id)
		}
	}
}

// MigratesAchievements checks k's campaign migration of the achievements
// a game has unlocked. s is a game of src's campaign (kind k); a version
// 2.0.0 of src renames achievement renamed[0] to renamed[1] and removes
// removed, and declares so. s holding both, migrated, holds renamed[1]
// only and decodes under 2.0.0; unmigrated, 2.0.0 refuses it (an
// achievement it does not declare), and its own version refuses one
// listed twice.
func MigratesAchievements(t *testing.T, k core.Kind, src content.Source, s *core.GameState, renamed [2]string, removed string) {
	t.Helper()
	migration := `{"from":["` + s.CampaignVersion + `"],"renames":{"achievement":{"` + renamed[0] + `":"` + renamed[1] + `"}},"removed":{"achievement":["` + removed + `"]}}`
	v2 := Revised(t, src, "2.0.0", migration, func(doc map[string]any) {
		c := doc["content"].(map[string]any)
		c["achievements"] = Without(c["achievements"], removed)
	}, `"`+renamed[0]+`"`, `"`+renamed[1]+`"`)
	to := Registry(t, k, v2).Campaign(s.CampaignID)
	from := Registry(t, k, src).Campaign(s.CampaignID)
	holding := func(ids ...string) json.RawMessage {
		raw, err := json.Marshal(s.KindState)
		if err != nil {
			t.Fatal(err)
		}
		var st map[string]any
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
		st["achieved"] = ids
		raw, err = json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	old := holding(renamed[0], removed)
	if _, err := k.DecodeState(old, from); err != nil {
		t.Fatalf("the game's own version refuses its achievements: %v", err)
	}
	out, err := k.(core.ContentMigrator).MigrateForCampaign(old, to, s.CampaignVersion)
	if err != nil {
		t.Fatalf("the migration failed: %v", err)
	}
	var got struct {
		Achieved []string `json:"achieved"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Achieved) != 1 || got.Achieved[0] != renamed[1] {
		t.Errorf("migrated, the game holds %v, want [%s]", got.Achieved, renamed[1])
	}
	if _, err := k.DecodeState(out, to); err != nil {
		t.Errorf("2.0.0 refuses the migrated state: %v", err)
	}
	if _, err := k.DecodeState(old, to); err == nil {
		t.Error("2.0.0 took a state naming achievements it does not declare")
	}
	if _, err := k.DecodeState(holding(removed, removed), from); err == nil {
		t.Error("a state listing an achievement twice was taken")
	}
}

// ShortEndingTitles requires every ending of the campaigns ids of reg (as
// e's milestones list them, for the gallery) to be named by a title of a
// few words, not by the ending's whole text.
func ShortEndingTitles(t testing.TB, e *core.Engine, reg *core.Registry, ids ...string) {
	t.Helper()
	for _, id := range ids {
		c := reg.Campaign(id)
		for _, m := range e.Milestones(c).Endings {
			title := reg.Strings[m.TitleKey]
			if n := len(strings.Fields(title)); n == 0 || n > 6 || strings.ContainsAny(strings.TrimRight(title, ".!"), ".!?") {
				t.Errorf("%s: ending %s is named %q in the gallery, not a short title", id, m.ID, title)
			}
		}
	}
}
