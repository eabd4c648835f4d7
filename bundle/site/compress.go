package site

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/andybalholm/brotli"
)

// gzipBytes compresses data with gzip at level.
func gzipBytes(data []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// brotliBytes compresses data with brotli at level.
func brotliBytes(data []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, level)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeTree writes files (site URL → content) under dir.
func writeTree(dir string, files map[string][]byte) error {
	for url, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(url))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// minCompress is the size below which a file is not precompressed: the
// headers would cost more than the bytes saved.
const minCompress = 512

// compressCache keeps compressed copies by the SHA-256 of what was
// compressed and the method and level, so that a build whose files did not
// change copies them rather than compressing again (brotli 11 of the WASM
// module alone takes tens of seconds). An empty dir keeps nothing.
type compressCache struct {
	dir    string
	hits   atomic.Int64
	misses atomic.Int64
}

// cacheMaxAge is how long an entry no build used is kept.
const cacheMaxAge = 7 * 24 * time.Hour

// get returns data compressed by method ("gz" or "br") at level, from the
// cache when it holds it.
func (c *compressCache) get(data []byte, method string, level int) ([]byte, error) {
	var name string
	if c != nil && c.dir != "" {
		name = filepath.Join(c.dir, fmt.Sprintf("%s.%s%d", sum(data), method, level))
		if out, err := os.ReadFile(name); err == nil {
			c.hits.Add(1)
			now := time.Now()
			_ = os.Chtimes(name, now, now) // still in use: not pruned
			return out, nil
		}
	}
	var (
		out []byte
		err error
	)
	switch method {
	case "br":
		out, err = brotliBytes(data, level)
	case "gz":
		out, err = gzipBytes(data, level)
	default:
		err = fmt.Errorf("site: unknown compression %q", method)
	}
	if err != nil || name == "" {
		return out, err
	}
	c.misses.Add(1)
	// Write under a temporary name and rename, so that a build running at
	// the same time never reads half an entry.
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return nil, err
	}
	_, werr := tmp.Write(out)
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		werr = os.Rename(tmp.Name(), name)
	}
	if werr = errors.Join(werr, cerr); werr != nil {
		os.Remove(tmp.Name())
		return nil, werr
	}
	return out, nil
}

// prune removes the entries no build has used for cacheMaxAge.
func (c *compressCache) prune() error {
	if c == nil || c.dir == "" {
		return nil
	}
	entries, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		info, err := e.Info()
		if err == nil && time.Since(info.ModTime()) > cacheMaxAge {
			_ = os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
	return nil
}

// compressTree writes url.gz and url.br beside every compressible file that
// they make smaller, on every core, taking what cache already holds.
func compressTree(dir string, files map[string][]byte, fast bool, cache *compressCache) error {
	gzLevel, brLevel := gzip.BestCompression, brotli.BestCompression
	if fast {
		gzLevel, brLevel = 6, 5
	}
	var urls []string
	for url, data := range files {
		if compressible(url) && len(data) >= minCompress {
			urls = append(urls, url)
		}
	}
	// Largest first, so the module does not start last.
	sort.Slice(urls, func(i, j int) bool { return len(files[urls[i]]) > len(files[urls[j]]) })
	type job struct {
		url string
		br  bool
	}
	jobs := make(chan job)
	errs := make(chan error, 2*len(urls))
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				data := files[j.url]
				method, level := "gz", gzLevel
				if j.br {
					method, level = "br", brLevel
				}
				out, err := cache.get(data, method, level)
				if err == nil && len(out) < len(data) {
					err = os.WriteFile(filepath.Join(dir, filepath.FromSlash(j.url))+"."+method, out, 0o644)
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	for _, url := range urls {
		jobs <- job{url, true}
		jobs <- job{url, false}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	return <-errs
}
