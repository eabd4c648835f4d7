// Package site builds, serves and packs Storyloom's web site.
//
// [Build] turns the page sources (web/site), the static tree (campaigns and
// icons) and the WASM module compiled from ./wasm/play into a deployable
// directory: every asset minified, named by content hash, precompressed (.gz
// and .br) and listed in a precache manifest that a generated service worker
// installs, so a second visit works with the network off. [Offline] packs the
// same site into one self-contained HTML file that plays from disk. [Handler]
// serves a built directory with the right types, compression and cache
// headers, and leaves room to mount the other engineers' handlers beside it.
//
// The page finds its assets through the asset map that the build injects into
// index.html as the global storyloomAssets (see docs/site-build.md): the same
// page code then works on the server, after going offline, and from file://.
package site
