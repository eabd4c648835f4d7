package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// tally is the test kind: a counter raised by the campaign's step ("inc"),
// ended with an ending named by the count's parity ("end"), with an
// achievement, hidden changes and messages, a profile slice keeping the
// best count, and every optional capability.
type tally struct{ version string }

type tallyContent struct {
	Step      int         `json:"step"`
	AchieveAt int         `json:"achieveAt"`
	SceneKey  core.LocKey `json:"sceneKey"`
	Refuse    bool        `json:"refuse,omitempty"`
}

type tallyState struct {
	Count int    `json:"count"`
	Bonus int    `json:"bonus"`
	Done  bool   `json:"done"`
	Note  string `json:"note,omitempty"`
}

func (t tally) ID() string { return "tally" }
func (t tally) Version() string {
	if t.version == "" {
		return "1.0.0"
	}
	return t.version
}
func (tally) ReasonCodes() []string { return []string{"too_early"} }
func (tally) ReasonMessages() map[core.LocKey]string {
	return map[core.LocKey]string{"tally.reason.too_early": "Too early to end."}
}
func (tally) EventNames() []string { return nil }
func (tally) BuildContent(json.RawMessage, string) (any, []core.AuthoredText, []core.ValidationError) {
	return nil, nil, nil
}
func (tally) DecodeContent(raw json.RawMessage) (any, error) {
	var c tallyContent
	err := json.Unmarshal(raw, &c)
	return &c, err
}
func (tally) ValidateCampaign(*core.Campaign, map[core.LocKey]string) core.ValidationResult {
	return core.ValidationResult{OK: true}
}

func (tally) InitialState(c *core.Campaign, ctx *core.Context, profile json.RawMessage) core.InitialResult {
	st := &tallyState{}
	var p struct {
		Best int `json:"best"`
	}
	if profile != nil && json.Unmarshal(profile, &p) == nil {
		st.Bonus = p.Best
	}
	return core.InitialResult{State: st, Status: core.StatusActive}
}

func (tally) AvailableActions(state any, ctx *core.ProjectionContext) []core.AvailableAction {
	s := state.(*tallyState)
	if s.Done {
		return nil
	}
	end := core.AvailableAction{ID: "end", LabelKey: "tally.end", Available: s.Count > 0}
	if !end.Available {
		end.ReasonKey = ctx.EngineRef("tally.reason.too_early")
	}
	return []core.AvailableAction{{ID: "inc", LabelKey: "tally.inc", Available: true}, end}
}

func (tally) Scene(state any, ctx *core.ProjectionContext) core.SceneBody {
	s := state.(*tallyState)
	return core.SceneBody{TextKey: ctx.Campaign.Content.(*tallyContent).SceneKey, Text: "Count " + strconv.Itoa(s.Count), Params: map[string]any{"count": s.Count}}
}

func (tally) Advance(state any, actionID string, params core.Params, ctx *core.Context) core.AdvanceResult {
	s := state.(*tallyState)
	ct := ctx.Campaign.Content.(*tallyContent)
	next := *s
	switch actionID {
	case "inc":
		next.Count += ct.Step
		changes := []core.StateChange{
			{Path: "var.count", Op: "set", Value: float64(next.Count), Previous: float64(s.Count), Reason: "consequence_applied", Visible: true},
			{Path: "var.hidden", Op: "set", Value: true, Reason: "consequence_applied", Visible: false},
		}
		if s.Count < ct.AchieveAt && next.Count >= ct.AchieveAt {
			changes = append(changes, core.StateChange{Path: "achieved.three", Op: "set", Value: true, Reason: core.ReasonAchievementUnlocked, Visible: true})
		}
		return core.AdvanceResult{State: &next, Status: core.StatusActive, Changes: changes, Messages: []core.OutcomeMessage{
			{Key: "tally.msg.inc", Visible: true}, {Key: "tally.msg.secret", Visible: false}}}
	case "note":
		text, _, _ := params.String("text")
		next.Note = text
		return core.AdvanceResult{State: &next, Status: core.StatusActive, Changes: []core.StateChange{
			{Path: "var.note", Op: "set", Value: text, Reason: "consequence_applied", Visible: false}}}
	case "boom":
		return core.AdvanceResult{State: &next, Status: core.StatusActive, Changes: []core.StateChange{
			{Path: "var.boom", Op: "set", Value: true, Reason: "consequence_applied", Visible: false}}}
	case "end":
		if s.Count == 0 {
			return core.Reject(s, core.KindErrorf("tally", "too_early", "", "nothing counted yet"))
		}
		next.Done = true
		return core.AdvanceResult{State: &next, Status: core.StatusEnded}
	}
	return core.Reject(s, core.Errorf(core.ReasonUnknownAction, "actionId", "no action %q", actionID))
}

func (tally) Project(state any, audience core.Audience, ctx *core.ProjectionContext) any {
	s := state.(*tallyState)
	return map[string]any{"count": s.Count, "done": s.Done}
}

