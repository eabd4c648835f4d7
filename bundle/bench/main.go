package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/story"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: go run ./bundle/bench gen|browser|targets|report|wasmsize [flags]")
		return 2
	}
	switch args[0] {
	case "gen":
		return runGen(args[1:], stdout, stderr)
	case "browser":
		return runBrowser(args[1:], stdout, stderr)
	case "targets":
		return runTargets(args[1:], stdout, stderr)
	case "report":
		return runReport(args[1:], stdout, stderr)
	case "wasmsize":
		return runWasmSize(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "bench: unknown command %q\n", args[0])
	return 2
}

// campaignID is the generated campaign's id.
const campaignID = "peer-bench"

// runGen is `bench gen`: it writes campaign.json, published.json (the
// campaign as the bridge takes it, compiled here as an author's build
// does) and story.ink into -dir.
func runGen(args []string, stdout, stderr io.Writer) int {
	fl := flags("gen", stderr)
	dir := fl.String("dir", "bench/out/peer", "output directory")
	nodes := fl.Int("nodes", 300, "number of nodes")
	seed := fl.Uint64("seed", 1, "generator seed")
	saveChoices := fl.Int("save-choices", 0, "also write save-N.json: the campaign after N choices, played natively with bundle/bench/peer.mjs's policy (0: none)")
	saveSeed := fl.Uint("save-seed", 7, "bundle/bench/peer.mjs's -seed, for save-N.json")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	s := Generate(*nodes, *seed)
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	files := map[string][]byte{"campaign.json": s.Campaign(campaignID), "story.ink": []byte(s.Ink())}
	published, err := publishedCampaign(files["campaign.json"])
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	files["published.json"] = published
	if *saveChoices > 0 {
		doc, err := playedSave(files["campaign.json"], *saveChoices, uint32(*saveSeed))
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		files[fmt.Sprintf("save-%d.json", *saveChoices)] = doc
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(*dir, name), b, 0o644); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "bench: wrote a %d-node story into %s:", len(s.Nodes), *dir)
	for name := range files {
		fmt.Fprintf(stdout, " %s", name)
	}
	fmt.Fprintln(stdout)
	return 0
}

// publishedCampaign compiles a campaign as `go run ./bundle build` does and
// returns the bridge's init argument for it: its built document with its
// manifest entry and the manifest digest, as the page hands them over.
func publishedCampaign(campaign []byte) ([]byte, error) {
	kinds := []core.Kind{story.Kind{}}
	reg, res := content.Build(kinds, content.Source{Path: "campaign.json", Campaign: campaign})
	if reg == nil {
		return nil, fmt.Errorf("the generated campaign does not build: %v", res.Errors)
	}
	docs, err := content.Built(kinds, reg)
	if err != nil {
		return nil, err
	}
	d := docs[0]
	built, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	entry := content.ManifestEntry{ID: d.Form.Campaign.ID, Version: d.Form.Campaign.Version, Digest: d.Digest}
	manifest, err := content.ManifestDigest([]content.ManifestEntry{entry})
	if err != nil {
		return nil, err
	}
	type campaignDoc struct {
		ID      string `json:"id"`
		Built   string `json:"built"`
		Version string `json:"version"`
		Digest  string `json:"digest"`
	}
	return json.Marshal(struct {
		Campaigns      []campaignDoc `json:"campaigns"`
		ManifestDigest string        `json:"manifestDigest"`
	}{[]campaignDoc{{entry.ID, string(built), entry.Version, entry.Digest}}, manifest})
}

// flags starts the flag set of the subcommand name, which reports its
// errors and usage to stderr.
func flags(name string, stderr io.Writer) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	return fl
}

// nativeFlag is the -native flag of the subcommands that read the native
// engine benchmarks.
func nativeFlag(fl *flag.FlagSet) *string {
	return fl.String("native", "bench/out/native.txt", "native `go test -bench` output")
}

// writeJSON writes v to path as indented JSON ending in a newline.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
