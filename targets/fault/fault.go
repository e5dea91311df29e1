// Package fault wraps a real target and corrupts its answers on cue, so that tests (and users, with
// polyfuzz's --fault flag) can prove that an oracle fires. A fault is a kind and a regular
// expression: every statement the expression matches gets the fault. A planted bug (a [Plant],
// given as JSON) adds conditions on the case's features and a canary that records on each result
// whether the statement reached the buggy feature and whether the bug triggered. It imports only
// fuzz.
package fault

import (
	"context"
	"encoding/json"
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
	Rewrite          // rewrite the statement before the engine sees it (Find's matches become With)
	Answer           // replace the answer's one-value rows that Find matches by With
)

var kindNames = map[string]Kind{
	"drop-row": DropRow, "add-row": AddRow, "change-value": ChangeValue, "error": EngineError,
	"new-row": NewRow, "panic": Panic, "exit": Exit, "hang": Hang, "rewrite": Rewrite, "answer": Answer,
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
	// The rest is set for a planted bug (a Plant) only.
	//
	// ID names the bug's canary: results get ID when the statement reaches the buggy feature
	// and ID+"!" when the fault's conditions hold ("" for no canary).
	ID string
	// Reach matches a statement that reaches the buggy feature (nil: Match).
	Reach *regexp.Regexp
	// Context must each match the statement or one the engine ran since its last Reset.
	Context []*regexp.Regexp
	// Find and With are Rewrite's and Answer's pattern and replacement.
	Find *regexp.Regexp
	With string
}

// String returns the spec in the form Parse reads (a plant's in its JSON form).
func (s Spec) String() string {
	if s.ID != "" || s.Reach != nil || len(s.Context) > 0 || s.Find != nil {
		return EncodePlants([]Plant{s.Plant()})
	}
	return s.Kind.String() + ":" + s.Match.String()
}

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
	return "drop-row, add-row, change-value, new-row, error, panic, exit, hang, rewrite, answer"
}

// Plant is a planted bug as data: a fault kind with conditions on the case's features and a
// canary. Kind is one of this package's kinds or a domain's own (with Arg); the patterns are
// regular expressions on statement text.
type Plant struct {
	// ID names the bug (its canary).
	ID   string `json:"id,omitempty"`
	Kind string `json:"kind"`
	// Arg is a domain's own kind's argument.
	Arg string `json:"arg,omitempty"`
	// Match is the trigger: the statement the fault applies to ("" matches every statement).
	Match string `json:"match,omitempty"`
	// Context patterns must each match the statement or an earlier one since the last Reset.
	Context []string `json:"context,omitempty"`
	// Reach matches statements that reach the buggy feature ("": Match).
	Reach string `json:"reach,omitempty"`
	// Find and With: Rewrite replaces Find's matches by With (with $1 expansion); Answer
	// replaces one-value rows that Find matches by With.
	Find string `json:"find,omitempty"`
	With string `json:"with,omitempty"`
}

// Own reports whether the plant's kind is not one of this package's (a domain's own kind).
func (p Plant) Own() bool { return kindNames[p.Kind] == KindInvalid }

// Spec compiles the plant of one of this package's kinds.
func (p Plant) Spec() (Spec, error) {
	k := kindNames[p.Kind]
	if k == KindInvalid {
		return Spec{}, fmt.Errorf("planted bug %q: unknown fault kind %q: want one of %s", p.ID, p.Kind, kinds())
	}
	re := func(what, s string) (*regexp.Regexp, error) {
		r, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("planted bug %q: bad %s pattern: %w", p.ID, what, err)
		}
		return r, nil
	}
	s := Spec{Kind: k, ID: p.ID, With: p.With}
	var err error
	if s.Match, err = re("match", p.Match); err != nil {
		return Spec{}, err
	}
	if p.Reach != "" {
		if s.Reach, err = re("reach", p.Reach); err != nil {
			return Spec{}, err
		}
	}
	for _, c := range p.Context {
		r, err := re("context", c)
		if err != nil {
			return Spec{}, err
		}
		s.Context = append(s.Context, r)
	}
	switch {
	case (k == Rewrite || k == Answer) && p.Find == "":
		return Spec{}, fmt.Errorf("planted bug %q: kind %s needs find (a pattern) and with (its replacement)", p.ID, p.Kind)
	case p.Find != "":
		if s.Find, err = re("find", p.Find); err != nil {
			return Spec{}, err
		}
	}
	return s, nil
}

