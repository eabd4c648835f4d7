package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/storyloom/storyloom/bundle/randomid"
	"github.com/storyloom/storyloom/bundle/sessiondb"
	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/static"
)

// storeFlags are the flags `bundle mcp` and `bundle play` share: where the
// records live and which campaigns the engine plays.
type storeFlags struct {
	db        string
	memory    bool
	built     string
	source    bool
	campaigns string
}

// register adds the shared flags to fl.
func (f *storeFlags) register(fl *flag.FlagSet) {
	fl.StringVar(&f.db, "db", "", "SQLite database for sessions, saves and profiles (default "+defaultDBHint+")")
	fl.BoolVar(&f.memory, "memory", false, "keep sessions, saves and profiles in memory only")
	fl.StringVar(&f.built, "built", "", "the built site whose verified campaign documents are played, compiling no source (default dist/ at the module root, which `go run ./bundle build` writes)")
	fl.BoolVar(&f.source, "source", false, "compile the campaigns' source at start instead, as an author trying a change: the campaigns built into the bundle, or -campaigns")
	fl.StringVar(&f.campaigns, "campaigns", "", "author's source, compiled at start (implies -source): comma-separated campaign directories or files, or pack directories (with pack.json)")
}

const defaultDBHint = "storyloom/sessions.db under the user cache directory, else ./.storyloom/sessions.db"

// hostStore is a session store over the registered kinds and the chosen
// campaigns and records, with what it holds open.
type hostStore struct {
	store *session.Store
	// where names the record storage, for the startup line.
	where string
	// warnings are the kept campaign versions that did not come back
	// (epoch_unsupported, content_version_conflict), for the startup lines.
	warnings []core.ValidationWarning
	// refused are the built documents that did not verify (invalid_state
	// with the failed check); the other campaigns play.
	refused []error
	close   func() error
}

// storeOptions pin what a reproducible run needs pinned.
type storeOptions struct {
	// deterministic uses counting session, save and game ids and a
	// counting clock, so a scripted run prints the same bytes every time.
	deterministic bool
}

