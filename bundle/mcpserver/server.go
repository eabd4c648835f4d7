package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Name is the server's name in the MCP handshake.
const Name = "storyloom"

// instructions tell a client how the tools fit together.
const instructions = `Storyloom plays story and simulation campaigns. Start with list_campaigns, then create_session with a campaignId. Every scene lists its actions: submit one with submit_action (actionId, and params for actions that take them — a simulation's plan.add takes {"activity": id, "count": n}; the view from get_view lists what can be planned or built). An action with available false carries a reasonKey saying why. Text arrives as LocKeys: get_strings resolves them. A refused action answers ok false with its reasons; a failed call is a tool error whose text is a JSON object with a reason code.`

// ToolInfo describes one tool: its name and the session store operation
// it calls.
type ToolInfo struct {
	// Name is the MCP tool name, e.g. "get_scene".
	Name string
	// Operation is the session.Store method it calls, e.g. "GetScene".
	Operation string
	// ReadOnly is true for §7's queries.
	ReadOnly bool
	// Input and Output are the Go types the tool's schemas are generated
	// from.
	Input, Output reflect.Type
}

// Tools returns the tool table in §7's order.
func Tools() []ToolInfo {
	out := make([]ToolInfo, len(toolSet))
	for i, t := range toolSet {
		out[i] = t.info
	}
	return out
}

// HostOnly lists the exported methods of session.Store that deliberately
// have no tool, each with the reason.
var HostOnly = map[string]string{
	"Engine":          "the pure engine is the store's own dependency, not an operation",
	"Forget":          "§7: dropping a session from memory is a host operation (SessionLayer.forget)",
	"CaptureSession":  "§7: a capture carries the seed, which never reaches a client (SessionLayer.captureSession)",
	"ExportSave":      "a save file carries the envelope and its seed, which never reach a client",
	"ExportNamedSave": "ExportSave with the save's name: the same file, which carries the envelope and its seed",
	"ImportSave":      "an imported envelope is a state the client wrote; only the player's own host may take one",
	"Resume":          "resume_session is ResumeSession answered through Resume, which adds the content notices to the same scene",
}

// New returns an MCP server whose tools call store. It holds no state of
// its own: every tool call is one store operation.
func New(store *session.Store, version string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Storyloom session store", Version: version},
		&mcp.ServerOptions{Instructions: instructions})
	for _, t := range toolSet {
		t.add(srv, store)
	}
	return srv
}

// tool is one entry of the tool table.
type tool struct {
	info        ToolInfo
	description string
	add         func(srv *mcp.Server, store *session.Store)
}

// schemaOptions map the types whose JSON is not their Go shape: raw JSON
// (a kind's view) is any value, and action parameters are a flat record.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[json.RawMessage](): {Description: "the kind's own view: plain JSON data"},
	reflect.TypeFor[core.Params](): {
		Type:                 "object",
		MaxProperties:        ptr(core.MaxParams),
		AdditionalProperties: &jsonschema.Schema{Types: []string{"string", "number", "boolean"}},
	},
}}

func ptr[T any](v T) *T { return &v }

// def builds a tool that decodes In, calls call and answers Out.
func def[In, Out any](name, op string, readOnly bool, description string, call func(context.Context, *session.Store, In) (Out, error)) tool {
	in, err := jsonschema.For[In](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: %s input schema: %v", name, err))
	}
	out, err := jsonschema.For[Out](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: %s output schema: %v", name, err))
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: %s input schema: %v", name, err))
	}
	info := ToolInfo{Name: name, Operation: op, ReadOnly: readOnly, Input: reflect.TypeFor[In](), Output: reflect.TypeFor[Out]()}
	t := tool{info: info, description: description}
	t.add = func(srv *mcp.Server, store *session.Store) {
		ann := &mcp.ToolAnnotations{ReadOnlyHint: readOnly, IdempotentHint: readOnly, OpenWorldHint: ptr(false)}
		if name == "delete_save" {
			ann.DestructiveHint = ptr(true)
		} else if !readOnly {
			ann.DestructiveHint = ptr(false)
		}
		srv.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: in, OutputSchema: out, Annotations: ann},
			func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
				defer func() {
					if r := recover(); r != nil {
						res = toolError(store, op, core.ReasonInternal, fmt.Sprintf("the %s tool failed: %v", name, r))
					}
				}()
				var args json.RawMessage
				if req.Params != nil {
					args = req.Params.Arguments
				}
				v, terr := decode[In](args, resolved)
				if terr != nil {
					return toolError(store, op, terr.code, terr.message), nil
				}
				result, err := call(ctx, store, v)
				if err != nil {
					return storeError(store, op, err), nil
				}
				return success(result)
			})
	}
	return t
}

