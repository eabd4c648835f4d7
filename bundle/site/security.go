package site

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"unicode/utf8"
)

// ContentSecurityPolicy is the policy of every response the served site
// sends (Handler natively, HeadersName on Workers static assets). No
// script runs but the site's own files ('self': no inline script, no
// eval), WebAssembly may compile ('wasm-unsafe-eval'), styles come only
// from the site's style sheets, and no other site may frame a page.
// connect-src 'self' covers the room server's same-origin WebSocket.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; " +
	"manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// SecurityHeaders returns the headers Handler sets on every response, the
// mounts' included: the Content-Security-Policy, nosniff, and framing
// refused for browsers that predate frame-ancestors.
func SecurityHeaders() http.Header {
	return http.Header{
		"Content-Security-Policy": {ContentSecurityPolicy},
		"X-Content-Type-Options":  {"nosniff"},
		"X-Frame-Options":         {"DENY"},
		"Referrer-Policy":         {"same-origin"},
	}
}

// HeadersName is the Workers static assets headers file the build writes
// beside the site (not served, not precached): SecurityHeaders for every
// path, so the edge serves the site under the same policy.
const HeadersName = "_headers"

// headersFile renders HeadersName.
func headersFile() []byte {
	var b strings.Builder
	b.WriteString("/*\n")
	h := SecurityHeaders()
	for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"} {
		b.WriteString("  " + k + ": " + h.Get(k) + "\n")
	}
	return []byte(b.String())
}

// withSecurityHeaders sets SecurityHeaders on every response of h.
func withSecurityHeaders(h http.Handler) http.Handler {
	sec := SecurityHeaders()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range sec {
			w.Header()[k] = v
		}
		h.ServeHTTP(w, r)
	})
}

// MaxSegment is the longest path segment, in bytes, the file server looks
// up: no file system in use has longer names.
const MaxSegment = 255

// checkName reports the status a request for the site file name gets
// before any file is opened: 400 for a name that is not valid UTF-8 or
// holds a control character (%00 among them), 404 for a segment longer
// than MaxSegment, a dot-file or the headers file; 0 when it may be looked
// up.
func checkName(name string) int {
	if !utf8.ValidString(name) {
		return http.StatusBadRequest
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return http.StatusBadRequest
		}
	}
	if name == HeadersName {
		return http.StatusNotFound
	}
	for _, seg := range strings.Split(name, "/") {
		if len(seg) > MaxSegment || strings.HasPrefix(seg, ".") {
			return http.StatusNotFound
		}
	}
	return 0
}

// cspHash is the CSP source of an inline script's or style's text.
func cspHash(text string) string {
	s := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(s[:]) + "'"
}

// offlinePolicy is the Content-Security-Policy of the offline file, set by
// a <meta> element since a file from disk has no headers: every script and
// style is inline there, so each is allowed by its hash and nothing else
// is; assets are data: URLs. frame-ancestors is left out, since a <meta>
// policy cannot carry it (browsers ignore it and log an error); a file:
// page cannot be framed by a web site anyway.
func offlinePolicy(scripts, styles []string) string {
	var sh, st []string
	for _, s := range scripts {
		sh = append(sh, cspHash(s))
	}
	for _, s := range styles {
		st = append(st, cspHash(s))
	}
	return "default-src 'none'; script-src 'wasm-unsafe-eval' " + strings.Join(sh, " ") +
		"; style-src " + strings.Join(st, " ") +
		"; img-src data:; connect-src data:; object-src 'none'; base-uri 'none'; form-action 'none'"
}
