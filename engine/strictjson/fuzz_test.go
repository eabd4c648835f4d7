package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// FuzzDecode holds Decode's byte walk to a plain reading of the same rule
// through encoding/json's tokens: for any input both accept or refuse alike,
// with the same error, and Decode never panics.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"a": 1}`,
		`{"id": "x", "items": [{"start": "s"}], "byId": {"K": {"start": "t"}}, "raw": {"Start": 1}}`,
		`{"grid": [[], [{"start": "s"}, {"START": "t"}]]}`,
		`{"items": [{"st\u0061rt": "s"}], "\u0061": 1}`,
		`{"id": "{[\"]}", "raw": ["}", {"a\"}": "]"}]}`,
		` {"ptr" : null , "Plain":3 } `,
		`{"A": 1}`,
		`{"a": 1} {}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want doc
		err := Decode(data, &got)
		wantErr := referenceDecode(data, &want)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("Decode(%q) = %v, the token reading says %v", data, err, wantErr)
		}
	})
}

// referenceDecode is Decode as a token-by-token reading with
// encoding/json's Decoder: slower, but plainly the rule.
func referenceDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errTrailing
	}
	r := tokenReader{dec: json.NewDecoder(bytes.NewReader(data))}
	return r.value(reflect.TypeOf(v), "")
}

var errTrailing = Decode([]byte(`{} {}`), &struct{}{})

type tokenReader struct{ dec *json.Decoder }

func (r *tokenReader) value(t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := r.dec.Token()
	if err != nil {
		return err
	}
	open, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	custom := t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType)
	for i := 0; r.dec.More(); i++ {
		switch {
		case custom:
			if err := r.value(reflect.TypeFor[any](), path); err != nil {
				return err
			}
			continue
		case open == '[':
			if err := r.value(t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
			continue
		}
		tok, err := r.dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		at := key
		if path != "" {
			at = path + "." + key
		}
		elem := t.Elem
		if t.Kind() == reflect.Struct {
			fields := addFields(nil, t)
			ft, ok := lookup(fields, key)
			if !ok {
				return misspelt(at, key, fields)
			}
			elem = func() reflect.Type { return ft }
		}
		if err := r.value(elem(), at); err != nil {
			return err
		}
	}
	_, err = r.dec.Token()
	return err
}
