package session

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/storyloom/storyloom/engine/core"
)

// ContentScope is what a ContentChannel is asked about (§7).
type ContentScope struct {
	CampaignID string
	SessionID  string
	// ProfileID is "" for an anonymous session.
	ProfileID string
}

// ContentChannel offers new content to running sessions (§7): the campaign
// version a session in scope should be on, or ok false for no offer. It is
// called under the session lock; a panic reads as no offer.
type ContentChannel interface {
	Current(scope ContentScope) (version string, ok bool)
}

// Config is what a host builds a Store over. Engine, Records, Profiles,
// Clock and IDs are required; Content is optional.
type Config struct {
	// Engine is the pure engine every operation calls.
	Engine *core.Engine
	// Records persists session and save records.
	Records RecordStore
	// Profiles persists player profiles.
	Profiles ProfileStore
	// Clock stamps records.
	Clock Clock
	// IDs mints session and save ids.
	IDs RecordIDSource
	// Content offers new epochs at the four adoption points; nil means
	// sessions stay on the epoch they started on.
	Content ContentChannel
	// Unsupported reports whether the host kept a campaign at a version
	// that this build cannot run (content.Archive.Unsupported: its restore
	// was unsupported). A session naming such a version is refused with
	// campaign_version_unsupported rather than unknown_campaign. Nil means
	// none.
	Unsupported func(campaignID, version string) bool
	// SessionCacheLimit bounds how many sessions the store keeps decoded in
	// memory; 0 means no bound. Persistence is authoritative either way.
	SessionCacheLimit int
}

// Store is the session store (§7) together with the host-only operations
// of §7's SessionLayer, Forget and CaptureSession. It is safe for concurrent
// use; commands on one session run one at a time, and commands on different
// sessions never wait for each other.
type Store struct {
	engine   *core.Engine
	quiet    *core.Engine // the same engine with no emitter, for replays
	records  RecordStore
	profiles ProfileStore
	clock    Clock
	ids      RecordIDSource
	content  ContentChannel
	limit    int
	// unsupported is Config.Unsupported.
	unsupported func(campaignID, version string) bool

	sessionLocks keyedLocks
	profileLocks keyedLocks
	saveLocks    keyedLocks

	mu    sync.Mutex // guards cache
	cache map[string]*cached

	// verified holds the last few saves this store wrote or checked.
	verified verifiedSaves
}

// cached is a session's last committed record, its decoded state and the
// running checksum of its blob's log (nil until a write or a save computes
// it). All are replaced, never changed, once published.
type cached struct {
	rec   SessionRecord
	state *core.GameState
	sum   *runningChecksum
}

// New returns a Store over cfg, or an error naming the missing piece.
func New(cfg Config) (*Store, error) {
	switch {
	case cfg.Engine == nil:
		return nil, fmt.Errorf("session: config needs an engine")
	case cfg.Records == nil:
		return nil, fmt.Errorf("session: config needs a record store")
	case cfg.Profiles == nil:
		return nil, fmt.Errorf("session: config needs a profile store")
	case cfg.Clock == nil:
		return nil, fmt.Errorf("session: config needs a clock")
	case cfg.IDs == nil:
		return nil, fmt.Errorf("session: config needs a record id source")
	}
	return &Store{
		engine:      cfg.Engine,
		quiet:       cfg.Engine.WithEmitter(nil),
		records:     cfg.Records,
		profiles:    cfg.Profiles,
		clock:       cfg.Clock,
		ids:         cfg.IDs,
		content:     cfg.Content,
		unsupported: cfg.Unsupported,
		limit:       cfg.SessionCacheLimit,
		cache:       map[string]*cached{},
	}, nil
}

// Engine returns the engine the store plays on.
func (s *Store) Engine() *core.Engine { return s.engine }

// keyedLocks is a set of mutexes keyed by id, created on demand and dropped
// when no one holds or waits for them.
type keyedLocks struct {
	mu sync.Mutex
	m  map[string]*keyedLock
}

type keyedLock struct {
	mu      sync.Mutex
	holders int
}

