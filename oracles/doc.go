// Package oracles holds the checks that know no language: count relations (NoREC), partition
// relations (the TLP family over WHERE, HAVING, DISTINCT and GROUP BY, and TLPAgg over
// aggregates), differentials between engines (Answers over one-cell answers, Rows over rows), and
// the classification of crashes, hangs and unexpected engine errors. Each finds a case's queries by
// the roles of a layout (fuzz.NoREC, the fuzz.TLPWhere family, or layouts the domain passes in)
// and returns a fuzz.Verdict. Titles are
// "oracle: engine: summary" with literals stripped. This package imports only fuzz.
package oracles
