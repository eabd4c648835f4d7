package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storyloom/storyloom/bundle/mcpserver"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// helperEnv carries the arguments of a `bundle` run to TestMCPHelperProcess
// in a child process, separated by \x1f.
const helperEnv = "STORYLOOM_BUNDLE_HELPER_ARGS"

// TestMCPHelperProcess is not a test: it is `bundle` itself, run as a child
// process of the tests below (the test binary re-executed), so they talk to
// a real server over real stdin and stdout.
func TestMCPHelperProcess(t *testing.T) {
	args := os.Getenv(helperEnv)
	if args == "" {
		t.Skip("runs only as a child process of the MCP tests")
	}
	os.Exit(dispatch(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// startMCP starts `bundle mcp args…` as a child process and connects an
// MCP client to it over its stdin and stdout.
func startMCP(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := mcpCommand(t, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "storyloom-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to bundle mcp: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// mcpCommand is `bundle mcp args…` as a child process (the test binary
// re-executed) whose stderr goes to the test log.
func mcpCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return bundleCommand(t, append([]string{"mcp"}, args...)...)
}

// bundleCommand is `bundle args…` as a child process (the test binary
// re-executed) whose stderr goes to the test log.
func bundleCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestMCPHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join(args, "\x1f"))
	cmd.Stderr = testWriter{t}
	return cmd
}

// testWriter logs a child's stderr.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("bundle: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}

// callOK calls a tool that must succeed and decodes its result into out.
func callOK(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res := callTool(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", name, args, resultText(res))
	}
	if out != nil {
		if err := json.Unmarshal([]byte(resultText(res)), out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, resultText(res))
		}
	}
}

// callErr calls a tool that must fail and returns its error.
func callErr(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) mcpserver.ToolError {
	t.Helper()
	res := callTool(t, cs, name, args)
	if !res.IsError {
		t.Fatalf("%s %v: succeeded with %s, want a tool error", name, args, resultText(res))
	}
	var te mcpserver.ToolError
	if err := json.Unmarshal([]byte(resultText(res)), &te); err != nil {
		t.Fatalf("%s: the tool error is not a JSON object: %v in %s", name, err, resultText(res))
	}
	return te
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// firstAvailable submits the scene's first available action and returns
// the new scene.
func firstAvailable(t *testing.T, cs *mcp.ClientSession, sessionID string, sc core.Scene) core.Scene {
	t.Helper()
	for _, a := range sc.Actions {
		if !a.Available {
			continue
		}
		var res session.ActionResult
		callOK(t, cs, "submit_action", map[string]any{"sessionId": sessionID, "actionId": a.ID}, &res)
		if !res.OK || res.Scene == nil {
			t.Fatalf("submit_action %s refused: %+v", a.ID, res.Errors)
		}
		return *res.Scene
	}
	t.Fatalf("no available action at %s", sc.Body.TextKey)
	return sc
}

// saveAndLoad saves the session, moves it on with next, loads the save and
// checks the loaded game stands where the save was taken. It returns the
// loaded session.
func saveAndLoad(t *testing.T, cs *mcp.ClientSession, sessionID string, sc core.Scene, next func(core.Scene) core.Scene) session.SessionHandle {
	t.Helper()
	var save session.SaveHandle
	callOK(t, cs, "save_game", map[string]any{"sessionId": sessionID}, &save)
	if save.SaveID == "" || save.SavedAt == "" {
		t.Fatalf("save_game answered %+v", save)
	}
	next(sc)
	var loaded session.SessionHandle
	callOK(t, cs, "load_game", map[string]any{"saveId": save.SaveID}, &loaded)
	if loaded.SessionID == sessionID {
		t.Errorf("load_game reused session %s", sessionID)
	}
	if loaded.Scene.Body.Text != sc.Body.Text {
		t.Errorf("the loaded scene is %q, want the saved %q", loaded.Scene.Body.Text, sc.Body.Text)
	}
	return loaded
}

// playStory plays gannet-rock by its first available choices to an
// ending, with a save, a detour and a load on the way.
func playStory(t *testing.T, cs *mcp.ClientSession, profile string) (string, core.Scene) {
	t.Helper()
	var h session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "gannet-rock", "seed": "1", "profileId": profile}, &h)
	id, sc := h.SessionID, h.Scene
	next := func(s core.Scene) core.Scene { return firstAvailable(t, cs, id, s) }
	for step := 0; sc.Status == core.StatusActive; step++ {
		if step > 200 {
			t.Fatalf("no ending after %d actions", step)
		}
		if step == 3 {
			loaded := saveAndLoad(t, cs, id, sc, next)
			id, sc = loaded.SessionID, loaded.Scene
		}
		sc = firstAvailable(t, cs, id, sc)
	}
	return id, sc
}

