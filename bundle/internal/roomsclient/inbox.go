// Package roomsclient is what a test client of a room server
// (docs/rooms.md) keeps and reads, whatever carries its frames: an Inbox
// of the latest view, the rejections and the session that owns its seat,
// and the parts of a game view a scenario plays by. The native host's
// tests and the edge worker's share it, each with its own transport.
package roomsclient

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/storyloom/storyloom/engine/rooms"
)

// Inbox keeps what one client received. Record it every frame; the other
// methods may be called from any goroutine.
type Inbox struct {
	T    testing.TB
	Name string
	// Limit bounds every Wait.
	Limit time.Duration
	// Scan, when set, checks every frame before it is recorded (what a
	// frame must never carry).
	Scan func(kind string, frame []byte)

	mu      sync.Mutex
	kind    string
	view    []byte
	errs    []rooms.Rejection
	session string
	frames  int
	seq     int64 // the latest mailbox sequence number recorded
}

// Record takes one frame of the given kind: a rejection is kept in order,
// a view replaces the latest, and the first lobby view's session is the
// one that owns the client's seat.
func (in *Inbox) Record(kind string, frame []byte) {
	if in.Scan != nil {
		in.Scan(kind, frame)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.record(kind, frame)
}

// RecordSeq records a frame numbered seq in the client's HTTP mailbox,
// unless a frame numbered seq or later is recorded already: a long-poll
// and a command's answer may carry the same frames and arrive in either
// order. The check and the record are one step, so an older view never
// replaces a newer one.
func (in *Inbox) RecordSeq(seq int64, kind string, frame []byte) {
	if in.Scan != nil {
		in.Scan(kind, frame)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if seq <= in.seq {
		return
	}
	in.seq = seq
	in.record(kind, frame)
}

// Seq is the latest mailbox sequence number recorded: a long-poll asks
// for the frames after it.
func (in *Inbox) Seq() int64 {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.seq
}

// ForgetSeq starts the mailbox numbering again, for a fresh connection.
func (in *Inbox) ForgetSeq() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.seq = 0
}

// record takes one frame; the caller holds in.mu.
func (in *Inbox) record(kind string, frame []byte) {
	in.frames++
	switch kind {
	case rooms.KindError:
		var f rooms.LobbyErrorFrame
		_ = json.Unmarshal(frame, &f)
		in.errs = append(in.errs, f.LobbyError)
	case rooms.KindLobby, rooms.KindGame, rooms.KindSpectator:
		in.kind, in.view = kind, frame
		if kind == rooms.KindLobby && in.session == "" {
			var v rooms.LobbyView
			_ = json.Unmarshal(frame, &v)
			in.session = v.Session
		}
	}
}

// Latest is the latest view and its kind.
func (in *Inbox) Latest() (string, []byte) {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.kind, in.view
}

// Session is the session that owns the client's seat ("" before the
// first lobby view).
func (in *Inbox) Session() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.session
}

// Frames counts the frames recorded.
func (in *Inbox) Frames() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.frames
}

// ErrCount counts the rejections received.
func (in *Inbox) ErrCount() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.errs)
}

// ErrsSince returns the rejections after the first n.
func (in *Inbox) ErrsSince(n int) []rooms.Rejection {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]rooms.Rejection(nil), in.errs[min(n, len(in.errs)):]...)
}

// LastErr is the latest rejection, or the zero Rejection.
func (in *Inbox) LastErr() rooms.Rejection {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.errs) == 0 {
		return rooms.Rejection{}
	}
	return in.errs[len(in.errs)-1]
}

// Wait polls the latest view until ok accepts it and returns it; after
// Limit it fails T, naming what it waited for.
func (in *Inbox) Wait(what string, ok func(kind string, view []byte) bool) []byte {
	in.T.Helper()
	deadline := time.Now().Add(in.Limit)
	for time.Now().Before(deadline) {
		if k, v := in.Latest(); v != nil && ok(k, v) {
			return v
		}
		time.Sleep(2 * time.Millisecond)
	}
	k, v := in.Latest()
	in.T.Fatalf("%s: timed out waiting for %s; latest %s view: %.400s", in.Name, what, k, v)
	return nil
}

// WaitErr waits for a rejection after the first n and fails T unless it
// has the given code.
func (in *Inbox) WaitErr(n int, code string) {
	in.T.Helper()
	deadline := time.Now().Add(in.Limit)
	for time.Now().Before(deadline) {
		if in.ErrCount() > n {
			if got := in.LastErr(); got.Code != code {
				in.T.Fatalf("%s: rejection %q, want %q", in.Name, got.Code, code)
			}
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	in.T.Fatalf("%s: no %s rejection", in.Name, code)
}