func (tally) DecodeState(raw json.RawMessage, c *core.Campaign) (any, error) {
	var s tallyState
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	if s.Count < 0 {
		return nil, fmt.Errorf("negative count")
	}
	return &s, nil
}

func (tally) Outcome(state any) core.Outcome {
	s := state.(*tallyState)
	if !s.Done {
		return core.Outcome{}
	}
	if s.Count%2 == 0 {
		return core.Outcome{Terminal: true, TerminalID: "even"}
	}
	return core.Outcome{Terminal: true, TerminalID: "odd"}
}

func (tally) TerminalCount(*core.Campaign) int { return 2 }

func (tally) AdoptContent(state any, from, to *core.Campaign) (any, string) {
	if to.Content.(*tallyContent).Refuse {
		return nil, core.ReasonContentIncompatible
	}
	c := *state.(*tallyState)
	return &c, ""
}

func (tally) MigrateState(old json.RawMessage, from string) (json.RawMessage, error) {
	if from != "0.9.0" {
		return nil, fmt.Errorf("no migration from %s", from)
	}
	var o struct {
		N int `json:"n"`
	}
	if err := json.Unmarshal(old, &o); err != nil {
		return nil, err
	}
	return json.Marshal(tallyState{Count: o.N})
}

func (tally) MigrationIDs(*core.Campaign) map[string]func(string) bool { return nil }

func (tally) MigrateForCampaign(old json.RawMessage, to *core.Campaign, from string) (json.RawMessage, error) {
	return old, nil
}

func (tally) ProfileVersion() int { return 2 }

func (tally) FoldProfile(current json.RawMessage, c *core.Campaign, changes []core.StateChange) (json.RawMessage, error) {
	var p struct {
		Best int    `json:"best"`
		Note string `json:"note,omitempty"`
	}
	if current != nil {
		if err := json.Unmarshal(current, &p); err != nil {
			return nil, err
		}
	}
	for _, ch := range changes {
		switch ch.Path {
		case "var.count":
			if v, ok := ch.Value.(float64); ok && int(v) > p.Best {
				p.Best = int(v)
			}
		case "var.note":
			p.Note, _ = ch.Value.(string)
		case "var.boom":
			panic("boom")
		}
	}
	return json.Marshal(p)
}

func (tally) MigrateProfile(data json.RawMessage, from int) (json.RawMessage, error) {
	if from != 1 {
		return nil, fmt.Errorf("no profile migration from %d", from)
	}
	var o struct {
		B int `json:"b"`
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, err
	}
	return json.Marshal(map[string]int{"best": o.B})
}

// epoch is one published version of the tally campaign.
type epoch struct {
	version  string
	step     int
	title    string
	extra    map[core.LocKey]string
	refuse   bool
	migrates []string
}

func registryOf(e epoch) *core.Registry {
	authored := map[core.LocKey]string{
		"tally.title": e.title, "tally.scene": "The count is {count}.", "tally.inc": "Add",
		"tally.end": "Stop", "tally.msg.inc": "Counted.", "tally.msg.secret": "Secret.",
	}
	for k, v := range e.extra {
		authored[k] = v
	}
	strs := core.CoreMessages()
	for k, v := range (tally{}).ReasonMessages() {
		strs[k] = v
	}
	for k, v := range authored {
		strs[k] = v
	}
	c := &core.Campaign{ID: "tally", KindID: "tally", Version: e.version, TitleKey: "tally.title",
		Content: &tallyContent{Step: e.step, AchieveAt: 3, SceneKey: "tally.scene", Refuse: e.refuse}}
	if e.migrates != nil {
		c.Migration = &core.CampaignMigration{From: e.migrates}
	}
	fr := map[core.LocKey]string{"tally.title": "Compteur " + e.version, "tally.inc": "Ajouter"}
	return &core.Registry{
		Order: []string{"tally"}, Campaigns: map[string]*core.Campaign{"tally": c}, Strings: strs,
		Catalogs:   map[string]map[core.LocKey]string{"fr": fr},
		Provenance: map[string]*core.Provenance{"tally": {Strings: authored, Catalogs: map[string]map[core.LocKey]string{"fr": fr}}},
	}
}

// archive resolves held epochs of the tally campaign.
type archive struct {
	mu   sync.Mutex
	regs map[string]*core.Registry
}

func newArchive(epochs ...epoch) *archive {
	a := &archive{regs: map[string]*core.Registry{}}
	for _, e := range epochs {
		a.regs[e.version] = registryOf(e)
	}
	return a
}

func (a *archive) Resolve(id, version string) *core.Registry {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id != "tally" {
		return nil
	}
	return a.regs[version]
}

func (a *archive) AuthoredKeys() map[core.LocKey]bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[core.LocKey]bool{}
	for _, r := range a.regs {
		for _, p := range r.Provenance {
			for k := range p.Strings {
				out[k] = true
			}
		}
	}
	return out
}

// channel offers a settable version; "panic" panics.
type channel struct {
	mu      sync.Mutex
	version string
	calls   int
}

