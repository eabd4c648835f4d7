package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tdewolff/minify/v2"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// Options configure [Build].
type Options struct {
	// Web is the page's source tree: index.html, sw.js (the service worker
	// template), manifest.webmanifest, CSS, ES modules and images, at its
	// root. Usually fs.Sub(web.FS, "site").
	Web fs.FS
	// Static is the static tree with campaigns/, icons/ and, optionally,
	// packs/ (each pack a directory with pack.json and its campaigns under
	// campaigns/) at its root. Usually static.FS. Nil means no campaigns
	// and no icons.
	Static fs.FS
	// Out is the output directory. It is created, or emptied first when it
	// holds a previous build; a non-empty directory that does not is refused.
	Out string
	// ModuleDir is the directory of the Go module that holds Package; empty
	// means the current directory.
	ModuleDir string
	// Package is the main package compiled to WASM; empty means ./wasm/play.
	Package string
	// GoTool is the go command; empty means "go" on PATH.
	GoTool string
	// Fast trades compression for speed (brotli 5, gzip 6 rather than 11 and
	// 9), for development loops and tests.
	Fast bool
	// Offline also writes the self-contained storyloom-offline.html.
	Offline bool
	// Cache is a directory that keeps compressed copies between builds, by
	// content hash, so that a build with nothing changed does not compress
	// again; entries no build used for a week are removed. Empty keeps none.
	Cache string
	// Log receives progress lines, one per step with how long it took; nil
	// discards them.
	Log io.Writer
	// Decks is the card game's preconstructed decks (static/cardgame's
	// decks.json), written as rooms/decks.json for the rooms page's deck
	// picker; nil writes none.
	Decks []byte
	// CardText is the card game's rules text in other languages, by
	// language ("fr"): static/cardgame's Phrasebooks, each written as
	// rooms/cardtext.<lang>.json for the rooms page's table.
	CardText map[string][]byte
	// Kinds compile the campaigns on the author's side: each is published
	// as its built document only (campaigns/<id>/built.<hash>.json, a
	// content.StoredEpoch), never as source, named in campaigns/index.json
	// with its digest under the index's manifestDigest. It is needed when
	// Static holds campaigns or packs.
	Kinds []core.Kind
}

// File is one file of a built site, as the precache manifest lists it.
type File struct {
	// URL is the file's path relative to the site root, such as
	// play.0123456789ab.wasm.
	URL string `json:"url"`
	// Source is the name the page's sources use for it, when different.
	Source string `json:"source,omitempty"`
	// Size is the size in bytes, uncompressed.
	Size int `json:"size"`
	// SHA256 is the hex SHA-256 of the content.
	SHA256 string `json:"sha256"`
}

// Manifest is the precache manifest, written to precache.json and injected
// into the service worker.
type Manifest struct {
	// Version is a digest of every file's hash: it changes whenever any
	// file of the site changes.
	Version string `json:"version"`
	// Files is every file the service worker precaches, sorted by URL.
	Files []File `json:"files"`
}

// Result describes a finished build.
type Result struct {
	// Out is the output directory.
	Out string
	// Manifest is the precache manifest.
	Manifest Manifest
	// Assets maps each source name to its URL in the built site.
	Assets map[string]string
	// OfflinePath is the path of storyloom-offline.html, when written.
	OfflinePath string
	// OfflineSize is its size in bytes.
	OfflineSize int
}

// Fixed names: these keep their names in the built site because browsers
// or the page look them up by name. Everything else is named by content hash.
const (
	IndexName    = "index.html"
	SWName       = "sw.js"
	ManifestName = "precache.json"
	WebManifest  = "manifest.webmanifest"
	CampaignsIdx = "campaigns/index.json"
	OfflineName  = "storyloom-offline.html"
	WasmSource   = "play.wasm"
	WasmExecName = "wasm_exec.js"
	// AssetsName is the served page's asset map (docs/site-build.md).
	AssetsName = "storyloom-assets.js"
)