// playSimulation plays first-flat to its resolution: two café shifts and a
// lie-in planned every week, with a save, a detour and a load on the way.
func playSimulation(t *testing.T, cs *mcp.ClientSession, profile string) (string, core.Scene) {
	t.Helper()
	var h session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "first-flat", "seed": "1", "profileId": profile}, &h)
	id, sc := h.SessionID, h.Scene
	submit := func(action string, params map[string]any) session.ActionResult {
		args := map[string]any{"sessionId": id, "actionId": action}
		if params != nil {
			args["params"] = params
		}
		var res session.ActionResult
		callOK(t, cs, "submit_action", args, &res)
		return res
	}
	endWeek := func(core.Scene) core.Scene {
		res := submit("end_week", nil)
		if !res.OK || res.Scene == nil {
			t.Fatalf("end_week refused: %+v", res.Errors)
		}
		return *res.Scene
	}
	for week := 1; sc.Status == core.StatusActive; week++ {
		if week > 40 {
			t.Fatalf("no resolution after %d weeks", week)
		}
		for _, activity := range []map[string]any{{"activity": "cafe_shift", "count": 2}, {"activity": "sleep_in"}} {
			if res := submit("plan.add", activity); res.OK {
				sc = *res.Scene
			} else {
				t.Logf("week %d: plan.add %v refused: %+v", week, activity, res.Errors)
			}
		}
		if week == 3 {
			// The save holds this week's plan; the detour ends the week,
			// and the loaded game ends it again.
			loaded := saveAndLoad(t, cs, id, sc, endWeek)
			id, sc = loaded.SessionID, loaded.Scene
		}
		sc = endWeek(sc)
	}
	return id, sc
}

// TestMCPPlaysOverStdio starts `bundle mcp -memory` as a child process and
// plays a story and a simulation to their ends over its stdin and stdout,
// each with a save and a load on the way.
func TestMCPPlaysOverStdio(t *testing.T) {
	cs := startMCP(t, "-memory", "-built", writeBuiltSite(t, ""))
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, tl := range tools.Tools {
		got = append(got, tl.Name)
	}
	for _, tl := range mcpserver.Tools() {
		want = append(want, tl.Name)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("tools/list: %v, want %v", got, want)
	}

	const profile = "tester"
	t.Run("story to an ending", func(t *testing.T) {
		id, sc := playStory(t, cs, profile)
		var view core.PlayerView
		callOK(t, cs, "get_view", map[string]any{"sessionId": id}, &view)
		if view.Status != core.StatusEnded || sc.Status != core.StatusEnded {
			t.Errorf("after the ending: view %s, scene %s", view.Status, sc.Status)
		}
		var res session.ActionResult
		callOK(t, cs, "submit_action", map[string]any{"sessionId": id, "actionId": "go_in"}, &res)
		if res.OK || len(res.Errors) == 0 || res.Errors[0].Code != core.ReasonSessionEnded {
			t.Errorf("an action after the ending: %+v, want ok false with session_ended", res)
		}
	})
	t.Run("simulation to its resolution", func(t *testing.T) {
		id, sc := playSimulation(t, cs, profile)
		var view core.PlayerView
		callOK(t, cs, "get_view", map[string]any{"sessionId": id}, &view)
		var kv struct {
			Resolution any `json:"resolution"`
		}
		if err := json.Unmarshal(view.KindView, &kv); err != nil || kv.Resolution == nil || sc.Status != core.StatusEnded {
			t.Errorf("after the last week: status %s, resolution %v (%v)", sc.Status, kv.Resolution, err)
		}
	})
	t.Run("the profile kept both endings and both saves", func(t *testing.T) {
		var cat session.Catalog
		callOK(t, cs, "list_campaigns", map[string]any{"profileId": profile}, &cat)
		for _, c := range cat.Campaigns {
			if (c.CampaignID == "gannet-rock" || c.CampaignID == "first-flat") && (c.Progress == nil || c.Progress.Discovered != 1) {
				t.Errorf("%s progress %+v, want 1 ending discovered", c.CampaignID, c.Progress)
			}
		}
		var saves mcpserver.SavesOutput
		callOK(t, cs, "list_saves", map[string]any{"profileId": profile}, &saves)
		if len(saves.Saves) != 2 {
			t.Errorf("list_saves: %+v, want the two saves taken", saves.Saves)
		}
	})
}

