package freeport

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
)

// Derived Player Names (ADR-0022, ADR-0023): two words computed from the
// Player ID alone, so an unnamed Player discloses no more than its ID does.

func nameAdjectives() []string {
	return []string{
		"Amber", "Ashen", "Azure", "Brass", "Brine", "Bronze", "Calm", "Cedar",
		"Cobalt", "Copper", "Coral", "Crimson", "Dusky", "Ember", "Fair", "Foggy",
		"Gilded", "Golden", "Granite", "Grey", "Hazel", "Indigo", "Iron", "Ivory",
		"Jade", "Keen", "Lantern", "Lucky", "Misty", "Moonlit", "Mossy", "Nimble",
		"Ochre", "Olive", "Pearl", "Pewter", "Quiet", "Rapid", "Rusty", "Saffron",
		"Salted", "Scarlet", "Silver", "Slate", "Smoky", "Stormy", "Sunny", "Swift",
		"Tarry", "Tawny", "Teal", "Tidal", "Umber", "Velvet", "Verdant", "Violet",
		"Wandering", "Weathered", "Whistling", "Wild", "Windward", "Wise", "Young", "Zesty",
	}
}

func nameNouns() []string {
	return []string{
		"Albatross", "Anchor", "Barnacle", "Barque", "Beacon", "Bosun", "Buoy", "Capstan",
		"Cormorant", "Corsair", "Cutter", "Dinghy", "Dolphin", "Dory", "Ferry", "Gannet",
		"Galleon", "Gull", "Harbour", "Harpoon", "Heron", "Hull", "Jetty", "Junk",
		"Keel", "Kestrel", "Ketch", "Kraken", "Lighthouse", "Lugger", "Mainsail", "Mariner",
		"Marlin", "Mast", "Narwhal", "Oar", "Otter", "Pelican", "Petrel", "Pilot",
		"Plover", "Puffin", "Quay", "Rigger", "Rudder", "Schooner", "Seal", "Sextant",
		"Shanty", "Skiff", "Sloop", "Spinnaker", "Starling", "Storm", "Tern", "Tide",
		"Trawler", "Wake", "Walrus", "Warden", "Wharf", "Whaler", "Windlass", "Yawl",
	}
}

// DerivedName returns the two-word name computed from a Player ID, the
// name the Standing prints for a Player without a Trading Name (unless it
// collides with another name and carries a bracketed digest fragment). It
// is a pure function of the ID, so a client may compute it too.
func DerivedName(playerID string) string {
	h := sha256.Sum256([]byte("freeport-name\x00" + playerID))
	adj, noun := nameAdjectives(), nameNouns()
	return adj[binary.BigEndian.Uint16(h[0:2])%uint16(len(adj))] + " " + noun[binary.BigEndian.Uint16(h[2:4])%uint16(len(noun))]
}

func nameFragment(playerID string) string {
	h := sha256.Sum256([]byte("freeport-fragment\x00" + playerID))
	return hex.EncodeToString(h[:])
}

// playerNames returns the playerName of every Player, by ordinal. A Player
// prints its Trading Name if it set one, else its derived name. Names that
// collide (compared case-insensitively) are separated by a digest fragment
// in brackets, and a claim yields: a lone derived name keeps its plain form
// and every claim colliding with it is marked; two colliding claims both
// yield, as do two colliding derived names.
func (s *State) playerNames() []string {
	n := s.players.Len()
	base := make([]string, n)
	claimed := make([]bool, n)
	groups := map[string][]int{}
	for i := 0; i < n; i++ {
		p := s.player(i)
		base[i], claimed[i] = p.tradingName, p.tradingName != ""
		if !claimed[i] {
			base[i] = DerivedName(p.id)
		}
		k := strings.ToLower(base[i])
		groups[k] = append(groups[k], i)
	}
	out := append([]string(nil), base...)
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		derived := 0
		for _, i := range g {
			if !claimed[i] {
				derived++
			}
		}
		var marked []int
		for _, i := range g {
			if claimed[i] || derived > 1 {
				marked = append(marked, i)
			}
		}
		// Lengthen the fragment until it separates every marked name.
		for width := 4; width <= 64; width += 2 {
			seen := map[string]bool{}
			unique := true
			for _, i := range marked {
				f := nameFragment(s.player(i).id)[:width]
				unique = unique && !seen[f]
				seen[f] = true
			}
			if unique || width == 64 {
				for _, i := range marked {
					out[i] = base[i] + " [" + nameFragment(s.player(i).id)[:width] + "]"
				}
				break
			}
		}
	}
	return out
}
