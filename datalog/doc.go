// Package datalog tests Datalog engines.
//
// It holds the intermediate representation of a program (relations, rules, atoms, terms and
// comparisons), a parser for the canonical text form (a Soufflé-compatible subset) with positioned
// errors, stratification, and a printer that round-trips through the parser; the reference engine
// (Eval: semi-naive evaluation with stratified negation and indexed joins, proof trees, incremental
// maintenance; Reference, the "ref" target); the queryFuzz program generator and its rule
// transformations with their expected relations (Generate, Transform, Generator); the dialects
// that translate programs for engines (MuZ, SWIProlog, Clingo, Souffle) and the evaluator that
// runs programs in SQL engines (SQLEngine); and the provenance-guided reducer (Reducer).
package datalog
