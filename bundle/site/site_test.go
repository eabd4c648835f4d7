package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
)

// built is the site every test reads, built once by TestMain from the
// repository's page and static tree, with the small module in testdata.
var (
	built    *Result
	builtDir string
	// moduleRoot is the repository's directory.
	moduleRoot string
)

func TestMain(m *testing.M) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		panic(err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	moduleRoot = root
	dir, err := os.MkdirTemp("", "storyloom-site-test-")
	if err != nil {
		panic(err)
	}
	built, err = Build(context.Background(), testOptions(root, dir))
	if err != nil {
		os.RemoveAll(dir)
		panic(err)
	}
	builtDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testOptions builds the repository's page and static tree with the small
// module in testdata into out, fast, with the offline file.
func testOptions(root, out string) Options {
	return Options{
		Web:       os.DirFS(filepath.Join(root, "web", "site")),
		Static:    os.DirFS(filepath.Join(root, "static")),
		Out:       out,
		ModuleDir: root,
		Package:   "./bundle/site/testdata/mini",
		Fast:      true,
		Offline:   true,
		Kinds:     []core.Kind{story.Kind{}, sim.Kind{}, world.Kind{}},
	}
}

func TestBuildNamesAssetsByContentAndListsThemAll(t *testing.T) {
	dist := os.DirFS(builtDir)
	listed := map[string]File{}
	for _, f := range built.Manifest.Files {
		listed[f.URL] = f
	}
	fixed := map[string]bool{IndexName: true, WebManifest: true, CampaignsIdx: true, AssetsName: true}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br"):
			if _, err := fs.Stat(dist, p[:len(p)-3]); err != nil {
				t.Errorf("%s has no original", p)
			}
			return nil
		case p == SWName || p == ManifestName || p == OfflineName || p == HeadersName:
			return nil
		}
		f, ok := listed[p]
		if !ok {
			t.Errorf("%s is not in the precache manifest", p)
			return nil
		}
		data, err := fs.ReadFile(dist, p)
		if err != nil {
			return err
		}
		if got := sum(data); got != f.SHA256 {
			t.Errorf("%s: manifest says sha256 %s, file has %s", p, f.SHA256, got)
		}
		if !fixed[p] && path.Base(p) != IndexName { // a nested page keeps its name too
			if !IsHashed(p) || !strings.Contains(p, "."+f.SHA256[:hashLen]+".") {
				t.Errorf("%s is not named by its content hash %s", p, f.SHA256[:hashLen])
			}
		}
		delete(listed, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for url := range listed {
		t.Errorf("manifest lists %s, which is not in the build", url)
	}
	sw, err := fs.ReadFile(dist, SWName)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(sw, []byte(built.Manifest.Version)) {
		t.Error("sw.js does not carry the version")
	}
	index, _ := fs.ReadFile(dist, IndexName)
	for _, src := range []string{WasmSource, WasmExecName, "icons/icon.svg"} {
		url := built.Assets[src]
		if url == "" || !bytes.Contains(index, []byte(url)) {
			t.Errorf("index.html does not reference %s as %q", src, url)
		}
	}
}

// TestCampaignIndexPublishesNoSource: the index names each campaign's
// built document by its hash as served, and the site ships no campaign
// source: no campaign.json, no strings/ catalog (the built document holds
// the translations), in the directory, the precache list or the offline
// file, which carries the same built documents.
func TestCampaignIndexPublishesNoSource(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(builtDir, filepath.FromSlash(CampaignsIdx)))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Campaigns []campaignEntry `json:"campaigns"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Campaigns) < 3 {
		t.Fatalf("the index lists %d campaigns", len(idx.Campaigns))
	}
	for _, c := range idx.Campaigns {
		body, err := os.ReadFile(filepath.Join(builtDir, filepath.FromSlash(c.Built)))
		if err != nil {
			t.Errorf("campaign %s: %v", c.ID, err)
			continue
		}
		if sum(body) != c.SHA256 {
			t.Errorf("campaign %s: sha256 mismatch", c.ID)
		}
	}
	if bytes.Contains(data, []byte(`"url"`)) || bytes.Contains(data, []byte(`"strings"`)) {
		t.Errorf("the index still names source files: %s", data)
	}
	err = filepath.WalkDir(filepath.Join(builtDir, "campaigns"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if name := filepath.Base(p); strings.HasPrefix(name, "campaign.") || strings.Contains(filepath.ToSlash(p), "/strings/") {
			t.Errorf("the site ships campaign source %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range built.Manifest.Files {
		if strings.HasPrefix(f.URL, "campaigns/") && f.URL != CampaignsIdx && !strings.Contains(f.URL, "/built.") {
			t.Errorf("the precache list names %s", f.URL)
		}
	}
	// The offline file carries the same documents the service worker
	// precaches, and no source either.
	offline, err := os.ReadFile(built.OfflinePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range idx.Campaigns {
		if !bytes.Contains(offline, []byte(`"`+c.Built+`"`)) {
			t.Errorf("the offline file lacks %s", c.Built)
		}
		if bytes.Contains(offline, []byte("campaigns/"+c.ID+"/campaign.")) {
			t.Errorf("the offline file carries the source of %s", c.ID)
		}
	}
}

// TestBuiltCampaignsVerifyAgainstTheManifest reads the built site as a
// host does: every shipped campaign has a built document under a
// content-addressed name that verifies against its index entry, and the
// entries digest to the index's manifestDigest. A document changed after
// the build (one word of its title) is refused with invalid_state.
func TestBuiltCampaignsVerifyAgainstTheManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(builtDir, filepath.FromSlash(CampaignsIdx)))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Campaigns []struct {
			ID, Built, Version, Digest string
		} `json:"campaigns"`
		ManifestDigest string `json:"manifestDigest"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Campaigns) < 3 {
		t.Fatalf("the index lists %d campaigns", len(idx.Campaigns))
	}
	var entries []content.ManifestEntry
	for _, c := range idx.Campaigns {
		if !regexp.MustCompile(`^campaigns/` + regexp.QuoteMeta(c.ID) + `/built\.[0-9a-f]{12}\.json$`).MatchString(c.Built) {
			t.Errorf("campaign %s: built document at %q", c.ID, c.Built)
			continue
		}
		doc, err := os.ReadFile(filepath.Join(builtDir, filepath.FromSlash(c.Built)))
		if err != nil {
			t.Fatal(err)
		}
		entry := content.ManifestEntry{ID: c.ID, Version: c.Version, Digest: c.Digest}
		s, err := content.VerifyBuilt(doc, entry)
		if err != nil {
			t.Errorf("campaign %s: %v", c.ID, err)
			continue
		}
		entries = append(entries, entry)
		tampered := bytes.Replace(doc, []byte(`"`+s.Form.Strings[s.Form.Campaign.TitleKey]+`"`), []byte(`"Tampered"`), 1)
		var ve core.ValidationError
		if _, err := content.VerifyBuilt(tampered, entry); !errors.As(err, &ve) || ve.Code != core.ReasonInvalidState || ve.Details["check"] != "digest" {
			t.Errorf("campaign %s: a tampered document gives %v", c.ID, err)
		}
	}
	if want, _ := content.ManifestDigest(entries); idx.ManifestDigest != want {
		t.Errorf("manifestDigest %q, the entries digest to %q", idx.ManifestDigest, want)
	}
}

