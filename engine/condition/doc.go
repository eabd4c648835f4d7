// Package condition is the frozen Condition operator set (core specification
// §18) and its evaluator. The set is closed: the comparisons equals,
// not_equals, less_than, less_or_equal, greater_than, greater_or_equal, in,
// not_in, contains, has_tag and has_flag; the combinators all, any and not;
// and the quantifiers exists and count. The evaluator knows no field
// vocabulary: a kind supplies a Resolver that maps field paths and
// collection names to values.
package condition
