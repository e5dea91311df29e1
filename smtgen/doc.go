// Package smtgen is polyfuzz's SMT domain: an SMT-LIB v2.6 reader and printer, a sort checker, an
// exact evaluator that no solver stands behind, and the STORM generator that recombines fragments
// of seed scripts into instances satisfiable by construction, with the oracles and reducer passes
// that need the evaluator. It imports only the standard library and the module's fuzz, reduce,
// genopts and sexpr packages, never a target.
//
// # Pieces
//
//   - [ParseScript], [ParseTerm], [ParseSort] read SMT-LIB; [Script.String] and [Term.String]
//     print it back (print then re-read gives the same tree).
//   - [Check] sort-checks a script into an [Env] of declarations and definitions.
//   - [Model.Eval] and [Model.Truth] evaluate terms exactly (big integers and rationals, any
//     bit-vector width, strings and regular expressions, arrays, uninterpreted functions as finite
//     tables), answering undecided ([ErrUndecided]) rather than guessing. Division by zero is a
//     one-argument table per operator (div0, mod0, /0); see docs/smt-evaluator.md.
//   - [NewSeed] and [LoadSeeds] prepare seed scripts; [New] makes the STORM [Generator].
//   - [SatOracle] and [ModelOracle] are the sat-by-construction and model-validation oracles,
//     [Reducer] the certificate-keeping reducer, [Format] prints cases and reproducers.
//   - [SelfCheck] compares the evaluator with a solver on random ground terms.
//
// # Cases
//
// A case has no setup: its RoleInstance query is a whole script (produce-models, set-logic, the
// seed's declarations, the assertions, check-sat or push/pop blocks) and its RoleModel query a
// get-value of the declared constants and partial applications. Params hold the model the
// assertions are true under (as define-funs, [ModelText]), the logic, the seed file and the mode.
package smtgen
