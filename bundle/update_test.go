package main

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/bundle/mcpserver"
	"github.com/storyloom/storyloom/bundle/sessiondb"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/session"
)

// bundle/testdata/update holds three versions of a small story a host
// serves one after another: 2.0.0 rewords the deck, adds a node and
// renames a variable with a declared migration; 3.0.0 drops the deck,
// where the games stand, and declares nothing, so no game on the deck can
// adopt or migrate to it. Each version is published as a built site
// (siteAt), as an author ships it, and the hosts play it. The browser
// test (bundle/e2e) serves them too.

// campaignsAt is the directory of the test campaigns at version.
func campaignsAt(version string) string {
	return filepath.Join("testdata", "update", version)
}

func onlyNotice(t *testing.T, h session.SessionHandle, outcome, from, to string) {
	t.Helper()
	if len(h.Notices) != 1 {
		t.Fatalf("notices %+v, want one %s", h.Notices, outcome)
	}
	n := h.Notices[0]
	if n.Outcome != outcome || n.From != from || n.To != to || n.Message.Key != "core.notice.content_"+outcome {
		t.Fatalf("notice %+v, want %s from %s to %s", n, outcome, from, to)
	}
}

// noticeFor is onlyNotice for the test campaigns' updates: version 2
// adopts every game, and version 3 keeps each with content_incompatible.
func noticeFor(t *testing.T, h session.SessionHandle, outcome, from, to string) {
	t.Helper()
	onlyNotice(t, h, outcome, from, to)
	want := ""
	if outcome == session.NoticeKept {
		want = core.ReasonContentIncompatible
	}
	if h.Notices[0].Reason != want {
		t.Errorf("the notice's reason is %q, want %q", h.Notices[0].Reason, want)
	}
}

