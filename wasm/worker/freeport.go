//go:build js && wasm

package main

import (
	"context"
	"syscall/js"

	"github.com/syumai/workers/cloudflare"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/engine/freeport"
)

// runFreeport starts a FreeportObject: the Freeport endpoint with the game
// file embedded in freeport_game.go, its records in the object's storage.
// The entry module names an object for each game and sends it only that
// game's requests, so the object holds that one game in memory, loaded
// once, and applies its requests one after another (a group commit when
// several wait). Two things stay in D1, because they span every game: the
// host secret that signs bearer tokens (unless the Worker secret
// STORYLOOM_SECRET is set) and the per-token rate counters, which the
// worker's cron prunes.
func runFreeport(ctx js.Value) error {
	d1, err := openD1(dbBinding)
	if err != nil {
		return err
	}
	g, err := freeport.ParseGame([]byte(freeportGame))
	if err != nil {
		return err
	}
	var secret []byte
	if s := cloudflare.Getenv(secretVar); s != "" {
		secret = []byte(s)
	} else if secret, err = hosting.LoadSecret(context.Background(), d1); err != nil {
		return err
	}
	st, err := newObjectStore(ctx.Get("object"))
	if err != nil {
		return err
	}
	fp, err := hosting.NewFreeport(context.Background(), hosting.FreeportConfig{
		Store: st, Clock: dateNow,
		Games: map[string]*freeport.Game{g.ID(): g}, Secret: secret, Rate: d1,
		TokensPerMinute: hosting.DefaultTokensPerMinute, TokenRate: d1, ClientAddr: clientAddr, Logf: logf})
	if err != nil {
		return err
	}
	h := fp.Handler()
	ctx.Get("binding").Set("objectFetch", promiseFunc(func(args []js.Value) (any, error) { return serveJS(h, args[0]) }))
	return nil
}