// lock acquires key's mutex and returns its release.
func (k *keyedLocks) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyedLock{}
	}
	l := k.m[key]
	if l == nil {
		l = &keyedLock{}
		k.m[key] = l
	}
	l.holders++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		l.holders--
		if l.holders == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
}

func (s *Store) cachedSession(id string) *cached {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache[id]
}

// publish puts a committed record in the cache, evicting another when over
// the limit.
func (s *Store) publish(c *cached) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cache[c.rec.SessionID] = c
	if s.limit > 0 && len(s.cache) > s.limit {
		for id := range s.cache {
			if id != c.rec.SessionID {
				delete(s.cache, id)
				break
			}
		}
	}
}

func (s *Store) evict(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.cache, id)
}

// session returns the session's last committed record and state, from the
// cache or else from persistence. The caller holds the session lock.
func (s *Store) session(ctx context.Context, op, id string) (*cached, *Error) {
	if c := s.cachedSession(id); c != nil {
		return c, nil
	}
	rec, ok, err := s.records.GetSession(ctx, id)
	if err != nil {
		return nil, storageError(op, err)
	}
	if !ok {
		return nil, errorf(op, core.ReasonUnknownSession, "unknown session %q", id)
	}
	st, sum, rerr := s.restore(op, rec)
	if rerr != nil {
		return nil, rerr
	}
	c := &cached{rec: rec, state: st, sum: sum}
	s.publish(c)
	return c, nil
}

// lockedSession takes the session lock and reads the session.
func (s *Store) lockedSession(ctx context.Context, op, id string) (*cached, func(), *Error) {
	unlock := s.sessionLocks.lock(id)
	c, err := s.session(ctx, op, id)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return c, unlock, nil
}

// readSession returns the last committed session without waiting for a
// command in flight when it is cached.
func (s *Store) readSession(ctx context.Context, op, id string) (*cached, *Error) {
	if c := s.cachedSession(id); c != nil {
		return c, nil
	}
	c, unlock, err := s.lockedSession(ctx, op, id)
	if err != nil {
		return nil, err
	}
	unlock()
	return c, nil
}

// offer asks the content channel for the version a session should be on.
// No channel, a panic, no offer or the state's own version: ok false.
func (s *Store) offer(scope ContentScope, current string) (version string, ok bool) {
	if s.content == nil {
		return "", false
	}
	defer func() {
		if recover() != nil {
			version, ok = "", false
		}
	}()
	v, ok := s.content.Current(scope)
	if !ok || v == "" || v == current {
		return "", false
	}
	return v, true
}

// adopt runs one adoption point: the state on the offered epoch, or the
// same state when there is no offer or the engine refuses it. The notice
// says which, and is nil when nothing was offered.
func (s *Store) adopt(st *core.GameState, sessionID, profileID string) (*core.GameState, *ContentNotice) {
	v, ok := s.offer(ContentScope{CampaignID: st.CampaignID, SessionID: sessionID, ProfileID: profileID}, st.CampaignVersion)
	if !ok {
		return st, nil
	}
	res := s.engine.AdoptContent(st, v)
	if !res.Adopted || res.State == st {
		reason := res.Reason
		if reason == "" {
			reason = core.ReasonContentNotAdoptable
		}
		return st, newNotice(NoticeKept, st.CampaignID, st.CampaignVersion, v, reason)
	}
	return res.State, newNotice(NoticeAdopted, st.CampaignID, st.CampaignVersion, v, "")
}

