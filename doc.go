// Package polyfuzz is the root of the polyfuzz module. It holds the project's own seed sets, which
// the command embeds so that it runs without any other file, and the test that checks the import
// rules of the architecture. The command is cmd/polyfuzz.
package polyfuzz

import "embed"

// SMTSeeds holds the project's own SMT-LIB seed scripts under testdata/smt, the default seeds of
// `polyfuzz smt`.
//
//go:embed testdata/smt/*.smt2
var SMTSeeds embed.FS
