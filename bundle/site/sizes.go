package site

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"text/tabwriter"
)

// Size is the raw and compressed size of one file of a built site.
type Size struct {
	// Name is the file's path in the site.
	Name string
	// Raw is its size in bytes.
	Raw int
	// Gzip and Brotli are the sizes of its precompressed variants, or of
	// the file itself when it has none (a PNG is sent as it is).
	Gzip, Brotli int
}

// Sizes is every file of a built site with its sizes, and two totals: the
// module, and everything a player downloads before the first scene.
type Sizes struct {
	// Files is every file, sorted by name; variants are folded in.
	Files []Size
	// Module is the WASM module.
	Module Size
	// FirstLoad sums index.html, what it references (scripts, style
	// sheets, icons), the module, the campaigns index and the built
	// document of each campaign it names: what the page fetches before it
	// can show the library.
	FirstLoad Size
}

// MeasureSizes reads a built site and measures it.
func MeasureSizes(fsys fs.FS) (*Sizes, error) {
	names, err := walkFiles(fsys, ".")
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	var out Sizes
	byName := map[string]Size{}
	for _, n := range names {
		if strings.HasSuffix(n, ".gz") || strings.HasSuffix(n, ".br") {
			continue
		}
		st, err := fs.Stat(fsys, n)
		if err != nil {
			return nil, err
		}
		s := Size{Name: n, Raw: int(st.Size()), Gzip: int(st.Size()), Brotli: int(st.Size())}
		if have[n+".gz"] {
			if st, err := fs.Stat(fsys, n+".gz"); err == nil {
				s.Gzip = int(st.Size())
			}
		}
		if have[n+".br"] {
			if st, err := fs.Stat(fsys, n+".br"); err == nil {
				s.Brotli = int(st.Size())
			}
		}
		byName[n] = s
		out.Files = append(out.Files, s)
		if path.Ext(n) == ".wasm" && path.Dir(n) == "." {
			out.Module = s
		}
	}
	first := []string{IndexName, CampaignsIdx, out.Module.Name}
	if data, err := fs.ReadFile(fsys, CampaignsIdx); err == nil {
		var idx struct {
			Campaigns []campaignEntry `json:"campaigns"`
		}
		if json.Unmarshal(data, &idx) == nil {
			for _, c := range idx.Campaigns {
				first = append(first, c.Built)
			}
		}
	}
	if index, err := fs.ReadFile(fsys, IndexName); err == nil {
		_, _ = rewriteHTML(index, "", func(t *htmlTag) (tagEdit, string) {
			if attr := refAttr(t); attr != "" {
				if ref, ok := t.get(attr); ok {
					if s, ok := sourceName(".", ref); ok {
						first = append(first, s)
					}
				}
			}
			return keepTag, ""
		})
	}
	seen := map[string]bool{}
	out.FirstLoad.Name = "first load"
	for _, n := range first {
		s, ok := byName[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		out.FirstLoad.Raw += s.Raw
		out.FirstLoad.Gzip += s.Gzip
		out.FirstLoad.Brotli += s.Brotli
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Name < out.Files[j].Name })
	return &out, nil
}

// Write prints the sizes as a table.
func (s *Sizes) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "raw\tgzip\tbrotli\t\tfile")
	row := func(x Size) {
		fmt.Fprintf(tw, "%d\t%d\t%d\t\t%s\n", x.Raw, x.Gzip, x.Brotli, x.Name)
	}
	for _, f := range s.Files {
		row(f)
	}
	fmt.Fprintln(tw, "\t\t\t\t")
	row(Size{Name: "module (" + s.Module.Name + ")", Raw: s.Module.Raw, Gzip: s.Module.Gzip, Brotli: s.Module.Brotli})
	row(s.FirstLoad)
	return tw.Flush()
}