// openStore builds the engine from the campaigns and the session store over
// SQLite (or memory) exactly as a native host does: the registered kinds,
// random ids and seeds, and a UTC clock. Over SQLite it keeps every
// campaign version it served (content.Reopen): games and saves made on an
// older version go on playing it, or adopt or migrate to the current one
// when they resume or load; what did not come back is in warnings.
func openStore(f storeFlags, opt storeOptions) (*hostStore, error) {
	kinds := registeredKinds()
	reg, refused, err := hostRegistry(kinds, f)
	if err != nil {
		return nil, err
	}
	var ids core.IDSource = randomIDs{}
	var recIDs session.RecordIDSource = randomIDs{}
	var clock session.Clock = session.ClockFunc(func() string {
		return time.Now().UTC().Format("2006-01-02T15:04:05.000000000Z")
	})
	if opt.deterministic {
		ids = &core.CountingIDs{}
		recIDs = &session.CountingRecordIDs{}
		clock = countingClock()
	}
	h := &hostStore{close: func() error { return nil }, where: "memory", refused: refused}
	var records session.RecordStore
	var profiles session.ProfileStore
	var kept []content.StoredEpoch
	var db *sessiondb.Store
	if f.memory {
		records, profiles = session.NewMemoryRecords(), session.NewMemoryProfiles()
	} else {
		path := f.db
		if path == "" {
			if path, err = defaultDBPath(); err != nil {
				return nil, err
			}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if db, err = sessiondb.Open(path); err != nil {
			return nil, err
		}
		records, profiles, h.where, h.close = db, db, path, db.Close
		if kept, err = db.Epochs(context.Background()); err != nil {
			_ = h.close()
			return nil, err
		}
	}
	fail := func(err error) (*hostStore, error) {
		_ = h.close()
		return nil, err
	}
	opened, err := content.Reopen(kinds, reg, kept)
	if err != nil {
		return fail(err)
	}
	h.warnings = opened.Warnings
	if db != nil {
		for _, e := range opened.Persist {
			if err := db.PutEpoch(context.Background(), e); err != nil {
				return fail(err)
			}
		}
	}
	eng, err := core.New(core.Host{Kinds: kinds, Registry: reg, Archive: opened.Archive, IDs: ids})
	if err != nil {
		return fail(err)
	}
	st, err := session.New(session.Config{Engine: eng, Records: records, Profiles: profiles, Clock: clock, IDs: recIDs,
		Content: session.LatestChannel(opened.Archive.Current), Unsupported: opened.Archive.Unsupported})
	if err != nil {
		return fail(err)
	}
	h.store = st
	return h, nil
}

// hostRegistry is the campaigns a host plays. By default, the published
// ones: the verified built documents (site.ReadBuilt, content.FromBuilt)
// of f.built or of dist/ at the module root, with those that did not
// verify in refused. Source is compiled only when the author asks (-source
// or -campaigns): the campaigns built into the bundle, or f.campaigns
// (campaign paths, or pack directories resolved as one set).
func hostRegistry(kinds []core.Kind, f storeFlags) (*core.Registry, []error, error) {
	source := f.source || f.campaigns != ""
	if source && f.built != "" {
		return nil, nil, errors.New("-built plays a built site and -source (or -campaigns) compiles source: give one")
	}
	if !source {
		dir := f.built
		if dir == "" {
			root, err := moduleRoot()
			if err != nil {
				return nil, nil, fmt.Errorf("%v: give -built DIR, or -source to compile the campaigns' source", err)
			}
			dir = filepath.Join(root, "dist")
		}
		pub, err := site.ReadBuilt(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("%w\n(-source compiles the campaigns' source instead, as an author trying a change)", err)
		}
		reg, err := pub.Registry(kinds)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", dir, err)
		}
		return reg, pub.Refused, nil
	}
	var (
		reg *core.Registry
		res core.ValidationResult
	)
	if packs, ok, err := packsFromPaths(splitList(f.campaigns)); err != nil {
		return nil, nil, err
	} else if ok {
		reg, res = content.BuildPacks(kinds, packs...)
	} else {
		sources, err := campaignSources(f.campaigns)
		if err != nil {
			return nil, nil, err
		}
		reg, res = content.Build(kinds, sources...)
	}
	if reg == nil {
		var b strings.Builder
		for _, e := range res.Errors {
			where, _ := e.Details["file"].(string)
			if where == "" {
				where, _ = e.Details["campaignId"].(string)
			}
			fmt.Fprintf(&b, "\n  %s: %s", where, e.Error())
		}
		return nil, nil, fmt.Errorf("the campaigns do not build:%s", b.String())
	}
	return reg, nil, nil
}

// splitList splits a comma-separated list; an empty list has no items.
func splitList(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ",")
}

// campaignSources reads the campaigns named by a comma-separated list of
// paths, or the built-in ones when the list is empty.
func campaignSources(list string) ([]content.Source, error) {
	if list == "" {
		return sourcesFromFS(static.FS, "campaigns")
	}
	return sourcesFromPaths(splitList(list))
}

// defaultDBPath is sessions.db in storyloom/ under the user cache directory,
// or under ./.storyloom/ when there is none.
func defaultDBPath() (string, error) {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "storyloom", "sessions.db"), nil
	}
	return filepath.Join(".storyloom", "sessions.db"), nil
}

// randomIDs mints session, save and game ids and seeds from crypto/rand, so
// ids never repeat across runs over one database.
type randomIDs struct{}

func (randomIDs) NewSessionID() string { return "session-" + randomid.Hex(12) }
func (randomIDs) NewSaveID() string    { return "save-" + randomid.Hex(12) }
func (randomIDs) NewGameID() string    { return "game-" + randomid.Hex(12) }
func (randomIDs) NewSeed() string      { return randomid.Hex(12) }

// countingClock stamps 2000-01-01T00:00:00Z plus one second per call, so
// saves sort in the order they were taken and a transcript never changes.
func countingClock() session.Clock {
	var (
		mu sync.Mutex
		n  int
	)
	base := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	return session.ClockFunc(func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return base.Add(time.Duration(n) * time.Second).Format("2006-01-02T15:04:05.000000000Z")
	})
}

// printKeptWarnings writes one line per built document refused and per
// kept campaign version that did not come back, after prefix.
func (h *hostStore) printKeptWarnings(w io.Writer, prefix string) {
	for _, e := range h.refused {
		fmt.Fprintf(w, "%s %s\n", prefix, e.Error())
	}
	for _, e := range h.warnings {
		fmt.Fprintf(w, "%s %s\n", prefix, e.Error())
	}
}
