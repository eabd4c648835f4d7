package validate

import (
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
	// A registry builds only when every source built, so Order follows
	// sources one to one.
	for i, id := range reg.Order {
		c := reg.Campaigns[id]
		file := sources[i].Path
		ws, ex := Tier3(byID[c.KindID], c, b)
		if ex.States > 0 {
			rep.Explorations[id] = ex
		}
		for _, w := range ws {
			w.Details = withCampaign(w.Details, id, file)
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
