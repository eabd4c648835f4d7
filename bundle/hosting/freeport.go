package hosting

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/storyloom/storyloom/bundle/displayname"
	"github.com/storyloom/storyloom/bundle/randomid"
	"github.com/storyloom/storyloom/engine/freeport"
)

// MaxRequestBytes is the largest Freeport request body (64 KiB).
const MaxRequestBytes = 64 << 10

// secretKey is the record holding the host secret that signs bearer
// tokens and derives each game instance's seed.
const secretKey = "host/secret"

// FreeportConfig configures the Freeport endpoint.
type FreeportConfig struct {
	// Store persists every game instance. Required.
	Store Store
	// Clock is the host clock. Required.
	Clock Clock
	// Games maps each instance id (the {game} of the path) to its parsed
	// game file. Required, non-empty.
	Games map[string]*freeport.Game
	// Secret signs bearer tokens and derives instance seeds; nil loads
	// it from the store, creating it on first use.
	Secret []byte
	// CommandsPerSecond bounds requests per bearer token per second; 0
	// means 20.
	CommandsPerSecond int
	// Rate counts each token's requests per second; nil counts in this
	// process's memory, which a host whose requests share no memory (the
	// edge worker, an instance per request) replaces with its store.
	Rate RateCounter
	// SnapshotEvery is how many logged requests an instance replays at
	// most after a restart before a snapshot replaces them; 0 means 256.
	SnapshotEvery int
	// MaxBatch bounds the requests of one group commit; 0 means 256.
	MaxBatch int
	// TokensPerMinute bounds the tokens one client address is issued in a
	// minute of the host clock (DefaultTokensPerMinute is the native
	// host's); more are refused 429 rate_limited, so throwaway accounts
	// cost time. 0 means no limit.
	TokensPerMinute int
	// TokenRate counts tokens per client address per minute (its sec is
	// the minute's first second); nil counts in this process's memory.
	TokenRate RateCounter
	// ClientAddr names a request's client address for TokensPerMinute;
	// nil takes the IP of RemoteAddr.
	ClientAddr func(*http.Request) string
	// Closed names the game instances closed to new enrolments: their
	// Players play on, anyone may still read the Standing, and an enroll
	// from an Owner with no Player is refused 403 enrolment_closed.
	Closed map[string]bool
	// Logf reports what the host's operator should see and the client is
	// not told: why a request was answered 503. nil discards it.
	Logf func(format string, args ...any)
}

// DefaultTokensPerMinute is the native host's TokensPerMinute.
const DefaultTokensPerMinute = 10

// ErrEnrolmentClosed is Apply's error for an enroll the host refused
// because the game is closed to new enrolments (FreeportConfig.Closed).
var ErrEnrolmentClosed = errors.New("hosting: freeport: the game is closed to new enrolments")

// Freeport serves the Freeport Game Master v2 over HTTP, one endpoint per
// game instance. It is safe for concurrent use.
type Freeport struct {
	cfg    FreeportConfig
	secret []byte
	inst   map[string]*instance
}

// RateCounter counts requests per key in each second, for a host's
// per-token limits.
type RateCounter interface {
	// Count adds one request of key in second sec (Unix seconds) and
	// returns how many requests key has made in that second so far.
	Count(ctx context.Context, key string, sec int64) (int64, error)
}

// instance is one game instance: its reducer state and persisted head.
type instance struct {
	id      string
	game    *freeport.Game
	seed    string
	b       batcher[fpRequest, fpResult]
	version atomic.Int64 // the committed State Version, for host refusals

	// Guarded by b.run.
	st      *freeport.State // nil: load from the store
	head    fpHead
	headVer int64
	snapVer int64
	board   *freeport.Board // the last State's ranked Standing, for its pages
}

// fpRequest is one request body for owner, or a read of one page of the
// Standing when standing is set.
type fpRequest struct {
	owner    string
	body     []byte
	standing *freeport.StandingQuery
}

type fpResult struct {
	resp    []byte
	version int64 // the State Version resp was read at
}

// fpHead is an instance's head record: the last logged request's number
// and the last one the snapshot includes.
type fpHead struct {
	Seq  int64 `json:"seq"`
	Snap int64 `json:"snap"`
}

// fpLogEntry is one logged request: replaying it on the state before it
// reproduces the state after it (the reducer is deterministic).
type fpLogEntry struct {
	Owner   string `json:"owner"`
	Now     int64  `json:"now"`
	Body    []byte `json:"body"`    // the exact request bytes
	Version int64  `json:"version"` // State Version after it
}

