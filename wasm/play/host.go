//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/storyloom/storyloom/bundle/randomid"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/wasm/play/idb"
)

// profileID is the one local player of a browser profile.
const profileID = "local"

// kinds is the fixed set of kinds the browser plays, registered explicitly
// here and nowhere else.
func kinds() []core.Kind {
	return []core.Kind{story.Kind{}, sim.Kind{}, world.Kind{}}
}

// host is what init sets up: the campaigns as the page handed them, where
// records live, and, built on first use, one engine and session store per
// campaign. Building a campaign (parsing and validating it) is the most
// expensive thing the module does, so a cold start to a game builds only
// that game's campaign; the library builds the rest. Every store shares
// the one keeper, so a session, a save or the profile is the same record
// whichever store reads it.
type host struct {
	keep *keeper
	// order is the campaigns' ids in the page's order.
	order []string
	// published are the campaigns' verified built documents, by id: what
	// the browser plays, composed on the author's side (no source).
	published map[string]content.StoredEpoch
	// resolution is the verified digest of the site's pack set, or empty.
	resolution string

	buildMu sync.Mutex
	built   map[string]*campaignHost

	mu sync.Mutex
	// campaigns remembers which campaign each session plays.
	campaigns map[string]string
}

// campaignHost is one campaign's engine and session store.
type campaignHost struct {
	id      string
	engine  *core.Engine
	store   *session.Store
	locales []string
	err     error
	// warnings are the kept versions of the campaign that did not come
	// back (content.Reopened.Warnings), for the console.
	warnings []core.ValidationWarning
}

// epochPrefix starts the meta document of every campaign version the
// browser has played: epochPrefix + campaignID + ":" + version holds its
// content.StoredEpoch, so a game or save made on it still plays after the
// site serves a newer version.
const epochPrefix = "epoch:"

// keptEpochs returns every version of campaignID this browser kept. A
// document that does not decode is left out: Reopen could not restore it
// either.
func (h *host) keptEpochs(campaignID string) []content.StoredEpoch {
	var out []content.StoredEpoch
	for _, doc := range h.keep.listMeta(epochPrefix + campaignID + ":") {
		var e content.StoredEpoch
		if json.Unmarshal([]byte(doc), &e) == nil && e.Form.Campaign.ID == campaignID {
			out = append(out, e)
		}
	}
	return out
}

// keepEpochs stores campaign versions beside the saves.
func (h *host) keepEpochs(epochs []content.StoredEpoch) {
	for _, e := range epochs {
		doc, err := json.Marshal(e)
		if err != nil {
			continue
		}
		h.keep.putMeta(epochPrefix+e.Form.Campaign.ID+":"+e.Form.Campaign.Version, string(doc))
	}
}

// forCampaign returns the campaign's engine and store, building them the
// first time.
func (h *host) forCampaign(id string) (*campaignHost, error) {
	h.buildMu.Lock()
	defer h.buildMu.Unlock()
	if ch, ok := h.built[id]; ok {
		return ch, ch.err
	}
	doc, ok := h.published[id]
	if !ok {
		return nil, failf(core.ReasonUnknownCampaign, "unknown campaign %q", id)
	}
	ch := &campaignHost{id: id}
	h.built[id] = ch
	reg, res := content.FromBuilt(kinds(), doc)
	if reg == nil {
		e := firstError(res)
		ch.err = failf(e.Code, "campaign %q does not build: %s", id, e.Message)
		return ch, ch.err
	}
	reg.Resolution = h.resolution
	opened, err := content.Reopen(kinds(), reg, h.keptEpochs(id))
	if err != nil {
		ch.err = failf(core.ReasonInvalidState, "%v", err)
		return ch, ch.err
	}
	h.keepEpochs(opened.Persist)
	ch.warnings = opened.Warnings
	ids := randomIDs{}
	engine, err := core.New(core.Host{Kinds: kinds(), Registry: reg, Archive: opened.Archive, IDs: ids})
	if err != nil {
		ch.err = failf(core.ReasonInvalidState, "%v", err)
		return ch, ch.err
	}
	store, err := session.New(session.Config{Engine: engine, Records: h.keep.Records(), Profiles: h.keep.Profiles(), Clock: stamps, IDs: ids,
		Content: session.LatestChannel(opened.Archive.Current), Unsupported: opened.Archive.Unsupported})
	if err != nil {
		ch.err = failf(core.ReasonInvalidState, "%v", err)
		return ch, ch.err
	}
	ch.engine, ch.store, ch.locales = engine, store, reg.Locales(id)
	return ch, nil
}

