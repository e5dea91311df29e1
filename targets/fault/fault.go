// Package fault wraps a real target and corrupts its answers on cue, so that tests (and users, with
// polyfuzz's --fault flag) can prove that an oracle fires. A fault is a kind and a regular
// expression: every statement the expression matches gets the fault. It imports only fuzz.
package fault

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Kind is what a fault does to a matching statement.
type Kind int

// Fault kinds. The zero value is invalid.
const (
	KindInvalid Kind = iota
	DropRow          // remove the first row of the answer (if any)
	AddRow           // repeat the first row of the answer (if any)
	ChangeValue      // replace the first value of the first row by a different value
	NewRow           // add a row the answer does not hold: the first row with its last value changed
	EngineError      // answer with an engine error of code FAULT
	Panic            // panic inside Exec (a bug in an in-process driver)
	Exit             // kill the process (a crash of an embedded engine)
	Hang             // answer with a timeout
)

var kindNames = map[string]Kind{
	"drop-row": DropRow, "add-row": AddRow, "change-value": ChangeValue, "error": EngineError,
	"new-row": NewRow, "panic": Panic, "exit": Exit, "hang": Hang,
}

// String returns the kind's name.
func (k Kind) String() string {
	for n, v := range kindNames {
		if v == k {
			return n
		}
	}
	return "invalid"
}

// Spec is one fault: what to do and to which statements.
type Spec struct {
	Kind  Kind
	Match *regexp.Regexp
}

// String returns the spec in the form Parse reads.
func (s Spec) String() string { return s.Kind.String() + ":" + s.Match.String() }

// Parse reads a spec of the form KIND:REGEXP, e.g. `drop-row:WHERE.*LIKE`.
func Parse(s string) (Spec, error) {
	name, re, ok := strings.Cut(s, ":")
	k := kindNames[name]
	if !ok || k == KindInvalid {
		return Spec{}, fmt.Errorf("bad fault %q: want KIND:REGEXP with KIND one of %s", s, kinds())
	}
	m, err := regexp.Compile(re)
	if err != nil {
		return Spec{}, fmt.Errorf("bad fault %q: %w", s, err)
	}
	return Spec{Kind: k, Match: m}, nil
}

func kinds() string {
	return "drop-row, add-row, change-value, new-row, error, panic, exit, hang"
}

// Target is a target with a fault.
type Target struct {
	fuzz.Target
	Spec Spec
	// Hits counts the statements the fault changed.
	Hits int
}

// Wrap returns t with the fault s.
func Wrap(t fuzz.Target, s Spec) *Target { return &Target{Target: t, Spec: s} }

// Exec runs stmt on the wrapped target and applies the fault if stmt matches.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if !t.Spec.Match.MatchString(stmt) {
		return t.Target.Exec(ctx, stmt)
	}
	switch t.Spec.Kind {
	case Panic:
		t.Hits++
		panic("fault: planted panic")
	case Exit:
		t.Hits++
		fmt.Fprintln(os.Stderr, "fault: planted crash")
		os.Exit(86)
	case Hang:
		t.Hits++
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: "fault: planted hang"}, nil
	case EngineError:
		t.Hits++
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "FAULT", Err: "fault: planted error"}, nil
	}
	r, err := t.Target.Exec(ctx, stmt)
	if err != nil || r.Status != fuzz.StatusOK || len(r.Rows) == 0 {
		return r, err
	}
	t.Hits++
	switch t.Spec.Kind {
	case DropRow:
		r.Rows = r.Rows[1:]
	case AddRow:
		r.Rows = append(r.Rows, r.Rows[0])
	case NewRow:
		row := slices.Clone(r.Rows[0])
		if n := len(row); n > 0 {
			row[n-1] = otherValue(row[n-1])
		}
		r.Rows = append(r.Rows, row)
	case ChangeValue:
		if len(r.Rows[0]) > 0 {
			if r.Rows[0][0] == fuzz.Int(0) {
				r.Rows[0][0] = fuzz.Int(1)
			} else {
				r.Rows[0][0] = fuzz.Int(0)
			}
		}
	}
	return r, nil
}

// otherValue returns a canonical value of the same type as v that differs from it: an integer
// a million larger, a string with a tilde appended.
func otherValue(v string) string {
	if n, err := strconv.ParseInt(strings.TrimPrefix(v, "i:"), 10, 64); err == nil && strings.HasPrefix(v, "i:") {
		return fuzz.Int(n + 1000000)
	}
	return v + "~"
}