// NewFreeport returns the endpoint for cfg.Games, loading or creating the
// host secret.
func NewFreeport(ctx context.Context, cfg FreeportConfig) (*Freeport, error) {
	if cfg.Store == nil || cfg.Clock == nil || len(cfg.Games) == 0 {
		return nil, errors.New("hosting: freeport needs a Store, a Clock and at least one game")
	}
	for _, g := range cfg.Games {
		g.SetNamePolicy(displayname.Check) // the product's one name policy
	}
	if cfg.CommandsPerSecond <= 0 {
		cfg.CommandsPerSecond = 20
	}
	if cfg.SnapshotEvery <= 0 {
		cfg.SnapshotEvery = 256
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 256
	}
	secret := cfg.Secret
	if secret == nil {
		var err error
		if secret, err = LoadSecret(ctx, cfg.Store); err != nil {
			return nil, err
		}
	}
	if cfg.Rate == nil {
		cfg.Rate = &memoryRate{}
	}
	if cfg.TokenRate == nil {
		cfg.TokenRate = &memoryRate{}
	}
	if cfg.ClientAddr == nil {
		cfg.ClientAddr = remoteHost
	}
	f := &Freeport{cfg: cfg, secret: secret, inst: map[string]*instance{}}
	for id, g := range cfg.Games {
		if id == "" || strings.ContainsAny(id, "/ ") {
			return nil, fmt.Errorf("hosting: freeport: bad instance id %q", id)
		}
		in := &instance{id: id, game: g, seed: f.mac("freeport-seed", id)}
		in.b.max = cfg.MaxBatch
		f.inst[id] = in
	}
	return f, nil
}

// LoadSecret returns the host secret stored in st, creating a random one
// on first use.
func LoadSecret(ctx context.Context, st Store) ([]byte, error) {
	for range 4 {
		r, err := st.Load(ctx, secretKey)
		if err != nil {
			return nil, fmt.Errorf("hosting: secret: %w", err)
		}
		if r.Version > 0 {
			return r.Data, nil
		}
		err = st.Commit(ctx, []Write{{Key: secretKey, Data: []byte(randomid.Hex(32))}})
		if err != nil && !errors.Is(err, ErrConflict) {
			return nil, fmt.Errorf("hosting: secret: %w", err)
		}
	}
	return nil, errors.New("hosting: secret: could not be created")
}

