package localize

import (
	"fmt"
	"slices"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// RuleChange is a program edit encoded as a fact update (the paper's Rule(i) encoding): every
// distinct rule of either version is guarded by a fact Guard(i) of a fresh 1-ary number
// relation, so that removing a rule deletes its guard and adding one inserts its guard.
// Program holds the declarations (and the guard's), the guarded rules and no facts; Before and
// After are the facts of the old and new program plus the guards of their rules. Versions[i]
// is the rule that Guard(i) enables.
type RuleChange struct {
	Program       *datalog.Program
	Before, After []datalog.Tuple
	Guard         string
	Versions      []datalog.Rule
}

// EncodeRuleChange encodes the edit from p0 to p1, which must declare the same relations (rules
// and facts may differ). A rule kept unchanged has one guard that holds before and after.
func EncodeRuleChange(p0, p1 *datalog.Program) (*RuleChange, error) {
	if len(p0.Relations) != len(p1.Relations) {
		return nil, fmt.Errorf("the two programs declare %d and %d relations; a rule change keeps the declarations", len(p0.Relations), len(p1.Relations))
	}
	for i, r := range p0.Relations {
		s := p1.Relations[i]
		if r.Name != s.Name || !slices.Equal(r.Attrs, s.Attrs) {
			return nil, fmt.Errorf("relation %s is declared differently in the two programs; a rule change keeps the declarations", r.Name)
		}
	}
	guard := "rule_version"
	for p0.Relation(guard) != nil {
		guard += "_"
	}
	rc := &RuleChange{Guard: guard, Program: &datalog.Program{File: p1.File,
		Relations: append(slices.Clone(p0.Relations), datalog.Relation{Name: guard, Attrs: []datalog.Attr{{Name: "i", Type: datalog.Number}}, Input: true})}}
	index := map[string]int{}
	for k, p := range []*datalog.Program{p0, p1} {
		facts := &rc.Before
		if k == 1 {
			facts = &rc.After
		}
		for _, r := range p.Rules {
			if r.IsFact() {
				*facts = append(*facts, datalog.Tuple{Rel: r.Head.Rel, Args: r.Head.Args})
				continue
			}
			key := r.String()
			i, ok := index[key]
			if !ok {
				i = len(rc.Versions)
				index[key] = i
				rc.Versions = append(rc.Versions, r)
				g := r
				g.Body = append(slices.Clone(r.Body), datalog.Atom{Rel: guard, Args: []datalog.Term{datalog.N(int64(i))}})
				rc.Program.Rules = append(rc.Program.Rules, g)
			}
			*facts = append(*facts, rc.GuardTuple(i))
		}
	}
	return rc, nil
}

// GuardTuple returns the guard fact of rule version i.
func (rc *RuleChange) GuardTuple(i int) datalog.Tuple {
	return datalog.Tuple{Rel: rc.Guard, Args: []datalog.Term{datalog.N(int64(i))}}
}

// Rule returns the rule version that guard tuple t enables, or false when t is no guard.
func (rc *RuleChange) Rule(t datalog.Tuple) (datalog.Rule, bool) {
	if t.Rel != rc.Guard || len(t.Args) != 1 || t.Args[0].Kind != datalog.Num || t.Args[0].Num < 0 || t.Args[0].Num >= int64(len(rc.Versions)) {
		return datalog.Rule{}, false
	}
	return rc.Versions[t.Args[0].Num], true
}
