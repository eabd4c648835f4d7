package site

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// siteNamespace is the esbuild namespace of modules read from the page's
// source tree rather than from disk.
const siteNamespace = "storyloom-site"

// bundleModule bundles the ES module entry (a path in src) and everything it
// imports, statically or dynamically, into one ES module, and reports which
// source files went into it. Only relative and root-relative imports of .js
// and .mjs files in src are allowed: the page has no npm dependencies.
func bundleModule(src fs.FS, entry string) (code []byte, inputs []string, err error) {
	var (
		mu   sync.Mutex
		seen []string
	)
	plugin := api.Plugin{
		Name: "storyloom-fs",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				p := a.Path
				switch {
				case a.Kind == api.ResolveEntryPoint:
					p = path.Clean(strings.TrimPrefix(p, "/"))
				case strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../"):
					p = path.Join(path.Dir(a.Importer), p)
				case strings.HasPrefix(p, "/"):
					p = path.Clean(strings.TrimPrefix(p, "/"))
				default:
					return api.OnResolveResult{}, fmt.Errorf("site: %s imports %q: only relative imports of the page's own modules are supported", a.Importer, a.Path)
				}
				if strings.HasPrefix(p, "../") || p == ".." {
					return api.OnResolveResult{}, fmt.Errorf("site: %s imports %q outside the site", a.Importer, a.Path)
				}
				return api.OnResolveResult{Path: p, Namespace: siteNamespace}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: siteNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				data, err := fs.ReadFile(src, a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				mu.Lock()
				seen = append(seen, a.Path)
				mu.Unlock()
				s := string(data)
				loader := api.LoaderJS
				switch path.Ext(a.Path) {
				case ".json":
					loader = api.LoaderJSON
				case ".css", ".wasm", ".png", ".svg":
					return api.OnLoadResult{}, fmt.Errorf("site: %s: only JavaScript and JSON modules can be imported", a.Path)
				}
				return api.OnLoadResult{Contents: &s, Loader: loader}, nil
			})
		},
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entry},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatESModule,
		Target:      api.ES2020,
		Outfile:     "bundle.js",
		Plugins:     []api.Plugin{plugin},
		LogLevel:    api.LogLevelSilent,
		Charset:     api.CharsetUTF8,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column)
			}
			msgs = append(msgs, loc+m.Text)
		}
		return nil, nil, fmt.Errorf("site: bundling %s: %s", entry, strings.Join(msgs, "; "))
	}
	for _, f := range res.OutputFiles {
		if path.Ext(f.Path) == ".js" {
			return f.Contents, seen, nil
		}
	}
	return nil, nil, fmt.Errorf("site: bundling %s: no output", entry)
}
