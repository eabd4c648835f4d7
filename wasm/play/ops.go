//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/wasm/play/idb"
)

// methods is every method of the global storyloom object, by name. The
// API is documented in docs/browser.md.
func methods() map[string]method {
	return map[string]method{
		"version":        opVersion,
		"init":           opInit,
		"storageStatus":  opStorageStatus,
		"listCampaigns":  opListCampaigns,
		"getCampaign":    opGetCampaign,
		"getProfile":     opGetProfile,
		"createSession":  opCreateSession,
		"resumeSession":  opResumeSession,
		"getScene":       opGetScene,
		"getView":        opGetView,
		"getStrings":     opGetStrings,
		"submitAction":   opSubmitAction,
		"previewAction":  opPreviewAction,
		"saveGame":       opSaveGame,
		"loadGame":       opLoadGame,
		"listSaves":      opListSaves,
		"listCorrupt":    opListCorrupt,
		"deleteCorrupt":  opDeleteCorrupt,
		"exportCorrupt":  opExportCorrupt,
		"deleteSave":     opDeleteSave,
		"branchSession":  opBranchSession,
		"getHistory":     opGetHistory,
		"exportSave":     opExportSave,
		"importSave":     opImportSave,
		"debugPanic":     opDebugPanic,
		"sessionSummary": opSessionSummary,
	}
}

func opVersion(context.Context, json.RawMessage) (any, error) {
	return map[string]any{"version": version()}, nil
}

