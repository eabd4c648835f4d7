package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// Mount is a handler served beside the site, such as the room server or
// the Freeport trading endpoint.
type Mount struct {
	// Pattern is an http.ServeMux pattern, such as "/rooms/" or
	// "POST /freeport/{market}". Every pattern is more specific than the
	// site's "/", so a mount always wins over a file of the same path.
	Pattern string
	// Handler serves the requests that Pattern matches.
	Handler http.Handler
}

// Cache-Control values the site is served with.
const (
	// CacheImmutable is for content-hashed files: their content never
	// changes under their name.
	CacheImmutable = "public, max-age=31536000, immutable"
	// CacheRevalidate is for files with fixed names (index.html, sw.js,
	// the manifests): the browser must ask every time, and gets 304 when
	// nothing changed.
	CacheRevalidate = "no-cache"
)

// Handler returns the HTTP handler that serves a built site from fsys (for
// example os.DirFS("dist")), with the mounts beside it on one mux.
//
// It serves GET and HEAD only, with the Content-Type of each file's
// extension (application/wasm, text/javascript, application/manifest+json),
// the precompressed .br or .gz variant when the request's Accept-Encoding
// allows it (with Vary: Accept-Encoding), an immutable year-long
// Cache-Control for content-hashed files and no-cache with an ETag for the
// rest. "/" serves index.html, and a path ending in a slash the index.html
// of that directory. A path that is not valid UTF-8 or holds a control
// character is 400, one with a segment over MaxSegment bytes 404. Every
// response, the mounts' included, carries SecurityHeaders.
func Handler(fsys fs.FS, mounts ...Mount) http.Handler {
	mux := http.NewServeMux()
	for _, m := range mounts {
		mux.Handle(m.Pattern, m.Handler)
	}
	mux.Handle("/", &fileServer{fsys: fsys})
	return withSecurityHeaders(mux)
}

// fileServer serves a built site.
type fileServer struct {
	fsys fs.FS
}

// encodings are the precompressed variants, in order of preference.
var encodings = []struct{ name, ext string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

func (s *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = IndexName
	} else if strings.HasSuffix(r.URL.Path, "/") {
		name += "/" + IndexName // a nested page: /rooms/ is rooms/index.html
	}
	if code := checkName(name); code != 0 {
		http.Error(w, http.StatusText(code), code)
		return
	}
	data, modTime, err := readFile(s.fsys, name)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			http.NotFound(w, r)
		case errors.Is(err, fs.ErrInvalid):
			http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		default:
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
		return
	}
	h := w.Header()
	h.Set("Content-Type", ContentType(name))
	etag := ""
	if IsHashed(name) {
		h.Set("Cache-Control", CacheImmutable)
		etag = strings.TrimSuffix(path.Ext(strings.TrimSuffix(name, path.Ext(name))), ".")
	} else {
		h.Set("Cache-Control", CacheRevalidate)
		sum := sha256.Sum256(data)
		etag = hex.EncodeToString(sum[:8])
	}
	if compressible(name) {
		h.Add("Vary", "Accept-Encoding")
		accept := acceptedEncodings(r.Header.Get("Accept-Encoding"))
		for _, enc := range encodings {
			if !accept[enc.name] {
				continue
			}
			if variant, _, err := readFile(s.fsys, name+enc.ext); err == nil {
				data = variant
				h.Set("Content-Encoding", enc.name)
				etag += "-" + enc.name
				break
			}
		}
	}
	h.Set("ETag", `"`+etag+`"`)
	if name == SWName {
		// The worker controls the whole site from the root.
		h.Set("Service-Worker-Allowed", "/")
	}
	http.ServeContent(w, r, name, modTime, bytes.NewReader(data))
}

// readFile reads a regular file of fsys with its modification time.
func readFile(fsys fs.FS, name string) ([]byte, time.Time, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !st.Mode().IsRegular() {
		return nil, time.Time{}, fs.ErrNotExist
	}
	data, err := io.ReadAll(f)
	return data, st.ModTime(), err
}

// acceptedEncodings parses an Accept-Encoding header into the codings it
// accepts (q > 0). "*" accepts br and gzip unless they are listed with q=0.
func acceptedEncodings(header string) map[string]bool {
	ok := map[string]bool{}
	star, starSet := false, false
	explicit := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(p), "=")
			if found && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if coding == "*" {
			star, starSet = q > 0, true
			continue
		}
		explicit[coding] = true
		ok[coding] = q > 0
	}
	if starSet {
		for _, enc := range encodings {
			if !explicit[enc.name] {
				ok[enc.name] = star
			}
		}
	}
	return ok
}
