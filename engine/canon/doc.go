// Package canon is Storyloom's canonical JSON: one byte sequence for one
// value, so that serialized states can be compared byte for byte and hashed.
//
// The canonical form of a JSON value is:
//   - objects with their members sorted by key, comparing keys as sequences
//     of UTF-16 code units (JavaScript's default sort), and no duplicate keys;
//   - no insignificant whitespace;
//   - strings with only '"', '\\' and the control characters escaped, the
//     latter as \b \f \n \r \t or \u00xx (lower-case hex), everything else as
//     raw UTF-8;
//   - numbers in one form: an integral value of magnitude below 2^53 as
//     plain decimal digits (negative zero as 0), any other value as
//     JavaScript's Number.prototype.toString prints it.
//
// Digests are the lower-case hex SHA-256 of the canonical bytes.
//
// Marshal reaches the canonical form through encoding/json and
// Canonicalize. A type on a hot path writes it itself instead, as an
// Appender, with this package's writers: Object for an object's members
// in key order (its Opt… methods follow encoding/json's omitempty),
// AppendList, AppendMap, AppendStrings, AppendInts, AppendString,
// AppendInt and AppendRaw for values. That is the engine's one way of
// writing JSON by hand; package canontest checks such an encoder
// against encoding/json.
package canon
