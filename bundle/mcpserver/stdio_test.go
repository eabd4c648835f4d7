package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzDecodeLine checks that any line is either a message or answered by
// exactly one JSON-RPC 2.0 error response with an id (null or valid) and a
// parse-error or invalid-request code: the stdio server never stops on a
// line.
func FuzzDecodeLine(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"1.0","id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"x"}]`,
		`[]`, `42`, `null`, `"s"`, `{`, `{"a":"[[["}`, strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(bytes.TrimSpace(line)) == 0 {
			return
		}
		msg, resp := decodeLine(line, false)
		if (msg == nil) == (resp == nil) {
			t.Fatalf("%q: message %v and response %q: want exactly one", line, msg, resp)
		}
		if resp == nil {
			return
		}
		var r struct {
			JSONRPC string `json:"jsonrpc"`
			Error   *struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(resp, &r); err != nil {
			t.Fatalf("%q: response %q is not JSON: %v", line, resp, err)
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(resp, &fields); err != nil {
			t.Fatalf("%q: response %q is not an object: %v", line, resp, err)
		}
		if _, hasID := fields["id"]; !hasID || r.JSONRPC != "2.0" || r.Error == nil || (r.Error.Code != -32700 && r.Error.Code != -32600) || r.Error.Message == "" {
			t.Fatalf("%q: response %s is not a JSON-RPC error", line, resp)
		}
	})
}

// TestReadLineBoundsMemory checks a line longer than the limit is read to
// its end and dropped, and the line after it is read whole.
func TestReadLineBoundsMemory(t *testing.T) {
	in := strings.Repeat("x", 100) + "\n" + "short\n" + "tail"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	tests := []struct {
		name    string
		line    string
		tooLong bool
		eof     bool
	}{
		{"a line over the limit", "", true, false},
		{"the next line", "short", false, false},
		{"a last line without a newline", "tail", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line, tooLong, err := readLine(r, 50)
			if string(line) != tc.line || tooLong != tc.tooLong || (err != nil) != tc.eof {
				t.Errorf("got %q tooLong %v err %v, want %q tooLong %v eof %v", line, tooLong, err, tc.line, tc.tooLong, tc.eof)
			}
		})
	}
}