// TestMCPBadInputKeepsServing sends the child server calls it must refuse,
// each answered by a tool error carrying its reason code, and checks the
// server still plays afterwards.
func TestMCPBadInputKeepsServing(t *testing.T) {
	cs := startMCP(t, "-memory", "-built", writeBuiltSite(t, ""))
	var h session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "gannet-rock", "seed": "1", "profileId": "p", "audience": "player"}, &h)
	var save session.SaveHandle
	callOK(t, cs, "save_game", map[string]any{"sessionId": h.SessionID}, &save)

	tests := []struct {
		name string
		tool string
		args map[string]any
		code string
	}{
		{"an unknown session", "get_scene", map[string]any{"sessionId": "session-404"}, core.ReasonUnknownSession},
		{"an action in an unknown session", "submit_action", map[string]any{"sessionId": "session-404", "actionId": "go_in"}, core.ReasonUnknownSession},
		{"saving an unknown session", "save_game", map[string]any{"sessionId": "session-404"}, core.ReasonUnknownSession},
		{"an unknown save", "load_game", map[string]any{"saveId": "save-404"}, core.ReasonUnknownSave},
		{"an unknown campaign", "create_session", map[string]any{"campaignId": "atlantis"}, core.ReasonUnknownCampaign},
		{"an unknown audience", "create_session", map[string]any{"campaignId": "gannet-rock", "audience": "spectator"}, core.ReasonInvalidState},
		{"a stale savedAt", "delete_save", map[string]any{"profileId": "p", "saveId": save.SaveID, "expectedSavedAt": "1999-01-01T00:00:00.000000000Z"}, core.ReasonConcurrentModification},
		{"another profile's save", "delete_save", map[string]any{"profileId": "q", "saveId": save.SaveID, "expectedSavedAt": save.SavedAt}, core.ReasonUnknownSave},
		{"a fork point past the log", "branch_session", map[string]any{"sessionId": h.SessionID, "atActionCount": 99}, core.ReasonInvalidForkPoint},
		{"a missing argument", "get_scene", map[string]any{}, core.ReasonMalformedInput},
		{"an argument of the wrong type", "get_scene", map[string]any{"sessionId": 7}, core.ReasonMalformedInput},
		{"an argument the tool does not take", "get_scene", map[string]any{"sessionId": h.SessionID, "audience": "player"}, core.ReasonMalformedInput},
		{"a fork point that is not a whole number", "branch_session", map[string]any{"sessionId": h.SessionID, "atActionCount": 1.5}, core.ReasonMalformedInput},
		{"params that are not a record", "submit_action", map[string]any{"sessionId": h.SessionID, "actionId": "go_in", "params": "fast"}, core.ReasonInvalidParams},
		{"a param that is a list", "preview_action", map[string]any{"sessionId": h.SessionID, "actionId": "go_in", "params": map[string]any{"count": []int{1, 2}}}, core.ReasonInvalidParams},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			te := callErr(t, cs, tc.tool, tc.args)
			if te.Code != tc.code {
				t.Errorf("code %q (%s), want %q", te.Code, te.Message, tc.code)
			}
			if te.MessageKey != core.CoreReasonKey(tc.code) {
				t.Errorf("messageKey %q, want %q", te.MessageKey, core.CoreReasonKey(tc.code))
			}
		})
	}

	t.Run("a refused action is a result, not a tool error", func(t *testing.T) {
		var res session.ActionResult
		callOK(t, cs, "submit_action", map[string]any{"sessionId": h.SessionID, "actionId": "no_such_choice"}, &res)
		if res.OK || len(res.Errors) == 0 || res.Errors[0].Code != core.ReasonUnknownAction {
			t.Errorf("got %+v, want ok false with unknown_action", res)
		}
	})
	t.Run("the server still plays", func(t *testing.T) {
		var sc core.Scene
		callOK(t, cs, "get_scene", map[string]any{"sessionId": h.SessionID}, &sc)
		firstAvailable(t, cs, h.SessionID, sc)
		var saves mcpserver.SavesOutput
		callOK(t, cs, "list_saves", map[string]any{"profileId": "p"}, &saves)
		if len(saves.Saves) != 1 || saves.Saves[0].SaveID != save.SaveID {
			t.Errorf("list_saves %+v: the refused deletes removed something", saves.Saves)
		}
		var del mcpserver.DeleteSaveOutput
		callOK(t, cs, "delete_save", map[string]any{"profileId": "p", "saveId": save.SaveID, "expectedSavedAt": saves.Saves[0].SavedAt}, &del)
		if del.Deleted != save.SaveID {
			t.Errorf("delete_save answered %+v", del)
		}
	})
}

