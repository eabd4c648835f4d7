package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
)

// ReadBuilt reads the built campaign documents of a site [Build] wrote
// into dir (dir/campaigns/index.json and the documents it names), as a
// native host plays them without compiling source. The index's entries
// must digest to its manifestDigest, else nothing is read. Each document
// is verified against its entry (content.VerifyBuilt): those that verify
// are returned in index order, and each one that does not is in refused,
// with invalid_state and the failed check, leaving the others playable.
func ReadBuilt(dir string) (docs []content.StoredEpoch, refused []error, err error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(CampaignsIdx)))
	if err != nil {
		return nil, nil, fmt.Errorf("%s holds no built site (go run ./bundle build -out %s writes one): %w", dir, dir, err)
	}
	var idx struct {
		Campaigns      []campaignEntry `json:"campaigns"`
		ManifestDigest string          `json:"manifestDigest"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, nil, core.Errorf(core.ReasonMalformedInput, "", "%s: %v", CampaignsIdx, err)
	}
	var entries []content.ManifestEntry
	for _, c := range idx.Campaigns {
		if c.Built != "" {
			entries = append(entries, content.ManifestEntry{ID: c.CampaignID, Version: c.Version, Digest: c.Digest})
		}
	}
	if len(entries) == 0 {
		return nil, nil, core.Errorf(core.ReasonMalformedInput, "", "%s names no built campaign documents: the campaigns did not build", CampaignsIdx)
	}
	if got, err := content.ManifestDigest(entries); err != nil || got != idx.ManifestDigest {
		return nil, nil, core.Errorf(core.ReasonInvalidState, "manifestDigest", "%s: its entries digest to %s, not the manifest digest %s", CampaignsIdx, got, idx.ManifestDigest)
	}
	for _, c := range idx.Campaigns {
		if c.Built == "" {
			continue
		}
		want := content.ManifestEntry{ID: c.CampaignID, Version: c.Version, Digest: c.Digest}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c.Built)))
		if err != nil {
			return nil, nil, err
		}
		doc, err := content.VerifyBuilt(data, want)
		if err != nil {
			refused = append(refused, err)
			continue
		}
		docs = append(docs, doc)
	}
	return docs, refused, nil
}
