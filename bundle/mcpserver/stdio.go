package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine is the longest line, in bytes, LineTransport accepts as one
// message: the SDK's own stdio limit (16 MiB).
const MaxLine = mcp.DefaultMaxLineLength

// MaxDepth is the deepest nesting of arrays and objects LineTransport
// accepts in a message.
const MaxDepth = 1000

// LineTransport is an MCP transport of newline-delimited JSON-RPC over a
// reader and a writer, usually stdin and stdout. Unlike the SDK's
// StdioTransport, which ends the connection on the first line it cannot
// decode, it answers every malformed line with the JSON-RPC error that line
// deserves and keeps serving:
//
//   - a line that is not JSON, or nests deeper than MaxDepth, is a parse
//     error (-32700);
//   - a batch (MCP removed JSON-RPC batching in 2025-06-18), a value that is
//     not an object, a wrong "jsonrpc" version, an id that is neither a
//     string nor a number, and a line longer than MaxLine are an invalid
//     request (-32600).
//
// The error carries the request's id when the line had a valid one, else
// null, as JSON-RPC 2.0 §5.1 says. Blank lines are skipped.
type LineTransport struct {
	// In is read one line at a time; Close closes it when it is an
	// io.Closer.
	In io.Reader
	// Out receives one message a line.
	Out io.Writer
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{in: t.In, out: t.Out, incoming: make(chan lineRead), closed: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

// lineRead is one message the read loop decoded, or the error that ended
// the input.
type lineRead struct {
	msg jsonrpc.Message
	err error
}

// lineConn is LineTransport's connection.
type lineConn struct {
	in       io.Reader
	out      io.Writer
	writeMu  sync.Mutex
	incoming chan lineRead
	closed   chan struct{}
	once     sync.Once
}

// readLoop reads lines until the input ends, answering malformed ones
// itself and handing the rest to Read. It runs in its own goroutine so that
// Close unblocks a Read waiting for input, as mcp.Connection requires.
func (c *lineConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64*1024)
	for {
		line, tooLong, err := readLine(r, MaxLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			msg, rerr := decodeLine(line, tooLong)
			if rerr != nil {
				if werr := c.writeRaw(rerr); werr != nil {
					c.deliver(lineRead{err: werr})
					return
				}
			} else if !c.deliver(lineRead{msg: msg}) {
				return
			}
		}
		if err != nil {
			c.deliver(lineRead{err: err})
			return
		}
	}
}

// deliver hands r to Read; false when the connection closed first.
func (c *lineConn) deliver(r lineRead) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line without its newline. A line longer than limit is
// read to its end and dropped: tooLong is true and line is empty, so memory
// stays bounded by limit. err is the reader's error (io.EOF at the end), with
// whatever came before it in line.
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, rerr := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, rerr
	}
}

// decodeLine decodes one line into a message, or returns the encoded
// JSON-RPC error response that answers it.
func decodeLine(line []byte, tooLong bool) (jsonrpc.Message, []byte) {
	if tooLong {
		return nil, errorResponse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a line is longer than %d bytes", MaxLine))
	}
	if !json.Valid(line) {
		return nil, errorResponse(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the line is not a JSON value")
	}
	if d := depth(line); d > MaxDepth {
		return nil, errorResponse(jsonrpc.ID{}, jsonrpc.CodeParseError, fmt.Sprintf("parse error: nesting %d deep exceeds %d", d, MaxDepth))
	}
	switch bytes.TrimSpace(line)[0] {
	case '{':
	case '[':
		return nil, errorResponse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message a line")
	default:
		return nil, errorResponse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, errorResponse(lineID(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return msg, nil
}

// depth is the deepest nesting of arrays and objects in valid JSON.
func depth(data []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch b {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return deepest
}

// lineID is the id of a message that did not decode, when it has one that
// is valid; otherwise the null id.
func lineID(line []byte) jsonrpc.ID {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(probe.ID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// errorResponse encodes a JSON-RPC error response. It is encoded here
// rather than by jsonrpc.EncodeMessage, which leaves out a null id that
// JSON-RPC 2.0 §5 requires in the response.
func errorResponse(id jsonrpc.ID, code int64, message string) []byte {
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id.Raw(), &jsonrpc.Error{Code: code, Message: message}})
	if err != nil { // an id, a code and a string always encode
		panic(fmt.Sprintf("mcpserver: encode an error response: %v", err))
	}
	return data
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcpserver: encode a message: %w", err)
	}
	return c.writeRaw(data)
}

// writeRaw writes one encoded message and its newline.
func (c *lineConn) writeRaw(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return errors.New("mcpserver: write on a closed connection")
	default:
	}
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection: it closes In when In is an io.Closer.
func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			err = cl.Close()
		}
	})
	return err
}

// SessionID implements mcp.Connection: a line connection has no session id.
func (c *lineConn) SessionID() string { return "" }
