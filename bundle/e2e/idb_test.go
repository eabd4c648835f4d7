package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The IndexedDB record and profile stores run the session package's
// conformance suite inside Chromium: the package's tests are compiled to
// WASM (`GOOS=js GOARCH=wasm go test -c`), loaded by a small page through
// wasm_exec.js with argv ["js", "-test.v"], and judged by their output and
// exit code.
const testPage = `<!doctype html><meta charset="utf-8"><title>idb conformance</title>
<script src="wasm_exec.js"></script>
<script>
window.testOut = [];
const log = console.log.bind(console);
console.log = (...a) => { window.testOut.push(a.join(" ")); log(...a); };
(async () => {
  const go = new Go();
  go.argv = ["js", "-test.v", "-test.count=1"];
  go.exit = (code) => { window.testExit = code; };
  const { instance } = await WebAssembly.instantiateStreaming(fetch("idb.test.wasm"), go.importObject);
  await go.run(instance);
  if (window.testExit === undefined) window.testExit = 0;
})().catch((e) => { window.testOut.push("LOAD FAILED: " + e); window.testExit = 99; });
</script>`

func TestIndexedDBConformance(t *testing.T) {
	t.Parallel()
	need(t)
	dir := t.TempDir()
	// The flags are `make test`'s for js/wasm (Makefile: TESTFLAGS,
	// WASMGO), whose test-wasm leg has compiled this very test binary.
	cmd := exec.Command("go", "test", "-c", "-trimpath", "-vet=off", "-ldflags=-w", "-o", filepath.Join(dir, "idb.test.wasm"), "./wasm/play/idb")
	cmd.Dir = suite.root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compiling the IndexedDB tests to WASM: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, testPage)
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(execJS)
	})
	mux.HandleFunc("/idb.test.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, filepath.Join(dir, "idb.test.wasm"))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	p := &page{t: t, base: "http://" + ln.Addr().String() + "/"}
	p.attach(nil)
	p.do(chromedp.Navigate(p.base))
	ctx, cancel := context.WithTimeout(p.ctx, 2*time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.testExit !== undefined`, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("the suite did not finish: %v\n%s", err, strings.Join(eval[[]string](p, `window.testOut`), "\n"))
	}
	code := eval[int](p, `window.testExit`)
	out := strings.Join(eval[[]string](p, `window.testOut`), "\n")
	if code != 0 || !strings.Contains(out, "\nPASS") && !strings.HasPrefix(out, "PASS") {
		t.Fatalf("the conformance suite failed in the browser (exit %d):\n%s", code, out)
	}
	for _, name := range []string{"TestRecordStoreConformance", "TestProfileStoreConformance"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
	t.Logf("in Chromium:\n%s", out)
}
