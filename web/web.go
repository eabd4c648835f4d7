// Package web holds the page's sources (HTML, CSS, ES modules, the service
// worker and the manifest). Only bundle imports it, so the WASM module never
// carries the site.
package web

import "embed"

// FS is the page's source tree, rooted at this directory.
//
//go:embed all:site
var FS embed.FS
