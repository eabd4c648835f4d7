package site

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

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

// compressTree writes url.gz and url.br beside every compressible file that
// they make smaller, on every core.
func compressTree(dir string, files map[string][]byte, fast bool) error {
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
				var (
					out []byte
					err error
					ext = ".gz"
				)
				if j.br {
					ext = ".br"
					out, err = brotliBytes(data, brLevel)
				} else {
					out, err = gzipBytes(data, gzLevel)
				}
				if err == nil && len(out) < len(data) {
					err = os.WriteFile(filepath.Join(dir, filepath.FromSlash(j.url))+ext, out, 0o644)
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