// TestMCPKeepsEveryCampaignVersion plays version 1 of a story, a
// simulation and a world through `bundle mcp` over SQLite and saves each,
// then restarts the server on the built site of version 2 and of version
// 3: the games and the saves adopt version 2 with a notice, and version 3,
// which nothing can adopt, leaves them playing version 2 (the saves,
// version 1) and says so.
func TestMCPKeepsEveryCampaignVersion(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "host.db")
	args := func(version string) []string {
		return []string{"-db", db, "-built", siteAt(t, version)}
	}

	cs := startMCP(t, args("1.0.0")...)
	var h session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "ferry", "profileId": "p"}, &h)
	firstAvailable(t, cs, h.SessionID, h.Scene)
	var save session.SaveHandle
	callOK(t, cs, "save_game", map[string]any{"sessionId": h.SessionID}, &save)
	// A week of the simulation and eight hours of the world, each saved.
	others := map[string]string{}
	otherSaves := map[string]string{}
	for campaign, step := range map[string]map[string]any{
		"first-flat": {"actionId": "end_week"},
		"pier-fair":  {"actionId": "advance_ticks", "params": map[string]any{"ticks": 8}},
	} {
		var g session.SessionHandle
		callOK(t, cs, "create_session", map[string]any{"campaignId": campaign}, &g)
		step["sessionId"] = g.SessionID
		var res session.ActionResult
		callOK(t, cs, "submit_action", step, &res)
		if !res.OK {
			t.Fatalf("%s: %v", campaign, res.Errors)
		}
		others[campaign] = g.SessionID
		var s session.SaveHandle
		callOK(t, cs, "save_game", map[string]any{"sessionId": g.SessionID}, &s)
		otherSaves[campaign] = s.SaveID
	}
	resumeAll := func(outcome, from, to string) {
		t.Helper()
		for campaign, id := range others {
			var r session.SessionHandle
			callOK(t, cs, "resume_session", map[string]any{"sessionId": id}, &r)
			t.Run(campaign+" "+outcome, func(t *testing.T) { noticeFor(t, r, outcome, from, to) })
		}
	}
	loadAll := func(outcome, to string) {
		t.Helper()
		for campaign, id := range otherSaves {
			var l session.SessionHandle
			callOK(t, cs, "load_game", map[string]any{"saveId": id}, &l)
			t.Run(campaign+" save "+outcome, func(t *testing.T) { noticeFor(t, l, outcome, "1.0.0", to) })
		}
	}
	_ = cs.Close()

	cs = startMCP(t, args("2.0.0")...)
	var resumed session.SessionHandle
	callOK(t, cs, "resume_session", map[string]any{"sessionId": h.SessionID}, &resumed)
	onlyNotice(t, resumed, session.NoticeAdopted, "1.0.0", "2.0.0")
	if resumed.Scene.Body.Text != "The deck rolls under a grey sky." || len(resumed.Scene.Actions) != 2 {
		t.Fatalf("the resumed game is not on version 2: %+v", resumed.Scene)
	}
	var strs mcpserver.StringsOutput
	callOK(t, cs, "get_strings", map[string]any{"sessionId": h.SessionID}, &strs)
	if !strings.Contains(strs.Strings[core.NoticeContentAdopted], "{to}") {
		t.Fatalf("the notice's text is not in the string table: %q", strs.Strings[core.NoticeContentAdopted])
	}
	var loaded session.SessionHandle
	callOK(t, cs, "load_game", map[string]any{"saveId": save.SaveID}, &loaded)
	onlyNotice(t, loaded, session.NoticeAdopted, "1.0.0", "2.0.0")
	resumeAll(session.NoticeAdopted, "1.0.0", "2.0.0")
	loadAll(session.NoticeAdopted, "2.0.0")
	var view core.PlayerView
	callOK(t, cs, "get_view", map[string]any{"sessionId": loaded.SessionID}, &view)
	if !strings.Contains(string(view.KindView), `"fare"`) || strings.Contains(string(view.KindView), `"coins"`) {
		t.Fatalf("the renamed variable did not migrate: %s", view.KindView)
	}
	_ = cs.Close()

	cs = startMCP(t, args("3.0.0")...)
	callOK(t, cs, "resume_session", map[string]any{"sessionId": h.SessionID}, &resumed)
	onlyNotice(t, resumed, session.NoticeKept, "2.0.0", "3.0.0")
	if resumed.Notices[0].Reason != core.ReasonContentIncompatible || resumed.Scene.Body.Text != "The deck rolls under a grey sky." {
		t.Fatalf("%+v", resumed)
	}
	resumeAll(session.NoticeKept, "2.0.0", "3.0.0")
	loadAll(session.NoticeKept, "3.0.0")
	var res session.ActionResult
	callOK(t, cs, "submit_action", map[string]any{"sessionId": h.SessionID, "actionId": "watch"}, &res)
	if !res.OK || res.Scene.Body.Text != "The gulls wheel over the wake." {
		t.Fatalf("the kept game does not play version 2: %+v", res)
	}
	callOK(t, cs, "load_game", map[string]any{"saveId": save.SaveID}, &loaded)
	onlyNotice(t, loaded, session.NoticeKept, "1.0.0", "3.0.0")
	if loaded.Scene.Body.Text != "The deck rolls." {
		t.Fatalf("the old save does not play version 1: %+v", loaded.Scene)
	}
	var created session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "ferry"}, &created)
	if len(created.Scene.Actions) != 1 || created.Scene.Actions[0].ID != "board" {
		t.Fatalf("a new game does not start on version 3: %+v", created.Scene)
	}
}

// playVersions returns a function that runs the terminal client, `bundle
// play`, as a process of its own over one SQLite file: on the built site
// of the test campaigns at version, playing campaign with the inputs of
// script. It returns the transcript.
func playVersions(t *testing.T) func(version, campaign, script string) string {
	dir := t.TempDir()
	db := filepath.Join(dir, "host.db")
	return func(version, campaign, script string) string {
		t.Helper()
		path := filepath.Join(dir, "script")
		if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := bundleCommand(t, "play", "-db", db, "-built", siteAt(t, version), "-script", path, campaign).Output()
		if err != nil {
			t.Fatalf("bundle play: %v", err)
		}
		return string(out)
	}
}

