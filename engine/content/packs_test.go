package content_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/testkind"
)

// pack makes a counter pack: its manifest's fields after id and version,
// and campaigns by id.
func pack(id, version, fields string, campaigns ...string) content.Pack {
	p := content.Pack{Path: id + "/pack.json",
		Manifest: []byte(fmt.Sprintf(`{"format":1,"id":%q,"version":%q,"kind":"counter"%s}`, id, version, fields))}
	for _, c := range campaigns {
		p.Campaigns = append(p.Campaigns, src(id+"/"+c+".json", string(testkind.Campaign(c, "1.0.0", 3))))
	}
	return p
}

func TestBuildPacks(t *testing.T) {
	base := pack("base", "1.0.0", "", "alpha", "beta")
	patch := pack("patch", "2.0.0", `,"requires":[{"id":"base","version":"1.0.0"}],"overrides":["beta"]`, "beta", "gamma")
	// The requiring pack comes first: resolution orders it after base.
	reg, res := content.BuildPacks(kinds, patch, base)
	if reg == nil {
		t.Fatalf("%+v", res.Errors)
	}
	if got := strings.Join(reg.Order, ","); got != "alpha,beta,gamma" {
		t.Fatalf("order %s", got)
	}
	if reg.Resolution == "" {
		t.Fatal("no resolution")
	}
	again, _ := content.BuildPacks(kinds, base, patch)
	other, _ := content.BuildPacks(kinds, base, pack("patch", "2.0.0", `,"requires":[{"id":"base","version":"1.0.0"}],"overrides":["beta"]`, "beta", "delta"))
	if again.Resolution != reg.Resolution || other.Resolution == reg.Resolution {
		t.Fatal("the resolution must name the folded set, whatever order it was given in")
	}
}

func TestBuildPacksRefuses(t *testing.T) {
	base := pack("base", "1.0.0", "", "alpha")
	other := pack("other", "1.0.0", "", "beta")
	other.Campaigns[0].Campaign = []byte(strings.Replace(string(other.Campaigns[0].Campaign), `"kind":"counter"`, `"kind":"abacus"`, 1))
	tests := []struct {
		name  string
		packs []content.Pack
		code  string
		file  string
		path  string
	}{
		{"a campaign of another kind", []content.Pack{other}, core.ReasonPackKindMismatch, "other/beta.json", "kind"},
		{"one campaign twice in a pack", []content.Pack{pack("twice", "1.0.0", "", "alpha", "alpha")}, core.ReasonDuplicateCampaignIDInPack, "twice/alpha.json", "id"},
		{"a requirement not in the set", []content.Pack{pack("add", "1.0.0", `,"requires":[{"id":"base","version":"1.0.0"}]`, "beta")}, core.ReasonPackDependencyMissing, "add/pack.json", "requires[0].id"},
		{"a requirement at another version", []content.Pack{base, pack("add", "1.0.0", `,"requires":[{"id":"base","version":"0.9.0"}]`, "beta")}, core.ReasonPackDependencyVersionConflict, "add/pack.json", "requires[0].version"},
		{"packs requiring each other", []content.Pack{
			pack("one", "1.0.0", `,"requires":[{"id":"two","version":"1.0.0"}]`, "alpha"),
			pack("two", "1.0.0", `,"requires":[{"id":"one","version":"1.0.0"}]`, "beta")}, core.ReasonPackDependencyCycle, "two/pack.json", "requires[0].id"},
		{"a replacement not declared", []content.Pack{base, pack("add", "1.0.0", "", "alpha")}, core.ReasonPackOverrideUnexpected, "add/alpha.json", "id"},
		{"an override of nothing", []content.Pack{base, pack("add", "1.0.0", `,"overrides":["zeta"]`, "beta")}, core.ReasonPackOverrideUnexpected, "add/pack.json", "overrides[0]"},
		{"an attachment to no campaign", []content.Pack{base, pack("add", "1.0.0",
			`,"attachments":[{"hostCampaignId":"zeta","include":{"alias":"b","ref":{"id":"beta","version":"1.0.0"}}}]`, "beta")}, core.ReasonAttachmentHostMissing, "add/pack.json", "attachments[0].hostCampaignId"},
		{"one alias on two attachments", []content.Pack{pack("host", "1.0.0", "", "beta"), pack("add", "1.0.0",
			`,"attachments":[{"hostCampaignId":"alpha","include":{"alias":"b","ref":{"id":"beta","version":"1.0.0"}}},{"hostCampaignId":"alpha","include":{"alias":"b","ref":{"id":"beta","version":"1.0.0"}}}]`, "alpha")},
			core.ReasonIncludeAliasCollision, "add/pack.json", "attachments[1].include.alias"},
		{"an attachment to a kind that cannot compose", []content.Pack{base, pack("add", "1.0.0",
			`,"attachments":[{"hostCampaignId":"alpha","include":{"alias":"b","ref":{"id":"beta","version":"1.0.0"}}}]`, "beta")}, core.ReasonComposeUnsupported, "add/pack.json", "attachments[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, res := content.BuildPacks([]core.Kind{testkind.Kind{}, otherKind{}}, tt.packs...)
			refused(t, reg, res, tt.code, tt.path, func(e core.ValidationError) bool { return e.Details["file"] == tt.file })
		})
	}
}

