package validate

import (
	"encoding/json"
	"slices"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// Finding is one validation finding with its tier: 1 refuses the campaign,
// 2 and 3 inform.
type Finding struct {
	Tier int `json:"tier"`
	core.ValidationError
}

// Report is the result of validating a set of campaign sources.
type Report struct {
	// Registry is the built registry, nil when a tier 1 error was found.
	Registry *core.Registry
	// Findings in tier order, then source order.
	Findings []Finding
	// Explorations holds each explored campaign's search, by campaign id.
	Explorations map[string]Exploration
}

// Errors returns the number of tier 1 findings.
func (r Report) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Tier == 1 {
			n++
		}
	}
	return n
}

// Campaigns validates sources in all three tiers: tiers 1 and 2 while
// building the registry (content.Build), then, when the registry builds,
// tier 3 for every campaign whose kind is Explorable, within b.
func Campaigns(kinds []core.Kind, b Budget, sources ...content.Source) Report {
	reg, res := content.Build(kinds, sources...)
	files := map[string]string{}
	if reg != nil {
		// A registry builds only when every source built, so Order
		// follows sources one to one.
		for i, id := range reg.Order {
			files[id] = sources[i].Path
		}
	}
	return report(kinds, b, reg, res, files)
}

// Packs validates a pack set in all three tiers, as Campaigns does its
// sources: tiers 1 and 2 while resolving and building it
// (content.BuildPacks), then tier 3 on the folded, composed campaigns.
func Packs(kinds []core.Kind, b Budget, packs ...content.Pack) Report {
	reg, res := content.BuildPacks(kinds, packs...)
	files := map[string]string{}
	for _, p := range packs {
		var m struct {
			Overrides []string `json:"overrides"`
		}
		_ = json.Unmarshal(p.Manifest, &m)
		for _, src := range p.Campaigns {
			var head struct {
				ID string `json:"id"`
			}
			// A campaign two packs provide is the overriding pack's.
			if json.Unmarshal(src.Campaign, &head) == nil && (files[head.ID] == "" || slices.Contains(m.Overrides, head.ID)) {
				files[head.ID] = src.Path
			}
		}
	}
	return report(kinds, b, reg, res, files)
}

// report gathers the findings of tiers 1 and 2 and runs tier 3 on every
// campaign of reg, naming each finding's file from files (by campaign id).
// A tier 3 finding in content composed in from a module names the
// module's campaign and file, at the module's own path, and the composing
// campaign in Details["composedIn"].
func report(kinds []core.Kind, b Budget, reg *core.Registry, res core.ValidationResult, files map[string]string) Report {
	rep := Report{Registry: reg, Explorations: map[string]Exploration{}}
	for _, e := range res.Errors {
		rep.Findings = append(rep.Findings, Finding{Tier: 1, ValidationError: e})
	}
	for _, w := range res.Warnings {
		rep.Findings = append(rep.Findings, Finding{Tier: 2, ValidationError: w})
	}
	if reg == nil {
		return rep
	}
	byID := map[string]core.Kind{}
	for _, k := range kinds {
		byID[k.ID()] = k
	}
	for _, id := range reg.Order {
		c := reg.Campaigns[id]
		ws, ex := Tier3(byID[c.KindID], c, b)
		if ex.States > 0 {
			rep.Explorations[id] = ex
		}
		for _, w := range ws {
			owner, path := content.Origin(reg, id, w.Path)
			w.Details = withCampaign(w.Details, owner, files[owner])
			if owner != id {
				w.Path = path
				w.Details["composedIn"] = id
			}
			rep.Findings = append(rep.Findings, Finding{Tier: 3, ValidationError: w})
		}
	}
	return rep
}
func withCampaign(d map[string]any, id, file string) map[string]any {
	out := map[string]any{"campaignId": id}
	if file != "" {
		out["file"] = file
	}
	for k, v := range d {
		out[k] = v
	}
	return out
}