// TestPlayKeepsEveryCampaignVersion does the same through the terminal
// client, each run a process of its own over one SQLite file: a story, a simulation
// and a world played and saved on version 1, resumed and loaded on
// version 2 (adopted) and on version 3 (kept on their versions).
func TestPlayKeepsEveryCampaignVersion(t *testing.T) {
	run := playVersions(t)
	session := regexp.MustCompile(`session (\S+)`)
	saved := regexp.MustCompile(`saved (\S+)`)
	var resume, load, resumeWatch string
	for _, g := range []struct{ campaign, step string }{
		{"ferry", "board"}, {"first-flat", "end_week"}, {"pier-fair", "advance_ticks ticks=8"},
	} {
		out := run("1.0.0", g.campaign, g.step+"\nsave\n")
		s, sv := session.FindStringSubmatch(out), saved.FindStringSubmatch(out)
		if s == nil || sv == nil {
			t.Fatalf("%s: no session or save in %s", g.campaign, out)
		}
		resume += "resume " + s[1] + "\n"
		load += "load " + sv[1] + "\n"
		if g.campaign == "ferry" {
			resumeWatch += "resume " + s[1] + "\nwatch\n"
		} else {
			resumeWatch += "resume " + s[1] + "\n"
		}
	}

	second := run("2.0.0", "ferry", resume+load)
	if n := strings.Count(second, "notice (adopted): The campaign was updated: this game now plays version 2.0.0 (it was on 1.0.0)."); n != 6 {
		t.Errorf("%d adopted notices, want one per game and per save of the three kinds:\n%s", n, second)
	}
	if n := strings.Count(second, "The deck rolls under a grey sky."); n != 2 {
		t.Errorf("the story's resume and load should each show version 2's deck (%d):\n%s", n, second)
	}
	third := run("3.0.0", "ferry", resumeWatch+load)
	for want, n := range map[string]int{
		"notice (kept: content_incompatible): Version 3.0.0 of the campaign cannot take this game over, so it goes on playing version 2.0.0.": 3,
		"notice (kept: content_incompatible): Version 3.0.0 of the campaign cannot take this game over, so it goes on playing version 1.0.0.": 3,
		"The gulls wheel over the wake.": 1,
	} {
		if got := strings.Count(third, want); got != n {
			t.Errorf("the transcript shows %q %d times, want %d:\n%s", want, got, n, third)
		}
	}
}

// TestHostsKeepAFinishedGameOnItsVersion plays a simulation and a world of
// version 1 to their ends and saves each, then serves version 2: a game
// that has ended stays on the version it ended on, so resuming it or
// loading its save keeps it there with content_not_adoptable, through the
// MCP server (the code in the notice) and the terminal client (the code
// beside the notice's text), each over SQLite across a restart.
func TestHostsKeepAFinishedGameOnItsVersion(t *testing.T) {
	const kept = "Version 2.0.0 of the campaign cannot take this game over, so it goes on playing version 1.0.0."
	// Each campaign's last step, repeated until the game ends.
	ends := map[string]map[string]any{
		"first-flat": {"actionId": "end_week"},
		"pier-fair":  {"actionId": "advance_ticks", "params": map[string]any{"ticks": 720}},
	}

	t.Run("MCP", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "host.db")
		cs := startMCP(t, "-db", db, "-built", siteAt(t, "1.0.0"))
		sessions, saves := map[string]string{}, map[string]string{}
		for campaign, step := range ends {
			var g session.SessionHandle
			callOK(t, cs, "create_session", map[string]any{"campaignId": campaign}, &g)
			step["sessionId"] = g.SessionID
			var res session.ActionResult
			for i := 0; i < 12 && (res.Scene == nil || res.Scene.Status != core.StatusEnded); i++ {
				callOK(t, cs, "submit_action", step, &res)
				if !res.OK {
					t.Fatalf("%s: %v", campaign, res.Errors)
				}
			}
			if res.Scene.Status != core.StatusEnded {
				t.Fatalf("%s did not end: %+v", campaign, res.Scene)
			}
			var sv session.SaveHandle
			callOK(t, cs, "save_game", map[string]any{"sessionId": g.SessionID}, &sv)
			sessions[campaign], saves[campaign] = g.SessionID, sv.SaveID
		}
		_ = cs.Close()

		cs = startMCP(t, "-db", db, "-built", siteAt(t, "2.0.0"))
		for campaign := range ends {
			var resumed, loaded session.SessionHandle
			callOK(t, cs, "resume_session", map[string]any{"sessionId": sessions[campaign]}, &resumed)
			callOK(t, cs, "load_game", map[string]any{"saveId": saves[campaign]}, &loaded)
			for what, h := range map[string]session.SessionHandle{"resumed": resumed, "loaded": loaded} {
				onlyNotice(t, h, session.NoticeKept, "1.0.0", "2.0.0")
				if h.Notices[0].Reason != core.ReasonContentNotAdoptable || h.Scene.Status != core.StatusEnded {
					t.Errorf("%s %s: %+v, want the ended game kept with %s", campaign, what, h, core.ReasonContentNotAdoptable)
				}
			}
		}
	})

	t.Run("terminal client", func(t *testing.T) {
		run := playVersions(t)
		var again string
		for campaign, script := range map[string]string{
			"first-flat": strings.Repeat("end_week\n", 12), "pier-fair": "advance_ticks ticks=720\n",
		} {
			out := run("1.0.0", campaign, script+"save\n")
			s, sv := regexp.MustCompile(`session (\S+)`).FindStringSubmatch(out), regexp.MustCompile(`saved (\S+)`).FindStringSubmatch(out)
			if s == nil || sv == nil || !strings.Contains(out, "the game has ended") {
				t.Fatalf("%s: no ended game, session or save in %s", campaign, out)
			}
			again += "resume " + s[1] + "\nload " + sv[1] + "\n"
		}
		if out, want := run("2.0.0", "ferry", again), "notice (kept: content_not_adoptable): "+kept; strings.Count(out, want) != 4 {
			t.Errorf("the transcript does not show %q for each game and save:\n%s", want, out)
		}
	})
}

