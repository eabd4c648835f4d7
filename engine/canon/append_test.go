package canon_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
)

// sample is a struct whose encoder is written with Object.
type sample struct {
	Count  int               `json:"count,omitempty"`
	First  *item             `json:"first,omitempty"`
	Flag   *bool             `json:"flag,omitempty"`
	Head   item              `json:"head"`
	ID     string            `json:"id"`
	Ints   []int             `json:"ints,omitempty"`
	Items  []item            `json:"items"`
	Label  *string           `json:"label"`
	Max    *int              `json:"max,omitempty"`
	Meta   map[string]string `json:"meta"`
	More   []item            `json:"more,omitempty"`
	Name   string            `json:"name,omitempty"`
	Nums   []int64           `json:"nums"`
	On     bool              `json:"on,omitempty"`
	Raw    json.RawMessage   `json:"raw"`
	Seen   bool              `json:"seen"`
	Size   int64             `json:"size"`
	Tags   []string          `json:"tags,omitempty"`
	Values []string          `json:"values"`
}

type item struct {
	N int8   `json:"n"`
	S string `json:"s"`
}

func appendItem(b []byte, it *item) []byte {
	o := canon.OpenObject(b)
	o.Int("n", int64(it.N))
	o.String("s", it.S)
	return o.Close()
}

func (s *sample) AppendCanonical(b []byte) ([]byte, error) {
	o := canon.OpenObject(b)
	o.OptInt("count", int64(s.Count))
	canon.OptValue(&o, "first", s.First, appendItem)
	o.OptBoolPtr("flag", s.Flag)
	canon.Value(&o, "head", &s.Head, appendItem)
	o.String("id", s.ID)
	canon.OptInts(&o, "ints", s.Ints)
	canon.List(&o, "items", s.Items, appendItem)
	o.StringPtr("label", s.Label)
	o.OptIntPtr("max", s.Max)
	o.Key("meta")
	o.B = canon.AppendMap(o.B, s.Meta, canon.AppendString)
	canon.OptList(&o, "more", s.More, appendItem)
	o.OptString("name", s.Name)
	canon.Ints(&o, "nums", s.Nums)
	o.OptBool("on", s.On)
	o.Raw("raw", s.Raw)
	o.Bool("seen", s.Seen)
	o.Int("size", s.Size)
	o.OptStrings("tags", s.Tags)
	o.Strings("values", s.Values)
	return o.Close(), nil
}

// viaEncodingJSON is the reference: encoding/json, then Canonicalize.
func viaEncodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want, err := canon.Canonicalize(raw)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

func TestWritersMatchEncodingJSON(t *testing.T) {
	yes, no, zero, seven := true, false, 0, 7
	label, odd := "a \"label\"\n", "bad \xff\xfe byte, \u2028 and \U0001F600"
	tests := []struct {
		name string
		v    sample
	}{
		{name: "zero", v: sample{}},
		{name: "empty lists and map", v: sample{Ints: []int{}, Items: []item{}, More: []item{}, Meta: map[string]string{}, Nums: []int64{}, Tags: []string{}, Values: []string{}}},
		{name: "full", v: sample{
			Count: -3, First: &item{N: 2}, Flag: &no, Head: item{S: "h"}, ID: "x", Ints: []int{-1, 3}, More: []item{{}}, Items: []item{{N: -1, S: "é"}, {N: 127, S: odd}}, Label: &label, Max: &zero,
			Meta: map[string]string{"b": "2", "a": "1", "\U0001F600": "smile", "\uff61": "half"}, Name: odd,
			Nums: []int64{0, 1 << 53, -(1 << 53) + 1, math.MaxInt64, math.MinInt64}, On: true, Raw: json.RawMessage(`{"a":[1,2]}`),
			Seen: true, Size: 1<<53 + 1, Tags: []string{"t", odd}, Values: []string{""},
		}},
		{name: "other pointers", v: sample{Flag: &yes, Max: &seven, Raw: json.RawMessage(`null`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := viaEncodingJSON(t, tc.v)
			got, _ := tc.v.AppendCanonical([]byte("prefix:"))
			if string(got) != "prefix:"+string(want) {
				t.Fatalf("got  %s\nwant prefix:%s", got, want)
			}
			if m, err := canon.Marshal(&tc.v); err != nil || string(m) != string(want) {
				t.Fatalf("Marshal of an Appender gives %s (%v), want %s", m, err, want)
			}
		})
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "\x00\x1f\x7f", "\"\\/", "<&>", "\xff", "a\xc3", "\xed\xa0\x80", "\u2029", "日本\U0001F600"} {
		want := viaEncodingJSON(t, s)
		if got := canon.AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestObjectMember(t *testing.T) {
	o := canon.OpenObject(nil)
	o.Member(nil)
	o.Member([]byte(`"a":1`))
	o.Member(nil)
	o.Member([]byte(`"b":2`))
	o.Null("c")
	if got := string(o.Close()); got != `{"a":1,"b":2,"c":null}` {
		t.Errorf("got %s", got)
	}
}

func ExampleObject() {
	type seat struct {
		Name  string
		Ready bool
		Score int
	}
	appendSeat := func(b []byte, s *seat) []byte {
		o := canon.OpenObject(b)
		o.OptString("name", s.Name)
		o.OptBool("ready", s.Ready)
		o.Int("score", int64(s.Score))
		return o.Close()
	}
	o := canon.OpenObject(nil)
	o.Key("seats")
	o.B = canon.AppendList(o.B, []seat{{Name: "Ann", Ready: true, Score: 3}, {}}, appendSeat)
	o.Strings("watchers", nil)
	fmt.Println(string(o.Close()))
	// Output: {"seats":[{"name":"Ann","ready":true,"score":3},{"score":0}],"watchers":null}
}
