// Package validate runs tiered validation (core specification §11) and
// reports findings an author can act on, each with the path of the element
// it is about.
//
// Tier 1 errors refuse a campaign at load; tier 2 warnings load but flag;
// tier 3 is a bounded reachability search over the campaign's state space
// (unreachable content, endings no path reaches, dead ends, states from which
// no ending can be reached), found by exploring, not reading. A kind opts in
// to tier 3 by implementing Explorable.
package validate
