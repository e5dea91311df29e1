package oracles

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Expect reports whether an engine error is expected for a statement in a scope ("setup" or
// "query"); generators provide it from their expected-error data.
type Expect func(scope, code, msg string) bool

// Errors reports crashes, hangs and unexpected engine errors, in the setup and in the queries.
// Expected errors (per Expect) pass; every other engine error is a finding. An answer outside
// the engine's protocol (Code fuzz.CodeUnexpectedAnswer) is titled "unexpected answer".
type Errors struct {
	Expect Expect
	// SkipTimeouts makes a statement over its timeout a skipped check ("timeout") instead of a
	// hang finding: a solver may rightly need longer than any timeout on a hard instance.
	SkipTimeouts bool
	// Chained says that each query of a case builds on the ones before it (an SMT instance and its
	// get-value): after a query of a run fails, the later queries of that run are not judged.
	Chained bool
	// Reference names a trusted target: an engine error on a query that the reference also
	// rejects with an engine error is expected (the query is invalid, not the engine wrong).
	Reference string
}

// Name returns "error".
func (Errors) Name() string { return "error" }

// Check looks at every result of every run, up to the first timeout of a run.
func (o Errors) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	v := fuzz.Verdict{Checked: true}
	for _, run := range runs {
		if o.SkipTimeouts {
			for _, r := range run.Results {
				if r != nil && r.Status == fuzz.StatusTimeout {
					v = fuzz.Verdict{Skip: "timeout"}
				}
			}
		}
		for i, r := range run.Setup {
			if f := o.classify(c, runs, run.Target, "setup", r, c.Setup[i], ""); f != nil {
				return fuzz.Verdict{Checked: true, Finding: f}
			}
		}
		for i, r := range run.Results {
			if o.sharedRejection(runs, run.Target, i) {
				continue
			}
			if f := o.classify(c, runs, run.Target, "query", r, c.Queries[i].Text, c.Queries[i].Role); f != nil {
				return fuzz.Verdict{Checked: true, Finding: f}
			}
			if r != nil && (r.Status == fuzz.StatusTimeout || (o.Chained && r.Failed())) {
				break // the engine was killed, or the state later queries build on is missing
			}
		}
	}
	return v
}

// sharedRejection reports whether target's engine error on query i is shared with the
// reference: the reference rejected the query too, or, for the reference itself, another engine
// did. A reference error on a query every other engine answers stays a finding.
func (o Errors) sharedRejection(runs []fuzz.Run, target string, i int) bool {
	if o.Reference == "" {
		return false
	}
	rejects := func(run fuzz.Run) bool {
		return i < len(run.Results) && run.Results[i] != nil && run.Results[i].Status == fuzz.StatusEngineError
	}
	ref, other := false, false
	for _, run := range runs {
		switch run.Target {
		case o.Reference:
			ref = rejects(run)
		case target:
		default:
			other = other || rejects(run)
		}
	}
	if target == o.Reference {
		return ref && other
	}
	return ref
}

func (o Errors) classify(c *fuzz.Case, runs []fuzz.Run, target, scope string, r *fuzz.Result, stmt, role string) *fuzz.Finding {
	if r == nil {
		return nil
	}
	f := &fuzz.Finding{Oracle: "error", Case: c, Runs: runs, Expected: "an answer", Actual: r.Err}
	if role != "" {
		f.Roles = []string{role}
	}
	switch r.Status {
	case fuzz.StatusCrash:
		f.Kind = fuzz.KindCrash
		f.Title = fuzz.Title("crash", target, crashSummary(r.Err))
	case fuzz.StatusTimeout:
		if o.SkipTimeouts {
			return nil
		}
		f.Kind = fuzz.KindHang
		f.Title = fuzz.Title("hang", target, "statement "+stmtKind(stmt)+" ran over its timeout")
	case fuzz.StatusEngineError:
		if o.Expect != nil && o.Expect(scope, r.Code, r.Err) {
			return nil
		}
		f.Kind = fuzz.KindUnexpectedError
		f.Title = fuzz.Title("error", target, r.Code+" "+errSummary(r.Err))
		if r.Code == fuzz.CodeUnexpectedAnswer {
			f.Title = fuzz.Title("error", target, "unexpected answer")
		}
		f.Actual = fmt.Sprintf("%s: %s (in the %s)", r.Code, r.Err, scope)
	default:
		return nil
	}
	return f
}

var hexAddr = regexp.MustCompile(`0x[0-9a-f]+|goroutine \d+`)

func crashSummary(msg string) string {
	msg = hexAddr.ReplaceAllString(msg, "")
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return msg
}

// errSummary keeps an error message without the names a generator made up: words that end in
// digits (t0, c1, v0.c2), in any language.
var names = regexp.MustCompile(`\b[A-Za-z_]+\d+(\.[A-Za-z_]+\d+)?\b`)

func errSummary(msg string) string {
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n") // multi-line messages quote the input below
	msg = names.ReplaceAllString(msg, "X")
	if len(msg) > 100 {
		msg = msg[:100]
	}
	return msg
}

func stmtKind(stmt string) string {
	f := strings.Fields(stmt)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(f[0])
}
