package hosting

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// Clock returns the host's time in Unix milliseconds. Hosts pass one in so
// that tests control deadlines; nothing in this package reads the time
// itself.
type Clock func() int64

// job is one caller's share of a group commit.
type job[In, Out any] struct {
	in   In
	out  Out
	err  error
	wait chan struct{}
}

// batcher runs jobs in batches, one batch at a time: a caller enqueues its
// job and then either takes the run lock or sees its job finished by the
// holder; whoever holds the lock runs every job queued so far as one
// batch. Under load, a batch therefore holds every request that arrived
// while the previous one was being committed, and one Commit serves them
// all. It needs no goroutine of its own, so it works the same in a native
// process and in a WASM isolate.
type batcher[In, Out any] struct {
	qmu   sync.Mutex
	queue []*job[In, Out]
	sem   chan struct{} // the run lock: a token in the channel means held
	once  sync.Once
	max   int // most jobs in one batch
}

func (b *batcher[In, Out]) init() { b.once.Do(func() { b.sem = make(chan struct{}, 1) }) }

// lock takes the run lock, which guards the state the batches work on.
func (b *batcher[In, Out]) lock() {
	b.init()
	b.sem <- struct{}{}
}

// unlock releases the run lock.
func (b *batcher[In, Out]) unlock() { <-b.sem }

// do runs in through fn as part of some batch and returns its result. fn
// receives the whole batch and must set out or err on every job.
func (b *batcher[In, Out]) do(in In, fn func(batch []*job[In, Out])) (Out, error) {
	b.init()
	j := &job[In, Out]{in: in, wait: make(chan struct{})}
	b.qmu.Lock()
	b.queue = append(b.queue, j)
	b.qmu.Unlock()
	for {
		select {
		case <-j.wait:
			return j.out, j.err
		case b.sem <- struct{}{}:
		}
		b.qmu.Lock()
		n := len(b.queue)
		if b.max > 0 && n > b.max {
			n = b.max
		}
		batch := b.queue[:n:n]
		b.queue = append([]*job[In, Out](nil), b.queue[n:]...)
		b.qmu.Unlock()
		if len(batch) > 0 {
			fn(batch)
			for _, x := range batch {
				close(x.wait)
			}
		}
		<-b.sem
	}
}

// commitAttempts bounds how often a batch is applied again on fresh state
// after another process committed first (ErrConflict).
const commitAttempts = 8

// backOff waits before attempt (0-based) of a batch: not before the
// first; before a retry after a conflict, a few milliseconds that grow
// with the attempt and are jittered, so that writers racing for one head
// record (the edge worker's instances, each a process) stop colliding in
// step. It returns early when ctx ends. The wait is not a clock the
// state reads: nothing applied depends on it.
func backOff(ctx context.Context, attempt int) {
	if attempt == 0 {
		return
	}
	d := time.Duration(attempt)*5*time.Millisecond + time.Duration(rand.IntN(5000))*time.Microsecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