// campaignDoc is one campaign as the page fetched it: its built document
// as the site published it, with the version and digest its index entry
// names. A document that does not verify (content.VerifyBuilt) leaves the
// campaign out.
type campaignDoc struct {
	ID      string `json:"id"`
	Built   string `json:"built"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
}

type initArgs struct {
	Campaigns []campaignDoc `json:"campaigns"`
	// Storage is "indexeddb" (the default) or "memory".
	Storage string `json:"storage,omitempty"`
	// Database names the IndexedDB database; "" is "storyloom".
	Database string `json:"database,omitempty"`
	// ManifestDigest is the campaigns index's: the campaigns' entries
	// (id, version, digest, in order) must digest to it.
	ManifestDigest string `json:"manifestDigest"`
	// Packs and Resolution are the index's pack set, when it publishes
	// one: the packs must digest to the resolution (content.VerifyPacks).
	Packs      []content.PublishedPack `json:"packs,omitempty"`
	Resolution string                  `json:"resolution,omitempty"`
}

// skipped is a campaign init could not build.
type skipped struct {
	ID     string `json:"id"`
	Code   string `json:"code"`
	Reason string `json:"message"`
}

func opInit(ctx context.Context, arg json.RawMessage) (any, error) {
	var a initArgs
	if err := decode(arg, &a); err != nil {
		return nil, err
	}
	if len(a.Campaigns) == 0 {
		return nil, failf(core.ReasonMalformedInput, "init needs at least one campaign")
	}
	entries := make([]content.ManifestEntry, len(a.Campaigns))
	for i, c := range a.Campaigns {
		entries[i] = content.ManifestEntry{ID: c.ID, Version: c.Version, Digest: c.Digest}
	}
	if got, err := content.ManifestDigest(entries); err != nil || got != a.ManifestDigest {
		return nil, failf(core.ReasonInvalidState, "the campaigns index does not match its manifest digest %s", a.ManifestDigest)
	}
	if a.Packs != nil || a.Resolution != "" {
		if err := content.VerifyPacks(a.Packs, entries, a.Resolution); err != nil {
			return nil, failf(core.ReasonInvalidState, "the campaigns index's %v", err)
		}
	}
	h := &host{published: map[string]content.StoredEpoch{}, resolution: a.Resolution, built: map[string]*campaignHost{}, campaigns: map[string]string{}}
	var skips []skipped
	for i, c := range a.Campaigns {
		if _, dup := h.published[c.ID]; dup {
			skips = append(skips, skipped{ID: c.ID, Code: core.ReasonDuplicateCampaignID, Reason: fmt.Sprintf("campaign id %q is used twice", c.ID)})
			continue
		}
		doc, err := content.VerifyBuilt([]byte(c.Built), entries[i])
		if err != nil {
			var ve core.ValidationError
			errors.As(err, &ve)
			skips = append(skips, skipped{ID: c.ID, Code: ve.Code, Reason: ve.Message})
			continue
		}
		h.published[c.ID] = doc
		h.order = append(h.order, c.ID)
	}
	if len(h.order) == 0 {
		return nil, failf(core.ReasonMalformedInput, "no campaign could be read")
	}
	switch a.Storage {
	case "", "indexeddb":
		name := a.Database
		if name == "" {
			name = "storyloom"
		}
		if old, err := current(); err == nil && old.keep.db != nil && old.keep.db.Name() == name {
			h.keep = newKeeper(old.keep.db, "")
		} else if db, derr := idb.Open(name); derr != nil {
			h.keep = newKeeper(nil, derr.Error())
		} else {
			h.keep = newKeeper(db, "")
		}
	case "memory":
		h.keep = newKeeper(nil, "the page chose memory storage")
	default:
		return nil, failf(core.ReasonMalformedInput, "storage %q is not indexeddb or memory", a.Storage)
	}
	state.mu.Lock()
	old := state.h
	state.h = h
	state.mu.Unlock()
	if old != nil && old.keep.db != nil && (h.keep.db == nil || old.keep.db != h.keep.db) {
		old.keep.db.Close()
	}
	if skips == nil {
		skips = []skipped{}
	}
	return map[string]any{"campaigns": h.order, "kinds": kindIDs(), "storage": h.keep.Status(), "skipped": skips}, nil
}

// kindIDs lists the registered kinds' ids.
func kindIDs() []string {
	var out []string
	for _, k := range kinds() {
		out = append(out, k.ID())
	}
	return out
}

func firstError(r core.ValidationResult) core.ValidationError {
	if len(r.Errors) > 0 {
		return r.Errors[0]
	}
	return core.Errorf(core.ReasonInvalidState, "", "the campaigns were refused")
}

func opStorageStatus(context.Context, json.RawMessage) (any, error) {
	h, err := current()
	if err != nil {
		return nil, err
	}
	return map[string]any{"storage": h.keep.Status()}, nil
}

// lastPlayed is the meta document kept per campaign: the session the
// library's Continue resumes.
type lastPlayed struct {
	SessionID string `json:"sessionId"`
	PlayedAt  string `json:"playedAt"`
	Status    string `json:"status"`
}

func lastKey(campaignID string) string { return "last:" + profileID + ":" + campaignID }

func (h *host) touch(campaignID, sessionID string, status core.Status, now string) {
	// The document is written by hand, as encoding/json would write it:
	// every choice touches it.
	doc := append([]byte(`{"sessionId":`), canon.AppendString(nil, sessionID)...)
	doc = append(append(doc, `,"playedAt":`...), canon.AppendString(nil, now)...)
	doc = append(append(doc, `,"status":`...), canon.AppendString(nil, string(status))...)
	h.keep.putMetaBehind(lastKey(campaignID), string(append(doc, '}')))
}

func (h *host) last(campaignID string) *lastPlayed {
	doc, ok := h.keep.getMeta(lastKey(campaignID))
	if !ok {
		return nil
	}
	var l lastPlayed
	if json.Unmarshal([]byte(doc), &l) != nil || l.SessionID == "" {
		return nil
	}
	return &l
}

// campaignOf returns the campaign a session plays. Every session this tab
// created, loaded or branched is remembered; for another (one resumed
// from IndexedDB) the bridge reads the header of its stored state, which
// steps over the log without decoding it (SessionRecord.Header).
func (h *host) campaignOf(ctx context.Context, sessionID string) (string, error) {
	h.mu.Lock()
	id, ok := h.campaigns[sessionID]
	h.mu.Unlock()
	if ok {
		return id, nil
	}
	rec, ok, err := h.keep.Records().GetSession(ctx, sessionID)
	if idb.IsCorrupt(err) {
		return "", failf(ReasonCorruptRecord, "%s. Its record is kept: the library lists it, to download or delete.", strings.TrimPrefix(err.Error(), "idb: "))
	}
	if err != nil || !ok {
		return "", nil
	}
	head, _ := rec.Header()
	h.remember(sessionID, head.CampaignID)
	return head.CampaignID, nil
}

// remember notes the campaign a session plays.
func (h *host) remember(sessionID, campaignID string) {
	if campaignID == "" {
		return
	}
	h.mu.Lock()
	h.campaigns[sessionID] = campaignID
	h.mu.Unlock()
}

type localeArgs struct {
	Locale string `json:"locale,omitempty"`
}

// librarySummary is one campaign of the library.
type librarySummary struct {
	CampaignID   string            `json:"campaignId"`
	KindID       string            `json:"kindId"`
	TitleKey     core.LocKey       `json:"titleKey"`
	Title        string            `json:"title"`
	Blurb        string            `json:"blurb,omitempty"`
	Locales      []string          `json:"locales"`
	Progress     *session.Progress `json:"progress,omitempty"`
	Achievements struct {
		Unlocked int `json:"unlocked"`
		Total    int `json:"total"`
	} `json:"achievements"`
	Last *lastPlayed `json:"last,omitempty"`
}

func opListCampaigns(ctx context.Context, arg json.RawMessage) (any, error) {
	h, a, err := argsOf[localeArgs](arg)
	if err != nil {
		return nil, err
	}
	prof, _ := h.keep.Profiles().Load(ctx, profileID)
	out := make([]librarySummary, 0, len(h.order))
	skips := []skipped{}
	kept := []core.ValidationWarning{}
	for _, id := range h.order {
		ch, err := h.forCampaign(id)
		if err != nil {
			e := errorBody(err)
			skips = append(skips, skipped{ID: id, Code: e.Code, Reason: e.Message})
			continue
		}
		kept = append(kept, ch.warnings...)
		cat, err := ch.store.ListCampaigns(ctx, profileID, a.Locale)
		if err != nil {
			return nil, err
		}
		for _, c := range cat.Campaigns {
			s := librarySummary{CampaignID: c.CampaignID, KindID: c.KindID, TitleKey: c.TitleKey, Title: cat.Strings[c.TitleKey], Blurb: cat.Strings[c.BlurbKey],
				Locales: ch.locales, Progress: c.Progress, Last: h.last(c.CampaignID)}
			s.Achievements.Total = len(ch.engine.Milestones(ch.engine.Registry().Campaign(c.CampaignID)).Achievements)
			for _, r := range prof.Profile.Achievements {
				if r.CampaignID == c.CampaignID {
					s.Achievements.Unlocked++
				}
			}
			out = append(out, s)
		}
	}
	return map[string]any{"campaigns": out, "skipped": skips, "keptVersions": kept}, nil
}

type campaignArgs struct {
	CampaignID string `json:"campaignId"`
	Locale     string `json:"locale,omitempty"`
}

func (a campaignArgs) servedBy(_ context.Context, h *host) (*campaignHost, error) {
	return h.forCampaign(a.CampaignID)
}

func opGetCampaign(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[campaignArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	c := ch.engine.Registry().Campaign(a.CampaignID)
	prof, _ := h.keep.Profiles().Load(ctx, profileID)
	achievements, endings := milestones(ch.engine.Milestones(c))
	for i := range achievements {
		ach := &achievements[i]
		ach.Title = ch.text(a.Locale, ach.TitleKey)
		ach.Description = ch.text(a.Locale, ach.DescriptionKey)
		for _, r := range prof.Profile.Achievements {
			ach.Unlocked = ach.Unlocked || (r.CampaignID == c.ID && r.AchievementID == ach.ID)
		}
	}
	for i := range endings {
		e := &endings[i]
		e.Title = ch.text(a.Locale, e.TitleKey)
		for _, r := range prof.Profile.Terminals {
			e.Found = e.Found || (r.CampaignID == c.ID && r.TerminalID == e.ID)
		}
	}
	return map[string]any{
		"campaignId": c.ID, "kindId": c.KindID, "version": c.Version,
		"titleKey": c.TitleKey, "title": ch.text(a.Locale, c.TitleKey),
		"locales": ch.locales, "achievements": achievements, "endings": endings,
		"last": h.last(c.ID),
	}, nil
}

func opGetProfile(ctx context.Context, _ json.RawMessage) (any, error) {
	h, err := current()
	if err != nil {
		return nil, err
	}
	res, err := h.keep.Profiles().Load(ctx, profileID)
	if err != nil {
		return nil, failf(core.ReasonStorageFailure, "%v", err)
	}
	return map[string]any{"profileId": profileID, "achievements": res.Profile.Achievements, "terminals": res.Profile.Terminals}, nil
}

type createArgs struct {
	CampaignID string `json:"campaignId"`
	Seed       string `json:"seed,omitempty"`
}

func (a createArgs) servedBy(_ context.Context, h *host) (*campaignHost, error) {
	return h.forCampaign(a.CampaignID)
}

func opCreateSession(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[createArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	sh, err := ch.store.CreateSession(ctx, session.CreateSessionConfig{CampaignID: a.CampaignID, Seed: a.Seed, ProfileID: profileID})
	if err != nil {
		return nil, err
	}
	return h.played(ctx, ch, sh), nil
}

// handleOut is a session and its scene, with the campaign it plays.
type handleOut struct {
	SessionID  string                   `json:"sessionId"`
	CampaignID string                   `json:"campaignId"`
	KindID     string                   `json:"kindId"`
	Scene      core.Scene               `json:"scene"`
	ActionLen  int                      `json:"actionCount"`
	Warnings   []core.ValidationWarning `json:"warnings,omitempty"`
	// Notices say what a campaign update did to the game at resume or
	// load: adopted, migrated, or kept on its version.
	Notices []session.ContentNotice `json:"notices,omitempty"`
}

// handle describes a session handle for the page: it fills in the
// campaign, kind and log length of the session, from the session store's
// decoded state, and remembers its campaign.
func (h *host) handle(ctx context.Context, ch *campaignHost, sh session.SessionHandle) handleOut {
	out := handleOut{SessionID: sh.SessionID, Scene: sh.Scene, Warnings: sh.Warnings, Notices: sh.Notices}
	sum, err := ch.store.Summary(ctx, out.SessionID)
	if err != nil {
		return out
	}
	out.CampaignID, out.KindID, out.ActionLen = sum.CampaignID, sum.KindID, sum.ActionCount
	h.remember(out.SessionID, sum.CampaignID)
	return out
}

// played describes a session the player has just started, loaded or
// branched, and makes it the campaign's last played.
func (h *host) played(ctx context.Context, ch *campaignHost, sh session.SessionHandle) handleOut {
	h.touch(ch.id, sh.SessionID, sh.Scene.Status, nowStamp())
	return h.handle(ctx, ch, sh)
}

// sessionArgs names a session; the arguments of every other operation on
// one session embed it.
type sessionArgs struct {
	SessionID string `json:"sessionId"`
}

func (a sessionArgs) servedBy(ctx context.Context, h *host) (*campaignHost, error) {
	return h.forSession(ctx, a.SessionID)
}

func opResumeSession(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[sessionArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	sh, err := ch.store.Resume(ctx, a.SessionID)
	if err != nil {
		return nil, err
	}
	return h.handle(ctx, ch, sh), nil
}

func opSessionSummary(ctx context.Context, arg json.RawMessage) (any, error) {
	_, ch, a, err := on[sessionArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	sum, err := ch.store.Summary(ctx, a.SessionID)
	if err != nil {
		return nil, failf(core.ReasonUnknownSession, "unknown session %q", a.SessionID)
	}
	return sum, nil
}

// argsOf is the first step of every operation that takes an argument: it
// finds the host init set up, then decodes the argument.
func argsOf[A any](arg json.RawMessage) (*host, A, error) {
	var a A
	h, err := current()
	if err != nil {
		return nil, a, err
	}
	if f, ok := any(&a).(plainArgs); !ok || !f.plain(arg) {
		if err := decode(arg, &a); err != nil {
			return nil, a, err
		}
	}
	return h, a, nil
}

// plainArgs is implemented by the argument types with a fast reading of
// the shape the page sends most, which decode would read the same.
type plainArgs interface {
	plain(arg []byte) bool
}

// target is implemented by every argument type that names what its
// operation acts on, a campaign, a session or a save: servedBy finds the
// campaign host that serves it.
type target interface {
	servedBy(ctx context.Context, h *host) (*campaignHost, error)
}

// on is the first half of every operation on one campaign, session or
// save: it decodes the arguments and finds the campaign host that serves
// what they name.
func on[A target](ctx context.Context, arg json.RawMessage) (*host, *campaignHost, A, error) {
	h, a, err := argsOf[A](arg)
	if err != nil {
		return nil, nil, a, err
	}
	ch, err := a.servedBy(ctx, h)
	return h, ch, a, err
}

func opGetScene(ctx context.Context, arg json.RawMessage) (any, error) {
	_, ch, a, err := on[sessionArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	sc, err := ch.store.GetScene(ctx, a.SessionID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"scene": sc}, nil
}

func opGetView(ctx context.Context, arg json.RawMessage) (any, error) {
	_, ch, a, err := on[sessionArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	v, err := ch.store.GetView(ctx, a.SessionID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"view": v}, nil
}

type stringsArgs struct {
	sessionArgs
	Locale string `json:"locale,omitempty"`
}

func opGetStrings(ctx context.Context, arg json.RawMessage) (any, error) {
	_, ch, a, err := on[stringsArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	table, err := ch.store.GetStrings(ctx, a.SessionID, a.Locale)
	if err != nil {
		return nil, err
	}
	locale := a.Locale
	if locale == "" {
		locale = core.DefaultLocale
	}
	return map[string]any{"locale": locale, "strings": table}, nil
}

type actionArgs struct {
	sessionArgs
	ActionID string      `json:"actionId"`
	Params   core.Params `json:"params,omitempty"`
}

// plain reads arg when it is one of the two shapes the page and the
// benchmarks send on every choice, {"sessionId":"…","actionId":"…"} with
// an optional ,"params":{} — written by JSON.stringify, with no space and
// strings without escapes — and reports whether it did; any other
// argument goes through decode, which would read these exactly the same.
func (a *actionArgs) plain(arg []byte) bool {
	str := func(prefix string) (string, bool) {
		if !bytes.HasPrefix(arg, []byte(prefix)) {
			return "", false
		}
		arg = arg[len(prefix):]
		end := bytes.IndexByte(arg, '"')
		if end < 0 || bytes.IndexByte(arg[:end], '\\') >= 0 || !utf8.Valid(arg[:end]) {
			return "", false
		}
		for _, c := range arg[:end] {
			if c < 0x20 {
				return "", false
			}
		}
		v := string(arg[:end])
		arg = arg[end+1:]
		return v, true
	}
	session, ok := str(`{"sessionId":"`)
	if !ok {
		return false
	}
	action, ok := str(`,"actionId":"`)
	if !ok {
		return false
	}
	var params core.Params
	switch string(arg) {
	case `}`:
	case `,"params":{}}`:
		params = core.Params{}
	default:
		return false
	}
	*a = actionArgs{sessionArgs: sessionArgs{SessionID: session}, ActionID: action, Params: params}
	return true
}

// actionOut is an action's result as the page sees it: the session store's
// result, an error when the engine refused it, and the news worth
// announcing (the page's shape of the store's news, which it replaces).
type actionOut struct {
	session.ActionResult
	Error *wireError `json:"error,omitempty"`
	News  *newsOut   `json:"news,omitempty"`
}

func (actionOut) carriesOK() {}

// plain reports whether o carries nothing but its ok and its scene: no
// error, no news, and its four lists empty (never nil: encoding/json would
// write null).
func (o actionOut) plain() bool {
	r := o.ActionResult
	return o.Error == nil && o.News == nil &&
		r.Errors != nil && len(r.Errors) == 0 && r.Warnings != nil && len(r.Warnings) == 0 &&
		r.Changes != nil && len(r.Changes) == 0 && r.Messages != nil && len(r.Messages) == 0
}

// appendJSON writes o as encoding/json would read it back, its scene (the
// bulk of it) by core.Scene.AppendJSON.
func (o actionOut) appendJSON(b []byte) ([]byte, error) {
	scene := o.Scene
	o.Scene = nil
	var rest []byte
	var err error
	if o.plain() {
		// A choice that changed nothing visible and said nothing: most
		// of a story's choices. encoding/json writes the same.
		rest = append(strconv.AppendBool([]byte(`{"ok":`), o.OK), `,"errors":[],"warnings":[],"changes":[],"messages":[]}`...)
	} else {
		rest, err = json.Marshal(o)
	}
	if err != nil || scene == nil {
		return append(b, rest...), err
	}
	b = append(b, rest[:len(rest)-1]...)
	b = append(b, `,"scene":`...)
	if b, err = scene.AppendJSON(b); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// newsOut is what an accepted action brought, as the page reads it:
// achievements unlocked and the ending reached, with whether the profile
// had it already.
type newsOut struct {
	Achievements []achievementInfo `json:"achievements"`
	Ending       *endingInfo       `json:"ending,omitempty"`
	EndingIsNew  bool              `json:"endingIsNew,omitempty"`
}

func opSubmitAction(ctx context.Context, arg json.RawMessage) (any, error) {
	return act(ctx, arg, false)
}

func opPreviewAction(ctx context.Context, arg json.RawMessage) (any, error) {
	return act(ctx, arg, true)
}

func act(ctx context.Context, arg json.RawMessage, preview bool) (any, error) {
	h, ch, a, err := on[actionArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	if a.Params == nil {
		a.Params = core.Params{}
	}
	var res session.ActionResult
	if preview {
		res, err = ch.store.PreviewAction(ctx, a.SessionID, a.ActionID, a.Params)
	} else {
		res, err = ch.store.SubmitAction(ctx, a.SessionID, a.ActionID, a.Params)
	}
	if err != nil {
		return nil, err
	}
	out := actionOut{ActionResult: res}
	if !res.OK {
		e := core.Errorf(core.ReasonInvalidState, "", "the action was refused")
		if len(res.Errors) > 0 {
			e = res.Errors[0]
		}
		out.Error = &wireError{Code: e.Code, Message: e.Message, MessageKey: e.MessageKey, Path: e.Path}
		return out, nil
	}
	if preview || res.Scene == nil {
		return out, nil
	}
	h.touch(ch.id, a.SessionID, res.Scene.Status, nowStamp())
	out.News = news(res.News)
	return out, nil
}

// news is an action's news as the page reads it: the session store's,
// each achievement marked unlocked and the ending found.
func news(n *session.News) *newsOut {
	if n == nil {
		return nil
	}
	out := &newsOut{Achievements: []achievementInfo{}}
	for _, a := range n.Achievements {
		out.Achievements = append(out.Achievements, achievementInfo{ID: a.ID, TitleKey: a.TitleKey, DescriptionKey: a.DescriptionKey, Unlocked: true, New: a.New})
	}
	if e := n.Ending; e != nil {
		out.Ending = &endingInfo{ID: e.ID, TitleKey: e.TitleKey, Outcome: e.Outcome, Found: true}
		out.EndingIsNew = e.New
	}
	return out
}

type saveArgs struct {
	sessionArgs
	Name string `json:"name,omitempty"`
}

// slot is the meta document kept per save: its name.
type slot struct {
	Name string `json:"name"`
}

func slotKey(saveID string) string { return "slot:" + saveID }

// nameSave keeps a save's name; an empty name keeps none.
func (h *host) nameSave(saveID, name string) {
	if name == "" {
		return
	}
	doc, _ := json.Marshal(slot{Name: name})
	h.keep.putMeta(slotKey(saveID), string(doc))
}

func opSaveGame(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[saveArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(a.Name)
	if len([]rune(name)) > 80 {
		name = string([]rune(name)[:80])
	}
	sh, err := ch.store.SaveGame(ctx, a.SessionID)
	if err != nil {
		return nil, err
	}
	h.nameSave(sh.SaveID, name)
	return map[string]any{"saveId": sh.SaveID, "savedAt": sh.SavedAt, "savedAtSeq": sh.SavedAtSeq, "name": name}, nil
}

// saveIDArgs names a save; deleteSave's arguments embed it.
type saveIDArgs struct {
	SaveID string `json:"saveId"`
}

func (a saveIDArgs) servedBy(ctx context.Context, h *host) (*campaignHost, error) {
	return h.forSave(ctx, a.SaveID)
}

func opLoadGame(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[saveIDArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	sh, err := ch.store.LoadGame(ctx, a.SaveID)
	if err != nil {
		return nil, err
	}
	return h.played(ctx, ch, sh), nil
}

type listSavesArgs struct {
	CampaignID string `json:"campaignId,omitempty"`
}

// saveOut is one save of a list: the session store's summary and its name.
type saveOut struct {
	session.SaveSummary
	Name string `json:"name,omitempty"`
}

func opListSaves(ctx context.Context, arg json.RawMessage) (any, error) {
	h, a, err := argsOf[listSavesArgs](arg)
	if err != nil {
		return nil, err
	}
	// Saves are records, the same whichever campaign's store reads them:
	// listing them builds no campaign.
	recs, err := h.keep.Records().ListSaves(ctx, profileID)
	if err != nil {
		return nil, failf(core.ReasonStorageFailure, "storage failed: %v", err)
	}
	list := make([]session.SaveSummary, 0, len(recs))
	for _, r := range recs {
		list = append(list, session.SaveSummary{SaveID: r.SaveID, CampaignID: r.CampaignID, SavedAt: r.SavedAt, SavedAtSeq: r.SavedAtSeq})
	}
	// Newest first, ties by save id, as the session store lists them.
	sort.Slice(list, func(i, j int) bool {
		if list[i].SavedAt != list[j].SavedAt {
			return list[i].SavedAt > list[j].SavedAt
		}
		return list[i].SaveID < list[j].SaveID
	})
	names := h.keep.listMeta("slot:")
	out := []saveOut{}
	for _, s := range list {
		if a.CampaignID != "" && s.CampaignID != a.CampaignID {
			continue
		}
		o := saveOut{SaveSummary: s}
		var sl slot
		if json.Unmarshal([]byte(names[slotKey(s.SaveID)]), &sl) == nil {
			o.Name = sl.Name
		}
		out = append(out, o)
	}
	// Saves that cannot be read are reported by id, not hidden, and hide
	// no other (docs/browser.md).
	all, err := h.keep.Corrupt(ctx)
	if err != nil {
		return nil, failf(core.ReasonStorageFailure, "storage failed: %v", err)
	}
	corrupt := []idb.CorruptRecord{}
	for _, c := range all {
		if c.Store == "saves" {
			corrupt = append(corrupt, c)
		}
	}
	return map[string]any{"saves": out, "corrupt": corrupt}, nil
}

type deleteArgs struct {
	saveIDArgs
	SavedAt string `json:"savedAt"`
}

func opDeleteSave(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[deleteArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	if err := ch.store.DeleteSave(ctx, profileID, a.SaveID, a.SavedAt); err != nil {
		return nil, err
	}
	h.keep.deleteMeta(slotKey(a.SaveID))
	return map[string]any{"saveId": a.SaveID}, nil
}

type branchArgs struct {
	sessionArgs
	AtActionCount int `json:"atActionCount"`
}

func opBranchSession(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[branchArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	sh, err := ch.store.BranchSession(ctx, a.SessionID, a.AtActionCount)
	if err != nil {
		return nil, err
	}
	return h.played(ctx, ch, sh), nil
}

// historyEntry is one entry of a session's log, labelled for a branch
// picker: the label the action had when it was taken.
type historyEntry struct {
	Seq      int         `json:"seq"`
	ActionID string      `json:"actionId,omitempty"`
	Params   core.Params `json:"params,omitempty"`
	LabelKey core.LocKey `json:"labelKey,omitempty"`
	// DetailKey labels the action's main parameter when it names
	// something of the view (a simulation activity, a world building).
	DetailKey core.LocKey `json:"detailKey,omitempty"`
	// System is "content" or "migration" for an epoch entry.
	System string `json:"system,omitempty"`
}

func opGetHistory(ctx context.Context, arg json.RawMessage) (any, error) {
	_, ch, a, err := on[sessionArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	fx, err := ch.store.CaptureSession(ctx, a.SessionID, "")
	if err != nil {
		return nil, err
	}
	eng := ch.engine.WithEmitter(nil)
	created := eng.CreateGame(fx.Config, fx.CampaignVersion)
	if !created.OK {
		return nil, failf(core.ReasonInvalidState, "the session does not replay")
	}
	st := created.Value
	st.GameID = "replay"
	entries := []historyEntry{}
	for i := 0; i < fx.ActionLog.Len(); i++ {
		switch e := fx.ActionLog.At(i).(type) {
		case core.LoggedAction:
			he := historyEntry{Seq: e.Seq, ActionID: e.ActionID, Params: e.Params}
			if acts, err := eng.AvailableActions(st); err == nil {
				for _, av := range acts {
					if av.ID == e.ActionID {
						he.LabelKey = av.LabelKey
					}
				}
			}
			if v, err := eng.View(st, core.AudiencePlayer); err == nil {
				he.DetailKey = detailKey(v.KindView, e.Params)
			}
			entries = append(entries, he)
			res := eng.SubmitAction(st, e.ActionID, e.Params)
			if !res.OK {
				return nil, failf(core.ReasonInvalidState, "entry %d no longer replays", i)
			}
			st = res.Value
		case core.LoggedContent:
			entries = append(entries, historyEntry{Seq: e.Seq, System: "content"})
			if r := eng.AdoptContent(st, e.To); r.Adopted {
				st = r.State
			}
		default:
			entries = append(entries, historyEntry{Seq: i, System: "migration"})
		}
	}
	return map[string]any{"sessionId": a.SessionID, "entries": entries}, nil
}

// detailKey finds the label of the thing an action's parameter names in
// the kind view: an activity (simulation), a building or a node (world).
func detailKey(kindView json.RawMessage, params core.Params) core.LocKey {
	var v map[string]json.RawMessage
	if json.Unmarshal(kindView, &v) != nil {
		return ""
	}
	look := func(list, id string) core.LocKey {
		var items []struct {
			ID       string      `json:"id"`
			LabelKey core.LocKey `json:"labelKey"`
		}
		if json.Unmarshal(v[list], &items) != nil {
			return ""
		}
		for _, it := range items {
			if it.ID == id {
				return it.LabelKey
			}
		}
		return ""
	}
	for _, p := range []struct{ param, list string }{{"activity", "activities"}, {"building", "buildings"}, {"staff", "staff"}, {"node", "nodes"}} {
		if id, ok := params[p.param].(string); ok {
			if k := look(p.list, id); k != "" {
				return k
			}
		}
	}
	return ""
}

func opExportSave(ctx context.Context, arg json.RawMessage) (any, error) {
	h, ch, a, err := on[saveIDArgs](ctx, arg)
	if err != nil {
		return nil, err
	}
	name := h.slotName(a.SaveID)
	doc, err := ch.store.ExportNamedSave(ctx, profileID, a.SaveID, name)
	if err != nil {
		return nil, err
	}
	rec, _, _ := h.keep.Records().GetSave(ctx, a.SaveID)
	return map[string]any{"fileName": exportFileName(rec.CampaignID, name, rec.SavedAt), "data": string(doc)}, nil
}

// slotName is the name a save was given, or "".
func (h *host) slotName(saveID string) string {
	var sl slot
	if doc, ok := h.keep.getMeta(slotKey(saveID)); ok {
		_ = json.Unmarshal([]byte(doc), &sl)
	}
	return sl.Name
}

// exportFileName is a save file's name: the campaign, the slot's name
// reduced to letters, digits and dashes, and the minute it was saved, as
// storyloom-gannet-rock-at-the-light-20261203-1330.json.
func exportFileName(campaignID, name, savedAt string) string {
	parts := []string{"storyloom", campaignID}
	var slug strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && slug.Len() > 0 {
				slug.WriteByte('-')
			}
			slug.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if slug.Len() >= 40 {
			break
		}
	}
	if slug.Len() > 0 {
		parts = append(parts, slug.String())
	}
	if t, err := time.Parse(time.RFC3339Nano, savedAt); err == nil {
		parts = append(parts, t.Format("20060102-1504"))
	}
	return strings.Join(parts, "-") + ".json"
}

type importArgs struct {
	Data string `json:"data"`
	// Name is the slot's name when the file has none (the page passes the
	// file's name).
	Name string `json:"name,omitempty"`
	// data is Data's bytes when plain read them.
	data []byte
}

// plain reads arg when it is the shape the page and the benchmarks send,
// {"data":"…"} with an optional ,"name":"…" after it, written by
// JSON.stringify with no space, the file's only escapes \" and \\, and
// the name's none; it unescapes the file straight into the bytes the
// import reads, in one pass. Anything else (another escape, a control
// character, invalid UTF-8) goes through decode, which reads these shapes
// exactly the same.
func (a *importArgs) plain(arg []byte) bool {
	const prefix = `{"data":"`
	if !bytes.HasPrefix(arg, []byte(prefix)) {
		return false
	}
	data := make([]byte, 0, len(arg)-len(prefix))
	i, run := len(prefix), len(prefix) // arg[run:i] is yet to be copied
	for {
		if i >= len(arg) {
			return false
		}
		c := arg[i]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return false
		}
		if c == '\\' {
			if i+1 >= len(arg) || (arg[i+1] != '"' && arg[i+1] != '\\') {
				return false
			}
			data = append(data, arg[run:i]...)
			i++
			run = i // the escaped character starts the next run
		}
		i++
	}
	data = append(data, arg[run:i]...)
	rest := arg[i+1:]
	var name string
	if string(rest) != "}" {
		const namePrefix = `,"name":"`
		if !bytes.HasPrefix(rest, []byte(namePrefix)) || !bytes.HasSuffix(rest, []byte(`"}`)) {
			return false
		}
		n := rest[len(namePrefix) : len(rest)-2]
		if bytes.IndexByte(n, '"') >= 0 || bytes.IndexByte(n, '\\') >= 0 || !utf8.Valid(n) {
			return false
		}
		for _, c := range n {
			if c < 0x20 {
				return false
			}
		}
		name = string(n)
	}
	if !utf8.Valid(data) {
		return false
	}
	*a = importArgs{Name: name, data: data}
	return true
}

func opImportSave(ctx context.Context, arg json.RawMessage) (any, error) {
	h, a, err := argsOf[importArgs](arg)
	if err != nil {
		return nil, err
	}
	// The file names its campaign; that campaign's store checks the rest
	// (checksum, versions, the state itself) before anything is written.
	data := a.data
	if data == nil {
		data = []byte(a.Data)
	}
	head, ok := session.ReadSaveFileHeader(data)
	if !ok {
		return nil, failf(core.ReasonMalformedInput, "this is not a Storyloom save file")
	}
	ch, err := h.forCampaign(head.CampaignID)
	if err != nil {
		return nil, err
	}
	sh, err := ch.store.ImportSave(ctx, profileID, data)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(head.Name)
	if name == "" {
		name = strings.TrimSpace(a.Name)
	}
	h.nameSave(sh.SaveID, name)
	rec, _, _ := h.keep.Records().GetSave(ctx, sh.SaveID)
	return map[string]any{"saveId": sh.SaveID, "savedAt": sh.SavedAt, "savedAtSeq": sh.SavedAtSeq, "campaignId": rec.CampaignID, "name": name}, nil
}

// opDebugPanic panics on purpose, so that a test can check the boundary
// recovers: the promise resolves to internal_error and the module lives on.
func opDebugPanic(_ context.Context, arg json.RawMessage) (any, error) {
	var none []byte
	return map[string]any{"byte": none[len(arg)]}, nil // a real runtime panic: index out of range
}

func nowStamp() string { return stamps.Now() }

var stamps = &clock{}