func (f *Freeport) mac(parts ...string) string {
	m := hmac.New(sha256.New, f.secret)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// IssueToken returns a fresh bearer token: 32 random hex digits, a dot,
// and their MAC under the host secret. The Owner a token authenticates is
// derived from its random part and never leaves the host.
func (f *Freeport) IssueToken() string {
	r := randomid.Hex(16)
	return r + "." + f.mac("token", r)
}

// Owner returns the Owner ID token authenticates, or "" when it is not a
// token this host issued.
func (f *Freeport) Owner(token string) string {
	r, sig, ok := strings.Cut(token, ".")
	if !ok || len(r) != 32 || !hmac.Equal([]byte(sig), []byte(f.mac("token", r))) {
		return ""
	}
	return "o:" + r
}

// Apply runs one request body for the authenticated owner ("" for none)
// against game instance id and returns the response envelope, once it is
// committed. It is the endpoint without HTTP, for tests and other
// transports.
func (f *Freeport) Apply(ctx context.Context, id, owner string, body []byte) ([]byte, error) {
	in := f.inst[id]
	if in == nil {
		return nil, fmt.Errorf("hosting: freeport: unknown game %q", id)
	}
	res, err := f.run(ctx, in, fpRequest{owner: owner, body: body})
	return res.resp, err
}

// run queues req on instance in and waits for its batch to commit.
func (f *Freeport) run(ctx context.Context, in *instance, req fpRequest) (fpResult, error) {
	return in.b.do(req, func(batch []*job[fpRequest, fpResult]) {
		f.runBatch(ctx, in, batch)
	})
}

func (f *Freeport) key(in *instance, k string) string { return "freeport/" + in.id + "/" + k }

func logKey(seq int64) string { return fmt.Sprintf("log/%016d", seq) }

// load rebuilds an instance from its snapshot and the requests logged
// after it.
func (f *Freeport) load(ctx context.Context, in *instance) error {
	st := f.cfg.Store
	hr, err := st.Load(ctx, f.key(in, "head"))
	if err != nil {
		return err
	}
	var head fpHead
	if hr.Version > 0 {
		if err := json.Unmarshal(hr.Data, &head); err != nil {
			return fmt.Errorf("head: %w", err)
		}
	}
	sr, err := st.Load(ctx, f.key(in, "snap"))
	if err != nil {
		return err
	}
	state := in.game.NewState(in.seed)
	if sr.Version > 0 {
		if state, err = in.game.Restore(sr.Data); err != nil {
			return err
		}
	}
	logs, err := st.List(ctx, f.key(in, "log/"))
	if err != nil {
		return err
	}
	for _, r := range logs {
		seq, err := strconv.ParseInt(strings.TrimPrefix(r.Key, f.key(in, "log/")), 10, 64)
		if err != nil {
			return fmt.Errorf("log key %q", r.Key)
		}
		if seq <= head.Snap || seq > head.Seq {
			continue // folded into the snapshot, or never committed
		}
		var e fpLogEntry
		if err := json.Unmarshal(r.Data, &e); err != nil {
			return fmt.Errorf("log %d: %w", seq, err)
		}
		state, _ = state.Apply(e.Owner, e.Now, e.Body)
		if state.Version() != e.Version {
			return fmt.Errorf("log %d replays to version %d, not %d", seq, state.Version(), e.Version)
		}
	}
	in.st, in.head, in.headVer, in.snapVer = state, head, hr.Version, sr.Version
	in.version.Store(state.Version())
	return nil
}

func (f *Freeport) runBatch(ctx context.Context, in *instance, batch []*job[fpRequest, fpResult]) {
	var err error
	for attempt := range commitAttempts {
		backOff(ctx, attempt)
		if in.st != nil {
			// Another process may have committed since: answer nothing,
			// not even a query, from a stale state.
			hr, herr := f.cfg.Store.Load(ctx, f.key(in, "head"))
			if herr != nil {
				err = herr
				break
			}
			if hr.Version != in.headVer {
				in.st = nil
			}
		}
		if in.st == nil {
			if err = f.load(ctx, in); err != nil {
				err = fmt.Errorf("hosting: freeport %s: load: %w", in.id, err)
				break
			}
		}
		cur := in.st
		head := in.head
		var logs []Write
		for _, j := range batch {
			j.err = nil
			if j.in.standing != nil {
				if in.board == nil || !in.board.Of(cur) {
					in.board = cur.Board()
				}
				j.out = fpResult{resp: in.board.Page(f.cfg.Clock(), *j.in.standing), version: cur.Version()}
				continue
			}
			if f.cfg.Closed[in.id] && isEnroll(j.in.body) && j.in.owner != "" && !cur.Enrolled(j.in.owner) {
				j.err = ErrEnrolmentClosed // nothing applied, nothing logged
				continue
			}
			now := f.cfg.Clock()
			next, resp := cur.Apply(j.in.owner, now, j.in.body)
			j.out.resp = resp
			if next.Version() != cur.Version() {
				head.Seq++
				b, _ := json.Marshal(fpLogEntry{Owner: j.in.owner, Now: now, Body: j.in.body, Version: next.Version()})
				logs = append(logs, Write{Key: f.key(in, logKey(head.Seq)), Data: b})
			}
			cur = next
		}
		if head.Seq == in.head.Seq {
			return // nothing changed: queries and refusals
		}
		writes := logs
		snapVer := in.snapVer
		if head.Seq-head.Snap >= int64(f.cfg.SnapshotEvery) {
			data, merr := cur.Marshal()
			if merr != nil {
				err = merr
				break
			}
			writes = []Write{{Key: f.key(in, "snap"), Data: data, Version: in.snapVer}}
			for s := head.Snap + 1; s <= in.head.Seq; s++ {
				writes = append(writes, Write{Key: f.key(in, logKey(s)), Version: 1})
			}
			head.Snap = head.Seq
			snapVer++
		}
		hb, _ := json.Marshal(head)
		writes = append(writes, Write{Key: f.key(in, "head"), Data: hb, Version: in.headVer})
		if err = f.cfg.Store.Commit(ctx, writes); err == nil {
			in.st, in.head, in.headVer, in.snapVer = cur, head, in.headVer+1, snapVer
			in.version.Store(cur.Version())
			return
		}
		in.st = nil // reload: another writer moved the instance, or the store failed
		if !errors.Is(err, ErrConflict) {
			break
		}
	}
	for _, j := range batch {
		j.out = fpResult{}
		j.err = err
	}
}

// Handler returns the Freeport HTTP API (docs/hosting.md):
//
//	POST /freeport/{game}/token   a fresh bearer token: {"token":"…"}
//	POST /freeport/{game}/        one v2 request envelope; Authorization: Bearer <token>
//	GET  /freeport/{game}/standing one page of the Standing (serveStanding)
func (f *Freeport) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /freeport/{game}/standing", f.serveStanding)
	mux.HandleFunc("POST /freeport/{game}/token", f.serveToken)
	mux.HandleFunc("POST /freeport/{game}/{$}", f.serveRequest)
	mux.HandleFunc("POST /freeport/{game}", f.serveRequest)
	return mux
}

