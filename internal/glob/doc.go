// Package glob compiles the rule patterns of toolgate into matchers with the
// seed rule semantics (picomatch with the dot and bash options):
//
//   - '*' (and '**') matches any run of characters, including '/', spaces
//     and leading dots;
//   - '?' matches one character;
//   - '[abc]', '[a-z]', '[!a]' / '[^a]' and POSIX classes like '[[:digit:]]'
//     match one character of a set;
//   - '{a,b}' matches either alternative (nested braces allowed);
//   - '\' escapes the next metacharacter;
//   - a leading '!' negates the whole pattern.
//
// Matching is case-sensitive. Extglobs such as '@(a|b)' are rejected at
// compile time rather than silently matched as literals, because a deny rule
// that never matches is worse than an error.
//
// A compiled Glob is immutable, safe for concurrent use and matches without
// allocating.
package glob
