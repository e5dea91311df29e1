package localize

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/datalog"
)

// load returns the problem of testdata/NAME.dl with NAME.before.facts and NAME.after.facts.
func load(t *testing.T, name string, unwanted, wanted []string) Problem {
	t.Helper()
	read := func(file string) string {
		b, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	p, err := datalog.Parse(name+".dl", read(name+".dl"))
	if err != nil {
		t.Fatal(err)
	}
	prob := Problem{Program: p}
	if prob.Before, err = ParseFacts(p, name+".before.facts", read(name+".before.facts")); err != nil {
		t.Fatal(err)
	}
	if prob.After, err = ParseFacts(p, name+".after.facts", read(name+".after.facts")); err != nil {
		t.Fatal(err)
	}
	for _, s := range unwanted {
		tu, err := ParseTuple(p, s)
		if err != nil {
			t.Fatal(err)
		}
		prob.Unwanted = append(prob.Unwanted, tu)
	}
	for _, s := range wanted {
		tu, err := ParseTuple(p, s)
		if err != nil {
			t.Fatal(err)
		}
		prob.Wanted = append(prob.Wanted, tu)
	}
	return prob
}

func changeStrings(cs []Change) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// bruteMinimal reports whether no subset of the update smaller than n passes test, the
// subsets enumerated by size.
func bruteMinimal(t *testing.T, l *Localizer, n int, test func([]Change) bool) bool {
	t.Helper()
	u := l.Update()
	if len(u) > 14 {
		t.Fatalf("update of %d changes is too large to enumerate", len(u))
	}
	for mask := 0; mask < 1<<len(u); mask++ {
		var s []Change
		for i := range u {
			if mask&(1<<i) != 0 {
				s = append(s, u[i])
			}
		}
		if len(s) < n && test(s) {
			return false
		}
	}
	return true
}

func TestLocalizeRollback(t *testing.T) {
	tests := []struct {
		name             string
		file             string
		unwanted, wanted []string
		loc, roll        []string
		negation         bool
	}{
		{
			name: "paper running example", file: "pointsto", unwanted: []string{"alias(userSession, sec)"},
			loc: []string{`+load("userSession", "admin", "session")`}, roll: []string{`+load("userSession", "admin", "session")`},
		},
		{
			name: "two unwanted tuples share the cause", file: "pointsto",
			unwanted: []string{"alias(userSession, sec)", `alias("upgradedSession", "sec")`},
			loc:      []string{`+assign("upgradedSession", "userSession")`, `+load("userSession", "admin", "session")`},
			roll:     []string{`+load("userSession", "admin", "session")`},
		},
		{
			name: "missing tuple with two derivations", file: "missing", wanted: []string{`vpt("b", "L1")`},
			loc:  []string{`-assign("b", "a")`, `-assign("b", "c")`},
			roll: []string{`-assign("b", "a")`},
		},
		{
			name: "insertion under negation makes an unwanted tuple appear", file: "negation", unwanted: []string{`flagged("a")`},
			loc: []string{`+source("a")`}, roll: []string{`+source("a")`}, negation: true,
		},
		{
			name: "insertion under negation makes a wanted tuple disappear", file: "negation", wanted: []string{`safe("a")`},
			loc: []string{`+source("a")`}, roll: []string{`+source("a")`}, negation: true,
		},
		{
			name: "unwanted appears and wanted disappears", file: "negation", unwanted: []string{`flagged("b")`}, wanted: []string{`safe("a")`},
			loc: []string{`-ok("b")`, `+source("a")`}, roll: []string{`-ok("b")`, `+source("a")`}, negation: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := New(load(t, tc.file, tc.unwanted, tc.wanted))
			if err != nil {
				t.Fatal(err)
			}
			loc, err := l.Localize()
			if err != nil {
				t.Fatal(err)
			}
			roll, err := l.Rollback()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []struct {
				what string
				res  *Result
				want []string
			}{{"localization", loc, tc.loc}, {"rollback", roll, tc.roll}} {
				if got := changeStrings(r.res.Changes); !slices.Equal(got, r.want) {
					t.Errorf("%s = %v, want %v", r.what, got, r.want)
				}
				if !r.res.Verified {
					t.Errorf("%s %v is not verified", r.what, changeStrings(r.res.Changes))
				}
				if r.res.Negation != tc.negation {
					t.Errorf("%s: negation = %v, want %v", r.what, r.res.Negation, tc.negation)
				}
				if len(r.res.Trees) == 0 {
					t.Errorf("%s has no proof tree", r.what)
				}
			}
			st := Stats{}
			if !tc.negation && !bruteMinimal(t, l, len(roll.Changes), func(s []Change) bool {
				ok, _, err := l.correct(l.without(s), &st)
				return err == nil && ok
			}) {
				t.Errorf("a smaller rollback than %v exists", changeStrings(roll.Changes))
			}
			for _, dd := range []func() (*Result, error){l.DDLocalize, l.DDRollback} {
				res, err := dd()
				if err != nil {
					t.Fatal(err)
				}
				if !res.Verified || res.Stats.Evaluations == 0 {
					t.Errorf("delta debugging: %v verified %v after %d evaluations", changeStrings(res.Changes), res.Verified, res.Stats.Evaluations)
				}
			}
		})
	}
}

