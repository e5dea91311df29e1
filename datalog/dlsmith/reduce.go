package dlsmith

import (
	"context"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// ParamCulprit is the parameter of a reduced DLSmith case that lists the culprit steps, one per
// line ([Step.String]), to which its transformation sequence was rolled back.
const ParamCulprit = "culprit"

// Reducer reduces the findings of DLSmith cases. It first rolls the case's transformation
// sequence back to its culprit steps ([Culprits.Guided], each candidate confirmed on the engine
// with keep), so that the transformed program holds only their rewrites and the case names them
// in ParamCulprit; the clause reducer (Inner) then starts from that case. A case that is not the
// generator's own (other options, or already reduced) goes to Inner directly.
type Reducer struct {
	Gen   *Generator
	Inner *datalog.Reducer
	// Runs, when set, receives the engine runs of the culprit search.
	Runs *int
}

// Reduce reduces c without evidence: the culprit search ranks steps by the relations they touch
// only through the engine's checks.
func (r *Reducer) Reduce(ctx context.Context, c *fuzz.Case, keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	return r.ReduceGuided(ctx, c, nil, keep)
}

// ReduceGuided reduces c; the tuples on which evidence's two answers differ guide the culprit
// search.
func (r *Reducer) ReduceGuided(ctx context.Context, c *fuzz.Case, evidence *fuzz.Finding,
	keep func(context.Context, *fuzz.Case) bool) (*fuzz.Case, error) {
	if cut := r.culprits(ctx, c, evidence, keep); cut != nil {
		c = cut
	}
	return r.Inner.ReduceGuided(ctx, c, evidence, keep)
}

// culprits returns c with its sequence rolled back to the culprit steps, or nil.
func (r *Reducer) culprits(ctx context.Context, c *fuzz.Case, evidence *fuzz.Finding,
	keep func(context.Context, *fuzz.Case) bool) *fuzz.Case {
	if r.Gen == nil || c.Gen != r.Gen.gen {
		return nil
	}
	same, err := r.Gen.Generate(c.Seed)
	if err != nil || !sameQueries(same, c) {
		return nil
	}
	orig, steps, err := r.Gen.Sequence(c.Seed)
	if err != nil || len(steps) < 2 {
		return nil
	}
	withSteps := func(p *datalog.Program, e datalog.Expect, idx []int) *fuzz.Case {
		d := c.Clone()
		var names, lines []string
		for _, i := range idx {
			names = append(names, steps[i].Name)
			lines = append(lines, steps[i].String())
		}
		for i, q := range d.Queries {
			if q.Role == datalog.RoleTrans {
				d.Queries[i].Text = "// transformed: " + e.String() + " " + strings.Join(names, ",") + "\n" + p.String()
			}
		}
		d.Params = map[string]string{}
		for k, v := range c.Params {
			d.Params[k] = v
		}
		d.Params[datalog.ParamExpect] = e.String()
		d.Params[datalog.ParamSteps] = strings.Join(names, ",")
		d.Params[ParamCulprit] = strings.Join(lines, "\n")
		return d
	}
	cul := &Culprits{Orig: orig, Steps: steps}
	var last []int
	cul.Breaks = func(ctx context.Context, p *datalog.Program, e datalog.Expect) bool {
		return keep(ctx, withSteps(p, e, last))
	}
	// try sets last before each Breaks call through the replayed indexes.
	cul.replayed = func(idx []int) { last = idx }
	loc := cul.Guided(ctx, witnesses(evidence))
	if r.Runs != nil {
		*r.Runs += cul.Runs
	}
	if loc == nil || len(loc) == len(steps) {
		return nil
	}
	g, e, applied := Replay(orig, steps, loc)
	p, err := g.Program()
	if err != nil {
		return nil
	}
	return withSteps(p, e, applied)
}

// sameQueries reports whether a and b hold the same query texts.
func sameQueries(a, b *fuzz.Case) bool {
	return slices.EqualFunc(a.Queries, b.Queries, func(x, y fuzz.Query) bool { return x.Role == y.Role && x.Text == y.Text })
}

// witnesses returns the tuples on which some run of evidence answered the original and the
// transformed program differently.
func witnesses(evidence *fuzz.Finding) []datalog.Tuple {
	if evidence == nil || evidence.Case == nil {
		return nil
	}
	oi := slices.IndexFunc(evidence.Case.Queries, func(q fuzz.Query) bool { return q.Role == datalog.RoleOrig })
	ti := slices.IndexFunc(evidence.Case.Queries, func(q fuzz.Query) bool { return q.Role == datalog.RoleTrans })
	var out []datalog.Tuple
	for _, run := range evidence.Runs {
		if oi < 0 || ti < 0 || max(oi, ti) >= len(run.Results) || run.Results[oi].Failed() || run.Results[ti].Failed() {
			continue
		}
		for _, row := range symmetricDiff(run.Results[oi].Rows, run.Results[ti].Rows) {
			if t, ok := datalog.RowTuple(row); ok {
				out = append(out, t)
			}
		}
	}
	return out
}
