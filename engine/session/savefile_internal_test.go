package session

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestReadSaveFileReadsAsEncodingJSON checks the export reader that skips
// the envelope against json.Unmarshal into the same struct: every document
// it reads, it reads the same, and it finds the fileChecksum member where
// fileChecksum does.
func TestReadSaveFileReadsAsEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		ok   bool
	}{
		{"an export", `{"envelope":{"campaignId":"c","state":{"actionLog":[{"a":"]}"}]}},"fileChecksum":"ab","format":"storyloom.save/2","initialization":{"kindProfileData":{"x":1}},"name":"n"}`, true},
		{"format 1", `{"envelope":{"campaignId":"c"},"format":"storyloom.save/1"}`, true},
		{"spaced", ` { "envelope" : { "campaignId" : "c" } , "format" : "storyloom.save/2" } `, true},
		{"a key in another case", `{"Envelope":{"campaignId":"c"},"FORMAT":"storyloom.save/2"}`, true},
		{"two envelopes", `{"envelope":{"campaignId":"a"},"format":"f","envelope":{"campaignId":"b"}}`, true},
		{"an escaped key", `{"env\u0065lope":{"campaignId":"c"},"format":"f"}`, true},
		{"a bare envelope", `{"campaignId":"c","state":{"actionLog":[]}}`, true},
		{"not an object", `[1]`, false},
		{"not JSON", `{"envelope":`, false},
		{"a format that is not a string", `{"envelope":{},"format":1}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := readSaveFile([]byte(tt.doc))
			var want saveFile
			wantOK := json.Unmarshal([]byte(tt.doc), &want) == nil
			if ok != tt.ok || wantOK != tt.ok {
				t.Fatalf("ok %v, encoding/json %v, want %v", ok, wantOK, tt.ok)
			}
			if !ok {
				return
			}
			sums, start, end := got.sums, got.sumStart, got.sumEnd
			got.sums, got.sumStart, got.sumEnd = 0, 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %+v\nwant %+v", got, want)
			}
			wantSum, _, wantSumOK := fileChecksum([]byte(tt.doc))
			if sums > 0 {
				if sum, _, sumOK := fileChecksumAt([]byte(tt.doc), sums, start, end); sum != wantSum || sumOK != wantSumOK {
					t.Fatalf("fileChecksumAt %q %v, fileChecksum %q %v", sum, sumOK, wantSum, wantSumOK)
				}
			}
		})
	}
}

func TestReadSaveFileHeader(t *testing.T) {
	tests := []struct {
		doc  string
		want SaveFileHeader
		ok   bool
	}{
		{`{"envelope":{"campaignId":"c","state":{"actionLog":[]}},"format":"storyloom.save/2","name":"Mine"}`, SaveFileHeader{CampaignID: "c", Name: "Mine"}, true},
		{`{"campaignId":"c","state":{"actionLog":[]}}`, SaveFileHeader{CampaignID: "c"}, true},
		{`{"envelope":{"state":{}},"format":"storyloom.save/2"}`, SaveFileHeader{}, false},
		{`not json`, SaveFileHeader{}, false},
	}
	for _, tt := range tests {
		if got, ok := ReadSaveFileHeader([]byte(tt.doc)); got != tt.want || ok != tt.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tt.doc, got, ok, tt.want, tt.ok)
		}
	}
}

// TestSealSaveFileWritesWhatJSONMarshalWrites checks the export's direct
// writer against the one through json.Marshal, for compact envelopes with
// and without the characters json.Marshal escapes, and with and without
// an initialization and a name.
func TestSealSaveFileWritesWhatJSONMarshalWrites(t *testing.T) {
	envelopes := []string{
		`{"campaignId":"c","state":{"actionLog":[{"a":"x y"}],"n":1}}`,
		`{"campaignId":"c","state":{"text":"a <b> & c \u2028"}}`,
	}
	inits := []*Initialization{nil, {}, {KindProfileData: json.RawMessage(`{"best":2}`)}}
	for _, env := range envelopes {
		for _, init := range inits {
			for _, name := range []string{"", "Mine <&>"} {
				got, err := sealSaveFile([]byte(env), init, name)
				if err != nil {
					t.Fatal(err)
				}
				want, err := sealSaveFileMarshalled([]byte(env), init, name)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Fatalf("got  %s\nwant %s", got, want)
				}
				if sum, at, ok := fileChecksum(got); !ok || string(got[at+1:at+1+len(sum)]) != sum {
					t.Fatalf("the file's checksum does not cover it: %s", got)
				}
			}
		}
	}
}

// TestSameDocumentIsDocumentEquality checks the part-by-part comparison
// against the assembled Document: equal for it, unequal for any byte
// changed, removed or added.
func TestSameDocumentIsDocumentEquality(t *testing.T) {
	rec := SaveRecord{
		Blob: []byte(`{"checksum":"x","state":{"actionLog":[],"k":1}}`),
		Log: &SaveLog{Segments: []Segment{{Seq: 0, Count: 2, Entries: []byte(`{"a":0},{"a":1}`)}, {Seq: 2, Count: 1, Entries: []byte(`{"a":2}`)}},
			Tail: []byte(`{"a":3}`), TailCount: 1},
	}
	doc, err := rec.Document()
	if err != nil {
		t.Fatal(err)
	}
	if !sameDocument(doc, rec.Blob, rec.Log) {
		t.Fatalf("%s is not its own record's document", doc)
	}
	for i := range doc {
		changed := append([]byte(nil), doc...)
		changed[i] ^= 1
		removed := append(append([]byte(nil), doc[:i]...), doc[i+1:]...)
		added := append(append(append([]byte(nil), doc[:i]...), ' '), doc[i:]...)
		for _, d := range [][]byte{changed, removed, added} {
			if sameDocument(d, rec.Blob, rec.Log) {
				t.Fatalf("%s taken for %s", d, doc)
			}
		}
	}
}