func TestOfflineFileIsSelfContained(t *testing.T) {
	page, err := os.ReadFile(built.OfflinePath)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) > 6<<20 {
		t.Errorf("offline file is %d bytes, over 6 MB", len(page))
	}
	for _, bad := range []string{`src="wasm_exec`, `rel="manifest"`, `src="play.`, `href="icons/`} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("offline file still references %s", bad)
		}
	}
	if !bytes.Contains(page, []byte(`"offline":true`)) {
		t.Error("offline file's asset map is not marked offline")
	}
}

func TestMinifiedJSONKeepsNumbers(t *testing.T) {
	m := newMinifier()
	got, err := m.Bytes("application/json", []byte(`{"gold": 100000, "rate": 1.50}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"gold":100000,"rate":1.50}`; string(got) != want {
		t.Errorf("minified = %s, want %s", got, want)
	}
}

// get requests path with an Accept-Encoding and returns the response with
// its body read.
func get(t *testing.T, srv *httptest.Server, p, accept string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Set explicitly: the transport then neither adds gzip nor decodes.
	req.Header.Set("Accept-Encoding", accept)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestServeTypesEncodingAndCaching(t *testing.T) {
	srv := httptest.NewServer(Handler(os.DirFS(builtDir)))
	defer srv.Close()
	wasm := "/" + built.Assets[WasmSource]
	js := "/" + built.Assets[WasmExecName]
	raw, err := os.ReadFile(filepath.Join(builtDir, filepath.FromSlash(wasm)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, accept    string
		wantType, wantEnc     string
		wantCache             string
		wantStatus            int
		decodedEqualsOriginal bool
	}{
		{"wasm brotli", wasm, "gzip, deflate, br", "application/wasm", "br", CacheImmutable, 200, true},
		{"wasm gzip", wasm, "gzip", "application/wasm", "gzip", CacheImmutable, 200, true},
		{"wasm br refused", wasm, "br;q=0, gzip;q=0.5", "application/wasm", "gzip", CacheImmutable, 200, true},
		{"wasm identity", wasm, "", "application/wasm", "", CacheImmutable, 200, true},
		{"js", js, "br", "text/javascript; charset=utf-8", "br", CacheImmutable, 200, false},
		{"index", "/", "gzip", "text/html; charset=utf-8", "gzip", CacheRevalidate, 200, false},
		{"sw", "/sw.js", "br", "text/javascript; charset=utf-8", "br", CacheRevalidate, 200, false},
		{"web manifest", "/manifest.webmanifest", "", "application/manifest+json", "", CacheRevalidate, 200, false},
		{"precache manifest", "/precache.json", "", "application/json", "", CacheRevalidate, 200, false},
		{"missing", "/nope.js", "", "", "", "", 404, false},
		{"dotfile", "/.git/config", "", "", "", "", 404, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv, tt.path, tt.accept)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantStatus != 200 {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type %q, want %q", got, tt.wantType)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.wantEnc {
				t.Errorf("Content-Encoding %q, want %q", got, tt.wantEnc)
			}
			if got := resp.Header.Get("Cache-Control"); got != tt.wantCache {
				t.Errorf("Cache-Control %q, want %q", got, tt.wantCache)
			}
			if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", got)
			}
			if tt.decodedEqualsOriginal {
				var dec []byte
				switch tt.wantEnc {
				case "br":
					dec, err = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
				case "gzip":
					var zr *gzip.Reader
					if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
						dec, err = io.ReadAll(zr)
					}
				default:
					dec = body
				}
				if err != nil || !bytes.Equal(dec, raw) {
					t.Errorf("decoded body differs from the module (err %v)", err)
				}
			}
		})
	}
	t.Run("revalidate", func(t *testing.T) {
		resp, _ := get(t, srv, "/", "gzip")
		etag := resp.Header.Get("ETag")
		if etag == "" {
			t.Fatal("index.html has no ETag")
		}
		resp, _ = get(t, srv, "/", "gzip", "If-None-Match", etag)
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("revalidation gave %d, want 304", resp.StatusCode)
		}
	})
	t.Run("post refused", func(t *testing.T) {
		resp, err := srv.Client().Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST gave %d, want 405", resp.StatusCode)
		}
	})
}

