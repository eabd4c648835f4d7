// Package browsertest is Storyloom's browser-test harness: it builds the
// site, serves it on a random 127.0.0.1 port with the same handler as
// `bundle serve`, and drives Debian's chromium headless through chromedp.
//
// A page opened with [Browser.NewPage] records console errors, uncaught
// exceptions and unhandled promise rejections, and fails its test on any
// (allow known ones with [Page.Allow]). [Screenshot] writes PNGs under
// testout/<test name>/ at the module root; [Axe] runs axe-core from
// node_modules and fails on every violation, minor ones included; [Page.SetOffline]
// emulates a lost network and [Site.SetDown] makes the server drop every
// connection, so offline tests do not depend on emulation alone. Reopening a
// browser with the same user-data directory ([Launch]) tests persistence
// across restarts.
//
// Setup: scripts/setup-chromium.sh installs chromium when it is missing and
// scripts/setup-node.sh installs axe-core. Tests skip, rather than fail, when
// chromium cannot be found, unless STORYLOOM_REQUIRE_BROWSER=1 (set in CI).
package browsertest
