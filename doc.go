// Package polyfuzz is the root of the polyfuzz module; it holds only the test that checks the
// import rules of the architecture. The command is cmd/polyfuzz.
package polyfuzz
