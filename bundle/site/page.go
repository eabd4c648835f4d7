package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// versionPlaceholder stands for the site version in index.html until the
// version, a digest of every file including index.html itself, is known.
const versionPlaceholder = "storyloom-version-placeholder"

// assetMap is the page's view of the built site, injected into index.html.
type assetMap struct {
	Version string            `json:"version"`
	Offline bool              `json:"offline"`
	Assets  map[string]string `json:"assets"`
	Gzip    []string          `json:"gzip"`
}

// assetCode is the classic script that defines the global
// storyloomAssets, through which the page names and fetches every asset,
// so that the same page code runs served, offline and from file://. The
// served page loads it as AssetsName (no inline script under the site's
// Content-Security-Policy); the offline file carries it inline, allowed by
// its hash.
//
//	storyloomAssets.version       the site version
//	storyloomAssets.offline       true in storyloom-offline.html
//	storyloomAssets.url(name)     the URL to use for a source name
//	storyloomAssets.fetch(name)   fetch(url(name)), checked and decoded
const assetCode = `(function(){
var m=%s,has=Object.prototype.hasOwnProperty;
function norm(n){return String(n).replace(/^\.?\//,"")}
function key(n){n=norm(n);for(var i=0;i<3&&has.call(m.assets,n)&&m.assets[n]!==n&&has.call(m.assets,m.assets[n]);i++)n=m.assets[n];return n}
function url(n){var k=key(n);return has.call(m.assets,k)?m.assets[k]:k}
function get(n,init){var k=key(n);return fetch(url(n),init).then(function(r){
if(!r.ok)throw new Error("storyloom: fetching "+norm(n)+": HTTP "+r.status);
if(m.gzip.indexOf(k)<0)return r;
return new Response(r.body.pipeThrough(new DecompressionStream("gzip")),{headers:{"Content-Type":r.headers.get("Content-Type")||"application/octet-stream"}})})}
window.storyloomAssets=Object.freeze({version:m.version,offline:m.offline,url:url,fetch:get})})();`

// assetJS renders the asset script's code for a map.
func assetJS(m assetMap) (string, error) {
	if m.Gzip == nil {
		m.Gzip = []string{}
	}
	data, err := json.Marshal(m) // escapes <, > and &: safe inside <script>
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(assetCode, data), nil
}

// refAttr is the attribute of a tag that names an asset, if any.
func refAttr(t *htmlTag) string {
	switch t.name {
	case "script", "img", "source", "audio", "video":
		return "src"
	case "link":
		return "href"
	}
	return ""
}

// sitePage renders index.html for the served site: references to assets
// point at their hashed names, and AssetsName, the asset map, is emitted
// and loaded before </head>.
func (b *builder) sitePage() ([]byte, error) {
	assets := make(map[string]string, len(b.assets))
	for k, v := range b.assets {
		assets[k] = v
	}
	code, err := assetJS(assetMap{Version: versionPlaceholder, Assets: assets})
	if err != nil {
		return nil, err
	}
	if err := b.emit(AssetsName, []byte(code)); err != nil {
		return nil, err
	}
	return b.pointAtAssets(IndexName, b.index, `<script src="`+AssetsName+`"></script>`)
}

// pointAtAssets rewrites the asset references of the page name, whose
// source is src, to the hashed names relative to its directory, inserts
// head before </head> (unless it is ""), and minifies the page. A
// reference to a file the site does not have fails.
func (b *builder) pointAtAssets(name string, src []byte, head string) ([]byte, error) {
	dir := path.Dir(name)
	var missing []string
	page, err := rewriteHTML(src, head, func(t *htmlTag) (tagEdit, string) {
		attr := refAttr(t)
		if attr == "" {
			return keepTag, ""
		}
		if ref, ok := t.get(attr); ok {
			if s, ok := sourceName(dir, ref); ok {
				if url, ok := b.assets[s]; ok {
					t.set(attr, relRef(ref, url))
				} else {
					missing = append(missing, ref)
				}
			}
		}
		return keepTag, ""
	})
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("site: %s references %s, not in the page's sources", name, strings.Join(missing, ", "))
	}
	return b.minify(name, page)
}

// finish writes index.html and AssetsName, works out the version (which
// AssetsName carries), and generates the service worker and the precache
// manifest.
func (b *builder) finish() (*Result, error) {
	page, err := b.sitePage()
	if err != nil {
		return nil, err
	}
	if err := b.emit(IndexName, page); err != nil {
		return nil, err
	}
	urls := make([]string, 0, len(b.out))
	for url := range b.out {
		urls = append(urls, url)
	}
	sort.Strings(urls)
	h := sha256.New()
	for _, url := range urls {
		fmt.Fprintf(h, "%s %s\n", url, sum(b.out[url]))
	}
	version := hex.EncodeToString(h.Sum(nil))[:16]
	b.out[AssetsName] = bytes.ReplaceAll(b.out[AssetsName], []byte(versionPlaceholder), []byte(version))

	man := Manifest{Version: version}
	for _, url := range urls {
		man.Files = append(man.Files, File{URL: url, Source: b.sources[url], Size: len(b.out[url]), SHA256: sum(b.out[url])})
	}
	tmpl, err := fs.ReadFile(b.o.Web, SWName)
	if err != nil {
		return nil, fmt.Errorf("site: the page has no service worker template %s: %w", SWName, err)
	}
	swManifest := struct {
		Version string   `json:"version"`
		Files   []string `json:"files"`
	}{version, urls}
	inject, err := json.Marshal(swManifest)
	if err != nil {
		return nil, err
	}
	sw := append([]byte("self.STORYLOOM_MANIFEST="+string(inject)+";\n"), tmpl...)
	if sw, err = b.minify(SWName, sw); err != nil {
		return nil, err
	}
	if err := b.emit(SWName, sw); err != nil {
		return nil, err
	}
	manJSON, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := b.emit(ManifestName, append(manJSON, '\n')); err != nil {
		return nil, err
	}
	assets := make(map[string]string, len(b.assets))
	for k, v := range b.assets {
		assets[k] = v
	}
	return &Result{Out: b.o.Out, Manifest: man, Assets: assets}, nil
}

