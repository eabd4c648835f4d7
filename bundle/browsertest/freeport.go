package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/site"
	"github.com/storyloom/storyloom/engine/freeport"
)

// Freeport builds the native Freeport endpoint over the shipped game
// (static/freeport/freeport.json under the module root), in memory, on
// the wall clock, and the mounts that serve it beside the built site as
// `bundle serve` does: its POSTs and the Standing only, since GET
// /freeport/ is the page.
func Freeport(root string) (*hosting.Freeport, []site.Mount, error) {
	data, err := os.ReadFile(filepath.Join(root, "static", "freeport", "freeport.json"))
	if err != nil {
		return nil, nil, err
	}
	g, err := freeport.ParseGame(data)
	if err != nil {
		return nil, nil, err
	}
	fp, err := hosting.NewFreeport(context.Background(), hosting.FreeportConfig{
		Store: &hosting.MemStore{}, Clock: func() int64 { return time.Now().UnixMilli() },
		Games: map[string]*freeport.Game{g.ID(): g},
	})
	if err != nil {
		return nil, nil, err
	}
	return fp, []site.Mount{
		{Pattern: "POST /freeport/", Handler: fp.Handler()},
		{Pattern: "GET /freeport/{game}/standing", Handler: fp.Handler()},
	}, nil
}