// inputError is a refusal of a tool's arguments before the store is called.
type inputError struct{ code, message string }

// decode checks args against the tool's input schema and decodes them into
// In. Parameters that are not a flat record are invalid_params, as the
// engine itself would say; anything else the schema refuses, an unknown
// argument included, is malformed_input.
func decode[In any](args json.RawMessage, schema *jsonschema.Resolved) (In, *inputError) {
	var zero In
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage("{}")
	}
	var raw any
	if err := json.Unmarshal(args, &raw); err != nil {
		return zero, &inputError{core.ReasonMalformedInput, fmt.Sprintf("arguments are not JSON: %v", err)}
	}
	if obj, ok := raw.(map[string]any); ok {
		if p, has := obj["params"]; has && p != nil {
			rec, isObj := p.(map[string]any)
			if !isObj {
				return zero, &inputError{core.ReasonInvalidParams, "params must be an object of strings, numbers and booleans"}
			}
			if err := core.Params(rec).Validate(); err != nil {
				return zero, &inputError{core.ReasonInvalidParams, err.Error()}
			}
		}
	}
	if err := schema.Validate(raw); err != nil {
		return zero, &inputError{core.ReasonMalformedInput, err.Error()}
	}
	if err := strictjson.Decode(args, &zero); err != nil {
		return zero, &inputError{core.ReasonMalformedInput, err.Error()}
	}
	return zero, nil
}

// success answers v as the structured result and as its JSON text.
func success(v any) (*mcp.CallToolResult, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: the result does not encode: %w", err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data),
	}, nil
}

// ToolError is the JSON text of a tool error: the reason code a client
// switches on, the LocKey that renders it, and an English message for
// logs.
type ToolError struct {
	// Code is a registered reason code, e.g. "unknown_session".
	Code string `json:"code"`
	// MessageKey renders Code through the string table.
	MessageKey core.LocKey `json:"messageKey"`
	// Message is English, for logs; a client renders MessageKey.
	Message string `json:"message"`
	// Operation is the store operation that failed, e.g. "SubmitAction".
	Operation string `json:"operation"`
	// Details are the engine's own refusals behind Code, when there are any.
	Details []core.ValidationError `json:"details,omitempty"`
}

// storeError turns an error from the store into a tool error.
func storeError(store *session.Store, op string, err error) *mcp.CallToolResult {
	var se *session.Error
	if !errors.As(err, &se) {
		return toolError(store, op, core.ReasonInternal, err.Error())
	}
	res := toolError(store, op, se.Code, se.Message)
	if len(se.Details) > 0 {
		te := ToolError{Code: se.Code, MessageKey: messageKey(store, se.Code), Message: se.Message, Operation: se.Op, Details: se.Details}
		res.Content = []mcp.Content{&mcp.TextContent{Text: mustJSON(te)}}
	}
	return res
}

// toolError is a tool error with code.
func toolError(store *session.Store, op, code, message string) *mcp.CallToolResult {
	te := ToolError{Code: code, MessageKey: messageKey(store, code), Message: message, Operation: op}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: mustJSON(te)}}}
}

// messageKey is core.reason.<code>, under its response alias when it has
// one (§7).
func messageKey(store *session.Store, code string) core.LocKey {
	key := core.CoreReasonKey(code)
	if e := store.Engine(); e.IsEngineKey(key) {
		return e.Alias(key)
	}
	return key
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"code":%q,"message":%q}`, core.ReasonInternal, err.Error())
	}
	return string(data)
}
