package site

import (
	"path"
	"regexp"
	"strings"
)

// contentTypes maps a file extension to the Content-Type it is served with.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".wasm":        "application/wasm",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".xml":         "application/xml",
	".map":         "application/json",
}

// ContentType returns the Content-Type a file of this name is served with,
// or application/octet-stream for an unknown extension.
func ContentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// compressible reports whether a file of this name gains from gzip or
// brotli: text, JSON, SVG and WASM, but not images that are already packed.
func compressible(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".wasm", ".svg", ".txt", ".xml", ".map", ".ico":
		return true
	}
	return false
}

// hashLen is how many hex digits of a file's SHA-256 go into its name.
const hashLen = 12

// hashedName matches a file name that carries a content hash, such as
// play.0123456789ab.wasm.
var hashedName = regexp.MustCompile(`\.[0-9a-f]{12}\.[A-Za-z0-9]+$`)

// IsHashed reports whether the file name carries a content hash, so its
// content never changes under that name and may be cached forever.
func IsHashed(name string) bool {
	return hashedName.MatchString(path.Base(name))
}

// withHash returns name with the hash inserted before its extension:
// js/app.js becomes js/app.<hash>.js.
func withHash(name, sum string) string {
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + sum[:hashLen] + ext
}
