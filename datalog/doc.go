// Package datalog models Datalog programs for fuzzing Datalog engines.
//
// It currently holds the intermediate representation of a program
// (relations, rules, atoms, terms and constraints), a parser for the
// canonical text form, a Soufflé-compatible subset, with positioned and
// actionable error messages, the stratification of a program into
// evaluation layers, and a printer of the canonical form that
// round-trips through the parser.
//
// It will also hold the reference engine that evaluates programs, the
// random program generator, the metamorphic transformations, the
// reducer passes and the printers for the dialects of the engines under
// test.
package datalog