// TestMCPConcurrentModificationAcrossServers runs two servers over one
// SQLite database: a session one of them advanced is stale in the other,
// whose submission is refused concurrent_modification and succeeds once
// re-read.
func TestMCPConcurrentModificationAcrossServers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sessions.db")
	site := writeBuiltSite(t, "")
	a := startMCP(t, "-db", db, "-built", site)
	b := startMCP(t, "-db", db, "-built", site)

	var h session.SessionHandle
	callOK(t, a, "create_session", map[string]any{"campaignId": "gannet-rock", "seed": "1"}, &h)
	var seen core.Scene
	callOK(t, b, "get_scene", map[string]any{"sessionId": h.SessionID}, &seen)
	moved := firstAvailable(t, a, h.SessionID, h.Scene)

	te := callErr(t, b, "submit_action", map[string]any{"sessionId": h.SessionID, "actionId": seen.Actions[0].ID})
	if te.Code != core.ReasonConcurrentModification {
		t.Fatalf("the stale submission: %+v, want concurrent_modification", te)
	}
	var fresh core.Scene
	callOK(t, b, "get_scene", map[string]any{"sessionId": h.SessionID}, &fresh)
	if fresh.Body.Text != moved.Body.Text {
		t.Errorf("after the conflict b reads %q, want the winner's %q", fresh.Body.Text, moved.Body.Text)
	}
	firstAvailable(t, b, h.SessionID, fresh)
}

// TestMCPServesStreamableHTTPOnLoopback serves the tools over streamable
// HTTP on 127.0.0.1 and plays a few actions through it.
func TestMCPServesStreamableHTTPOnLoopback(t *testing.T) {
	h, err := openStore(storeFlags{memory: true, built: writeBuiltSite(t, "")}, storeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var out strings.Builder
	go func() {
		done <- serveMCPHTTP(ctx, ln, mcpserver.New(h.store, "test"), &out, testWriter{t}, "memory")
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "storyloom-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var s session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "harbour-bakery", "seed": "7"}, &s)
	var res session.ActionResult
	callOK(t, cs, "submit_action", map[string]any{"sessionId": s.SessionID, "actionId": "plan.add", "params": map[string]any{"activity": "bake_bread", "count": 2}}, &res)
	if !res.OK {
		t.Errorf("plan.add over HTTP: %+v", res.Errors)
	}
	if te := callErr(t, cs, "get_view", map[string]any{"sessionId": "session-404"}); te.Code != core.ReasonUnknownSession {
		t.Errorf("over HTTP: %+v, want unknown_session", te)
	}
	_ = cs.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serveMCPHTTP exited %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the HTTP server did not stop")
	}
	if !strings.Contains(out.String(), "http://127.0.0.1:") {
		t.Errorf("startup line %q names no loopback URL", out.String())
	}
}

// TestMCPRefusesNonLoopbackHTTP checks -http accepts loopback addresses
// only.
func TestMCPRefusesNonLoopbackHTTP(t *testing.T) {
	tests := []struct {
		name string
		addr string
		ok   bool
	}{
		{"IPv4 loopback", "127.0.0.1:8090", true},
		{"IPv6 loopback", "[::1]:8090", true},
		{"localhost", "localhost:8090", true},
		{"every interface", ":8090", false},
		{"all IPv4 interfaces", "0.0.0.0:8090", false},
		{"a LAN address", "192.168.1.10:8090", false},
		{"no port", "127.0.0.1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := checkLoopback(tc.addr); (err == nil) != tc.ok {
				t.Errorf("checkLoopback(%q) = %v, want ok %v", tc.addr, err, tc.ok)
			}
		})
	}
	var out, errb strings.Builder
	if code := dispatch([]string{"mcp", "-memory", "-source", "-http", "0.0.0.0:0"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "loopback") {
		t.Errorf("bundle mcp -http 0.0.0.0:0: exit %d, stderr %q", code, errb.String())
	}
}