func TestPaperTree(t *testing.T) {
	l, err := New(load(t, "pointsto", []string{"alias(userSession, sec)"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	loc, err := l.Localize()
	if err != nil {
		t.Fatal(err)
	}
	text := loc.Trees[0].String()
	// Fig. 4 of the paper: alias(userSession, sec) and vpt(userSession, L2) are new, load is
	// the inserted fact, the other tuples held before the update and are not expanded.
	for _, want := range []string{
		`alias("userSession", "sec")  [new]  by alias(V1, V2) :- vpt(V1, Obj), vpt(V2, Obj), V1 != V2.`,
		`  vpt("userSession", "L2")  [new]  by vpt(Var, Obj) :- load(Var, Inter, F)`,
		`    load("userSession", "admin", "session")  [inserted by the update]`,
		`    store("admin", "session", "sec")  [held before the update]`,
		`  vpt("sec", "L2")  [held before the update]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("tree lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "assign") {
		t.Errorf("tree holds the irrelevant assign:\n%s", text)
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name             string
		unwanted, wanted []string
		want             string
	}{
		{"nothing intended", nil, nil, "no intended output"},
		{"unwanted not derived after", []string{`alias("ins", "sec")`}, nil, "is not derived after the update"},
		{"unwanted derived before", []string{`alias("userSession", "ins")`}, nil, "already derived before the update"},
		{"wanted derived after", nil, []string{`vpt("sec", "L2")`}, "is derived after the update, so it is no fault"},
		{"wanted never derived", nil, []string{`vpt("sec", "L1")`}, "is not derived before the update either"},
	}
	prob := load(t, "pointsto", []string{"alias(userSession, sec)"}, nil)
	for _, tc := range []struct {
		tuple datalog.Tuple
		want  string
	}{
		{datalog.Tuple{Rel: "vpt", Args: []datalog.Term{datalog.S("a"), datalog.N(1)}}, "argument 2 must be a symbol constant"},
		{datalog.Tuple{Rel: "vpt", Args: []datalog.Term{datalog.S("a")}}, "vpt has 1 arguments, its declaration 2"},
		{datalog.Tuple{Rel: "zz", Args: []datalog.Term{datalog.S("a")}}, "relation zz is not declared"},
	} {
		for _, bad := range []Problem{
			{Program: prob.Program, Before: append(slices.Clone(prob.Before), tc.tuple), After: prob.After, Unwanted: prob.Unwanted},
			{Program: prob.Program, Before: prob.Before, After: prob.After, Unwanted: prob.Unwanted, Wanted: []datalog.Tuple{tc.tuple}},
		} {
			if _, err := New(bad); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New with %s: %v, want %q", tc.tuple, err, tc.want)
			}
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(load(t, "pointsto", tc.unwanted, tc.wanted))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line with %q", err, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	p, err := datalog.Parse("p.dl", ".decl r(a: number, b: symbol)\n.decl s(a: number)\ns(X) :- r(X, _).")
	if err != nil {
		t.Fatal(err)
	}
	facts := []struct{ src, want string }{
		{`q(1).`, `unknown relation "q"`},
		{`r(1).`, "has 1 arguments, its declaration 2"},
		{`r("x", "y").`, "symbol constant"},
		{`r(1, y).`, "write symbols in double quotes"},
		{`s(X) :- r(X, "a").`, "holds facts only"},
	}
	for _, tc := range facts {
		if _, err := ParseFacts(p, "f.facts", tc.src); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFacts(%q) = %v, want %q", tc.src, err, tc.want)
		}
	}
	got, err := ParseFacts(p, "f.facts", "r(1, \"a\"). // one\nr(-2, \"b\").\n")
	if err != nil || len(got) != 2 || got[1].String() != `r(-2, "b")` {
		t.Errorf("ParseFacts = %v, %v", got, err)
	}
	tuples := []struct{ src, want string }{
		{`r(1, a)`, `r(1, "a")`},
		{`r(1, "a b").`, `r(1, "a b")`},
		{`q(1)`, `unknown relation "q"`},
		{`r(1)`, "has 1 arguments"},
		{`r(1, _)`, "argument 2 is _"},
		{`r(1, a), s(1)`, "want rel(arg, ...)"},
	}
	for _, tc := range tuples {
		tu, err := ParseTuple(p, tc.src)
		got := tu.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("ParseTuple(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestRuleChange(t *testing.T) {
	src, err := os.ReadFile("testdata/pointsto.dl")
	if err != nil {
		t.Fatal(err)
	}
	facts, err := os.ReadFile("testdata/pointsto.after.facts")
	if err != nil {
		t.Fatal(err)
	}
	p1, err := datalog.Parse("p1.dl", string(src)+string(facts))
	if err != nil {
		t.Fatal(err)
	}
	// P0 lacks the load rule r3 and has r2 written the other way round.
	p0 := &datalog.Program{File: "p0.dl", Relations: p1.Relations}
	for _, r := range p1.Rules {
		switch {
		case len(r.Body) == 5:
			continue
		case len(r.Body) == 2 && r.Head.Rel == "vpt":
			r.Body = []datalog.Atom{r.Body[1], r.Body[0]}
		}
		p0.Rules = append(p0.Rules, r)
	}
	rc, err := EncodeRuleChange(p0, p1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.Versions) != 5 {
		t.Fatalf("%d rule versions, want 5 (r1, r2 twice, r4, r3)", len(rc.Versions))
	}
	unwanted, _ := ParseTuple(p1, "alias(userSession, sec)")
	l, err := New(Problem{Program: rc.Program, Before: rc.Before, After: rc.After, Unwanted: []datalog.Tuple{unwanted}})
	if err != nil {
		t.Fatal(err)
	}
	if got := changeStrings(l.Update()); len(got) != 3 {
		t.Errorf("update %v, want the guard of the old r2 deleted, those of the new r2 and of r3 inserted", got)
	}
	roll, err := l.Rollback()
	if err != nil {
		t.Fatal(err)
	}
	if len(roll.Changes) != 1 || !roll.Verified {
		t.Fatalf("rollback %v (verified %v), want one guard", changeStrings(roll.Changes), roll.Verified)
	}
	r, ok := rc.Rule(roll.Changes[0].Tuple)
	if !ok || len(r.Body) != 5 {
		t.Errorf("rollback names %v, want the load rule r3", r)
	}
	if _, err := EncodeRuleChange(p0, &datalog.Program{}); err == nil {
		t.Errorf("programs with different declarations encoded")
	}
}

// TestGenerated checks, on generated points-to updates, that every answer is verified and that
// the rollback is no larger than delta debugging's 1-minimal one (it is a minimum).
func TestGenerated(t *testing.T) {
	for seed := range uint64(6) {
		prob := PointsToUpdate(30, 6, seed)
		l, err := New(prob)
		if err != nil {
			t.Fatal(err)
		}
		loc, err := l.Localize()
		if err != nil {
			t.Fatal(err)
		}
		roll, err := l.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		dd, err := l.DDRollback()
		if err != nil {
			t.Fatal(err)
		}
		if !loc.Verified || !roll.Verified || !dd.Verified {
			t.Errorf("seed %d: verified localization %v, rollback %v, ddmin %v", seed, loc.Verified, roll.Verified, dd.Verified)
		}
		if len(roll.Changes) > len(dd.Changes) {
			t.Errorf("seed %d: rollback %v larger than ddmin's %v", seed, changeStrings(roll.Changes), changeStrings(dd.Changes))
		}
		again := PointsToUpdate(30, 6, seed)
		if again.Unwanted[0].String() != prob.Unwanted[0].String() || len(again.After) != len(prob.After) {
			t.Errorf("seed %d: PointsToUpdate is not deterministic", seed)
		}
	}
}