// HostError is the body of a refusal by the host rather than the Game
// Master (404, 429, 503): the protocol's closed error set is left to the
// Game Master's envelopes.
type HostError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"hostError"`
}

func hostError(w http.ResponseWriter, status int, code, msg string) {
	var e HostError
	e.Error.Code, e.Error.Message = code, msg
	writeJSON(w, status, e)
}

func (f *Freeport) serveToken(w http.ResponseWriter, r *http.Request) {
	game := r.PathValue("game")
	if f.inst[game] == nil {
		hostError(w, http.StatusNotFound, "unknown_game", "no Freeport game here")
		return
	}
	if f.overTokens(w, r, game) {
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"token": f.IssueToken()})
}

// overTokens counts one token for the request's client address and, when
// that is over TokensPerMinute, answers 429 and reports true. A count that
// fails lets the request through, as overRate does, and so does a request
// with no known client address.
func (f *Freeport) overTokens(w http.ResponseWriter, r *http.Request, game string) bool {
	addr := f.cfg.ClientAddr(r)
	if f.cfg.TokensPerMinute <= 0 || addr == "" {
		return false
	}
	sec := f.cfg.Clock() / 1000
	minute := sec - sec%60
	n, err := f.cfg.TokenRate.Count(r.Context(), "freeport-token/"+game+"/"+addr, minute)
	if err == nil && n > int64(f.cfg.TokensPerMinute) {
		w.Header().Set("Retry-After", strconv.FormatInt(minute+60-sec, 10))
		hostError(w, http.StatusTooManyRequests, "rate_limited",
			fmt.Sprintf("more than %d new tokens a minute from one address", f.cfg.TokensPerMinute))
		return true
	}
	return false
}

// remoteHost is the IP of a request's RemoteAddr.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// isEnroll reports whether a request body asks to enroll.
func isEnroll(body []byte) bool {
	var req struct {
		Action string `json:"action"`
	}
	return json.Unmarshal(body, &req) == nil && req.Action == freeport.ActionEnroll
}

func (f *Freeport) serveRequest(w http.ResponseWriter, r *http.Request) {
	in := f.inst[r.PathValue("game")]
	if in == nil {
		hostError(w, http.StatusNotFound, "unknown_game", "no Freeport game here")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if err != nil {
		status, msg := http.StatusBadRequest, "the request body could not be read"
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			status, msg = http.StatusRequestEntityTooLarge, fmt.Sprintf("a request is at most %d bytes", MaxRequestBytes)
		}
		writeEnvelope(w, status, refusalEnvelope(in.version.Load(), freeport.CodeMalformedRequest, msg))
		return
	}
	tok := Bearer(r)
	owner := f.Owner(tok)
	if owner != "" && f.overRate(w, r, tok) {
		return
	}
	resp, err := f.Apply(r.Context(), in.id, owner, body)
	if errors.Is(err, ErrEnrolmentClosed) {
		hostError(w, http.StatusForbidden, "enrolment_closed", "this game is closed to new players; its Standing is still open to read")
		return
	}
	if err != nil {
		f.unavailable(w, in, err, "the game could not commit; retry with the same commandId")
		return
	}
	status := http.StatusOK
	if owner == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="freeport"`)
		status = http.StatusUnauthorized
	}
	writeEnvelope(w, status, resp)
}

// unavailable answers 503 with msg and logs why for the operator.
func (f *Freeport) unavailable(w http.ResponseWriter, in *instance, err error, msg string) {
	if f.cfg.Logf != nil {
		f.cfg.Logf("freeport: game %s: answered 503: %v", in.id, err)
	}
	w.Header().Set("Retry-After", "1")
	hostError(w, http.StatusServiceUnavailable, "unavailable", msg)
}

// DefaultStandingPage is how many Players a page of the Standing lists
// when the request names no limit.
const DefaultStandingPage = 25

