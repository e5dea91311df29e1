package datalog

// FreshVars returns a source of variable names unused in r (A, B, ..., Z, A1, ...), one new name
// per call, for the Micro transformations and for rewrites of r outside this package.
func FreshVars(r Rule) func() string { return freshVars(r) }

// RuleSafe reports whether every variable of r's head, negated atoms and constraints occurs in a
// positive body atom.
func RuleSafe(r Rule) bool { return ruleSafe(r) }

// AttrName returns the name of the i-th attribute of a generated relation: a, b, ..., z, a26, ...
func AttrName(i int) string { return attrName(i) }