// forSession returns the store of the campaign a session plays.
func (h *host) forSession(ctx context.Context, sessionID string) (*campaignHost, error) {
	id, err := h.campaignOf(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, failf(core.ReasonUnknownSession, "unknown session %q", sessionID)
	}
	return h.forCampaign(id)
}

// forSave returns the store of the campaign a save plays.
func (h *host) forSave(ctx context.Context, saveID string) (*campaignHost, error) {
	rec, ok, err := h.keep.Records().GetSave(ctx, saveID)
	if idb.IsCorrupt(err) {
		return nil, failf(ReasonCorruptRecord, "%s. Its record is kept: the library lists it, to download or delete.", strings.TrimPrefix(err.Error(), "idb: "))
	}
	if err != nil {
		return nil, failf(core.ReasonStorageFailure, "storage failed: %v", err)
	}
	if !ok || rec.ProfileID != profileID {
		return nil, failf(core.ReasonUnknownSave, "unknown save %q", saveID)
	}
	return h.forCampaign(rec.CampaignID)
}

// state holds the host once init has run.
var state struct {
	mu sync.RWMutex
	h  *host
}

func current() (*host, error) {
	state.mu.RLock()
	defer state.mu.RUnlock()
	if state.h == nil {
		return nil, failf("not_initialized", "call storyloom.init first")
	}
	return state.h, nil
}

// randomIDs mints ids from the browser's crypto.getRandomValues
// (randomid.Hex).
type randomIDs struct{}

// NewGameID implements core.IDSource.
func (randomIDs) NewGameID() string { return "game-" + randomid.Hex(8) }

// NewSeed implements core.IDSource.
func (randomIDs) NewSeed() string { return randomid.Hex(16) }

// NewSessionID implements session.RecordIDSource.
func (randomIDs) NewSessionID() string { return "s-" + randomid.Hex(8) }

// NewSaveID implements session.RecordIDSource.
func (randomIDs) NewSaveID() string { return "save-" + randomid.Hex(8) }

// clock stamps records with the browser's time in RFC 3339 UTC with nine
// fractional digits, strictly increasing within a page so that two saves
// never share a stamp.
type clock struct {
	mu   sync.Mutex
	last time.Time
}

// Now implements session.Clock.
func (c *clock) Now() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := time.Now().UTC()
	if !t.After(c.last) {
		t = c.last.Add(time.Microsecond)
	}
	c.last = t
	return stamp(t)
}

// stamp writes t, a UTC time, as t.Format("2006-01-02T15:04:05.000000000Z")
// does for a four-digit year, without the layout interpreter: every record
// write and every choice takes a stamp.
func stamp(t time.Time) string {
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.Format("2006-01-02T15:04:05.000000000Z")
	}
	h, mi, sec := t.Clock()
	var b [30]byte
	put := func(at, v, width int) {
		for k := width - 1; k >= 0; k-- {
			b[at+k] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, y, 4)
	b[4] = '-'
	put(5, int(mo), 2)
	b[7] = '-'
	put(8, d, 2)
	b[10] = 'T'
	put(11, h, 2)
	b[13] = ':'
	put(14, mi, 2)
	b[16] = ':'
	put(17, sec, 2)
	b[19] = '.'
	put(20, t.Nanosecond(), 9)
	b[29] = 'Z'
	return string(b[:])
}
