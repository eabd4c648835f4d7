package core

import (
	"encoding/json"
	"strings"
)

// CampaignRef pins a campaign at its authored version (§10.4).
type CampaignRef struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// Include is one module a campaign composes in at registry build (§10.4):
// the alias its ids take in the host (composed ids read "<alias>::<id>"),
// the campaign and authored version it pins, and the kind's binding, opaque
// to the core.
type Include struct {
	Alias   string          `json:"alias"`
	Ref     CampaignRef     `json:"ref"`
	Binding json.RawMessage `json:"binding,omitempty"`
}

// Attachment is an include a content pack adds to a campaign it does not
// own (§10.4): the host it attaches to, the include, and the kind's payload
// saying where in the host the module is reached from.
type Attachment struct {
	HostCampaignID string          `json:"hostCampaignId"`
	Include        Include         `json:"include"`
	Payload        json.RawMessage `json:"payload,omitempty"`
}

// ComposedModule is what Composer.ComposeContent receives per module: the
// include as declared, and the module campaign already composed, its own
// includes and attachments merged in.
type ComposedModule struct {
	Include  Include
	Campaign *Campaign
}

// ComposedAttachment is one attachment with its module, composed.
type ComposedAttachment struct {
	Payload json.RawMessage
	Module  ComposedModule
}

// Composer is implemented by a kind that can merge included modules and
// pack attachments into a host campaign's content (§3, composeContent). A
// campaign of a kind without it that declares includes or receives an
// attachment is refused with compose_unsupported.
//
// ComposeContent is called once per host, before ValidateCampaign, with
// every module already composed, so it merges one level only. It is pure
// over content and must not change host or a module; the content it returns
// replaces the host's and is what validation and play see. Problems with a
// binding or a payload are returned as errs, with paths under
// "includes[i].binding" or "attachments[i].payload".
type Composer interface {
	ComposeContent(host *Campaign, modules []ComposedModule, attachments []ComposedAttachment) (content any, errs []ValidationError)
}

// ComposedSeparator joins an include alias to a module's id (§17).
const ComposedSeparator = "::"

// ComposeID returns the id a module's id takes in a host that includes the
// module under alias.
func ComposeID(alias, id string) string { return alias + ComposedSeparator + id }

// IsComposedID reports whether s is an id of the shape valid (the
// authored shape of its category, e.g. IsSnakeID), possibly composed: zero
// or more aliases, each followed by "::", then such an id.
func IsComposedID(s string, valid func(string) bool) bool {
	parts := strings.Split(s, ComposedSeparator)
	for _, alias := range parts[:len(parts)-1] {
		if !IsAlias(alias) {
			return false
		}
	}
	return valid(parts[len(parts)-1])
}

// IsAlias reports whether a is an include alias: 1 to 64 characters of
// ASCII [a-z0-9_-] (so never ':', which joins an alias to an id).
func IsAlias(a string) bool {
	if a == "" || len(a) > 64 {
		return false
	}
	for i := 0; i < len(a); i++ {
		if !isIDChar(a[i]) {
			return false
		}
	}
	return true
}
