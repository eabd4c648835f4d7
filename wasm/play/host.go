//go:build js && wasm

package main

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
	"github.com/storyloom/storyloom/engine/session"
)

// profileID is the one local player of a browser profile.
const profileID = "local"

// kinds is the fixed set of kinds the browser plays, registered explicitly
// here and nowhere else.
func kinds() []core.Kind {
	return []core.Kind{story.Kind{}, sim.Kind{}, world.Kind{}}
}

// host is what init builds: the engine over the page's campaigns, the
// session store, and where records live.
type host struct {
	engine *core.Engine
	store  *session.Store
	keep   *keeper
	// locales are the locales each campaign can be shown in.
	locales map[string][]string

	mu sync.Mutex
	// campaigns remembers which campaign each session plays.
	campaigns map[string]string
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

// randomIDs mints ids from the browser's crypto.getRandomValues, which
// Go's crypto/rand uses under js/wasm.
type randomIDs struct{}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("storyloom: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// NewGameID implements core.IDSource.
func (randomIDs) NewGameID() string { return "game-" + randomHex(8) }

// NewSeed implements core.IDSource.
func (randomIDs) NewSeed() string { return randomHex(16) }

// NewSessionID implements session.RecordIDSource.
func (randomIDs) NewSessionID() string { return "s-" + randomHex(8) }

// NewSaveID implements session.RecordIDSource.
func (randomIDs) NewSaveID() string { return "save-" + randomHex(8) }

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
	return t.Format("2006-01-02T15:04:05.000000000Z")
}
