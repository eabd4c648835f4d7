// Package static holds content and assets shipped as they are: campaigns,
// icons, game files. Only bundle imports it.
package static

import "embed"

// FS is the static tree, rooted at this directory.
//
//go:embed all:campaigns all:icons
var FS embed.FS
