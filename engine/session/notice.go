package session

import "github.com/storyloom/storyloom/engine/core"

// Outcomes of a ContentNotice.
const (
	// NoticeAdopted: the game moved onto the campaign's current version.
	NoticeAdopted = "adopted"
	// NoticeMigrated: a save made under a version this host no longer
	// holds was carried over by the campaign's declared migration.
	NoticeMigrated = "migrated"
	// NoticeKept: the current version cannot take the game over (Reason
	// says why), so it goes on playing the version it was on.
	NoticeKept = "kept"
)

// ContentNotice tells a player what a content update did to their game at
// ResumeSession (Resume) or LoadGame: it was adopted onto the new version,
// migrated onto it, or kept on its own. Message is what a client shows,
// rendered like any outcome message through the session's string table.
type ContentNotice struct {
	Outcome    string `json:"outcome"`
	CampaignID string `json:"campaignId"`
	// From is the version the game was on; To the version offered (kept)
	// or reached (adopted, migrated).
	From string `json:"from"`
	To   string `json:"to"`
	// Reason is the adoption's refusal code when Outcome is kept.
	Reason  string              `json:"reason,omitempty"`
	Message core.OutcomeMessage `json:"message"`
}

var noticeKeys = map[string]core.LocKey{
	NoticeAdopted:  core.NoticeContentAdopted,
	NoticeMigrated: core.NoticeContentMigrated,
	NoticeKept:     core.NoticeContentKept,
}

func newNotice(outcome, campaignID, from, to, reason string) *ContentNotice {
	tone := core.ToneNeutral
	if outcome == NoticeKept {
		tone = core.ToneNegative
	}
	return &ContentNotice{
		Outcome: outcome, CampaignID: campaignID, From: from, To: to, Reason: reason,
		Message: core.OutcomeMessage{Key: noticeKeys[outcome], Params: map[string]any{"from": from, "to": to}, Tone: tone, Visible: true},
	}
}

// notices lists the non-nil notices in order.
func notices(ns ...*ContentNotice) []ContentNotice {
	var out []ContentNotice
	for _, n := range ns {
		if n != nil {
			out = append(out, *n)
		}
	}
	return out
}
