package site

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesBadPaths checks a path the file server cannot look up is
// a client error, not 500: invalid UTF-8 and control characters are 400,
// a segment longer than any file name 404, and every answer carries the
// security headers.
func TestServeRefusesBadPaths(t *testing.T) {
	rooms := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "rooms") })
	srv := httptest.NewServer(Handler(os.DirFS(builtDir), Mount{Pattern: "/rooms/ws", Handler: rooms}))
	defer srv.Close()
	long := strings.Repeat("a", MaxSegment+1)
	tests := []struct {
		name, path string
		status     int
	}{
		{"the page", "/", 200},
		{"a mount", "/rooms/ws", 200},
		{"a segment over 255 bytes", "/" + long, 404},
		{"a long segment in a directory", "/campaigns/" + long + "/campaign.json", 404},
		{"a segment of exactly 255 bytes", "/" + strings.Repeat("a", MaxSegment), 404},
		{"a NUL", "/index.html%00", 400},
		{"a NUL alone", "/%00", 400},
		{"a control character", "/a%01b.js", 400},
		{"invalid UTF-8", "/%ff%fe.js", 400},
		{"a truncated UTF-8 sequence", "/caf%c3", 400},
		{"the edge headers file", "/" + HeadersName, 404},
		{"a dot-file", "/.env", 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := get(t, srv, tc.path, "")
			if resp.StatusCode != tc.status {
				t.Errorf("%s: status %d, want %d", tc.path, resp.StatusCode, tc.status)
			}
			for k, v := range SecurityHeaders() {
				if got := resp.Header.Get(k); got != v[0] {
					t.Errorf("%s: %s %q, want %q", tc.path, k, got, v[0])
				}
			}
		})
	}
}

// TestBuiltPagesRunNoInlineScript checks every page the served site has
// loads its scripts from files (the Content-Security-Policy runs no inline
// script), the root page's asset map among them, and that the build
// writes the same headers for Workers static assets.
func TestBuiltPagesRunNoInlineScript(t *testing.T) {
	for _, page := range []string{IndexName, "rooms/index.html", "freeport/index.html"} {
		src, err := os.ReadFile(filepath.Join(builtDir, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		var srcs []string
		if _, err := rewriteHTML(src, "", func(tag *htmlTag) (tagEdit, string) {
			if tag.name == "script" {
				ref, ok := tag.get("src")
				if !ok {
					t.Errorf("%s has an inline <script>", page)
				}
				srcs = append(srcs, ref)
			}
			if _, ok := tag.get("style"); ok || tag.name == "style" {
				t.Errorf("%s has an inline style in <%s>", page, tag.name)
			}
			for _, a := range tag.attrs {
				if strings.HasPrefix(a.key, "on") {
					t.Errorf("%s has an inline handler %s on <%s>", page, a.key, tag.name)
				}
			}
			return keepTag, ""
		}); err != nil {
			t.Fatal(err)
		}
		if page == IndexName && (len(srcs) == 0 || !strings.Contains(strings.Join(srcs, " "), AssetsName)) {
			t.Errorf("%s loads %v, not %s", page, srcs, AssetsName)
		}
	}
	assets, err := os.ReadFile(filepath.Join(builtDir, AssetsName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(assets, []byte(built.Manifest.Version)) || bytes.Contains(assets, []byte(versionPlaceholder)) {
		t.Errorf("%s does not carry the version %s", AssetsName, built.Manifest.Version)
	}
	headers, err := os.ReadFile(filepath.Join(builtDir, HeadersName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(headers, []byte("Content-Security-Policy: "+ContentSecurityPolicy+"\n")) {
		t.Errorf("%s:\n%s\nwant the site's policy", HeadersName, headers)
	}
	for _, f := range built.Manifest.Files {
		if f.URL == HeadersName {
			t.Errorf("%s is precached", HeadersName)
		}
	}
}