func TestHandlerMounts(t *testing.T) {
	rooms := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "rooms") })
	srv := httptest.NewServer(Handler(fstest.MapFS{"index.html": {Data: []byte("<p>hi")}}, Mount{Pattern: "/rooms/", Handler: rooms}))
	defer srv.Close()
	if _, body := get(t, srv, "/rooms/abc", ""); string(body) != "rooms" {
		t.Errorf("/rooms/abc = %q, want the mounted handler", body)
	}
	if _, body := get(t, srv, "/", ""); string(body) != "<p>hi" {
		t.Errorf("/ = %q, want index.html", body)
	}
}

func TestAcceptedEncodings(t *testing.T) {
	tests := []struct {
		name, header string
		br, gzip     bool
	}{
		{"none", "", false, false},
		{"both", "gzip, deflate, br, zstd", true, true},
		{"q zero", "br;q=0, gzip", false, true},
		{"star", "*", true, true},
		{"star minus br", "*, br;q=0", false, true},
		{"case and spaces", " GZIP ; q=0.8 ", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := acceptedEncodings(tt.header)
			if got["br"] != tt.br || got["gzip"] != tt.gzip {
				t.Errorf("acceptedEncodings(%q) = %v, want br=%v gzip=%v", tt.header, got, tt.br, tt.gzip)
			}
		})
	}
}