// dataURL renders data as a base64 data: URL of the given file name's type.
func dataURL(name string, data []byte) string {
	mt := strings.ReplaceAll(ContentType(name), " ", "")
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// scriptText makes code safe inside <script>…</script>.
func scriptText(code []byte) string {
	s := string(code)
	s = strings.ReplaceAll(s, "</script", `<\/script`)
	s = strings.ReplaceAll(s, "</SCRIPT", `<\/SCRIPT`)
	return strings.ReplaceAll(s, "<!--", `<\!--`)
}

// isStylesheet reports whether a <link> loads a style sheet.
func isStylesheet(t *htmlTag) bool {
	rel, _ := t.get("rel")
	for _, r := range strings.Fields(strings.ToLower(rel)) {
		if r == "stylesheet" {
			return true
		}
	}
	return false
}

// dropInOffline reports whether a <link> has no use in the offline file:
// the web app manifest, preloads and the like.
func dropInOffline(t *htmlTag) bool {
	rel, _ := t.get("rel")
	for _, r := range strings.Fields(strings.ToLower(rel)) {
		switch r {
		case "manifest", "preload", "modulepreload", "prefetch", "preconnect":
			return true
		}
	}
	return false
}

// gzipInline is the size above which a compressible asset is embedded in
// the offline file gzip-compressed (decoded in the page with
// DecompressionStream) rather than as it is.
const gzipInline = 16 << 10

// offline renders storyloom-offline.html: the page with every script and
// style sheet inline and every asset in the asset map as a data: URL.
func (b *builder) offline(version string) ([]byte, error) {
	m := assetMap{Version: version, Offline: true, Assets: map[string]string{}}
	for src, url := range b.assets {
		data := b.out[url]
		if src != url {
			m.Assets[src] = url
		}
		if compressible(url) && len(data) > gzipInline {
			gz, err := b.cache.get(data, "gz", 9)
			if err != nil {
				return nil, err
			}
			m.Assets[url] = dataURL(url, gz)
			m.Gzip = append(m.Gzip, url)
			continue
		}
		m.Assets[url] = dataURL(url, data)
	}
	sort.Strings(m.Gzip)
	code, err := assetJS(m)
	if err != nil {
		return nil, err
	}
	// Every inline script and style, for the page's policy.
	scripts, styles := []string{code}, []string(nil)
	known := func(s string) bool { _, ok := b.assets[s]; return ok }
	var failed error
	page, err := rewriteHTML(b.index, "<script>"+code+"</script>", func(t *htmlTag) (tagEdit, string) {
		attr := refAttr(t)
		if attr == "" {
			return keepTag, ""
		}
		ref, _ := t.get(attr)
		s, ok := sourceName(".", ref)
		if t.name == "link" && dropInOffline(t) {
			return replaceElement, ""
		}
		if !ok || !known(s) {
			return keepTag, ""
		}
		url := b.assets[s]
		switch {
		case t.name == "script":
			t.del("src")
			t.del("defer")
			t.del("async")
			code := b.out[url]
			if mod, ok := b.modules[s]; ok {
				code = mod
			}
			text := scriptText(code)
			scripts = append(scripts, text)
			return replaceElement, t.String() + text + "</script>"
		case t.name == "link" && isStylesheet(t):
			css := rewriteCSS(b.css[s], path.Dir(s), known, func(src, _ string) string {
				return dataURL(b.assets[src], b.out[b.assets[src]])
			})
			css, err := b.minify(s, css)
			if err != nil {
				failed = err
			}
			css = bytes.ReplaceAll(css, []byte("</style"), []byte(`<\/style`))
			styles = append(styles, string(css))
			return replaceElement, "<style>" + string(css) + "</style>"
		default:
			t.set(attr, dataURL(url, b.out[url]))
			return keepTag, ""
		}
	})
	if err != nil {
		return nil, err
	}
	if failed != nil {
		return nil, failed
	}
	return withPolicyMeta(page, offlinePolicy(scripts, styles))
}

// withPolicyMeta puts a Content-Security-Policy <meta> right after the
// page's <meta charset> (which must stay in the first 1024 bytes), before
// any script or style it governs.
func withPolicyMeta(page []byte, policy string) ([]byte, error) {
	at := bytes.Index(page, []byte("<meta charset"))
	if at < 0 {
		return nil, fmt.Errorf("site: %s has no <meta charset> to put its policy after", IndexName)
	}
	at += bytes.IndexByte(page[at:], '>') + 1
	meta := `<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(policy) + `">`
	return slices.Concat(page[:at], []byte(meta), page[at:]), nil
}
