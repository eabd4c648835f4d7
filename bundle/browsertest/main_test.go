package browsertest

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// shared is the site every test of the package uses, built once.
var shared *Site

// noBrowser says why the browser tests skip, when they do.
var noBrowser error

func TestMain(m *testing.M) {
	if _, err := ChromiumPath(); err != nil {
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") == "1" {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		noBrowser = err
		os.Exit(m.Run())
	}
	s, err := NewSite(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the site:", err)
		os.Exit(1)
	}
	shared = s
	code := m.Run()
	s.Close()
	os.Exit(code)
}

// needBrowser skips the test when no chromium is installed.
func needBrowser(tb testing.TB) {
	tb.Helper()
	if noBrowser != nil {
		tb.Skip(noBrowser)
	}
}

// launch starts a browser on a fresh profile, closed when the test ends.
func launch(tb testing.TB) *Browser {
	tb.Helper()
	return launchOn(tb, tb.TempDir())
}

// launchOn starts a browser on the profile dir, closed when the test ends.
func launchOn(tb testing.TB, dir string) *Browser {
	tb.Helper()
	b, err := Launch(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = b.Close() })
	return b
}
