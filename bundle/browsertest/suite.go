package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyloom/storyloom/bundle/site"
)

// Suite is what Main prepares once for a package of browser tests: the
// built site and one browser.
type Suite struct {
	// Root is the module root.
	Root string
	// Res is the site built into a temporary directory.
	Res *site.Result
	// Browser is the one browser, on a temporary profile.
	Browser *Browser
	// Skip says why the tests skip (no chromium), when they do.
	Skip string
	// BuildErr is why the site did not build, when it did not.
	BuildErr error
}

// Main is a browser test package's TestMain body: it finds the module
// root, builds the site (with the offline file when offline is set) and
// launches a browser, hands the Suite to ready, runs m, and then closes
// the browser and removes what it made; it returns the exit code. With no
// chromium the tests still run, to skip (Need), unless
// STORYLOOM_REQUIRE_BROWSER=1, which fails instead; a site that does not
// build fails each test that needs it. name prefixes its messages.
func Main(m *testing.M, name string, offline bool, ready func(Suite)) int {
	var s Suite
	root, err := ModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	s.Root = root
	if _, err := ChromiumPath(); err != nil {
		s.Skip = err.Error()
		if os.Getenv("STORYLOOM_REQUIRE_BROWSER") == "1" {
			fmt.Fprintln(os.Stderr, name+":", s.Skip)
			return 1
		}
		ready(s)
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "storyloom-"+name+"-")
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if s.Res, err = Build(context.Background(), filepath.Join(tmp, "dist"), offline); err != nil {
		s.BuildErr = err
		ready(s)
		return m.Run()
	}
	b, err := Launch(filepath.Join(tmp, "profile"))
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	defer b.Close()
	s.Browser = b
	ready(s)
	return m.Run()
}

// Need skips t when the browser tests cannot run, and fails it when the
// site did not build.
func (s Suite) Need(t testing.TB) {
	t.Helper()
	if s.Skip != "" {
		t.Skip(s.Skip)
	}
	if s.BuildErr != nil {
		t.Fatalf("building the site: %v", s.BuildErr)
	}
}
