package browsertest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
	"github.com/storyloom/storyloom/static/cardgame"
)

// ModuleRoot returns the directory of the Storyloom module's go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("browsertest: go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("browsertest: not inside the Storyloom module")
	}
	return filepath.Dir(mod), nil
}

// Build builds the site from the working tree (web/site, static/ and
// ./wasm/play) into dir, and the offline file too when offline is set. It
// compresses fast (brotli 5) unless STORYLOOM_FULL_COMPRESSION=1, which
// `make bench` sets so that transfer figures match a real deploy. Like
// `bundle build`, it keeps the compressed copies in the module's
// .cache/site, so that the many builds of a test run, whose WASM module
// is the same, compress it once.
func Build(ctx context.Context, dir string, offline bool) (*site.Result, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	return BuildStatic(ctx, dir, os.DirFS(filepath.Join(root, "static")), offline)
}

// BuildStatic is Build with another static tree (campaigns and icons), as
// a test serving its own campaigns needs.
func BuildStatic(ctx context.Context, dir string, static fs.FS, offline bool) (*site.Result, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	decks, err := os.ReadFile(filepath.Join(root, "static", "cardgame", "decks.json"))
	if err != nil {
		return nil, err
	}
	cardText, err := cardgame.Phrasebooks()
	if err != nil {
		return nil, err
	}
	return site.Build(ctx, site.Options{
		Decks:     decks,
		CardText:  cardText,
		Web:       os.DirFS(filepath.Join(root, "web", "site")),
		Static:    static,
		Out:       dir,
		ModuleDir: root,
		Cache:     filepath.Join(root, ".cache", "site"),
		Fast:      os.Getenv("STORYLOOM_FULL_COMPRESSION") != "1",
		Offline:   offline,
		Kinds:     []core.Kind{story.Kind{}, sim.Kind{}, world.Kind{}},
	})
}

// Site is a built site served on a random 127.0.0.1 port by the handler of
// `bundle serve`.
type Site struct {
	// Dir is the built site.
	Dir string
	// Result is what the build reported.
	Result *site.Result
	// Server serves Dir.
	Server *httptest.Server

	down    atomic.Bool
	handler atomic.Pointer[http.Handler]
	ownDir  bool
}

// NewSite builds the site with the offline file into a new temporary
// directory and serves it. Close removes both.
func NewSite(ctx context.Context) (*Site, error) {
	dir, err := os.MkdirTemp("", "storyloom-site-")
	if err != nil {
		return nil, err
	}
	res, err := Build(ctx, dir, true)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := ServeDir(dir, res)
	s.ownDir = true
	return s, nil
}

// ServeDir serves an already built site.
func ServeDir(dir string, res *site.Result, mounts ...site.Mount) *Site {
	s := &Site{Dir: dir, Result: res}
	s.Swap(dir, mounts...)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.down.Load() {
			panic(http.ErrAbortHandler) // drop the connection: a network error
		}
		(*s.handler.Load()).ServeHTTP(w, r)
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("browsertest: listen: %v", err))
	}
	s.Server.Listener = ln
	s.Server.Start()
	return s
}

// Swap serves another built site from now on, on the same origin: what a
// host does when it deploys a new build. Dir and Result keep the first.
func (s *Site) Swap(dir string, mounts ...site.Mount) {
	h := site.Handler(os.DirFS(dir), mounts...)
	s.handler.Store(&h)
}

// URL returns the site's root URL, ending in a slash.
func (s *Site) URL() string { return s.Server.URL + "/" }

// OfflineFileURL returns the file:// URL of storyloom-offline.html.
func (s *Site) OfflineFileURL() string {
	return "file://" + filepath.ToSlash(filepath.Join(s.Dir, site.OfflineName))
}

// SetDown makes the server drop every connection (down) or serve again.
func (s *Site) SetDown(down bool) { s.down.Store(down) }

// Close stops the server and removes a directory NewSite made.
func (s *Site) Close() {
	s.Server.Close()
	if s.ownDir {
		os.RemoveAll(s.Dir)
	}
}

// DropProvenance rewrites the built site in dir as another tool's build
// might have written it: the built document of campaignID carries no
// table of the strings its campaign authored, and it and the campaign
// index are digested again, so the document verifies against its entry
// and only its missing provenance is wrong (the document keeps its file
// name). Hosts must leave the campaign out with content_provenance_missing.
func DropProvenance(dir, campaignID string) error {
	idxPath := filepath.Join(dir, filepath.FromSlash(site.CampaignsIdx))
	var idx map[string]any
	if err := readJSON(idxPath, &idx); err != nil {
		return err
	}
	campaigns, _ := idx["campaigns"].([]any)
	var entries []content.ManifestEntry
	for _, c := range campaigns {
		e, _ := c.(map[string]any)
		id, _ := e["campaignId"].(string)
		if id == campaignID {
			built, _ := e["built"].(string)
			path := filepath.Join(dir, filepath.FromSlash(built))
			var d content.StoredEpoch
			if err := readJSON(path, &d); err != nil {
				return err
			}
			d.Form.Strings = nil
			digest, err := content.EpochDigest(d.Form)
			if err != nil {
				return err
			}
			d.Digest, e["digest"] = digest, digest
			data, err := json.Marshal(d)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			e["sha256"] = hex.EncodeToString(sum[:])
			if err := rewrite(path, data); err != nil {
				return err
			}
		}
		version, _ := e["version"].(string)
		digest, _ := e["digest"].(string)
		entries = append(entries, content.ManifestEntry{ID: id, Version: version, Digest: digest})
	}
	manifest, err := content.ManifestDigest(entries)
	if err != nil {
		return err
	}
	idx["manifestDigest"] = manifest
	return writeJSON(idxPath, idx)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return rewrite(path, data)
}

// rewrite replaces a built site's file with data and removes its
// precompressed copies, which would still hold the old content.
func rewrite(path string, data []byte) error {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	for _, ext := range []string{".br", ".gz"} {
		if err := os.Remove(path + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
