package session

import (
	"encoding/json"
	"testing"
)

var memberSamples = []string{
	`{}`,
	` { "a" : 1 , "b":[1,{"c":"]}\"{["}], "d":{"e":[[],[{}]]},"f":"x\\"} `,
	`{"state":{"actionLog":[{"actionId":"on","seq":0},{"actionId":"jump","seq":1}],"kindState":{"v":{"s":"{"}}},"checksum":"ab"}`,
	`{"a":true,"b":null,"c":-1.5e3}`,
	`{"a":[}`,
	`{"a":"unterminated}`,
	`{"a":1,}`,
	`{"a" 1}`,
	`{"a":{"b":1}} x`,
}

// checkMembers fails t when members reads a valid JSON object's members
// other than as encoding/json does, or refuses one.
func checkMembers(t *testing.T, data []byte) {
	t.Helper()
	var want map[string]json.RawMessage
	valid := json.Unmarshal(data, &want) == nil
	got := map[string]string{}
	err := members(data, func(key, value []byte) { got[string(key)] = string(value) })
	if !valid {
		return // members checks only what it needs; decoding refuses the rest
	}
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	for k, v := range want {
		var key string
		for raw := range got {
			if json.Unmarshal([]byte(`"`+raw+`"`), &key) == nil && key == k && got[raw] == string(v) {
				key = "found"
				break
			}
		}
		if key != "found" {
			t.Fatalf("%s: member %q is %s, members gave %v", data, k, v, got)
		}
	}
}

func TestMembersReadAsEncodingJSON(t *testing.T) {
	for _, s := range memberSamples {
		checkMembers(t, []byte(s))
	}
	for _, bad := range []string{`{"a":"x`, `{"a":1,}`, `[]`, `{"a":{"b":1}} x`, `{"a":[[1]`} {
		if err := members([]byte(bad), func(_, _ []byte) {}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// FuzzMembers checks members against encoding/json on any input.
func FuzzMembers(f *testing.F) {
	for _, s := range memberSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkMembers(t, data)
	})
}