// TestPlayWarnsOfKeptVersionsThatDoNotComeBack starts the terminal client
// over a database that kept a version this build cannot run, and over one
// whose served campaign changed without a new version: each is a warning
// line at start, and play goes on.
func TestPlayWarnsOfKeptVersionsThatDoNotComeBack(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "host.db")
	run := func(campaigns string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := dispatch([]string{"play", "-db", db, "-built", publishSite(t, campaigns)}, &out, &errb); code != 0 {
			t.Fatalf("bundle play exited %d: %s", code, errb.String())
		}
		return errb.String()
	}
	if got := run(campaignsAt("1.0.0")); got != "" {
		t.Fatalf("a first start warned: %s", got)
	}

	// The same version, other content: an author forgot to bump it.
	changed := filepath.Join(dir, "changed", "ferry")
	data, err := os.ReadFile(filepath.Join(campaignsAt("1.0.0"), "ferry", campaignFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(changed, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(changed, campaignFile), bytes.Replace(data, []byte("The deck rolls."), []byte("The deck pitches."), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(filepath.Dir(changed)); !strings.Contains(got, "content_version_conflict") || !strings.Contains(got, `"ferry" version 1.0.0`) {
		t.Errorf("no content_version_conflict warning: %q", got)
	}

	// A kept version whose content this build refuses.
	putEpoch(t, db, anyEpoch, func(bad *content.StoredEpoch) {
		bad.Form.Campaign.Version = "0.1.0"
		bad.Form.Campaign.Content = []byte(`{"start":"nowhere","nodes":[]}`)
	})
	if got := run(campaignsAt("1.0.0")); !strings.Contains(got, "epoch_unsupported") {
		t.Errorf("no epoch_unsupported warning: %q", got)
	}
}

// TestMCPAnswersAVersionItCannotRun: a game made on a version the server
// kept but this build can no longer run (its restore is unsupported) is
// answered campaign_version_unsupported, not unknown_campaign, and the
// server still plays the version it serves.
func TestMCPAnswersAVersionItCannotRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "host.db")
	cs := startMCP(t, "-db", db, "-built", siteAt(t, "1.0.0"))
	var h session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "ferry"}, &h)
	_ = cs.Close()

	ferry1 := func(e content.StoredEpoch) bool {
		return e.Form.Campaign.ID == "ferry" && e.Form.Campaign.Version == "1.0.0"
	}
	// Content this build's kind refuses: as if the kind dropped something
	// version 1.0.0 relied on.
	putEpoch(t, db, ferry1, func(e *content.StoredEpoch) {
		e.Form.Campaign.Content = []byte(`{"start":"nowhere","nodes":[]}`)
	})

	cs = startMCP(t, "-db", db, "-built", siteAt(t, "2.0.0"))
	te := callErr(t, cs, "resume_session", map[string]any{"sessionId": h.SessionID})
	if te.Code != core.ReasonCampaignVersionUnsupported {
		t.Fatalf("resume answered %+v", te)
	}
	var created session.SessionHandle
	callOK(t, cs, "create_session", map[string]any{"campaignId": "ferry"}, &created)
}

