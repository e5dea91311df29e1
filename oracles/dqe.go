package oracles

import (
	"fmt"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// DQE is Differential Query Execution (Song et al., ICSE 2023): a SELECT, an UPDATE and a DELETE
// with the same predicate on one table must access the same rows. The rows the SELECT returns,
// the rows the UPDATE marked in a tracking column (read back inside its transaction) and the
// rows the DELETE removed (all rows before it less the rows after it, inside its transaction) are
// compared as multisets of whole rows, so that no row id is needed. Both transactions are rolled
// back, so the table is the same for each statement.
//
// Errors: a DML statement that fails must have touched nothing. When only some of the three
// statements fail, the failure is a finding unless Expect says the engine may raise that error
// on a generated query (then the check is skipped as "expected-error").
//
// Layout: [fuzz.DQE].
type DQE struct {
	// Expect says which engine errors the generator knowingly provokes.
	Expect Expect
	// Show prints the rows the finding quotes; the zero Display strips the type tags.
	Show Display
}

// Name returns "dqe".
func (DQE) Name() string { return "dqe" }

// Check compares the accessed rows of every run.
func (o DQE) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	roles := fuzz.DQE.Roles()
	at, ok := layout(c, roles)
	if !ok {
		return fuzz.Verdict{Skip: "no-layout"}
	}
	res := func(run *fuzz.Run, part string) *fuzz.Result {
		i := at[fuzz.DQE.Index(fuzz.DQE.Role(part))]
		if i >= len(run.Results) {
			return nil
		}
		return run.Results[i]
	}
	v := fuzz.Verdict{}
	for ri := range runs {
		run := &runs[ri]
		if s := failedSkip(run, at[fuzz.DQE.Index(fuzz.DQE.Role("all"))]); s != "" {
			return fuzz.Verdict{Skip: s}
		}
		for _, r := range run.Results {
			if r == nil || r.Status == fuzz.StatusTimeout || r.Status == fuzz.StatusCrash {
				return fuzz.Verdict{Skip: "no-result"} // the error oracle reports it
			}
		}
		sel, upd, del := res(run, "select"), res(run, "update"), res(run, "delete")
		updated, remaining := res(run, "updated"), res(run, "remaining")
		all := NewBag(res(run, "all").Rows)
		find := func(summary, expected, actual string, kind fuzz.Kind) fuzz.Verdict {
			return fuzz.Verdict{Checked: true, Finding: &fuzz.Finding{
				Title: fuzz.Title("dqe", run.Target, summary), Kind: kind, Oracle: "dqe",
				Expected: expected, Actual: actual, Roles: roles, Case: c, Runs: runs,
			}}
		}
		// A failed DML statement touched nothing.
		if upd.Failed() && !updated.Failed() && len(updated.Rows) > 0 {
			return find("failed update changed rows", "no row marked by the failed UPDATE",
				fmt.Sprintf("%d rows marked: %s", len(updated.Rows), o.Show.rows(rowKeys(updated.Rows))), fuzz.KindWrongResult)
		}
		if del.Failed() && !remaining.Failed() {
			if missing, extra := all.Diff(NewBag(remaining.Rows)); len(missing)+len(extra) > 0 {
				return find("failed delete changed rows", "every row left by the failed DELETE",
					"rows gone: "+o.Show.rows(missing), fuzz.KindWrongResult)
			}
		}
		// Errors raised by some of the three only.
		if sel.Failed() || upd.Failed() || del.Failed() {
			if sel.Failed() && upd.Failed() && del.Failed() {
				v.Skip = "error"
				continue
			}
			for _, x := range []struct {
				name string
				r    *fuzz.Result
			}{{"select", sel}, {"update", upd}, {"delete", del}} {
				if !x.r.Failed() {
					continue
				}
				if o.Expect != nil && o.Expect("query", x.r.Code, x.r.Err) {
					v.Skip = "expected-error"
					continue
				}
				return find(x.name+" fails where another statement with its predicate succeeds: "+x.r.Code,
					"the SELECT, UPDATE and DELETE all succeed or all fail",
					fmt.Sprintf("%s: %s: %s", x.name, x.r.Code, x.r.Err), fuzz.KindUnexpectedError)
			}
			continue
		}
		if updated.Failed() || remaining.Failed() {
			v.Skip = "error"
			continue
		}
		selected := NewBag(sel.Rows)
		if missing, extra := selected.Diff(NewBag(updated.Rows)); len(missing)+len(extra) > 0 {
			return find(dqeSummary("update", missing, extra),
				fmt.Sprintf("the %d rows the SELECT returns", len(sel.Rows)),
				fmt.Sprintf("the UPDATE marked %d rows%s", len(updated.Rows), o.diffText(missing, extra)), fuzz.KindWrongResult)
		}
		gone, added := all.Diff(NewBag(remaining.Rows))
		if len(added) > 0 {
			return find("delete adds rows", "no row added by the DELETE", "rows added: "+o.Show.rows(added), fuzz.KindWrongResult)
		}
		if missing, extra := selected.Diff(bagOfKeys(gone)); len(missing)+len(extra) > 0 {
			return find(dqeSummary("delete", missing, extra),
				fmt.Sprintf("the %d rows the SELECT returns", len(sel.Rows)),
				fmt.Sprintf("the DELETE removed %d rows%s", len(gone), o.diffText(missing, extra)), fuzz.KindWrongResult)
		}
		v.Checked = true
	}
	if v.Checked {
		v.Skip = ""
	}
	return v
}

// dqeSummary titles a difference between the rows the SELECT returns and those a DML statement
// touched.
func dqeSummary(stmt string, missing, extra []string) string {
	switch {
	case len(extra) == 0:
		return stmt + " touches fewer rows than select"
	case len(missing) == 0:
		return stmt + " touches more rows than select"
	}
	return stmt + " touches other rows than select"
}

// diffText says which selected rows a statement missed and which others it touched.
func (o DQE) diffText(missing, extra []string) string {
	s := ""
	if len(missing) > 0 {
		s += "; it misses " + o.Show.rows(missing)
	}
	if len(extra) > 0 {
		s += "; it also touches " + o.Show.rows(extra)
	}
	return s
}

// rowKeys returns the keys of rows, as Bag.Diff lists them.
func rowKeys(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = rowKey(r)
	}
	return out
}

// bagOfKeys counts row keys (as Bag.Diff returns them).
func bagOfKeys(keys []string) Bag {
	b := Bag{}
	for _, k := range keys {
		b[k]++
	}
	return b
}
