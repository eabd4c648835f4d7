package content

import "github.com/storyloom/storyloom/engine/core"

// Reopened is the content a host starts from: every epoch it kept and
// could restore, with the campaigns it serves now published last.
type Reopened struct {
	// Archive resolves every held epoch; its Current names each campaign's
	// version in the registry the host serves now.
	Archive *Archive
	// Persist are the epochs of that registry the host must store: those
	// it had not stored, or had stored with other content.
	Persist []StoredEpoch
	// Warnings say what did not come back, one per stored epoch:
	// epoch_unsupported (restore's own warning, with its details) or
	// content_version_conflict (the host stored other content under a
	// version it now serves, which wins).
	Warnings []core.ValidationWarning
}

// Reopen builds the archive a host plays from at start (§4, §10.1): current
// (the registry it serves now) is published, then each stored epoch (what
// the host persisted from earlier runs, in any order) is restored beside it.
// Games and saves made under a restored epoch go on playing it, and adopt
// or stay at their adoption points. A current registry that cannot be
// published is an error.
func Reopen(kinds []core.Kind, current *core.Registry, stored []StoredEpoch) (*Reopened, error) {
	a, err := NewArchive(kinds, current)
	if err != nil {
		return nil, err
	}
	out := &Reopened{Archive: a}
	kept := map[EpochRef]string{}
	for _, s := range stored {
		ref := EpochRef{CampaignID: s.Form.Campaign.ID, CampaignVersion: s.Form.Campaign.Version}
		kept[ref] = s.Digest
		r := a.Restore(s)
		switch r.Outcome {
		case Restored, Unsupported:
			out.Warnings = append(out.Warnings, r.Warnings...)
		default:
			if held, ok := a.Stored(ref.CampaignID, ref.CampaignVersion); ok && held.Digest != s.Digest {
				w := core.Errorf(core.ReasonContentVersionConflict, "", "campaign %q version %s was kept with other content; "+
					"games on it now play the content served (publish a changed campaign under a new version)", ref.CampaignID, ref.CampaignVersion)
				w.Details = map[string]any{"campaignId": ref.CampaignID, "campaignVersion": ref.CampaignVersion}
				out.Warnings = append(out.Warnings, w)
				continue
			}
			out.Warnings = append(out.Warnings, r.Errors...)
		}
	}
	for _, id := range current.Order {
		ref := EpochRef{CampaignID: id, CampaignVersion: current.Campaigns[id].Version}
		s, _ := a.Stored(ref.CampaignID, ref.CampaignVersion)
		if kept[ref] != s.Digest {
			out.Persist = append(out.Persist, s)
		}
	}
	return out, nil
}
