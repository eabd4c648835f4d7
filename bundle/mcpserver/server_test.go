package mcpserver_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storyloom/storyloom/bundle/mcpserver"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/static"
)

// newStore is an in-memory session store over the shipped campaigns.
func newStore(t *testing.T) *session.Store {
	t.Helper()
	files, err := fs.Glob(static.FS, "campaigns/*/campaign.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no campaigns: %v", err)
	}
	var sources []content.Source
	for _, f := range files {
		data, err := fs.ReadFile(static.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, content.Source{Path: path.Join("static", f), Campaign: data})
	}
	kinds := []core.Kind{story.Kind{}, sim.Kind{}, world.Kind{}}
	reg, res := content.Build(kinds, sources...)
	if reg == nil {
		t.Fatalf("the campaigns do not build: %v", res.Errors)
	}
	eng, err := core.New(core.Host{Kinds: kinds, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.New(session.Config{
		Engine: eng, Records: session.NewMemoryRecords(), Profiles: session.NewMemoryProfiles(),
		Clock: session.ClockFunc(func() string { return "2000-01-01T00:00:00.000000000Z" }), IDs: &session.CountingRecordIDs{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// connect serves store's tools over a pair of OS pipes and returns a
// client connected to them.
func connect(t *testing.T, store *session.Store) *mcp.ClientSession {
	t.Helper()
	toServer, fromClient, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromServer, toClient, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = mcpserver.New(store, "test").Run(ctx, &mcp.IOTransport{Reader: toServer, Writer: toClient})
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "storyloom-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: fromServer, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return cs
}

// docTool is one row of docs/mcp.md's tool table.
type docTool struct {
	name, operation, output string
	inputs                  []string // "?" marks an optional one
	errors                  []string
}

// readDoc parses docs/mcp.md: the rows of the table under "## Tools" (five
// columns) and the method names under "## Operations with no tool" (two).
func readDoc(t *testing.T) (tools []docTool, noTool []string) {
	t.Helper()
	data, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
		}
		if !strings.HasPrefix(line, "| `") || section != "Tools" && section != "Operations with no tool" {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch len(cells) {
		case 5:
			tools = append(tools, docTool{
				name: ticked(cells[0]), operation: ticked(cells[1]), output: ticked(cells[3]),
				inputs: tickedList(cells[2]), errors: tickedList(cells[4]),
			})
		case 2:
			noTool = append(noTool, ticked(cells[0]))
		default:
			t.Fatalf("docs/mcp.md: a table row of %d cells: %s", len(cells), line)
		}
	}
	return tools, noTool
}

func ticked(s string) string { return strings.Trim(strings.TrimSpace(s), "`") }

func tickedList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := ticked(part); p != "" && p != "—" {
			out = append(out, p)
		}
	}
	return out
}

// TestMCPToolsMatchDoc checks that the tools a client lists are exactly
// docs/mcp.md's table: names, operations, input names and which are
// required, output types, and error codes that are registered reasons.
func TestMCPToolsMatchDoc(t *testing.T) {
	store := newStore(t)
	cs := connect(t, store)
	listed, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range listed.Tools {
		byName[tl.Name] = tl
	}
	infos := map[string]mcpserver.ToolInfo{}
	for _, info := range mcpserver.Tools() {
		infos[info.Name] = info
	}
	doc, _ := readDoc(t)
	if len(doc) != len(listed.Tools) || len(doc) != len(infos) {
		t.Errorf("docs/mcp.md lists %d tools, the server %d, its table %d", len(doc), len(listed.Tools), len(infos))
	}
	engineText := store.Engine().EngineStrings()
	for _, d := range doc {
		t.Run(d.name, func(t *testing.T) {
			tl, info := byName[d.name], infos[d.name]
			if tl == nil {
				t.Fatalf("the server lists no tool %q", d.name)
			}
			if info.Operation != d.operation {
				t.Errorf("operation %q, the doc says %q", info.Operation, d.operation)
			}
			if got := info.Output.String(); got != d.output {
				t.Errorf("output type %s, the doc says %s", got, d.output)
			}
			schema := asMap(t, tl.InputSchema)
			props := asMap(t, schema["properties"])
			var gotIn, wantIn, gotReq, wantReq []string
			for name := range props {
				gotIn = append(gotIn, name)
			}
			if req, ok := schema["required"].([]any); ok {
				for _, r := range req {
					gotReq = append(gotReq, r.(string))
				}
			}
			for _, in := range d.inputs {
				name := strings.TrimSuffix(in, "?")
				wantIn = append(wantIn, name)
				if !strings.HasSuffix(in, "?") {
					wantReq = append(wantReq, name)
				}
			}
			if !sameSet(gotIn, wantIn) || !sameSet(gotReq, wantReq) {
				t.Errorf("inputs %v (required %v), the doc says %v (required %v)", gotIn, gotReq, wantIn, wantReq)
			}
			if schema["additionalProperties"] != false {
				t.Errorf("the input schema accepts arguments it does not list: %v", schema["additionalProperties"])
			}
			if out := asMap(t, tl.OutputSchema); out["type"] != "object" {
				t.Errorf("output schema type %v, want object", out["type"])
			}
			for _, code := range d.errors {
				if _, ok := engineText[core.CoreReasonKey(code)]; !ok {
					t.Errorf("error %q has no core.reason string: not a registered reason code", code)
				}
			}
			if tl.Annotations == nil || tl.Annotations.ReadOnlyHint != info.ReadOnly {
				t.Errorf("annotations %+v, want readOnlyHint %v", tl.Annotations, info.ReadOnly)
			}
		})
	}
}

// TestMCPToolsCoverStoreOperations fails when session.Store gains an
// exported method that is neither a tool nor listed, with its reason, as
// having none — in mcpserver.HostOnly and in docs/mcp.md alike.
func TestMCPToolsCoverStoreOperations(t *testing.T) {
	byOp := map[string]string{}
	for _, info := range mcpserver.Tools() {
		if prev, dup := byOp[info.Operation]; dup {
			t.Errorf("%s and %s both call %s", prev, info.Name, info.Operation)
		}
		byOp[info.Operation] = info.Name
	}
	st := reflect.TypeFor[*session.Store]()
	methods := map[string]bool{}
	for i := 0; i < st.NumMethod(); i++ {
		name := st.Method(i).Name
		methods[name] = true
		_, tool := byOp[name]
		_, hostOnly := mcpserver.HostOnly[name]
		switch {
		case tool && hostOnly:
			t.Errorf("%s is both a tool and host-only", name)
		case !tool && !hostOnly:
			t.Errorf("session.Store.%s has no MCP tool: add one (and a row in docs/mcp.md), or list it in HostOnly with the reason", name)
		}
	}
	for op, tool := range byOp {
		if !methods[op] {
			t.Errorf("tool %s calls %s, which session.Store does not have", tool, op)
		}
	}
	for name := range mcpserver.HostOnly {
		if !methods[name] {
			t.Errorf("HostOnly lists %s, which session.Store does not have", name)
		}
	}
	if len(byOp) != 14 {
		t.Errorf("%d tools; §7's store has thirteen operations, and Summary makes fourteen", len(byOp))
	}
	_, noTool := readDoc(t)
	var hostOnly []string
	for name := range mcpserver.HostOnly {
		hostOnly = append(hostOnly, name)
	}
	if !sameSet(noTool, hostOnly) {
		t.Errorf("docs/mcp.md's no-tool table lists %v, HostOnly %v", noTool, hostOnly)
	}
}

// TestMCPResultsMatchOutputSchemas plays a little of each kind and checks
// every structured result against the output schema its tool publishes.
func TestMCPResultsMatchOutputSchemas(t *testing.T) {
	cs := connect(t, newStore(t))
	ctx := context.Background()
	listed, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tl := range listed.Tools {
		data, _ := json.Marshal(tl.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		schemas[tl.Name] = r
	}
	call := func(t *testing.T, name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s %v: %s", name, args, res.Content[0].(*mcp.TextContent).Text)
		}
		if err := schemas[name].Validate(res.StructuredContent); err != nil {
			t.Errorf("%s: the result does not match its output schema: %v", name, err)
		}
		var text map[string]any
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &text); err != nil {
			t.Fatalf("%s: the text content is not the JSON result: %v", name, err)
		}
		if !reflect.DeepEqual(text, res.StructuredContent) {
			t.Errorf("%s: the text content and the structured result differ", name)
		}
		m, _ := res.StructuredContent.(map[string]any)
		return m
	}
	tests := []struct {
		name     string
		campaign string
		action   string
		params   map[string]any
	}{
		{"story", "the-marrow-affair", "", nil},
		{"simulation", "harbour-bakery", "plan.add", map[string]any{"activity": "bake_bread", "count": 1}},
		{"world graph", "pier-fair", "advance_ticks", map[string]any{"ticks": 24}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const profile = "schema"
			call(t, "list_campaigns", map[string]any{"profileId": profile})
			h := call(t, "create_session", map[string]any{"campaignId": tc.campaign, "profileId": profile})
			id := h["sessionId"].(string)
			action := tc.action
			if action == "" {
				action = firstAvailableID(t, h["scene"])
			}
			args := map[string]any{"sessionId": id, "actionId": action}
			if tc.params != nil {
				args["params"] = tc.params
			}
			call(t, "preview_action", args)
			if r := call(t, "submit_action", args); r["ok"] != true {
				t.Fatalf("submit_action %v: %v", args, r["errors"])
			}
			rejected := call(t, "submit_action", map[string]any{"sessionId": id, "actionId": "no_such_action"})
			if rejected["ok"] != false {
				t.Errorf("an unknown action was accepted: %v", rejected)
			}
			call(t, "get_scene", map[string]any{"sessionId": id})
			if sum := call(t, "get_summary", map[string]any{"sessionId": id}); sum["campaignId"] != tc.campaign || sum["actionCount"] != float64(1) {
				t.Errorf("get_summary after one action in %s: %v", tc.campaign, sum)
			}
			if v := call(t, "get_view", map[string]any{"sessionId": id}); v["kindView"] == nil {
				t.Errorf("get_view has no kindView: %v", v)
			}
			call(t, "get_strings", map[string]any{"sessionId": id})
			call(t, "resume_session", map[string]any{"sessionId": id})
			save := call(t, "save_game", map[string]any{"sessionId": id})
			call(t, "list_saves", map[string]any{"profileId": profile})
			call(t, "load_game", map[string]any{"saveId": save["saveId"]})
			call(t, "branch_session", map[string]any{"sessionId": id, "atActionCount": 0})
			call(t, "delete_save", map[string]any{"profileId": profile, "saveId": save["saveId"], "expectedSavedAt": save["savedAt"]})
		})
	}
}

func firstAvailableID(t *testing.T, scene any) string {
	t.Helper()
	actions, _ := asMap(t, scene)["actions"].([]any)
	for _, a := range actions {
		if m, _ := a.(map[string]any); m["available"] == true {
			return m["id"].(string)
		}
	}
	t.Fatalf("no available action in %v", scene)
	return ""
}

func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not an object: %s", data)
	}
	return m
}

func sameSet(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return reflect.DeepEqual(a, b) || len(a) == 0 && len(b) == 0
}