func (c *channel) set(v string) { c.mu.Lock(); c.version = v; c.mu.Unlock() }

func (c *channel) Current(session.ContentScope) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.version == "panic" {
		panic("channel")
	}
	return c.version, c.version != ""
}

func (c *channel) count() int { c.mu.Lock(); defer c.mu.Unlock(); return c.calls }

// clock counts microseconds from a fixed instant; safe for concurrent use.
type clock struct {
	mu sync.Mutex
	n  int
}

func (c *clock) Now() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return fmt.Sprintf("2026-01-01T00:00:00.%06dZ", c.n)
}

// gameIDs is a concurrency-safe core.IDSource.
type gameIDs struct {
	mu sync.Mutex
	n  int
}

func (g *gameIDs) NewGameID() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	return "game-" + strconv.Itoa(g.n)
}
func (g *gameIDs) NewSeed() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	return "seed-" + strconv.Itoa(g.n)
}

// env is one store and everything under it.
type env struct {
	store    *session.Store
	engine   *core.Engine
	records  session.RecordStore
	profiles *session.MemoryProfiles
	archive  *archive
	channel  *channel
	clock    *clock
	ids      *session.CountingRecordIDs
}

type envOptions struct {
	epochs   []epoch // the first is the engine's default epoch
	records  session.RecordStore
	profiles *session.MemoryProfiles
	kind     tally
	ids      *session.CountingRecordIDs
	clock    *clock
	noChan   bool
	// unsupported is Config.Unsupported.
	unsupported func(campaignID, version string) bool
}

var v1 = epoch{version: "1.0.0", step: 1, title: "Tally"}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	if o.epochs == nil {
		o.epochs = []epoch{v1}
	}
	if o.records == nil {
		o.records = session.NewMemoryRecords()
	}
	if o.profiles == nil {
		o.profiles = session.NewMemoryProfiles()
	}
	if o.ids == nil {
		o.ids = &session.CountingRecordIDs{}
	}
	if o.clock == nil {
		o.clock = &clock{}
	}
	arch := newArchive(o.epochs...)
	eng, err := core.New(core.Host{Kinds: []core.Kind{o.kind}, Registry: arch.Resolve("tally", o.epochs[0].version), Archive: arch, IDs: &gameIDs{}})
	if err != nil {
		t.Fatal(err)
	}
	ch := &channel{}
	cfg := session.Config{Engine: eng, Records: o.records, Profiles: o.profiles, Clock: o.clock, IDs: o.ids, Unsupported: o.unsupported}
	if !o.noChan {
		cfg.Content = ch
	}
	st, err := session.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &env{store: st, engine: eng, records: o.records, profiles: o.profiles, archive: arch, channel: ch, clock: o.clock, ids: o.ids}
}

var ctx = context.Background()

func (e *env) create(t testing.TB, profileID string) string {
	t.Helper()
	h, err := e.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: "tally", Seed: "s", ProfileID: profileID})
	if err != nil {
		t.Fatal(err)
	}
	return h.SessionID
}

func (e *env) submit(t testing.TB, id string, actions ...string) {
	t.Helper()
	for _, a := range actions {
		res, err := e.store.SubmitAction(ctx, id, a, nil)
		if err != nil || !res.OK {
			t.Fatalf("submit %s: %v %+v", a, err, res.Errors)
		}
	}
}

// save takes a save of the session.
func (e *env) save(t testing.TB, id string) session.SaveHandle {
	t.Helper()
	h, err := e.store.SaveGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// load loads the save into a new session.
func (e *env) load(t testing.TB, saveID string) session.SessionHandle {
	t.Helper()
	h, err := e.store.LoadGame(ctx, saveID)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// envelope opens the envelope of the save as the record store holds it.
func (e *env) envelope(t testing.TB, saveID string) session.SaveEnvelope {
	t.Helper()
	env, err := session.OpenEnvelope(storedSave(t, e.records, saveID).Blob)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// record returns the session's stored record with Blob holding the
// canonical serialization of its game, whichever form it was stored in.
func (e *env) record(t testing.TB, id string) session.SessionRecord {
	t.Helper()
	r, ok, err := e.records.GetSession(ctx, id)
	if err != nil || !ok {
		t.Fatalf("no record %s: %v", id, err)
	}
	if r.Blob, err = e.store.StateOf(r); err != nil {
		t.Fatalf("record %s: %v", id, err)
	}
	return r
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if got := session.Code(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
	var se *session.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *session.Error", err)
	}
}

func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// storedSave returns the save record stored under id in its whole form
// (Blob the whole envelope, no Log), as a store that keeps saves whole
// holds it, for tests that read or damage a save's bytes.
func storedSave(t testing.TB, records session.RecordStore, id string) session.SaveRecord {
	t.Helper()
	rec, ok, err := records.GetSave(ctx, id)
	if err != nil || !ok {
		t.Fatalf("save %q: %v %v", id, ok, err)
	}
	flat, err := rec.Flat()
	if err != nil {
		t.Fatal(err)
	}
	return flat
}
