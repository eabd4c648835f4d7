package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/storyloom/storyloom/engine/content"
)

// campaignFile is the name of a campaign's file inside its directory.
const campaignFile = "campaign.json"

// sourcesFromFS reads every campaign under root in fsys: root itself when it
// holds campaign.json, else each subdirectory that does, in name order. A
// campaign's translations are strings/<locale>.json beside its file.
func sourcesFromFS(fsys fs.FS, root string) ([]content.Source, error) {
	if _, err := fs.Stat(fsys, path.Join(root, campaignFile)); err == nil {
		src, err := sourceFromDir(fsys, root)
		if err != nil {
			return nil, err
		}
		return []content.Source{src}, nil
	}
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, err
	}
	var out []content.Source
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := path.Join(root, e.Name())
		if _, err := fs.Stat(fsys, path.Join(dir, campaignFile)); err != nil {
			continue
		}
		src, err := sourceFromDir(fsys, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, nil
}

func sourceFromDir(fsys fs.FS, dir string) (content.Source, error) {
	p := path.Join(dir, campaignFile)
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return content.Source{}, err
	}
	src := content.Source{Path: p, Campaign: data}
	names, err := fs.Glob(fsys, path.Join(dir, "strings", "*.json"))
	if err != nil {
		return content.Source{}, err
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return content.Source{}, err
		}
		if src.Translations == nil {
			src.Translations = map[string][]byte{}
		}
		src.Translations[strings.TrimSuffix(path.Base(n), ".json")] = b
	}
	return src, nil
}

// sourcesFromPaths reads campaigns from disk: each path is a campaign file,
// a campaign directory, or a directory of campaign directories.
func sourcesFromPaths(paths []string) ([]content.Source, error) {
	var out []content.Source
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		dir, base := p, "."
		if !info.IsDir() {
			if filepath.Base(p) != campaignFile {
				return nil, fmt.Errorf("%s: a campaign file must be named %s", p, campaignFile)
			}
			dir = filepath.Dir(p)
		}
		srcs, err := sourcesFromFS(os.DirFS(dir), base)
		if err != nil {
			return nil, err
		}
		if len(srcs) == 0 {
			return nil, fmt.Errorf("%s: no %s here or in its subdirectories", p, campaignFile)
		}
		for i := range srcs {
			srcs[i].Path = filepath.Join(dir, filepath.FromSlash(srcs[i].Path))
		}
		out = append(out, srcs...)
	}
	if len(out) == 0 {
		return nil, errors.New("no campaigns given")
	}
	return out, nil
}

// packFile is the name of a pack's manifest inside its directory.
const packFile = "pack.json"

// packsFromPaths reads content packs from disk when every path is a pack
// directory (one holding pack.json, its campaigns under campaigns/); ok is
// false when none is. A mix of packs and campaigns is an error.
func packsFromPaths(paths []string) (packs []content.Pack, ok bool, err error) {
	for _, p := range paths {
		manifest, err := os.ReadFile(filepath.Join(p, packFile))
		if err != nil {
			continue
		}
		pk := content.Pack{Path: filepath.Join(p, packFile), Manifest: manifest}
		if _, err := os.Stat(filepath.Join(p, "campaigns")); err == nil {
			if pk.Campaigns, err = sourcesFromPaths([]string{filepath.Join(p, "campaigns")}); err != nil {
				return nil, false, err
			}
		}
		packs = append(packs, pk)
	}
	if len(packs) > 0 && len(packs) < len(paths) {
		return nil, false, fmt.Errorf("give either pack directories (with %s) or campaigns, not both", packFile)
	}
	return packs, len(packs) > 0, nil
}
