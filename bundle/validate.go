package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/validate"
)

// runValidate is `bundle validate [flags] [paths]`: it validates campaigns
// in all three tiers and prints the findings grouped by tier, each with its
// file and element path. It exits 1 on any tier 1 error, 2 on bad usage.
func runValidate(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("validate", flag.ContinueOnError)
	fl.SetOutput(stderr)
	def := validate.DefaultBudget()
	maxStates := fl.Int("max-states", def.MaxStates, "tier 3: the most distinct states to explore per campaign")
	maxDepth := fl.Int("max-depth", def.MaxDepth, "tier 3: the most moves from the start")
	asJSON := fl.Bool("json", false, "print the findings as JSON")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bundle validate [flags] [campaign dirs or files…, or pack dirs…] (default static/campaigns)")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	paths := fl.Args()
	if len(paths) == 0 {
		paths = []string{"static/campaigns"}
	}
	budget := validate.Budget{MaxStates: *maxStates, MaxDepth: *maxDepth}
	var rep validate.Report
	var campaigns int
	packs, isPacks, err := packsFromPaths(paths)
	if err == nil && isPacks {
		rep = validate.Packs(registeredKinds(), budget, packs...)
		for _, p := range packs {
			campaigns += len(p.Campaigns)
		}
	} else if err == nil {
		var sources []content.Source
		sources, err = sourcesFromPaths(paths)
		rep, campaigns = validate.Campaigns(registeredKinds(), budget, sources...), len(sources)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bundle validate: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep.Findings); err != nil {
			fmt.Fprintf(stderr, "bundle validate: %v\n", err)
			return 2
		}
	} else {
		printReport(stdout, rep, campaigns)
	}
	if rep.Errors() > 0 {
		return 1
	}
	return 0
}

var tierNames = map[int]string{1: "tier 1 — errors (the campaign is refused)", 2: "tier 2 — warnings", 3: "tier 3 — reachability"}

func printReport(w io.Writer, rep validate.Report, campaigns int) {
	counts := map[int]int{}
	for tier := 1; tier <= 3; tier++ {
		var lines []string
		for _, f := range rep.Findings {
			if f.Tier != tier {
				continue
			}
			counts[tier]++
			file, _ := f.Details["file"].(string)
			where := file
			if f.Path != "" {
				where += ": " + f.Path
			}
			if host, ok := f.Details["composedIn"].(string); ok {
				where += " (as composed into " + host + ")"
			}
			lines = append(lines, fmt.Sprintf("  %s\n      %s: %s", where, f.Code, f.Message))
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintln(w, tierNames[tier])
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	ids := make([]string, 0, len(rep.Explorations))
	for id := range rep.Explorations {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		ex := rep.Explorations[id]
		note := ""
		if ex.Bounded {
			note = " (budget reached: not a proof)"
		}
		fmt.Fprintf(w, "%s: explored %d states, reached %d terminals%s\n", id, ex.States, len(ex.Terminals), note)
	}
	fmt.Fprintf(w, "%d campaigns checked: %d errors, %d warnings, %d reachability findings\n", campaigns, counts[1], counts[2], counts[3])
}
