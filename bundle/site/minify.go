package site

import (
	"regexp"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
)

// newMinifier returns the minifier for HTML, CSS, JavaScript, SVG and JSON.
// JSON keeps its numbers as written: a campaign's 100000 must not become
// 1e5, which Go's encoding/json refuses for an integer field. HTML keeps its
// document and end tags so later passes (the offline pack) can find </head>.
func newMinifier() *minify.M {
	m := minify.New()
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true})
	m.AddFunc("text/css", css.Minify)
	m.Add("image/svg+xml", &svg.Minifier{})
	m.Add("application/json", &json.Minifier{KeepNumbers: true})
	m.Add("application/manifest+json", &json.Minifier{KeepNumbers: true})
	m.Add("importmap", &json.Minifier{KeepNumbers: true})
	m.AddRegexp(regexp.MustCompile(`^(application|text)/(x-)?(java|ecma)script$`), &js.Minifier{})
	m.Add("module", &js.Minifier{})
	return m
}

// minifyType is the minifier media type for a file extension, or "" when the
// file is copied as it is.
func minifyType(ext string) string {
	switch ext {
	case ".html":
		return "text/html"
	case ".css":
		return "text/css"
	case ".js", ".mjs":
		return "text/javascript"
	case ".svg":
		return "image/svg+xml"
	case ".json":
		return "application/json"
	case ".webmanifest":
		return "application/manifest+json"
	}
	return ""
}