// TestMCPSubmitActionReportsNews plays a story, a simulation and a world
// to their ends twice under one profile: the action that ends each game
// carries the ending in its news with the campaign's title, new the first
// time and not the second, and the story's achievements come with their
// titles.
func TestMCPSubmitActionReportsNews(t *testing.T) {
	cs := startMCP(t, "-memory", "-built", writeBuiltSite(t, ""))
	games := []struct {
		campaign, ending string
		next             func(core.Scene) (string, map[string]any)
	}{
		{"gannet-rock", "taken_by_the_sea", func(sc core.Scene) (string, map[string]any) {
			for _, a := range sc.Actions {
				if a.Available {
					return a.ID, nil
				}
			}
			return "", nil
		}},
		{"first-flat", "", func(core.Scene) (string, map[string]any) { return "end_week", nil }},
		{"pier-fair", "", func(core.Scene) (string, map[string]any) {
			return "advance_ticks", map[string]any{"ticks": 720}
		}},
	}
	for _, g := range games {
		t.Run(g.campaign, func(t *testing.T) {
			for round, wantNew := range []bool{true, false} {
				var h session.SessionHandle
				callOK(t, cs, "create_session", map[string]any{"campaignId": g.campaign, "seed": "1", "profileId": "newsreader"}, &h)
				sc, achievements := h.Scene, 0
				var last session.ActionResult
				for step := 0; sc.Status == core.StatusActive; step++ {
					if step > 300 {
						t.Fatalf("no ending after %d actions", step)
					}
					id, params := g.next(sc)
					args := map[string]any{"sessionId": h.SessionID, "actionId": id}
					if params != nil {
						args["params"] = params
					}
					last = session.ActionResult{}
					callOK(t, cs, "submit_action", args, &last)
					if !last.OK || last.Scene == nil {
						t.Fatalf("submit_action %s refused: %+v", id, last.Errors)
					}
					sc = *last.Scene
					if n := last.News; n != nil && sc.Status == core.StatusActive {
						for _, a := range n.Achievements {
							if a.TitleKey == "" || a.New != wantNew {
								t.Errorf("round %d: achievement %+v, want a title and new=%v", round, a, wantNew)
							}
							achievements++
						}
					}
				}
				n := last.News
				if n == nil || n.Ending == nil {
					t.Fatalf("round %d: the ending action's news is %+v, want the ending", round, n)
				}
				if g.ending != "" && n.Ending.ID != g.ending {
					t.Errorf("round %d: ending %q, want %q", round, n.Ending.ID, g.ending)
				}
				if n.Ending.TitleKey == "" || n.Ending.Outcome == "" || n.Ending.New != wantNew {
					t.Errorf("round %d: ending %+v, want a title, an outcome and new=%v", round, *n.Ending, wantNew)
				}
				if g.campaign == "gannet-rock" && achievements == 0 && round == 0 {
					t.Errorf("the story unlocked no achievement on its way")
				}
			}
		})
	}
}
