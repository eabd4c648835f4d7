package sim

import (
	"encoding/json"
	"fmt"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
)

// ProfileDataVersion is the shape version of the kind's profile slice.
const ProfileDataVersion = 1

// MaxProfileBytes is the largest canonical slice the kind writes (§7.1).
const MaxProfileBytes = 65536

// Profile is the simulation kind's cross-game slice (§7.1): for every
// campaign, how many steps of each profile-scoped chain have fired in any
// game. It only ever grows, by maxima, so folding is idempotent.
type Profile struct {
	Campaigns map[string]map[string]int `json:"campaigns"`
}

// readProfile decodes a slice; anything unreadable is no history.
func readProfile(raw json.RawMessage) Profile {
	p := Profile{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return Profile{}
		}
	}
	return p
}

// ProfileVersion implements core.ProfileKind.
func (Kind) ProfileVersion() int { return ProfileDataVersion }

// FoldProfile implements core.ProfileKind: every chain_advanced change of a
// profile-scoped chain of c raises that chain's recorded step count to the
// change's value. It is pure and idempotent (maxima), and refuses a slice
// whose canonical form would exceed MaxProfileBytes.
func (Kind) FoldProfile(current json.RawMessage, c *core.Campaign, changes []core.StateChange) (json.RawMessage, error) {
	p := Profile{Campaigns: map[string]map[string]int{}}
	if len(current) > 0 {
		if err := json.Unmarshal(current, &p); err != nil {
			return nil, fmt.Errorf("sim: profile: %w", err)
		}
		if p.Campaigns == nil {
			p.Campaigns = map[string]map[string]int{}
		}
	}
	content := contentOf(c)
	for _, ch := range changes {
		if ch.Reason != ReasonChainAdvanced || len(ch.Path) < 7 || ch.Path[:6] != "chain." {
			continue
		}
		i, ok := content.index().chain[ch.Path[6:]]
		if !ok || content.Chains[i].Scope != ScopeProfile {
			continue
		}
		n, ok := intValue(ch.Value)
		if !ok || n <= 0 {
			continue
		}
		id := content.Chains[i].ID
		n = min(n, len(content.Chains[i].Steps))
		if p.Campaigns[c.ID] == nil {
			p.Campaigns[c.ID] = map[string]int{}
		}
		if n > p.Campaigns[c.ID][id] {
			p.Campaigns[c.ID][id] = n
		}
	}
	out, err := canon.Marshal(p)
	if err != nil {
		return nil, err
	}
	if len(out) > MaxProfileBytes {
		return nil, fmt.Errorf("sim: profile slice would be %d bytes, over %d", len(out), MaxProfileBytes)
	}
	return out, nil
}

// intValue reads a change's value as it arrives: an int from Advance, or a
// float64 after a JSON round trip.
func intValue(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case float64:
		if x == float64(int(x)) && x >= 0 && x <= 1<<20 {
			return int(x), true
		}
	}
	return 0, false
}

// MigrateProfile implements core.ProfileKind. There is only version 1.
func (Kind) MigrateProfile(data json.RawMessage, fromVersion int) (json.RawMessage, error) {
	return nil, fmt.Errorf("sim: no profile migration from version %d", fromVersion)
}
