// Package fuzz holds the contracts every polyfuzz domain shares: a [Case] is one test as plain data,
// a [Target] executes its text on one engine and answers with [Result]s, an [Oracle] compares the
// [Run]s of a case and may return a [Finding], and a [Reducer] shrinks a case while the finding
// stays. It imports nothing of the module and only the standard library.
package fuzz
