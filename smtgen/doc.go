// Package smtgen is polyfuzz's SMT domain: an SMT-LIB v2.6 reader and printer, a sort checker, an
// exact evaluator that no solver stands behind, and the STORM generator that recombines fragments
// of seed scripts into instances satisfiable by construction, with the oracles and reducer passes
// that need the evaluator. It imports only the standard library and the module's fuzz and reduce
// packages, never a target.
package smtgen
