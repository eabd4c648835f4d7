package site

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// Published is what a native host reads of a built site: the verified
// built documents and the pack set they resolve.
type Published struct {
	// Docs are the documents that verify, in index order.
	Docs []content.StoredEpoch
	// Refused are the documents that do not (invalid_state with the failed
	// check, or content_provenance_missing); the others play.
	Refused []error
	// Resolution is the digest of the site's pack set, verified against
	// the packs it publishes, or empty when it publishes no pack.
	Resolution string
}

// Registry is the registry of the verified documents (content.FromBuilt),
// with the pack set's resolution: what a host plays without compiling
// source. It fails when no document verifies or one does not decode.
func (p Published) Registry(kinds []core.Kind) (*core.Registry, error) {
	if len(p.Docs) == 0 {
		return nil, fmt.Errorf("no built document verifies: %w", errors.Join(p.Refused...))
	}
	reg, res := content.FromBuilt(kinds, p.Docs...)
	if reg == nil {
		errs := make([]error, len(res.Errors))
		for i, e := range res.Errors {
			errs[i] = e
		}
		return nil, fmt.Errorf("the built documents do not decode: %w", errors.Join(errs...))
	}
	reg.Resolution = p.Resolution
	return reg, nil
}

// ReadBuilt reads the built campaign documents of a site [Build] wrote
// into dir (dir/campaigns/index.json and the documents it names), as a
// native host plays them without compiling source. The index's entries
// must digest to its manifestDigest and its packs to its resolution
// (content.VerifyPacks), else nothing is read. Each document is verified
// against its entry (content.VerifyBuilt): those that verify are
// returned, and each one that does not is in Refused, with invalid_state
// and the failed check (or content_provenance_missing), leaving the others
// playable.
func ReadBuilt(dir string) (Published, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(CampaignsIdx)))
	if err != nil {
		return Published{}, fmt.Errorf("%s holds no built site (go run ./bundle build -out %s writes one): %w", dir, dir, err)
	}
	var idx struct {
		Campaigns      []campaignEntry         `json:"campaigns"`
		ManifestDigest string                  `json:"manifestDigest"`
		Packs          []content.PublishedPack `json:"packs"`
		Resolution     string                  `json:"resolution"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return Published{}, core.Errorf(core.ReasonMalformedInput, "", "%s: %v", CampaignsIdx, err)
	}
	entries := make([]content.ManifestEntry, 0, len(idx.Campaigns))
	for _, c := range idx.Campaigns {
		entries = append(entries, content.ManifestEntry{ID: c.CampaignID, Version: c.Version, Digest: c.Digest})
	}
	if len(entries) == 0 {
		return Published{}, core.Errorf(core.ReasonMalformedInput, "", "%s names no built campaign documents", CampaignsIdx)
	}
	if got, err := content.ManifestDigest(entries); err != nil || got != idx.ManifestDigest {
		return Published{}, core.Errorf(core.ReasonInvalidState, "manifestDigest", "%s: its entries digest to %s, not the manifest digest %s", CampaignsIdx, got, idx.ManifestDigest)
	}
	if idx.Packs != nil || idx.Resolution != "" {
		if err := content.VerifyPacks(idx.Packs, entries, idx.Resolution); err != nil {
			return Published{}, fmt.Errorf("%s: %w", CampaignsIdx, err)
		}
	}
	p := Published{Resolution: idx.Resolution}
	for i, c := range idx.Campaigns {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c.Built)))
		if err != nil {
			return Published{}, err
		}
		doc, err := content.VerifyBuilt(data, entries[i])
		if err != nil {
			p.Refused = append(p.Refused, err)
			continue
		}
		p.Docs = append(p.Docs, doc)
	}
	return p, nil
}
