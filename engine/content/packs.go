package content

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// PackFormat is the pack manifest format version this build reads.
const PackFormat = 1

// Pack is one content pack's files, as bytes: its manifest and its
// campaigns (docs/campaign-format.md, "Packs").
type Pack struct {
	// Path names the manifest in messages, e.g. "packs/bell-tower/pack.json".
	Path string
	// Manifest is the pack.json file.
	Manifest []byte
	// Campaigns are the pack's own campaigns.
	Campaigns []Source
}

// PackRef pins a pack at a version.
type PackRef struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// packFile is a pack manifest.
type packFile struct {
	Format      *int              `json:"format"`
	ID          string            `json:"id"`
	Version     string            `json:"version"`
	Kind        string            `json:"kind"`
	Requires    []PackRef         `json:"requires,omitempty"`
	Overrides   []string          `json:"overrides,omitempty"`
	Attachments []core.Attachment `json:"attachments,omitempty"`
}

// pack is one pack through resolution.
type pack struct {
	Pack
	packFile
	// state is 0 before ordering, composing while its requirements are
	// being ordered, then composed.
	state int
}

// BuildPacks resolves an ordered pack set and builds the registry it folds
// to (§10.1, §11); it is ResolvePacks without the published packs.
func BuildPacks(kinds []core.Kind, packs ...Pack) (*core.Registry, core.ValidationResult) {
	reg, _, res := ResolvePacks(kinds, packs...)
	return reg, res
}

// PublishedPack is one pack of a resolved set as a built site publishes
// it: the pack's id and version and the manifest entry of each campaign it
// provides in the folded registry, in registry order.
type PublishedPack struct {
	ID        string          `json:"id"`
	Version   string          `json:"version"`
	Campaigns []ManifestEntry `json:"campaigns"`
}

// ResolvePacks resolves an ordered pack set and builds the registry it
// folds to (§10.1, §11), with the packs in resolution order as a build
// publishes them. Resolution checks the manifests, orders the packs so
// that each comes after the packs it requires (otherwise keeping the given
// order), and folds their campaigns: a campaign whose id an earlier pack
// provides replaces it only when the later pack declares it in overrides.
// Its reason codes: pack_dependency_missing, pack_dependency_version_conflict,
// pack_dependency_cycle, pack_kind_mismatch, duplicate_campaign_id_in_pack,
// pack_override_unexpected. The folded campaigns, with every pack's
// attachments in pack order, then build as Build builds sources, and the
// registry's Resolution names the set (PackResolution of the published
// packs).
func ResolvePacks(kinds []core.Kind, packs ...Pack) (*core.Registry, []PublishedPack, core.ValidationResult) {
	b := newBuilder(kinds)
	byID := map[string]*pack{}
	var set []*pack
	for _, p := range packs {
		pk, ok := b.manifest(p)
		if !ok {
			continue
		}
		if _, dup := byID[pk.ID]; dup {
			b.fail(Source{Path: p.Path}, "", core.Errorf(core.ReasonInvalidIdentifier, "id", "pack %q is in the set twice", pk.ID))
			continue
		}
		byID[pk.ID] = pk
		set = append(set, pk)
	}
	var order []*pack
	for _, pk := range set {
		b.orderPack(pk, byID, &order)
	}
	sources, from, attachments := b.fold(order)
	if len(b.errors) > 0 {
		return nil, nil, b.result()
	}
	reg, res := build(kinds, sources, attachments)
	if reg == nil {
		return nil, nil, res
	}
	published, err := publishedPacks(reg, order, from)
	if err == nil {
		reg.Resolution, err = PackResolution(published)
	}
	if err != nil {
		res.OK, res.Errors = false, []core.ValidationError{core.Errorf(core.ReasonInvalidState, "", "the pack set does not encode: %v", err)}
		return nil, nil, res
	}
	return reg, published, res
}

// PackResolution is the digest naming a folded pack set: each pack's id
// and version with the id, version and epoch digest of each campaign it
// provides, in resolution order. A host that verified each campaign's
// built document against its entry recomputes it from the published packs
// and compares it with the resolution the site names.
func PackResolution(packs []PublishedPack) (string, error) {
	ident := make([]PublishedPack, 0, len(packs))
	for _, p := range packs {
		if p.Campaigns == nil {
			p.Campaigns = []ManifestEntry{}
		}
		ident = append(ident, p)
	}
	return canon.Digest(ident)
}

// publishedPacks lists the ordered packs with the manifest entry of each
// campaign of reg they provide. from names the pack of each campaign of
// reg, in registry order.
func publishedPacks(reg *core.Registry, order []*pack, from []*pack) ([]PublishedPack, error) {
	provided := map[*pack][]ManifestEntry{}
	for i, id := range reg.Order {
		c := reg.Campaigns[id]
		form, err := formOf(c, reg.Provenance[id])
		if err != nil {
			return nil, err
		}
		digest, err := EpochDigest(form)
		if err != nil {
			return nil, err
		}
		provided[from[i]] = append(provided[from[i]], ManifestEntry{ID: id, Version: c.Version, Digest: digest})
	}
	out := make([]PublishedPack, 0, len(order))
	for _, pk := range order {
		out = append(out, PublishedPack{ID: pk.ID, Version: pk.Version, Campaigns: provided[pk]})
	}
	return out, nil
}