func TestRewriteHTMLKeepsTheRest(t *testing.T) {
	src := `<!doctype html><html><head><title>x</title><link rel="stylesheet" href="a.css"></head><body><script src="b.js"></script><p class=x>t</p></body></html>`
	out, err := rewriteHTML([]byte(src), "<!--in-->", func(tg *htmlTag) (tagEdit, string) {
		if tg.name == "script" {
			return replaceElement, "<script>inline()</script>"
		}
		if v, ok := tg.get("href"); ok {
			tg.set("href", path.Join("x", v))
		}
		return keepTag, ""
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `<!doctype html><html><head><title>x</title><link rel="stylesheet" href="x/a.css"><!--in--></head><body><script>inline()</script><p class="x">t</p></body></html>`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestSecondBuildReusesCompressedCopies: with a cache, a build of an
// unchanged tree compresses nothing again, says so, and writes the same
// compressed files; without one, every copy is made again.
func TestSecondBuildReusesCompressedCopies(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	mod := filepath.Dir(strings.TrimSpace(string(out)))
	cache := t.TempDir()
	build := func() (string, string) {
		t.Helper()
		var log bytes.Buffer
		dir := t.TempDir()
		o := testOptions(mod, dir)
		o.Cache, o.Log = cache, &log
		if _, err := Build(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return dir, log.String()
	}
	first, log1 := build()
	second, log2 := build()
	made := regexp.MustCompile(`compressed copies \(\.br, \.gz\): (\d+) made, (\d+) reused`)
	m1, m2 := made.FindStringSubmatch(log1), made.FindStringSubmatch(log2)
	if m1 == nil || m2 == nil {
		t.Fatalf("the build does not say what it compressed:\n%s\n%s", log1, log2)
	}
	if m1[1] == "0" || m1[2] != "0" {
		t.Errorf("a first build with an empty cache: %s", m1[0])
	}
	if m2[1] != "0" || m2[2] != m1[1] {
		t.Errorf("a second build of the same tree: %s (the first made %s)", m2[0], m1[1])
	}
	for _, line := range []string{"compiling the WASM module", "compiled the WASM module", "wrote the offline file", "built "} {
		if !strings.Contains(log2, "site: "+line) {
			t.Errorf("the build's log does not say %q:\n%s", line, log2)
		}
	}
	n := 0
	err = filepath.WalkDir(first, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz")) {
			return err
		}
		rel, _ := filepath.Rel(first, p)
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(second, rel))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the builds (%v)", rel, err)
		}
		n++
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("compared %d compressed files: %v", n, err)
	}
}

// TestReadBuiltReadsTheBuiltSite reads the built site's campaigns as a
// native host does (ReadBuilt): every document verifies; in a copy whose
// one document was edited after the build, that one is refused with
// invalid_state and the others are read; an index whose manifest digest
// no longer matches its entries is refused whole.
func TestReadBuiltReadsTheBuiltSite(t *testing.T) {
	pub, err := ReadBuilt(builtDir)
	docs := pub.Docs
	if err != nil || len(pub.Refused) != 0 || len(docs) < 3 || pub.Resolution != "" {
		t.Fatalf("ReadBuilt: %d documents, refused %v, resolution %q, %v", len(docs), pub.Refused, pub.Resolution, err)
	}
	copyCampaigns := func(t *testing.T) string {
		dir := t.TempDir()
		if err := os.CopyFS(filepath.Join(dir, "campaigns"), os.DirFS(filepath.Join(builtDir, "campaigns"))); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	t.Run("a tampered document", func(t *testing.T) {
		dir := copyCampaigns(t)
		matches, err := filepath.Glob(filepath.Join(dir, "campaigns", docs[0].Form.Campaign.ID, "built.*.json"))
		if err != nil || len(matches) != 1 {
			t.Fatalf("built document of %s: %v %v", docs[0].Form.Campaign.ID, matches, err)
		}
		data, err := os.ReadFile(matches[0])
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(data), `"version":"`+docs[0].Form.Campaign.Version+`"`, `"version":"9.9.9"`, 1)
		if edited == string(data) {
			t.Fatal("the document names no version to edit")
		}
		if err := os.WriteFile(matches[0], []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		read, err := ReadBuilt(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, refused := read.Docs, read.Refused
		var ve core.ValidationError
		if len(refused) != 1 || !errors.As(refused[0], &ve) || ve.Code != core.ReasonInvalidState || ve.Details["campaignId"] != docs[0].Form.Campaign.ID {
			t.Fatalf("refused %v, want %s with invalid_state", refused, docs[0].Form.Campaign.ID)
		}
		if len(got) != len(docs)-1 {
			t.Errorf("read %d documents, want the other %d", len(got), len(docs)-1)
		}
	})
	t.Run("a manifest digest that does not match", func(t *testing.T) {
		dir := copyCampaigns(t)
		idx := filepath.Join(dir, filepath.FromSlash(CampaignsIdx))
		data, err := os.ReadFile(idx)
		if err != nil {
			t.Fatal(err)
		}
		edited := regexp.MustCompile(`"manifestDigest":"[^"]*"`).ReplaceAll(data, []byte(`"manifestDigest":"sha256:0"`))
		if err := os.WriteFile(idx, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadBuilt(dir); err == nil || !strings.Contains(err.Error(), core.ReasonInvalidState) {
			t.Errorf("ReadBuilt of a wrong manifest digest: %v, want invalid_state", err)
		}
	})
}

// TestBuildFailsWhenTheCampaignsDoNotBuild builds a site whose one
// campaign has no content: the build fails, naming the campaign's file and
// the reason code, rather than publishing the site without built documents.
func TestBuildFailsWhenTheCampaignsDoNotBuild(t *testing.T) {
	static := t.TempDir()
	broken := filepath.Join(static, "campaigns", "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "campaign.json"), []byte(`{"format":1,"id":"broken","kind":"story-graph","version":"1.0.0","title":"Broken"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := testOptions(moduleRoot, t.TempDir())
	o.Static = os.DirFS(static)
	_, err := Build(context.Background(), o)
	if err == nil {
		t.Fatal("the site built with a campaign that does not build")
	}
	for _, w := range []string{"campaigns/broken/campaign.json", core.ReasonMalformedInput, "do not build"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

// TestBuildPublishesAPackSet builds a site of the worked pack set
// (engine/kinds/story/testdata/compose): each campaign the set folds to is
// published as its built document only, composed (the including campaign
// with its chapter and the other pack's attachment), with the packs in
// resolution order and the set's resolution; a host reads them back
// (ReadBuilt, Published.Registry) with the resolution the source set has.
// An index whose packs no longer digest to its resolution is refused
// whole with invalid_state.
func TestBuildPublishesAPackSet(t *testing.T) {
	static := t.TempDir()
	compose := filepath.Join(moduleRoot, "engine", "kinds", "story", "testdata", "compose")
	if err := os.CopyFS(filepath.Join(static, "packs"), os.DirFS(compose)); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(static, "icons"), os.DirFS(filepath.Join(moduleRoot, "static", "icons"))); err != nil {
		t.Fatal(err)
	}
	o := testOptions(moduleRoot, t.TempDir())
	o.Static, o.Offline = os.DirFS(static), false
	if _, err := Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	pub, err := ReadBuilt(o.Out)
	if err != nil || len(pub.Refused) != 0 {
		t.Fatalf("ReadBuilt: %v %v", err, pub.Refused)
	}
	reg, err := pub.Registry(o.Kinds)
	if err != nil {
		t.Fatal(err)
	}
	var packs []content.Pack
	for _, p := range []string{"harbour-pack", "lantern-pack"} {
		pk := content.Pack{Path: p + "/pack.json"}
		if pk.Manifest, err = os.ReadFile(filepath.Join(compose, p, "pack.json")); err != nil {
			t.Fatal(err)
		}
		dirs, _ := os.ReadDir(filepath.Join(compose, p, "campaigns"))
		for _, d := range dirs {
			data, err := os.ReadFile(filepath.Join(compose, p, "campaigns", d.Name(), "campaign.json"))
			if err != nil {
				t.Fatal(err)
			}
			pk.Campaigns = append(pk.Campaigns, content.Source{Path: d.Name(), Campaign: data})
		}
		packs = append(packs, pk)
	}
	fromSource, published, res := content.ResolvePacks(o.Kinds, packs...)
	if fromSource == nil {
		t.Fatal(res.Errors)
	}
	if reg.Resolution == "" || reg.Resolution != fromSource.Resolution {
		t.Errorf("resolution %q, the source set resolves to %q", reg.Resolution, fromSource.Resolution)
	}
	if got, want := strings.Join(reg.Order, ","), "bell-tower,harbour-night,ferry-lantern"; got != want {
		t.Errorf("campaigns %s, want %s", got, want)
	}
	if p := reg.Provenance["harbour-night"]; p == nil || len(p.Attachments) != 1 || p.Attachments[0].Include.Alias != "lantern" {
		t.Errorf("harbour-night is not published with the lantern attachment: %+v", p)
	}
	data, err := os.ReadFile(filepath.Join(o.Out, filepath.FromSlash(CampaignsIdx)))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Campaigns []campaignEntry         `json:"campaigns"`
		Packs     []content.PublishedPack `json:"packs"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Packs) != 2 || idx.Packs[0].ID != published[0].ID || len(idx.Packs[1].Campaigns) != 1 || idx.Packs[1].Campaigns[0].ID != "ferry-lantern" {
		t.Errorf("packs %+v", idx.Packs)
	}
	for _, c := range idx.Campaigns {
		if want := map[string]string{"ferry-lantern": "lantern-pack"}[c.CampaignID]; c.Pack != want && !(want == "" && c.Pack == "harbour-pack") {
			t.Errorf("campaign %s: pack %q", c.CampaignID, c.Pack)
		}
	}
	if _, err := fs.Stat(os.DirFS(o.Out), "packs/harbour-pack/campaigns/harbour-night/campaign.json"); err == nil {
		t.Error("the site ships a pack's campaign source")
	}

	edited := bytes.Replace(data, []byte(`"version":"1.0.0","campaigns"`), []byte(`"version":"1.0.1","campaigns"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("the index names no pack version to edit")
	}
	if err := os.WriteFile(filepath.Join(o.Out, filepath.FromSlash(CampaignsIdx)), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	var ve core.ValidationError
	if _, err := ReadBuilt(o.Out); !errors.As(err, &ve) || ve.Code != core.ReasonInvalidState || ve.Details["check"] != "resolution" {
		t.Errorf("a pack set edited after the build: %v, want invalid_state (resolution)", err)
	}
}

// TestFirstLoadCountsTheBuiltDocuments: the first load the sizes report
// includes each campaign's built document, which the page fetches before
// the library shows, beside the page, the module and the index.
func TestFirstLoadCountsTheBuiltDocuments(t *testing.T) {
	sizes, err := MeasureSizes(os.DirFS(builtDir))
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, f := range sizes.Files {
		if strings.Contains(f.Name, "/built.") {
			want += f.Raw
		}
	}
	page := 0
	for _, f := range sizes.Files {
		if f.Name == IndexName || f.Name == CampaignsIdx || f.Name == sizes.Module.Name {
			page += f.Raw
		}
	}
	if want == 0 || sizes.FirstLoad.Raw < page+want {
		t.Errorf("first load %d bytes raw, want at least the page, module and index (%d) and the built documents (%d)", sizes.FirstLoad.Raw, page, want)
	}
}

// TestASecondBuildReusesItsWork: `make play` builds before it serves, so
// a second build with nothing changed must not compress again, and each
// build says what it is doing, step by step: the compressed copies of the
// first build are all reused by the second, which makes none.
func TestASecondBuildReusesItsWork(t *testing.T) {
	cache := t.TempDir()
	var logs [2]bytes.Buffer
	for i := range logs {
		o := testOptions(moduleRoot, t.TempDir())
		o.Cache, o.Log = cache, &logs[i]
		if _, err := Build(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	made := regexp.MustCompile(`compressed copies \(\.br, \.gz\): (\d+) made, (\d+) reused`)
	first, second := made.FindStringSubmatch(logs[0].String()), made.FindStringSubmatch(logs[1].String())
	if first == nil || second == nil {
		t.Fatalf("a build does not say what it compressed:\n%s\n%s", &logs[0], &logs[1])
	}
	if first[1] == "0" || second[1] != "0" || second[2] != first[1] {
		t.Errorf("the first build made %s compressed copies, the second made %s and reused %s", first[1], second[1], second[2])
	}
	for _, step := range []string{"compiling the WASM module", "bundled and minified the page", "built "} {
		if !strings.Contains(logs[1].String(), "site: "+step) {
			t.Errorf("the build does not say %q:\n%s", step, &logs[1])
		}
	}
}