// serveStanding answers GET /freeport/{game}/standing: one page of the
// Standing (freeport.Board.Page), public as readStanding is, so a
// bearer token is optional and only adds the reader's own entry ("you").
// The query takes offset (from 0), limit (1 to freeport.MaxStandingPage,
// DefaultStandingPage when absent) and players (comma-separated Player IDs
// to name wherever they rank), nothing else. The answer carries an ETag of
// the State Version, the query and the reader, and is cached privately and
// revalidated each time, so a poll of an unchanged board is a 304 with no
// body.
func (f *Freeport) serveStanding(w http.ResponseWriter, r *http.Request) {
	in := f.inst[r.PathValue("game")]
	if in == nil {
		hostError(w, http.StatusNotFound, "unknown_game", "no Freeport game here")
		return
	}
	q, err := parseStandingQuery(r.URL.Query())
	if err != nil {
		hostError(w, http.StatusBadRequest, freeport.CodeMalformedRequest, err.Error())
		return
	}
	tok := Bearer(r)
	if q.Owner = f.Owner(tok); q.Owner != "" && f.overRate(w, r, tok) {
		return
	}
	res, err := f.run(r.Context(), in, fpRequest{standing: &q})
	if err != nil {
		f.unavailable(w, in, err, "the game could not be read; retry")
		return
	}
	tag := fmt.Sprintf(`"%d-%s"`, res.version, f.mac("standing", r.URL.RawQuery, q.Owner)[:16])
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("Vary", "Authorization")
	if etagMatches(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	_, _ = w.Write(res.resp)
}

// parseStandingQuery reads the query of a Standing page, refusing unknown
// parameters and values out of range.
func parseStandingQuery(v url.Values) (freeport.StandingQuery, error) {
	q := freeport.StandingQuery{Limit: DefaultStandingPage}
	for k, vals := range v {
		if len(vals) != 1 {
			return q, fmt.Errorf("%s is given %d times", k, len(vals))
		}
		val := vals[0]
		switch k {
		case "offset":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > 1<<30 {
				return q, fmt.Errorf("offset %q is not a count of Players from 0", val)
			}
			q.Offset = n
		case "limit":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > freeport.MaxStandingPage {
				return q, fmt.Errorf("limit %q is not between 1 and %d", val, freeport.MaxStandingPage)
			}
			q.Limit = n
		case "players":
			if val == "" {
				continue
			}
			q.Players = strings.Split(val, ",")
			if len(q.Players) > freeport.MaxStandingPage {
				return q, fmt.Errorf("players names %d Player IDs, more than %d", len(q.Players), freeport.MaxStandingPage)
			}
		default:
			return q, fmt.Errorf("unknown query parameter %q (offset, limit and players are known)", k)
		}
	}
	return q, nil
}

// etagMatches reports whether an If-None-Match header lists tag, weakly
// compared as RFC 9110 asks for If-None-Match.
func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

func writeEnvelope(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// refusalEnvelope is a v2 error envelope the host answers without the
// reducer (a body too large to read), in the reducer's canonical form.
func refusalEnvelope(version int64, code, msg string) []byte {
	m, _ := json.Marshal(msg)
	return fmt.Appendf(nil, `{"error":{"code":%q,"message":%s},"ok":false,"protocolVersion":%d,"stateVersion":%d}`,
		code, m, freeport.ProtocolVersion, version)
}

// overRate counts one request of token and, when that is over
// CommandsPerSecond in this second of the host clock, answers 429 and
// reports true. A count that fails lets the request through: the limit
// guards the service, it is not it.
func (f *Freeport) overRate(w http.ResponseWriter, r *http.Request, token string) bool {
	n, err := f.cfg.Rate.Count(r.Context(), "freeport/"+token, f.cfg.Clock()/1000)
	if err != nil || n <= int64(f.cfg.CommandsPerSecond) {
		return false
	}
	w.Header().Set("Retry-After", "1")
	hostError(w, http.StatusTooManyRequests, "rate_limited",
		fmt.Sprintf("more than %d requests in one second for this token", f.cfg.CommandsPerSecond))
	return true
}

// memoryRate is the RateCounter of one process: counts of the current
// second only.
type memoryRate struct {
	mu     sync.Mutex
	sec    int64
	counts map[string]int64
}

// Count implements RateCounter.
func (m *memoryRate) Count(_ context.Context, key string, sec int64) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sec != m.sec || m.counts == nil {
		m.sec, m.counts = sec, map[string]int64{}
	}
	m.counts[key]++
	return m.counts[key], nil
}

// Games returns the instance ids, sorted.
func (f *Freeport) Games() []string {
	ids := make([]string, 0, len(f.inst))
	for id := range f.inst {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
