//go:build js && wasm

package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestPlainActionArgsReadAsDecodeDoes checks the choice path's argument
// reader against the strict decoder: whatever it reads, decode reads the
// same, and what it leaves (any other shape) goes to decode.
func TestPlainActionArgsReadAsDecodeDoes(t *testing.T) {
	tests := []struct {
		arg   string
		plain bool
	}{
		{`{"sessionId":"s-1","actionId":"go"}`, true},
		{`{"sessionId":"s-1","actionId":"go","params":{}}`, true},
		{`{"sessionId":"","actionId":"ünï ✓"}`, true},
		{`{"sessionId":"s-1","actionId":"go","params":{"n":1}}`, false},
		{`{"actionId":"go","sessionId":"s-1"}`, false},
		{`{"sessionId":"s-1", "actionId":"go"}`, false},
		{`{"sessionId":"s\"1","actionId":"go"}`, false},
		{`{"sessionId":"s\\","actionId":"go"}`, false},
		{"{\"sessionId\":\"s\x01\",\"actionId\":\"go\"}", false},
		{"{\"sessionId\":\"s\xff\",\"actionId\":\"go\"}", false},
		{`{"sessionId":"s-1","actionId":"go"} `, false},
		{`{"sessionId":"s-1","actionId":"go","extra":1}`, false},
		{`{"sessionId":"s-1","actionId":"go"`, false},
	}
	for _, tt := range tests {
		var fast actionArgs
		if got := fast.plain([]byte(tt.arg)); got != tt.plain {
			t.Errorf("%s: plain %v, want %v", tt.arg, got, tt.plain)
			continue
		}
		if !tt.plain {
			continue
		}
		var slow actionArgs
		if err := decode(json.RawMessage(tt.arg), &slow); err != nil {
			t.Errorf("%s: decode refused what plain read: %v", tt.arg, err)
		} else if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: plain %+v, decode %+v", tt.arg, fast, slow)
		}
	}
}
