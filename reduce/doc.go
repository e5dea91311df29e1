// Package reduce holds the language-free core of test-case reduction: ddmin over a sequence and a
// fixpoint driver for passes. Domains contribute passes that parse, shrink and print their own text;
// every candidate is judged by a keep predicate that re-runs the engine and the oracle.
package reduce
