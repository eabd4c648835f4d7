package content

import (
	"maps"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// ManifestEntry names one built campaign document in a published manifest
// (§19): the campaign, its version and the digest of its form. File paths
// are transport details and take no part.
type ManifestEntry struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
}

// ManifestDigest digests the ordered entries of a manifest (§19's
// digestManifestResolution): it names a content set whose documents a host
// has each verified against its entry's digest.
func ManifestDigest(entries []ManifestEntry) (string, error) {
	if entries == nil {
		entries = []ManifestEntry{}
	}
	return canon.Digest(entries)
}

// Built returns the built document of every campaign of reg, in registry
// order: what an author's build publishes and a host restores without
// compiling source. reg must carry provenance (content.Build's does).
func Built(kinds []core.Kind, reg *core.Registry) ([]StoredEpoch, error) {
	a, err := NewArchive(kinds, reg)
	if err != nil {
		return nil, err
	}
	out := make([]StoredEpoch, 0, len(reg.Order))
	for _, id := range reg.Order {
		s, _ := a.Stored(id, reg.Campaigns[id].Version)
		out = append(out, s)
	}
	return out, nil
}

// VerifyBuilt reads a fetched built document and checks it is the one
// want names: it decodes strictly, its form digests to its own digest, and
// campaign, version and digest are the entry's. Anything else is refused
// with invalid_state, details naming the campaign and what failed
// ("check": "decode", "digest" or "entry"), and nothing is kept. A
// document that verifies but carries no provenance (no table of the
// strings its campaign authored, or no list of its attachments) is the
// build of no builder of this engine: it cannot be published (§10.1), so
// it is refused with content_provenance_missing, details naming the
// campaign.
func VerifyBuilt(data []byte, want ManifestEntry) (StoredEpoch, error) {
	refuse := func(check, format string, args ...any) (StoredEpoch, error) {
		e := core.Errorf(core.ReasonInvalidState, "", "built document of campaign %q: "+format, append([]any{want.ID}, args...)...)
		e.Details = map[string]any{"campaignId": want.ID, "campaignVersion": want.Version, "check": check}
		return StoredEpoch{}, e
	}
	if len(data) > MaxCampaignBytes {
		return refuse("decode", "larger than %d bytes", MaxCampaignBytes)
	}
	var s StoredEpoch
	if err := strictjson.Decode(data, &s); err != nil {
		return refuse("decode", "%v", err)
	}
	digest, err := EpochDigest(s.Form)
	if err != nil {
		return refuse("decode", "%v", err)
	}
	if digest != s.Digest {
		return refuse("digest", "its content digests to %s, not the %s it claims", digest, s.Digest)
	}
	if s.Form.Campaign.ID != want.ID || s.Form.Campaign.Version != want.Version || s.Digest != want.Digest {
		return refuse("entry", "it is %q %s (%s), the manifest names %q %s (%s)",
			s.Form.Campaign.ID, s.Form.Campaign.Version, s.Digest, want.ID, want.Version, want.Digest)
	}
	if s.Form.Strings == nil || s.Form.Attachments == nil {
		e := core.Errorf(core.ReasonContentProvenanceMissing, "form", "built document of campaign %q carries no provenance (the strings it authored and its attachments), so it cannot be published", want.ID)
		e.Details = map[string]any{"campaignId": want.ID, "campaignVersion": want.Version}
		return StoredEpoch{}, e
	}
	return s, nil
}

// FromBuilt is the registry of verified built documents, in order: what a
// host plays without compiling source. Each document's content is decoded
// and validated by its kind as it runs now; one whose kind is not
// registered or refuses it fails the registry, its errors naming the
// campaign.
func FromBuilt(kinds []core.Kind, docs ...StoredEpoch) (*core.Registry, core.ValidationResult) {
	b := newBuilder(kinds)
	r := &core.Registry{
		Campaigns:  map[string]*core.Campaign{},
		Strings:    maps.Clone(b.engineKeys),
		Catalogs:   map[string]map[core.LocKey]string{},
		Provenance: map[string]*core.Provenance{},
	}
	var errs []core.ValidationError
	for _, d := range docs {
		id := d.Form.Campaign.ID
		k := b.kinds[d.Form.Campaign.KindID]
		if k == nil {
			errs = append(errs, core.Errorf(core.ReasonUnknownKind, "kindId", "campaign %q: kind %q is not registered", id, d.Form.Campaign.KindID))
			continue
		}
		if _, dup := r.Campaigns[id]; dup {
			errs = append(errs, core.Errorf(core.ReasonDuplicateCampaignID, "id", "campaign id %q is built twice", id))
			continue
		}
		c, p, es := decodeForm(k, d.Form)
		if es != nil {
			for _, e := range es {
				e.Details = maps.Clone(e.Details)
				if e.Details == nil {
					e.Details = map[string]any{}
				}
				e.Details["campaignId"] = id
				errs = append(errs, e)
			}
			continue
		}
		r.Order = append(r.Order, id)
		r.Campaigns[id] = c
		r.Provenance[id] = p
		mergeStrings(r.Strings, r.Catalogs, p)
	}
	if errs != nil {
		return nil, core.ValidationResult{OK: false, Errors: errs}
	}
	return r, core.ValidationResult{OK: true}
}

// VerifyPacks checks a published pack set against the campaigns a host
// verified: every campaign a pack provides is one of entries (the same id,
// version and digest) and is provided once, and the packs digest to
// resolution (PackResolution). Anything else is refused with
// invalid_state, details naming the failed check ("resolution"), so that a
// host never plays a set other than the one the author resolved.
func VerifyPacks(packs []PublishedPack, entries []ManifestEntry, resolution string) error {
	refuse := func(format string, args ...any) error {
		e := core.Errorf(core.ReasonInvalidState, "resolution", "pack set: "+format, args...)
		e.Details = map[string]any{"check": "resolution"}
		return e
	}
	listed := map[ManifestEntry]bool{}
	for _, e := range entries {
		listed[e] = true
	}
	provided := map[string]string{}
	for _, p := range packs {
		for _, c := range p.Campaigns {
			if !listed[c] {
				return refuse("pack %q provides campaign %q %s (%s), which is not among the verified documents", p.ID, c.ID, c.Version, c.Digest)
			}
			if other, dup := provided[c.ID]; dup {
				return refuse("campaign %q is provided by pack %q and by pack %q", c.ID, other, p.ID)
			}
			provided[c.ID] = p.ID
		}
	}
	got, err := PackResolution(packs)
	if err != nil {
		return refuse("%v", err)
	}
	if got != resolution {
		return refuse("the packs digest to %s, not the resolution %s", got, resolution)
	}
	return nil
}
