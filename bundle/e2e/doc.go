// Package e2e holds Storyloom's browser tests: the built site (dist/, made
// by site.Build) served on 127.0.0.1 and played in headless Chromium through
// chromedp — story, simulation and world campaigns, saves, branches, export
// and import, offline and the single offline file, accessibility with
// axe-core, and the IndexedDB record store's conformance suite run inside
// the browser. The package has no code of its own outside its tests; see
// docs/browser.md.
//
// The tests skip when no Chromium is installed (scripts/setup-chromium.sh
// installs Debian's), unless STORYLOOM_REQUIRE_BROWSER=1. Screenshots of
// every screen are written under testout/e2e/ at the module root.
package e2e
