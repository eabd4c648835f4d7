package core

import (
	"reflect"
	"strings"
	"testing"
)

// TestCanonicalActionAgreesWithTheGeneralReader reads each entry twice:
// as written, which the fast path for canonical action entries may take,
// and with a space after its opening brace, which only the general reader
// takes. Both must accept the same entries, with the same result, and
// refuse the same ones.
func TestCanonicalActionAgreesWithTheGeneralReader(t *testing.T) {
	entries := []struct {
		text string
		ok   bool
	}{
		{`{"actionId":"go","seq":0}`, true},
		{`{"actionId":"go north","seq":7}`, true},
		{`{"actionId":"ünï ✓","seq":123456789}`, true},
		{`{"actionId":"go","seq":1234567890}`, true},  // longer than the fast path reads
		{`{"actionId":"go","seq":00}`, false},         // a leading zero
		{`{"actionId":"go","seq":-0}`, true},          // JSON allows it; Atoi reads 0
		{`{"actionId":"go","seq":0.0}`, false},        // not an integer
		{`{"actionId":"go","seq":0e0}`, false},        // not an integer
		{`{"actionId":"","seq":0}`, false},            // an empty id
		{`{"actionId":"a\"b","seq":0}`, true},         // an escape
		{`{"actionId":"a\u0062","seq":0}`, true},      // an escape
		{"{\"actionId\":\"a\x01\",\"seq\":0}", false}, // a control character
		{"{\"actionId\":\"a\xff\",\"seq\":0}", false}, // not UTF-8
		{`{"actionId":"go","seq":0,"x":1}`, false},    // an unknown field
		{`{"actionId":"go","seq":0 }`, true},          // space before the brace
		{`{"actionId":"go","params":{"n":1},"seq":0}`, true},
		{`{"actionId":"go","seq":0,"seq":0}`, false}, // a repeated key
		{`{"actionId":"go","seq":}`, false},
		{`{"actionId":"go","seq":0`, false},
		{`{"actionId":"go`, false},
		{`{"from":"1","seq":0,"system":"content","to":"2"}`, true},
	}
	entry := func(doc string) (LoggedEntry, error) {
		r := &reader{b: []byte(doc)}
		e, err := r.entry()
		if err == nil {
			err = r.end()
		}
		return e, err
	}
	for _, e := range entries {
		spaced := "{ " + strings.TrimPrefix(e.text, "{")
		fast, ferr := entry(e.text)
		slow, serr := entry(spaced)
		if (ferr == nil) != e.ok || (serr == nil) != e.ok {
			t.Errorf("%s: fast %v, general %v; want ok %v", e.text, ferr, serr, e.ok)
			continue
		}
		if e.ok && !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: fast %+v, general %+v", e.text, fast, slow)
		}
	}
	read := func(doc string) (Log, error) {
		r := &reader{b: []byte(doc)}
		l, err := r.log()
		if err == nil {
			err = r.end()
		}
		return l, err
	}
	// Many entries, their ids shared.
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < 300; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"actionId":"`)
		b.WriteString([]string{"left", "right", "wait"}[i%3])
		b.WriteString(`","seq":`)
		b.WriteString(itoa(i))
		b.WriteByte('}')
	}
	b.WriteByte(']')
	l, err := read(b.String())
	if err != nil || l.Len() != 300 || l.At(297).(LoggedAction).ActionID != "left" || l.At(298).(LoggedAction).Seq != 298 {
		t.Fatalf("%v %d", err, l.Len())
	}
	if _, err := read(strings.Replace(b.String(), `"seq":150}`, `"seq":151}`, 1)); err == nil {
		t.Fatal("an entry out of position was accepted")
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
