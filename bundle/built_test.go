package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/bundle/browsertest"
	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/static"
)

// writeBuiltSite publishes the campaigns built into the bundle as a built
// site's campaigns (site.PublishCampaigns: what `go run ./bundle build`
// publishes and the hosts play by default); then, unless tamper is "",
// changes the title string of the campaign tamper in its built document,
// as an edit on the server after the build would. It returns the site's
// directory.
func writeBuiltSite(t *testing.T, tamper string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.PublishCampaigns(site.Options{Static: static.FS, Kinds: registeredKinds()}, dir); err != nil {
		t.Fatal(err)
	}
	if tamper == "" {
		return dir
	}
	docs, err := filepath.Glob(filepath.Join(dir, "campaigns", tamper, "built.*.json"))
	if err != nil || len(docs) != 1 {
		t.Fatalf("the built document of %s: %v %v", tamper, docs, err)
	}
	data, err := os.ReadFile(docs[0])
	if err != nil {
		t.Fatal(err)
	}
	var d content.StoredEpoch
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	d.Form.Strings[d.Form.Campaign.TitleKey] = "Edited after the build"
	if data, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(docs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// siteAt publishes the test campaigns of bundle/testdata/update at
// version as a built site, the way an author ships that version, and
// returns its directory.
func siteAt(t *testing.T, version string) string {
	t.Helper()
	return publishSite(t, campaignsAt(version))
}

// publishSite publishes the campaign directories under dir as a built
// site and returns its directory.
func publishSite(t *testing.T, dir string) string {
	t.Helper()
	static := t.TempDir()
	if err := os.CopyFS(filepath.Join(static, "campaigns"), os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := site.PublishCampaigns(site.Options{Static: os.DirFS(static), Kinds: registeredKinds()}, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHostsPlayVerifiedBuiltDocuments plays a built site's documents
// through `bundle play -built` and `bundle mcp -built`: a document edited
// after the build is refused with invalid_state and its failed check, and
// every other campaign still plays, from its document, not from source.
func TestHostsPlayVerifiedBuiltDocuments(t *testing.T) {
	dir := writeBuiltSite(t, "first-flat")

	t.Run("play lists the verified campaigns and says which was refused", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := dispatch([]string{"play", "-memory", "-built", dir}, &out, &errb); code != 0 {
			t.Fatalf("exit %d; stderr: %s", code, errb.String())
		}
		for _, w := range []string{"invalid_state", `"first-flat"`, "digests to"} {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("stderr lacks %q:\n%s", w, errb.String())
			}
		}
		for _, id := range []string{"gannet-rock", "harbour-bakery", "pier-fair", "the-marrow-affair"} {
			if !strings.Contains(out.String(), id) {
				t.Errorf("the catalog lacks %s:\n%s", id, out.String())
			}
		}
		if strings.Contains(out.String(), "first-flat") || strings.Contains(out.String(), "Edited after the build") {
			t.Errorf("the catalog lists the refused campaign:\n%s", out.String())
		}
	})

	t.Run("play runs a script on a built document as on source", func(t *testing.T) {
		script := filepath.Join("testdata", "play", "gannet-rock.script")
		var fromBuilt, fromSource, errb bytes.Buffer
		if code := dispatch([]string{"play", "-built", dir, "-script", script, "gannet-rock"}, &fromBuilt, &errb); code != 0 {
			t.Fatalf("exit %d; stderr: %s", code, errb.String())
		}
		if code := dispatch([]string{"play", "-source", "-script", script, "gannet-rock"}, &fromSource, &errb); code != 0 {
			t.Fatalf("exit %d; stderr: %s", code, errb.String())
		}
		if fromBuilt.String() != fromSource.String() {
			t.Errorf("the built document plays otherwise than its source: %s", firstDiff(fromSource.String(), fromBuilt.String()))
		}
	})

	t.Run("mcp serves the verified campaigns only", func(t *testing.T) {
		cs := startMCP(t, "-memory", "-built", dir)
		var cat session.Catalog
		callOK(t, cs, "list_campaigns", map[string]any{"profileId": "p"}, &cat)
		var ids []string
		for _, c := range cat.Campaigns {
			ids = append(ids, c.CampaignID)
		}
		if len(ids) != 4 || strings.Contains(strings.Join(ids, ","), "first-flat") {
			t.Errorf("campaigns %v, want the four that verify", ids)
		}
		var h session.SessionHandle
		callOK(t, cs, "create_session", map[string]any{"campaignId": "gannet-rock", "profileId": "p"}, &h)
		firstAvailable(t, cs, h.SessionID, h.Scene)
		if e := callErr(t, cs, "create_session", map[string]any{"campaignId": "first-flat", "profileId": "p"}); e.Code != "unknown_campaign" {
			t.Errorf("the refused campaign: %+v, want unknown_campaign", e)
		}
	})

	t.Run("a database kept from source plays on from the built documents", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "host.db")
		script := filepath.Join("testdata", "play", "gannet-rock.script")
		var out, errb bytes.Buffer
		if code := dispatch([]string{"play", "-db", db, "-source", "-script", script, "gannet-rock"}, &out, &errb); code != 0 {
			t.Fatalf("exit %d; stderr: %s", code, errb.String())
		}
		out.Reset()
		errb.Reset()
		if code := dispatch([]string{"play", "-db", db, "-built", dir}, &out, &errb); code != 0 {
			t.Fatalf("exit %d; stderr: %s", code, errb.String())
		}
		// The same content digests the same built or compiled: no kept
		// version conflicts, and the ending found on source is kept.
		if strings.Contains(errb.String(), "content_version_conflict") || strings.Count(errb.String(), "warning:") != 1 {
			t.Errorf("stderr, want only the tampered document's warning:\n%s", errb.String())
		}
		if !strings.Contains(out.String(), "(1 of 5 endings found)") {
			t.Errorf("the catalog lost the ending found on source:\n%s", out.String())
		}
	})

	t.Run("a site and source together, or no site, are refused", func(t *testing.T) {
		for _, args := range [][]string{
			{"play", "-memory", "-built", dir, "-campaigns", campaignsAt("1.0.0")},
			{"play", "-memory", "-built", dir, "-source"},
			{"play", "-memory", "-built", t.TempDir()},
		} {
			var out, errb bytes.Buffer
			if code := dispatch(args, &out, &errb); code != 1 {
				t.Errorf("%v: exit %d, want 1; stderr: %s", args, code, errb.String())
			}
		}
	})
}

// TestHostsReadTheModulesBuiltSiteByDefault: with neither -built nor
// -source, the hosts play the built site in dist/ at the module root, and
// without one they refuse to start, saying how to build it and how to
// compile source instead; they never fall back to compiling source.
func TestHostsReadTheModulesBuiltSiteByDefault(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(root, "dist")
	reg, _, err := hostRegistry(registeredKinds(), storeFlags{})
	if _, statErr := os.Stat(filepath.Join(dist, "campaigns", "index.json")); statErr != nil {
		if err == nil {
			t.Fatalf("with no built site in %s the hosts still started (compiled source?)", dist)
		}
		for _, w := range []string{dist, "go run ./bundle build", "-source"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q lacks %q", err, w)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("the built site in %s: %v", dist, err)
	}
	want, _, err := hostRegistry(registeredKinds(), storeFlags{built: dist})
	if err != nil || strings.Join(reg.Order, ",") != strings.Join(want.Order, ",") {
		t.Errorf("by default %v, -built %s gives %v (%v)", reg.Order, dist, want.Order, err)
	}
}

// TestPlayCompilesAPackSetFromSource: an author tries a pack set before
// publishing it; -campaigns with pack directories resolves them as one set
// and the host plays the campaign the other pack attaches a chapter to.
func TestPlayCompilesAPackSetFromSource(t *testing.T) {
	compose := filepath.Join("..", "engine", "kinds", "story", "testdata", "compose")
	packs := filepath.Join(compose, "harbour-pack") + "," + filepath.Join(compose, "lantern-pack")
	script := filepath.Join(t.TempDir(), "lantern.script")
	if err := os.WriteFile(script, []byte("lantern\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"play", "-campaigns", packs, "-script", script, "harbour-night"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "A lantern hangs dry in the ferry shed.") || strings.Contains(out.String(), "refused") {
		t.Errorf("the attached chapter's choice was not taken:\n%s", out.String())
	}
}

// TestPlayResolvesAPublishedPackSet: a site that publishes the worked pack
// set is played from its built documents, the pack set verified against
// its resolution; the attached chapter plays, composed on the author's
// side. A pack set edited after the build is refused whole.
func TestPlayResolvesAPublishedPackSet(t *testing.T) {
	static := t.TempDir()
	if err := os.CopyFS(filepath.Join(static, "packs"), os.DirFS(filepath.Join("..", "engine", "kinds", "story", "testdata", "compose"))); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.PublishCampaigns(site.Options{Static: os.DirFS(static), Kinds: registeredKinds()}, dir); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "lantern.script")
	if err := os.WriteFile(script, []byte("lantern\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"play", "-built", dir, "-script", script, "harbour-night"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "A lantern hangs dry in the ferry shed.") {
		t.Errorf("the attached chapter does not play from the built documents:\n%s", out.String())
	}

	idx := filepath.Join(dir, "campaigns", "index.json")
	data, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idx, bytes.Replace(data, []byte(`"id":"lantern-pack"`), []byte(`"id":"lantern-pack-2"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := dispatch([]string{"play", "-memory", "-built", dir}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "invalid_state") || !strings.Contains(errb.String(), "resolution") {
		t.Errorf("an edited pack set: exit %d, stderr %q", code, errb.String())
	}
}

// TestHostsRefuseABuiltDocumentWithoutProvenance serves a built site one of
// whose documents lacks its provenance (the table of strings its campaign
// authored), re-digested with its index as a build by another tool would
// be: `bundle play -built` and `bundle mcp -built` leave that campaign out
// with content_provenance_missing, which the terminal client says at
// start, and play the others.
func TestHostsRefuseABuiltDocumentWithoutProvenance(t *testing.T) {
	dir := writeBuiltSite(t, "")
	if err := browsertest.DropProvenance(dir, "first-flat"); err != nil {
		t.Fatal(err)
	}

	var out, errb bytes.Buffer
	if code := dispatch([]string{"play", "-memory", "-built", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, errb.String())
	}
	if want := `bundle play: warning: content_provenance_missing at form: built document of campaign "first-flat" carries no provenance`; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
	if !strings.Contains(out.String(), "gannet-rock") || strings.Contains(out.String(), "first-flat") {
		t.Errorf("the terminal client's catalog:\n%s", out.String())
	}

	cs := startMCP(t, "-memory", "-built", dir)
	var cat session.Catalog
	callOK(t, cs, "list_campaigns", map[string]any{"profileId": "p"}, &cat)
	if len(cat.Campaigns) != 4 {
		t.Errorf("the MCP server lists %d campaigns, want the four with provenance", len(cat.Campaigns))
	}
	if e := callErr(t, cs, "create_session", map[string]any{"campaignId": "first-flat"}); e.Code != "unknown_campaign" {
		t.Errorf("the campaign without provenance: %+v, want unknown_campaign", e)
	}
}