// TestHostsReportWhatAKeptVersionCannotDo drives two content codes through
// the hosts over SQLite across a restart: a campaign republished as
// another kind leaves a game on its version with content_kind_changed
// (MCP), and a kept version that authored a key the engine has since
// reserved comes back with a historical_string_collision warning at start
// (the terminal client).
func TestHostsReportWhatAKeptVersionCannotDo(t *testing.T) {
	t.Run("content_kind_changed", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "host.db")
		cs := startMCP(t, "-db", db, "-built", siteAt(t, "1.0.0"))
		var h session.SessionHandle
		callOK(t, cs, "create_session", map[string]any{"campaignId": "ferry"}, &h)
		_ = cs.Close()

		// Version 2.0.0 of "ferry" is a simulation now.
		other := filepath.Join(t.TempDir(), "ferry")
		if err := os.MkdirAll(other, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(campaignsAt("1.0.0"), "first-flat", campaignFile))
		if err != nil {
			t.Fatal(err)
		}
		data = regexp.MustCompile(`"id"\s*:\s*"first-flat"`).ReplaceAll(data, []byte(`"id":"ferry"`))
		data = regexp.MustCompile(`"version"\s*:\s*"1\.0\.0"`).ReplaceAll(data, []byte(`"version":"2.0.0"`))
		if err := os.WriteFile(filepath.Join(other, campaignFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		cs = startMCP(t, "-db", db, "-built", publishSite(t, filepath.Dir(other)))
		var resumed session.SessionHandle
		callOK(t, cs, "resume_session", map[string]any{"sessionId": h.SessionID}, &resumed)
		onlyNotice(t, resumed, session.NoticeKept, "1.0.0", "2.0.0")
		if resumed.Notices[0].Reason != core.ReasonContentKindChanged || resumed.Scene.Body.Text != "The ferry waits. You have 2 coins." {
			t.Errorf("resumed %+v, want the story kept with content_kind_changed", resumed)
		}
	})

	t.Run("historical_string_collision", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "host.db")
		site := siteAt(t, "1.0.0")
		var out, errb bytes.Buffer
		if code := dispatch([]string{"play", "-db", db, "-built", site}, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		// An older version that authored a key which this engine reserves,
		// and which was not reserved when it was published.
		putEpoch(t, db, anyEpoch, func(old *content.StoredEpoch) {
			old.Form.Campaign.Version = "0.2.0"
			old.Form.Strings = maps.Clone(old.Form.Strings)
			old.Form.Strings[core.NoticeContentAdopted] = "An authored line"
			old.Publication.ReservedKeys = slices.DeleteFunc(slices.Clone(old.Publication.ReservedKeys), func(k core.LocKey) bool { return k == core.NoticeContentAdopted })
		})
		out.Reset()
		errb.Reset()
		if code := dispatch([]string{"play", "-db", db, "-built", site}, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if !strings.Contains(errb.String(), core.ReasonHistoricalStringCollision) || !strings.Contains(errb.String(), core.NoticeContentAdopted) {
			t.Errorf("no historical_string_collision warning at start: %q", errb.String())
		}
	})
}

// anyEpoch picks the first version putEpoch finds.
func anyEpoch(content.StoredEpoch) bool { return true }

// putEpoch stores in the host database db a copy of the first kept
// version pick chooses, changed by edit and under its new digest.
func putEpoch(t *testing.T, db string, pick func(content.StoredEpoch) bool, edit func(*content.StoredEpoch)) {
	t.Helper()
	st, err := sessiondb.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kept, err := st.Epochs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(kept, pick)
	if i < 0 {
		t.Fatalf("none of the %d kept versions fits", len(kept))
	}
	e := kept[i]
	edit(&e)
	e.Digest, _ = content.EpochDigest(e.Form)
	if err := st.PutEpoch(context.Background(), e); err != nil {
		t.Fatal(err)
	}
}
