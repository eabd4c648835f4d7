package main

import "github.com/storyloom/storyloom/engine/core"

// registeredKinds is the fixed set of kinds every native host plays,
// registered explicitly here and nowhere else.
func registeredKinds() []core.Kind {
	return []core.Kind{}
}