// write commits next, the record of st, publishing it to the cache only
// once the write committed; a conflict evicts the cached session. prev is
// the committed session st was made from by appending log entries (an
// action, an adoption), whose segmented log the write extends, or nil for
// a new session. saved, when not nil, is st as a loaded save holds it,
// whose segments the new log takes and whose canonical state is read
// instead of encoding st's log. sum is the running checksum of a prefix
// of st's log (prev's, or the loaded save's), or nil; the log is hashed
// whole, once, when it does not fit.
func (s *Store) write(ctx context.Context, op string, next SessionRecord, st *core.GameState, prev *cached, saved *savedState, sum *runningChecksum) (*cached, *Error) {
	n, from := st.ActionLog.Len(), 0
	if prev != nil {
		from = prev.state.ActionLog.Len()
	}
	if from > n {
		return nil, errorf(op, core.ReasonInvalidState, "the new log of %d entries does not extend the stored one of %d", n, from)
	}
	var added, rest []byte
	var closed []Segment
	switch {
	case prev != nil:
		added = st.ActionLog.AppendEntries(nil, from, n)
	case saved != nil:
		// A loaded save's checksum check found where its log ends.
		state, held := saved.state, segmentsEnd(saved.closed)
		end, count, ok := 0, 0, false
		if held == 0 && sum != nil && sum.logEnd > 0 {
			end, count, ok = sum.logEnd, sum.entries, true
		} else if bytes.HasPrefix(state, []byte(logStart)) {
			end, count, ok = scanEntries(state, len(logStart))
		}
		if ok && held+count == n && end < len(state) && state[end] == ']' {
			closed, added, rest = saved.closed, state[len(logStart):end:end], state[end:]
			break
		}
		fallthrough
	default:
		added = st.ActionLog.AppendEntries(nil, 0, n)
	}
	if sum != nil && sum.compatible != next.ReplayCompatible {
		sum = nil
	}
	switch {
	case sum == nil:
	case sum.entries == from && closed == nil:
		sum = sum.extend(added, n-from)
	case sum.entries <= n && prev == nil:
		sum = sum.extend(st.ActionLog.AppendEntries(nil, sum.entries, n), n-sum.entries)
	default:
		sum = nil
	}
	if sum == nil {
		sum = newChecksum(next.ReplayCompatible)
		if prev != nil {
			pieces, _, err := s.stateParts(prev)
			if err != nil {
				return nil, errorf(op, core.ReasonInvalidState, "%v", err)
			}
			for _, p := range pieces {
				sum = sum.extend(p.b, p.n)
			}
		}
		for _, seg := range closed {
			sum = sum.extend(seg.Entries, seg.Count)
		}
		sum = sum.extend(added, n-sum.entries)
	}
	log, err := s.nextLog(prev, st, closed, added, sum, rest)
	if err != nil {
		return nil, errorf(op, core.ReasonInvalidState, "%v", err)
	}
	next.Blob, next.Log = nil, log
	if perr := s.records.PutSession(ctx, next); perr != nil {
		serr := storageError(op, perr)
		if serr.Code == core.ReasonConcurrentModification {
			s.evict(next.SessionID)
		}
		return nil, serr
	}
	c := &cached{rec: next, state: st, sum: sum}
	s.publish(c)
	return c, nil
}

// scene renders st's scene for the session's audience.
func (s *Store) scene(op string, st *core.GameState, audience core.Audience) (core.Scene, *Error) {
	if audience == "" {
		audience = core.AudiencePlayer
	}
	sc, err := s.engine.SceneFor(st, audience)
	if err != nil {
		return core.Scene{}, asError(op, err)
	}
	return sc, nil
}

// asError turns an engine error into an *Error.
func asError(op string, err error) *Error {
	if v, ok := err.(core.ValidationError); ok {
		return refusal(op, []core.ValidationError{v})
	}
	return errorf(op, core.ReasonInternal, "%v", err)
}

// Forget drops a session from the store's memory without writing anything,
// after any command holding it finishes (§7's SessionLayer.forget). The next
// operation on it reads it from the record store again.
func (s *Store) Forget(_ context.Context, sessionID string) {
	unlock := s.sessionLocks.lock(sessionID)
	defer unlock()
	s.evict(sessionID)
}

// LatestChannel is a ContentChannel that offers every session in a
// campaign the version the function names for it; "" is no offer. A host
// serving an archive passes its Current method.
type LatestChannel func(campaignID string) string

// Current implements ContentChannel.
func (f LatestChannel) Current(scope ContentScope) (string, bool) {
	v := f(scope.CampaignID)
	return v, v != ""
}