// manifest reads one pack's manifest.
func (b *builder) manifest(p Pack) (*pack, bool) {
	src := Source{Path: p.Path}
	var f packFile
	if err := strictjson.Decode(p.Manifest, &f); err != nil {
		b.fail(src, "", core.Errorf(core.ReasonMalformedInput, "", "not a pack manifest: %v", err))
		return nil, false
	}
	before := len(b.errors)
	switch {
	case f.Format == nil:
		b.fail(src, "", core.Errorf(core.ReasonMalformedInput, "format", "missing format (this build reads pack format %d)", PackFormat))
	case *f.Format != PackFormat:
		b.fail(src, "", core.Errorf(core.ReasonUnsupportedVersion, "format", "pack format %d is not supported; this build reads format %d", *f.Format, PackFormat))
	}
	if !core.IsCampaignID(f.ID) {
		b.fail(src, "", core.Errorf(core.ReasonInvalidIdentifier, "id", "pack id %q must be kebab-case ASCII [a-z0-9-]", f.ID))
	}
	if !core.IsVersion(f.Version) {
		b.fail(src, "", core.Errorf(core.ReasonInvalidIdentifier, "version", "version %q must be 1–64 characters of [A-Za-z0-9.+-]", f.Version))
	}
	if b.kinds[f.Kind] == nil {
		b.fail(src, "", core.Errorf(core.ReasonUnknownKind, "kind", "kind %q is not one of %s", f.Kind, b.kindNames()))
	}
	return &pack{Pack: p, packFile: f}, len(b.errors) == before
}

// orderPack appends pk to order after the packs it requires, checking
// each requirement: present (pack_dependency_missing), at the pinned
// version (pack_dependency_version_conflict), and not requiring pk back
// (pack_dependency_cycle).
func (b *builder) orderPack(pk *pack, byID map[string]*pack, order *[]*pack) {
	if pk.state != 0 {
		return
	}
	pk.state = composing
	for i, req := range pk.Requires {
		path := fmt.Sprintf("requires[%d]", i)
		dep := byID[req.ID]
		switch {
		case dep == nil:
			b.fail(Source{Path: pk.Path}, "", core.Errorf(core.ReasonPackDependencyMissing, path+".id", "pack %q requires pack %q, which is not in the set", pk.ID, req.ID))
		case dep.Version != req.Version:
			b.fail(Source{Path: pk.Path}, "", core.Errorf(core.ReasonPackDependencyVersionConflict, path+".version", "pack %q requires %q at %s but the set has %s", pk.ID, req.ID, req.Version, dep.Version))
		case dep.state == composing:
			b.fail(Source{Path: pk.Path}, "", core.Errorf(core.ReasonPackDependencyCycle, path+".id", "pack %q requires itself through %q", pk.ID, req.ID))
		default:
			b.orderPack(dep, byID, order)
		}
	}
	pk.state = composed
	*order = append(*order, pk)
}

// fold returns the campaigns of the ordered packs, an overriding campaign
// in the place of the one it replaces, with the pack each came from, and
// every pack's attachments in pack order.
func (b *builder) fold(order []*pack) ([]Source, []*pack, []attached) {
	var sources []Source
	var from []*pack
	provider := map[string]int{} // campaign id → its index in sources
	var attachments []attached
	for _, pk := range order {
		mine := map[string]bool{}
		overridden := map[string]bool{}
		for _, src := range pk.Campaigns {
			var head struct {
				ID   string `json:"id"`
				Kind string `json:"kind"`
			}
			if json.Unmarshal(src.Campaign, &head) != nil {
				sources, from = append(sources, src), append(from, pk) // the build reports it
				continue
			}
			switch {
			case head.Kind != pk.Kind:
				b.fail(src, head.ID, core.Errorf(core.ReasonPackKindMismatch, "kind", "pack %q is a %s pack; campaign %q is %s", pk.ID, pk.Kind, head.ID, head.Kind))
			case mine[head.ID]:
				b.fail(src, head.ID, core.Errorf(core.ReasonDuplicateCampaignIDInPack, "id", "pack %q holds campaign %q twice", pk.ID, head.ID))
			case provider[head.ID] > 0 && !slices.Contains(pk.Overrides, head.ID):
				b.fail(src, head.ID, core.Errorf(core.ReasonPackOverrideUnexpected, "id", "campaign %q replaces one an earlier pack provides, but pack %q does not list it in overrides", head.ID, pk.ID))
			case provider[head.ID] > 0:
				sources[provider[head.ID]-1], from[provider[head.ID]-1] = src, pk
				overridden[head.ID] = true
			default:
				sources, from = append(sources, src), append(from, pk)
				provider[head.ID] = len(sources)
			}
			mine[head.ID] = true
		}
		for i, id := range pk.Overrides {
			if !overridden[id] {
				b.fail(Source{Path: pk.Path}, "", core.Errorf(core.ReasonPackOverrideUnexpected, fmt.Sprintf("overrides[%d]", i), "pack %q overrides %q, which no earlier pack provides or this pack does not hold", pk.ID, id))
			}
		}
		for i, a := range pk.Attachments {
			attachments = append(attachments, attached{Attachment: a, file: pk.Path, index: i})
		}
	}
	return sources, from, attachments
}
