// Package oracles holds the checks that know no language: count relations (NoREC), partition
// relations (the TLP family over WHERE, HAVING, DISTINCT and GROUP BY, and TLPAgg over
// aggregates), differentials between engines (Answers over one-cell answers, Rows over rows), and
// the classification of crashes, hangs and unexpected engine errors. Each reads the query roles of
// a case's layout, which the domain's generator documents, and returns a fuzz.Verdict. Titles are
// "oracle: engine: summary" with literals stripped. This package imports only fuzz.
package oracles