// Plant returns s as a plant.
func (s Spec) Plant() Plant {
	p := Plant{ID: s.ID, Kind: s.Kind.String(), Match: s.Match.String(), With: s.With}
	if s.Reach != nil {
		p.Reach = s.Reach.String()
	}
	for _, c := range s.Context {
		p.Context = append(p.Context, c.String())
	}
	if s.Find != nil {
		p.Find = s.Find.String()
	}
	return p
}

// IsPlants reports whether a fault spec is a list of plants (JSON) rather than KIND:REGEXP.
func IsPlants(spec string) bool { return strings.HasPrefix(strings.TrimSpace(spec), "[") }

// ParsePlants reads a fault spec that is a JSON array of plants.
func ParsePlants(spec string) ([]Plant, error) {
	var ps []Plant
	if err := json.Unmarshal([]byte(spec), &ps); err != nil {
		return nil, fmt.Errorf("bad planted bugs %.60q: want a JSON array of {\"id\", \"kind\", \"match\", ...}: %w", spec, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("planted bugs: the list is empty")
	}
	return ps, nil
}

// EncodePlants returns plants as the fault spec ParsePlants reads.
func EncodePlants(ps []Plant) string {
	b, _ := json.Marshal(ps)
	return string(b)
}

// Target is a target with a fault.
type Target struct {
	fuzz.Target
	Spec Spec
	// Hits counts the statements the fault changed.
	Hits int
	// seen holds the Context patterns matched since the last Reset.
	seen []bool
}

// Wrap returns t with the fault s.
func Wrap(t fuzz.Target, s Spec) *Target {
	return &Target{Target: t, Spec: s, seen: make([]bool, len(s.Context))}
}

// Reset resets the engine and forgets the statements the Context patterns matched.
func (t *Target) Reset(ctx context.Context) error {
	clear(t.seen)
	return t.Target.Reset(ctx)
}

// conditions updates the Context patterns with stmt and reports whether they all hold.
func (t *Target) conditions(stmt string) bool {
	all := true
	for i, c := range t.Spec.Context {
		if !t.seen[i] && c.MatchString(stmt) {
			t.seen[i] = true
		}
		all = all && t.seen[i]
	}
	return all
}

// Exec runs stmt on the wrapped target and applies the fault if stmt matches and the planted
// bug's conditions hold, marking the bug's canary on the result.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	reached := t.Spec.ID != "" && (t.Spec.Reach == nil || t.Spec.Reach.MatchString(stmt))
	holds := t.conditions(stmt) && t.Spec.Match.MatchString(stmt)
	if t.Spec.Reach == nil {
		reached = reached && holds
	}
	if t.Spec.Kind == Rewrite && holds {
		rewritten := t.Spec.Find.ReplaceAllString(stmt, t.Spec.With)
		holds = rewritten != stmt
		stmt = rewritten
	}
	if !holds {
		r, err := t.Target.Exec(ctx, stmt)
		if reached {
			r.MarkCanary(t.Spec.ID, false)
		}
		return r, err
	}
	r, err := t.exec(ctx, stmt)
	r.MarkCanary(t.Spec.ID, true)
	return r, err
}

// exec runs stmt, whose fault's conditions hold, with the fault.
func (t *Target) exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
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
	if t.Spec.Kind == Rewrite {
		t.Hits++
		return r, err
	}
	if err != nil || r.Status != fuzz.StatusOK || len(r.Rows) == 0 {
		return r, err
	}
	t.Hits++
	switch t.Spec.Kind {
	case Answer:
		for i, row := range r.Rows {
			if len(row) == 1 && t.Spec.Find.MatchString(row[0]) {
				r.Rows[i] = []string{t.Spec.Find.ReplaceAllString(row[0], t.Spec.With)}
			}
		}
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
