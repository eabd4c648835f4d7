package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/storyloom/storyloom/bundle/mcpserver"
)

// rawMCP is `bundle mcp -memory` as a child process spoken to line by line,
// so a test can send what no MCP client would.
type rawMCP struct {
	t     *testing.T
	stdin io.WriteCloser
	lines chan []byte
}

// startRawMCP starts the child and returns its raw line channel.
func startRawMCP(t *testing.T) *rawMCP {
	t.Helper()
	cmd := mcpCommand(t, "-memory", "-built", writeBuiltSite(t, ""))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &rawMCP{t: t, stdin: stdin, lines: make(chan []byte, 16)}
	go func() {
		defer close(m.lines)
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				m.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	return m
}

// send writes one line.
func (m *rawMCP) send(line string) {
	m.t.Helper()
	if _, err := io.WriteString(m.stdin, line+"\n"); err != nil {
		m.t.Fatalf("write to bundle mcp: %v (has it exited?)", err)
	}
}

// reply reads the next message the server wrote.
func (m *rawMCP) reply() rawReply {
	m.t.Helper()
	select {
	case line, ok := <-m.lines:
		if !ok {
			m.t.Fatal("bundle mcp closed its stdout: the server stopped")
		}
		var r rawReply
		if err := json.Unmarshal(line, &r); err != nil {
			m.t.Fatalf("the server wrote %q, not a JSON-RPC message: %v", line, err)
		}
		return r
	case <-time.After(2 * time.Minute):
		m.t.Fatal("no reply from bundle mcp in two minutes")
	}
	return rawReply{}
}

// rawReply is a JSON-RPC response as it came over the wire.
type rawReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
}

// call sends a request and returns its successful result.
func (m *rawMCP) call(id int, method string, params any) json.RawMessage {
	m.t.Helper()
	data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		m.t.Fatal(err)
	}
	m.send(string(data))
	r := m.reply()
	if r.Error != nil || string(r.ID) != jsonNumber(id) {
		m.t.Fatalf("%s (id %d): got id %s error %+v", method, id, r.ID, r.Error)
	}
	return r.Result
}

func jsonNumber(n int) string { data, _ := json.Marshal(n); return string(data) }

// TestMCPMalformedLinesKeepServing feeds the stdio server every kind of
// line a client should never send, checks each is answered with the
// JSON-RPC error it deserves, and that the session made before them is
// still there and a valid call still succeeds after them.
func TestMCPMalformedLinesKeepServing(t *testing.T) {
	m := startRawMCP(t)
	m.call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "1"}})
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var created struct {
		StructuredContent struct {
			SessionID string `json:"sessionId"`
		} `json:"structuredContent"`
	}
	res := m.call(2, "tools/call", map[string]any{"name": "create_session", "arguments": map[string]any{"campaignId": "gannet-rock", "seed": "1"}})
	if err := json.Unmarshal(res, &created); err != nil || created.StructuredContent.SessionID == "" {
		t.Fatalf("create_session answered %s (%v)", res, err)
	}

	deep := `{"jsonrpc":"2.0","id":20,"method":"tools/list","params":{"x":` + strings.Repeat("[", mcpserver.MaxDepth+1) + strings.Repeat("]", mcpserver.MaxDepth+1) + `}}`
	long := `{"jsonrpc":"2.0","id":21,"method":"tools/list","params":{"x":"` + strings.Repeat("a", mcpserver.MaxLine) + `"}}`
	tests := []struct {
		name, line string
		code       int64
		id         string
	}{
		{"not JSON", `hello, server`, jsonrpc.CodeParseError, "null"},
		{"a truncated object", `{"jsonrpc":"2.0","id":10,"method":"tools/li`, jsonrpc.CodeParseError, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":11,"method":"tools/list"}]`, jsonrpc.CodeInvalidRequest, "null"},
		{"an empty batch", `[]`, jsonrpc.CodeInvalidRequest, "null"},
		{"a number", `42`, jsonrpc.CodeInvalidRequest, "null"},
		{"a string", `"tools/list"`, jsonrpc.CodeInvalidRequest, "null"},
		{"null", `null`, jsonrpc.CodeInvalidRequest, "null"},
		{"an empty object", `{}`, jsonrpc.CodeInvalidRequest, "null"},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":12,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "12"},
		{"no version", `{"id":13,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "13"},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"a list id", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"nesting deeper than MaxDepth", deep, jsonrpc.CodeParseError, "null"},
		{"a line longer than MaxLine", long, jsonrpc.CodeInvalidRequest, "null"},
		{"an unknown method", `{"jsonrpc":"2.0","id":14,"method":"no/such"}`, jsonrpc.CodeMethodNotFound, "14"},
		{"params that are not an object", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":5}`, jsonrpc.CodeInvalidParams, "15"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m.t = t
			m.send(tc.line)
			r := m.reply()
			if r.Error == nil {
				t.Fatalf("answered %s, want error %d", r.Result, tc.code)
			}
			if r.Error.Code != tc.code || string(r.ID) != tc.id || r.JSONRPC != "2.0" {
				t.Errorf("answered jsonrpc %q id %s error %d %q, want id %s error %d", r.JSONRPC, r.ID, r.Error.Code, r.Error.Message, tc.id, tc.code)
			}
		})
	}
	m.t = t

	// A response to nothing the server asked is dropped without a reply;
	// the next reply must be to the next request.
	m.send(`{"jsonrpc":"2.0","id":99,"result":{}}`)
	m.send(``)
	var scene struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Status string `json:"status"`
		} `json:"structuredContent"`
	}
	res = m.call(3, "tools/call", map[string]any{"name": "get_scene", "arguments": map[string]any{"sessionId": created.StructuredContent.SessionID}})
	if err := json.Unmarshal(res, &scene); err != nil || scene.IsError || scene.StructuredContent.Status != "active" {
		t.Fatalf("get_scene of the session made before the bad lines answered %s (%v)", res, err)
	}
}