// FuzzBuildPacks: any two manifests resolve and build or are refused with
// findings, never a panic, and a set that builds is named by a resolution.
func FuzzBuildPacks(f *testing.F) {
	f.Add([]byte(`{"format":1,"id":"base","version":"1.0.0","kind":"counter"}`),
		[]byte(`{"format":1,"id":"patch","version":"1.0.0","kind":"counter","requires":[{"id":"base","version":"1.0.0"}],"overrides":["alpha"]}`))
	f.Add([]byte(`{"format":1,"id":"one","version":"1","kind":"counter","requires":[{"id":"two","version":"1"}]}`),
		[]byte(`{"format":1,"id":"two","version":"1","kind":"counter","requires":[{"id":"one","version":"1"}]}`))
	f.Add([]byte(`{"format":1,"id":"a","version":"1","kind":"counter","attachments":[{"hostCampaignId":"alpha","include":{"alias":"b","ref":{"id":"alpha","version":"1.0.0"}}}]}`), []byte(`{`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		packs := []content.Pack{
			{Path: "first/pack.json", Manifest: first, Campaigns: []content.Source{src("first/alpha.json", string(testkind.Campaign("alpha", "1.0.0", 3)))}},
			{Path: "second/pack.json", Manifest: second, Campaigns: []content.Source{src("second/alpha.json", string(testkind.Campaign("alpha", "1.0.0", 4)))}},
		}
		reg, res := content.BuildPacks(kinds, packs...)
		if reg == nil {
			if res.OK || len(res.Errors) == 0 {
				t.Fatalf("refused without an error: %+v", res)
			}
			for _, e := range res.Errors {
				if e.Code == "" || e.Details["file"] == nil {
					t.Fatalf("a finding without a code or a file: %+v", e)
				}
			}
			return
		}
		if reg.Resolution == "" || len(reg.Order) != 1 {
			t.Fatalf("built %v with resolution %q", reg.Order, reg.Resolution)
		}
	})
}

// TestPublishedPacksVerifyFromBuiltDocuments: a resolved set publishes
// each pack with the campaigns it provides (an overriding pack provides
// the campaign it replaced); a host that verified the built documents
// recomputes the resolution from them, and refuses a set that names a
// document it did not verify, provides a campaign twice, or digests to
// another resolution.
func TestPublishedPacksVerifyFromBuiltDocuments(t *testing.T) {
	base := pack("base", "1.0.0", "", "alpha", "beta")
	patch := pack("patch", "2.0.0", `,"requires":[{"id":"base","version":"1.0.0"}],"overrides":["beta"]`, "beta", "gamma")
	reg, packs, res := content.ResolvePacks(kinds, patch, base)
	if reg == nil {
		t.Fatalf("%+v", res.Errors)
	}
	provides := func(p content.PublishedPack) string {
		var ids []string
		for _, c := range p.Campaigns {
			ids = append(ids, c.ID)
		}
		return p.ID + "@" + p.Version + ":" + strings.Join(ids, ",")
	}
	if len(packs) != 2 || provides(packs[0]) != "base@1.0.0:alpha" || provides(packs[1]) != "patch@2.0.0:beta,gamma" {
		t.Fatalf("published packs %+v", packs)
	}
	docs, err := content.Built(kinds, reg)
	if err != nil {
		t.Fatal(err)
	}
	var entries []content.ManifestEntry
	for _, d := range docs {
		entries = append(entries, content.ManifestEntry{ID: d.Form.Campaign.ID, Version: d.Form.Campaign.Version, Digest: d.Digest})
	}
	if err := content.VerifyPacks(packs, entries, reg.Resolution); err != nil {
		t.Fatalf("the published set does not verify: %v", err)
	}
	alter := func(f func(p []content.PublishedPack) []content.PublishedPack) []content.PublishedPack {
		out := make([]content.PublishedPack, len(packs))
		for i, p := range packs {
			p.Campaigns = append([]content.ManifestEntry{}, p.Campaigns...)
			out[i] = p
		}
		return f(out)
	}
	for _, tt := range []struct {
		name       string
		packs      []content.PublishedPack
		resolution string
	}{
		{"another resolution", packs, "sha256:0"},
		{"packs reordered", alter(func(p []content.PublishedPack) []content.PublishedPack { return []content.PublishedPack{p[1], p[0]} }), reg.Resolution},
		{"a pack at another version", alter(func(p []content.PublishedPack) []content.PublishedPack { p[1].Version = "2.0.1"; return p }), reg.Resolution},
		{"a document not verified", alter(func(p []content.PublishedPack) []content.PublishedPack {
			p[0].Campaigns[0].Digest = "sha256:0"
			return p
		}), reg.Resolution},
		{"a campaign provided twice", alter(func(p []content.PublishedPack) []content.PublishedPack {
			p[0].Campaigns = append(p[0].Campaigns, p[1].Campaigns[0])
			return p
		}), reg.Resolution},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := content.VerifyPacks(tt.packs, entries, tt.resolution)
			var ve core.ValidationError
			if !errors.As(err, &ve) || ve.Code != core.ReasonInvalidState || ve.Details["check"] != "resolution" {
				t.Fatalf("got %v, want invalid_state (resolution)", err)
			}
		})
	}
}
