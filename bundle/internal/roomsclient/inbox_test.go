package roomsclient

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/storyloom/storyloom/engine/rooms"
)

// TestRecordSeqNeverGoesBack records a mailbox's frames from several
// goroutines in any order, as a long-poll and a command's answer deliver
// them: the latest view is always the highest-numbered frame, never an
// older one recorded after it.
func TestRecordSeqNeverGoesBack(t *testing.T) {
	const n = 200
	in := &Inbox{T: t, Name: "poller", Limit: time.Second}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := n - w; i >= 1; i -= 4 {
				in.RecordSeq(int64(i), rooms.KindGame, fmt.Appendf(nil, `{"n":%d}`, i))
			}
		}()
	}
	wg.Wait()
	if _, v := in.Latest(); string(v) != fmt.Sprintf(`{"n":%d}`, n) {
		t.Fatalf("latest view %s, want frame %d", v, n)
	}
	if in.Seq() != n {
		t.Fatalf("Seq %d, want %d", in.Seq(), n)
	}
	if in.Frames() > n {
		t.Fatalf("%d frames recorded of %d", in.Frames(), n)
	}
	in.RecordSeq(n, rooms.KindGame, []byte(`{"again":true}`))
	if _, v := in.Latest(); string(v) != fmt.Sprintf(`{"n":%d}`, n) {
		t.Fatalf("a frame recorded twice replaced the view: %s", v)
	}
	in.ForgetSeq()
	in.RecordSeq(1, rooms.KindGame, []byte(`{"fresh":1}`))
	if _, v := in.Latest(); string(v) != `{"fresh":1}` {
		t.Fatalf("after ForgetSeq a fresh connection's first frame was dropped: %s", v)
	}
}