// builder holds one build's state.
type builder struct {
	o       Options
	min     *minify.M
	out     map[string][]byte // site URL → content
	sources map[string]string // site URL → source name, when different
	assets  map[string]string // source name → site URL
	css     map[string][]byte // CSS source name → source, for the offline pack
	modules map[string][]byte // module entry source name → minified bundle
	index   []byte            // index.html as written in the sources
	cache   *compressCache
	// manifestDigest names the built campaign documents (publish).
	manifestDigest string
	// packSet is the resolved packs with the campaigns each provides, and
	// resolution the set's digest (publish).
	packSet    []content.PublishedPack
	resolution string
}

// Build builds the site into o.Out: it compiles the WASM module, bundles and
// minifies the page, names assets by content hash, writes the campaigns
// index, the precache manifest, the service worker and the .gz and .br
// variants, and, with o.Offline, the offline file.
func Build(ctx context.Context, o Options) (*Result, error) {
	if o.Web == nil {
		return nil, errors.New("site: Options.Web is nil")
	}
	if o.Out == "" {
		return nil, errors.New("site: Options.Out is empty")
	}
	if o.Package == "" {
		o.Package = "./wasm/play"
	}
	if o.GoTool == "" {
		o.GoTool = "go"
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	b := &builder{
		o:       o,
		min:     newMinifier(),
		out:     map[string][]byte{},
		sources: map[string]string{},
		assets:  map[string]string{},
		css:     map[string][]byte{},
		modules: map[string][]byte{},
		cache:   &compressCache{dir: o.Cache},
	}
	start := time.Now()
	if err := prepareOut(o.Out); err != nil {
		return nil, err
	}
	if err := b.wasm(ctx); err != nil {
		return nil, err
	}
	step := time.Now()
	if b.o.Decks != nil {
		if err := b.emit("rooms/decks.json", b.o.Decks); err != nil {
			return nil, err
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(b.o.CardText)) {
		if err := b.emit("rooms/cardtext."+lang+".json", b.o.CardText[lang]); err != nil {
			return nil, err
		}
	}
	if err := b.static(); err != nil {
		return nil, err
	}
	if err := b.web(); err != nil {
		return nil, err
	}
	res, err := b.finish()
	if err != nil {
		return nil, err
	}
	if err := writeTree(o.Out, b.out); err != nil {
		return nil, err
	}
	b.logf(step, "bundled and minified the page and the campaigns")
	step = time.Now()
	if err := compressTree(o.Out, b.out, o.Fast, b.cache); err != nil {
		return nil, err
	}
	b.logf(step, "compressed copies (.br, .gz): %d made, %d reused from %s", b.cache.misses.Swap(0), b.cache.hits.Swap(0), cacheName(o.Cache))
	if err := os.WriteFile(filepath.Join(o.Out, HeadersName), headersFile(), 0o644); err != nil {
		return nil, err
	}
	if o.Offline {
		step = time.Now()
		page, err := b.offline(res.Manifest.Version)
		if err != nil {
			return nil, err
		}
		res.OfflinePath = filepath.Join(o.Out, OfflineName)
		res.OfflineSize = len(page)
		if err := os.WriteFile(res.OfflinePath, page, 0o644); err != nil {
			return nil, err
		}
		b.logf(step, "wrote the offline file %s (%.1f MB)", OfflineName, float64(len(page))/1e6)
	}
	if err := b.cache.prune(); err != nil {
		return nil, err
	}
	b.logf(start, "built %d files into %s (version %s)", len(res.Manifest.Files), o.Out, res.Manifest.Version)
	return res, nil
}

// logf writes one progress line with the time since start.
func (b *builder) logf(start time.Time, format string, args ...any) {
	fmt.Fprintf(b.o.Log, "site: "+format+" (%.1f s)\n", append(args, time.Since(start).Seconds())...)
}

// cacheName says where compressed copies are kept, for the log.
func cacheName(dir string) string {
	if dir == "" {
		return "no cache"
	}
	return dir
}

// prepareOut creates dir, or empties it when it holds a previous build.
func prepareOut(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err != nil {
		return fmt.Errorf("site: refusing to empty %s: it is not empty and holds no previous build (%s)", dir, ManifestName)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// sum returns the hex SHA-256 of data.
func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// emitHashed adds a file under its content-hashed name and records the
// source name's mapping to it.
func (b *builder) emitHashed(source string, data []byte) (string, error) {
	url := withHash(source, sum(data))
	if err := b.emit(url, data); err != nil {
		return "", err
	}
	b.sources[url] = source
	b.assets[source] = url
	return url, nil
}

// emit adds a file under a fixed name.
func (b *builder) emit(url string, data []byte) error {
	if _, dup := b.out[url]; dup {
		return fmt.Errorf("site: two sources make %s", url)
	}
	b.out[url] = data
	return nil
}

// emitMinified minifies data by name's extension and adds it under its
// content-hashed name (emitHashed).
func (b *builder) emitMinified(name string, data []byte) (string, error) {
	data, err := b.minify(name, data)
	if err != nil {
		return "", err
	}
	return b.emitHashed(name, data)
}

// copyFile adds fsys's file name, minified and under its content-hashed
// name.
func (b *builder) copyFile(fsys fs.FS, name string) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	_, err = b.emitMinified(name, data)
	return err
}

// minify minifies data by its file name's extension.
func (b *builder) minify(name string, data []byte) ([]byte, error) {
	mt := minifyType(strings.ToLower(path.Ext(name)))
	if mt == "" {
		return data, nil
	}
	out, err := b.min.Bytes(mt, data)
	if err != nil {
		return nil, fmt.Errorf("site: minifying %s: %w", name, err)
	}
	return out, nil
}

// goEnv returns `go env name`.
func (b *builder) goEnv(ctx context.Context, name string) (string, error) {
	cmd := exec.CommandContext(ctx, b.o.GoTool, "env", name)
	cmd.Dir = b.o.ModuleDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("site: go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// wasmBuildFlags compile the module for size. -s -w drop the symbol table
// and DWARF. -l turns inlining off in every package, the runtime included:
// on js/wasm an inlined call copies the callee's code and adds position and
// inlining tables for it, and without inlining the module goes from 1.63 to
// 1.48 MB gzip (6.06 to 6.10 MB raw: the code is no smaller, but its tables
// are, and it compresses better). Go code runs slower (building the five
// shipped campaigns takes about 1.7 times as long in Node, some 15 ms more),
// which the page does not see: the Go work per choice is well under a
// millisecond, and a cold load to the first scene took a median 792 ms
// inlined and 643 ms not (docs/site-build.md, "What the module is made of").
var wasmBuildFlags = []string{"-trimpath", "-ldflags=-s -w", "-gcflags=all=-l"}

// wasm compiles the module and copies wasm_exec.js from the Go installation.
func (b *builder) wasm(ctx context.Context) error {
	tmp, err := os.MkdirTemp("", "storyloom-wasm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasmPath := filepath.Join(tmp, WasmSource)
	args := append(append([]string{"build"}, wasmBuildFlags...), "-o", wasmPath, b.o.Package)
	fmt.Fprintf(b.o.Log, "site: compiling the WASM module: GOOS=js GOARCH=wasm go %s (the Go build cache makes an unchanged module quick)\n", strings.Join(args, " "))
	start := time.Now()
	cmd := exec.CommandContext(ctx, b.o.GoTool, args...)
	cmd.Dir = b.o.ModuleDir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("site: compiling %s to WASM: %w\n%s", b.o.Package, err, stderr.Bytes())
	}
	module, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	b.logf(start, "compiled the WASM module (%.1f MB)", float64(len(module))/1e6)
	if _, err := b.emitHashed(WasmSource, module); err != nil {
		return err
	}
	goroot, err := b.goEnv(ctx, "GOROOT")
	if err != nil {
		return err
	}
	var execJS []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if execJS, err = os.ReadFile(filepath.Join(goroot, filepath.FromSlash(p))); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("site: wasm_exec.js not found under %s: %w", goroot, err)
	}
	_, err = b.emitMinified(WasmExecName, execJS)
	return err
}

// skipName reports whether a file or directory is left out of the site:
// dotfiles such as .keep, and editor leftovers.
func skipName(name string) bool {
	base := path.Base(name)
	return strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~")
}

// walkFiles lists the regular files under root in fsys, sorted, without
// skipped names. A missing root gives no files.
func walkFiles(fsys fs.FS, root string) ([]string, error) {
	var names []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if p != root && skipName(p) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	return names, err
}

// static adds the icons and the campaigns with their index.
func (b *builder) static() error {
	if b.o.Static == nil {
		return b.campaignIndex(nil)
	}
	icons, err := walkFiles(b.o.Static, "icons")
	if err != nil {
		return err
	}
	for _, name := range icons {
		if err := b.copyFile(b.o.Static, name); err != nil {
			return err
		}
	}
	return b.campaigns()
}

// PublishCampaigns writes into out only what a native host reads of a
// built site (ReadBuilt): the campaigns of o.Static published as [Build]
// publishes them (their built documents, their other files and
// campaigns/index.json), without the page, the module or compressed
// copies. out must not exist or be empty. Only o.Static, o.Kinds and
// o.Log are used.
func PublishCampaigns(o Options, out string) error {
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("site: %s is not empty", out)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	b := &builder{o: o, min: newMinifier(), out: map[string][]byte{}, sources: map[string]string{}, assets: map[string]string{}}
	if err := b.campaigns(); err != nil {
		return err
	}
	return writeTree(out, b.out)
}

// campaigns publishes the static tree's campaigns and packs as built
// documents and writes campaigns/index.json.
func (b *builder) campaigns() error {
	if b.o.Static == nil {
		return b.campaignIndex(nil)
	}
	list, err := b.campaignDirs("campaigns")
	if err != nil {
		return err
	}
	packs, err := b.packs()
	if err != nil {
		return err
	}
	if len(list) == 0 && len(packs) == 0 {
		return b.campaignIndex(nil)
	}
	if b.o.Kinds == nil {
		return errors.New("site: Options.Kinds is needed to publish the campaigns as built documents")
	}
	for _, p := range packs {
		list = append(list, p.list...)
	}
	if list, err = b.publish(list, packs); err != nil {
		return err
	}
	return b.campaignIndex(list)
}

// campaignDirs reads each campaign directory under root (a directory
// holding campaign.json) and returns their index entries, in name order.
func (b *builder) campaignDirs(root string) ([]campaignEntry, error) {
	entries, err := fs.ReadDir(b.o.Static, root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var list []campaignEntry
	for _, e := range entries {
		if !e.IsDir() || skipName(e.Name()) {
			continue
		}
		c, err := b.campaign(root, e.Name())
		if err != nil {
			return nil, err
		}
		list = append(list, c)
	}
	return list, nil
}

// sitePack is one pack of the static tree's packs/: its files and the
// index entries of its campaigns.
type sitePack struct {
	pack content.Pack
	list []campaignEntry
}

// packs reads every pack under packs/ (a directory holding pack.json, its
// campaigns under campaigns/), in name order.
func (b *builder) packs() ([]sitePack, error) {
	entries, err := fs.ReadDir(b.o.Static, "packs")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []sitePack
	for _, e := range entries {
		if !e.IsDir() || skipName(e.Name()) {
			continue
		}
		dir := "packs/" + e.Name()
		manifest, err := fs.ReadFile(b.o.Static, dir+"/pack.json")
		if err != nil {
			return nil, fmt.Errorf("site: pack %q: %w", e.Name(), err)
		}
		list, err := b.campaignDirs(dir + "/campaigns")
		if err != nil {
			return nil, err
		}
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(manifest, &head) != nil || head.ID == "" {
			head.ID = e.Name() // the build reports the manifest
		}
		p := sitePack{pack: content.Pack{Path: dir + "/pack.json", Manifest: manifest}, list: list}
		for i := range list {
			list[i].Pack = head.ID
			p.pack.Campaigns = append(p.pack.Campaigns, list[i].src)
		}
		out = append(out, p)
	}
	return out, nil
}

// publish compiles, on the author's side, the loose campaigns of list
// together (so includes compose) and the packs as one resolved set, and
// returns the entries of list that are published, each with its built
// document and manifest entry (a pack's campaign that a later pack
// overrides is not); the packs are
// published with the campaigns each provides under the set's resolution.
// Only built documents are published: no campaign source. When the
// campaigns do not build the site build fails, naming each error's file:
// `go run ./bundle validate` tells the author more.
func (b *builder) publish(list []campaignEntry, packs []sitePack) ([]campaignEntry, error) {
	start := time.Now()
	fail := func(res core.ValidationResult) error {
		var msg strings.Builder
		for _, e := range res.Errors {
			file, _ := e.Details["file"].(string)
			fmt.Fprintf(&msg, "\n  %s: %s", file, e.Error())
		}
		return fmt.Errorf("site: the campaigns do not build, so none can be published (go run ./bundle validate reports on them):%s", msg.String())
	}
	var docs []content.StoredEpoch
	addBuilt := func(reg *core.Registry) error {
		built, err := content.Built(b.o.Kinds, reg)
		docs = append(docs, built...)
		return err
	}
	var sources []content.Source
	for _, c := range list {
		if c.Pack == "" {
			sources = append(sources, c.src)
		}
	}
	if len(sources) > 0 {
		reg, res := content.Build(b.o.Kinds, sources...)
		if reg == nil {
			return nil, fail(res)
		}
		if err := addBuilt(reg); err != nil {
			return nil, err
		}
	}
	if len(packs) > 0 {
		set := make([]content.Pack, len(packs))
		for i, p := range packs {
			set[i] = p.pack
		}
		reg, published, res := content.ResolvePacks(b.o.Kinds, set...)
		if reg == nil {
			return nil, fail(res)
		}
		if err := addBuilt(reg); err != nil {
			return nil, err
		}
		b.packSet, b.resolution = published, reg.Resolution
	}
	byID := map[string]content.StoredEpoch{}
	for _, d := range docs {
		if _, dup := byID[d.Form.Campaign.ID]; dup {
			return nil, fmt.Errorf("site: campaign %q is published twice (loose and in a pack, or in two places)", d.Form.Campaign.ID)
		}
		byID[d.Form.Campaign.ID] = d
	}
	provider := map[string]string{}
	for _, p := range b.packSet {
		for _, c := range p.Campaigns {
			provider[c.ID] = p.ID
		}
	}
	var out []campaignEntry
	var entries []content.ManifestEntry
	for _, c := range list {
		d, ok := byID[c.CampaignID]
		if !ok || c.Pack != "" && provider[c.CampaignID] != c.Pack {
			continue // a pack's campaign that a later pack overrides
		}
		data, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		if c.Built, err = b.emitHashed(c.root+"/built.json", data); err != nil {
			return nil, err
		}
		c.SHA256, c.Version, c.Digest = sum(data), d.Form.Campaign.Version, d.Digest
		out = append(out, c)
		entries = append(entries, content.ManifestEntry{ID: c.CampaignID, Version: c.Version, Digest: c.Digest})
	}
	var err error
	if b.manifestDigest, err = content.ManifestDigest(entries); err != nil {
		return nil, err
	}
	b.logf(start, "published %d built campaign documents (manifest %s)", len(entries), b.manifestDigest)
	return out, nil
}

// campaignEntry is one campaign in campaigns/index.json: its built
// document, never its source.
type campaignEntry struct {
	// ID is the campaign's directory name.
	ID string `json:"id"`
	// Title is the campaign's top-level "title", when it is a string.
	Title string `json:"title,omitempty"`
	// Built is the content-hashed built document; SHA256 is its hash as
	// served; Version and Digest are its manifest entry.
	Built   string `json:"built"`
	SHA256  string `json:"sha256"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
	// CampaignID is the id campaign.json declares: the id of its manifest
	// entry, which the directory name need not be.
	CampaignID string `json:"campaignId"`
	// Pack is the id of the pack that provides the campaign, for a
	// campaign of a pack.
	Pack string `json:"pack,omitempty"`
	// Files maps every other file, by its path inside the campaign, to
	// its content-hashed URL (images and the like).
	Files map[string]string `json:"files,omitempty"`

	// root is the campaign's directory in the static tree; src is its
	// source, compiled here and not published.
	root string
	src  content.Source
}

// campaign reads one campaign's source and adds its other files, and
// returns its index entry.
func (b *builder) campaign(parent, id string) (campaignEntry, error) {
	root := parent + "/" + id
	names, err := walkFiles(b.o.Static, root)
	if err != nil {
		return campaignEntry{}, err
	}
	c := campaignEntry{ID: id, root: root}
	for _, name := range names {
		data, err := fs.ReadFile(b.o.Static, name)
		if err != nil {
			return c, err
		}
		rel := strings.TrimPrefix(name, root+"/")
		switch {
		case rel == "campaign.json":
			c.src.Path, c.src.Campaign = name, data
			var head struct {
				ID    string `json:"id"`
				Title any    `json:"title"`
			}
			if json.Unmarshal(data, &head) == nil {
				c.CampaignID = head.ID
				if s, ok := head.Title.(string); ok {
					c.Title = s
				}
			}
		case strings.HasPrefix(rel, "strings/") && path.Ext(rel) == ".json" && !strings.Contains(strings.TrimPrefix(rel, "strings/"), "/"):
			if c.src.Translations == nil {
				c.src.Translations = map[string][]byte{}
			}
			c.src.Translations[strings.TrimSuffix(path.Base(rel), ".json")] = data
		default:
			url, err := b.emitMinified(name, data)
			if err != nil {
				return c, err
			}
			if c.Files == nil {
				c.Files = map[string]string{}
			}
			c.Files[rel] = url
		}
	}
	if c.src.Campaign == nil {
		return c, fmt.Errorf("site: campaign %q has no campaign.json", root)
	}
	return c, nil
}

// campaignIndex writes campaigns/index.json.
func (b *builder) campaignIndex(list []campaignEntry) error {
	if list == nil {
		list = []campaignEntry{}
	}
	data, err := json.Marshal(struct {
		Campaigns      []campaignEntry         `json:"campaigns"`
		ManifestDigest string                  `json:"manifestDigest,omitempty"`
		Packs          []content.PublishedPack `json:"packs,omitempty"`
		Resolution     string                  `json:"resolution,omitempty"`
	}{list, b.manifestDigest, b.packSet, b.resolution})
	if err != nil {
		return err
	}
	b.assets[CampaignsIdx] = CampaignsIdx
	return b.emit(CampaignsIdx, data)
}

// cssURL matches url(...) in a style sheet.
var cssURL = regexp.MustCompile(`url\(\s*(['"]?)([^'")]+)(['"]?)\s*\)`)

// rewriteCSS replaces each url() that names a known asset, relative to the
// style sheet's directory, with what to(source name, reference) returns.
func rewriteCSS(css []byte, dir string, known func(string) bool, to func(source, ref string) string) []byte {
	return cssURL.ReplaceAllFunc(css, func(m []byte) []byte {
		sub := cssURL.FindSubmatch(m)
		ref := string(sub[2])
		src, ok := sourceName(dir, ref)
		if !ok || !known(src) {
			return m
		}
		return []byte(`url("` + to(src, ref) + `")`)
	})
}

// sourceName resolves a reference found in a file of directory dir to a
// source name at the site root, or reports that it is not local (an
// absolute URL, a data: URL, a fragment).
func sourceName(dir, ref string) (string, bool) {
	if ref == "" || strings.HasPrefix(ref, "#") || strings.Contains(ref, ":") || strings.HasPrefix(ref, "//") {
		return "", false
	}
	ref, _, _ = strings.Cut(ref, "#")
	ref, _, _ = strings.Cut(ref, "?")
	var p string
	if strings.HasPrefix(ref, "/") {
		p = path.Clean(strings.TrimPrefix(ref, "/"))
	} else {
		p = path.Join(dir, ref)
	}
	if p == "." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// relRef rewrites a reference to point at the hashed file: the hashed file
// sits in the same directory as its source, so only the base name changes.
func relRef(ref, url string) string {
	ref, _, _ = strings.Cut(ref, "#")
	ref, _, _ = strings.Cut(ref, "?")
	i := strings.LastIndex(ref, "/")
	return ref[:i+1] + path.Base(url)
}

// web adds the page's files: images and other assets, style sheets, the
// bundled ES module entries, the web app manifest and index.html.
func (b *builder) web() error {
	names, err := walkFiles(b.o.Web, ".")
	if err != nil {
		return err
	}
	var cssNames, jsNames, pages []string
	for _, name := range names {
		switch ext := strings.ToLower(path.Ext(name)); {
		case name == IndexName || name == SWName || name == WebManifest:
		case path.Base(name) == IndexName:
			pages = append(pages, name) // a nested page, such as rooms/index.html
		case ext == ".css":
			cssNames = append(cssNames, name)
		case ext == ".js" || ext == ".mjs":
			jsNames = append(jsNames, name)
		default:
			if err := b.copyFile(b.o.Web, name); err != nil {
				return err
			}
		}
	}
	known := func(s string) bool { _, ok := b.assets[s]; return ok }
	for _, name := range cssNames {
		src, err := fs.ReadFile(b.o.Web, name)
		if err != nil {
			return err
		}
		b.css[name] = src
		css := rewriteCSS(src, path.Dir(name), known, func(s, ref string) string { return relRef(ref, b.assets[s]) })
		if _, err := b.emitMinified(name, css); err != nil {
			return err
		}
	}
	index, err := fs.ReadFile(b.o.Web, IndexName)
	if err != nil {
		return fmt.Errorf("site: the page has no %s: %w", IndexName, err)
	}
	// Bundle every module entry that index.html and the nested pages load.
	var entries []string
	for _, page := range append([]string{IndexName}, pages...) {
		src := index
		if page != IndexName {
			if src, err = fs.ReadFile(b.o.Web, page); err != nil {
				return err
			}
		}
		if _, err := rewriteHTML(src, "", func(t *htmlTag) (tagEdit, string) {
			if t.name == "script" {
				typ, _ := t.get("type")
				ref, hasSrc := t.get("src")
				if s, ok := sourceName(path.Dir(page), ref); hasSrc && ok && strings.EqualFold(typ, "module") {
					entries = append(entries, s)
				}
			}
			return keepTag, ""
		}); err != nil {
			return err
		}
	}
	inBundle := map[string]bool{}
	for _, entry := range entries {
		if _, done := b.modules[entry]; done {
			continue
		}
		code, inputs, err := bundleModule(b.o.Web, entry)
		if err != nil {
			return err
		}
		for _, in := range inputs {
			inBundle[in] = true
		}
		if code, err = b.minify(entry, code); err != nil {
			return err
		}
		b.modules[entry] = code
		if _, err := b.emitHashed(entry, code); err != nil {
			return err
		}
	}
	// Scripts that no bundle took in are copied as they are (classic
	// scripts, workers).
	for _, name := range jsNames {
		if inBundle[name] || b.modules[name] != nil {
			continue
		}
		if err := b.copyFile(b.o.Web, name); err != nil {
			return err
		}
	}
	if err := b.webManifest(); err != nil {
		return err
	}
	for _, page := range pages {
		if err := b.nestedPage(page); err != nil {
			return err
		}
	}
	b.index = index
	return nil
}

// nestedPage writes a page below the root, such as rooms/index.html, under
// its own name (so that /rooms/ serves it), its references rewritten to the
// hashed names relative to its directory. It gets no asset map: only the
// root page runs from the offline file.
func (b *builder) nestedPage(name string) error {
	src, err := fs.ReadFile(b.o.Web, name)
	if err != nil {
		return err
	}
	page, err := b.pointAtAssets(name, src, "")
	if err != nil {
		return err
	}
	b.assets[name] = name
	return b.emit(name, page)
}

// webManifest rewrites the icon references of manifest.webmanifest.
func (b *builder) webManifest() error {
	data, err := fs.ReadFile(b.o.Web, WebManifest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("site: %s: %w", WebManifest, err)
	}
	for _, key := range []string{"icons", "screenshots"} {
		list, _ := m[key].([]any)
		for _, it := range list {
			obj, _ := it.(map[string]any)
			if src, ok := obj["src"].(string); ok {
				if s, ok := sourceName(".", src); ok {
					if url, ok := b.assets[s]; ok {
						obj["src"] = relRef(src, url)
					}
				}
			}
		}
	}
	if data, err = json.Marshal(m); err != nil {
		return err
	}
	if data, err = b.minify(WebManifest, data); err != nil {
		return err
	}
	b.assets[WebManifest] = WebManifest
	return b.emit(WebManifest, data)
}
