package main

import (
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/sim"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/kinds/world"
)

// registeredKinds is the fixed set of kinds every native host plays,
// registered explicitly here and nowhere else.
func registeredKinds() []core.Kind {
	return []core.Kind{story.Kind{}, sim.Kind{}, world.Kind{}}
}
