package graphdom

import (
	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
)

// logicOracles are the oracles that shape a graph case's queries; a campaign needs one.
var logicOracles = []string{"diff", "tlp-where", "state", "genie", "grev"}

// rewriteOracle returns the oracle of GraphGenie's rewrites ("genie") or GRev's path covers
// ("grev"): on each engine, the rewrite's rows equal, contain or are contained in the query's
// as its role says, the reference checked first; explain (nil: none) is the catalogue explaining
// findings.
func rewriteOracle(name string, explain explainer) fuzz.Oracle {
	rels := map[string]string{cyphergen.GRev.Role("eq"): oracles.RelEqual}
	if name == "genie" {
		rels = map[string]string{
			cyphergen.Genie.Role("eq"):    oracles.RelEqual,
			cyphergen.Genie.Role("super"): oracles.RelSubset,   // the query's rows are a subset of the rewrite's
			cyphergen.Genie.Role("sub"):   oracles.RelSuperset, // and a superset of these
		}
	}
	var o fuzz.Oracle = oracles.Rewrite{Label: name, Orig: cyphergen.RoleQuery, Rels: rels, Reference: "ref", Show: show}
	if explain != nil {
		o = oracles.Known{Oracle: o, Explain: explain}
	}
	return o
}
