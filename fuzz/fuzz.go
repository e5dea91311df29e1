package fuzz

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Case is one test, fully determined by its generator options (Gen) and Seed. Setup builds the
// state (schema and data, declarations, a graph, facts); Queries are the variants an oracle compares.
type Case struct {
	Domain string `json:"domain"` // "sql", "smt", "graph", "datalog"
	// Gen is the generator's options in their canonical text form; with Seed it regenerates the case.
	Gen  string `json:"gen"`
	Seed uint64 `json:"seed"`
	// Setup statements run once per target after Reset, in order. Consecutive cases with the same
	// non-empty setup may share it; a case without setup always starts from a reset target (an SMT
	// instance carries its declarations in its query).
	Setup []string `json:"setup"`
	// Queries are the variants the oracles compare; each Role names the layout slot it fills.
	Queries []Query `json:"queries"`
	// Params are named pieces of the query text that a domain's reducer may shrink and substitute
	// back into every query (for SQL, "pred" is the predicate all variants share).
	Params map[string]string `json:"params,omitempty"`
	// Derived is how many of the last Queries a [Deriver] built from the answers to the ones
	// before them; 0 when every query comes from the seed. A case with derived queries runs by its
	// statements alone: they are not derived again.
	Derived int `json:"derived,omitempty"`
	// Writes says that the queries change the state the setup built (a graph write). The runner
	// runs them isolated ([Isolator]) or, on a target that cannot isolate, runs the setup again
	// before the next case, so that the cases sharing a setup all start from it.
	Writes bool `json:"writes,omitempty"`
	// Memo is what the generator knew of the case when it made it (a parsed form), for the
	// domain's oracles, so that they need not read the case's text back. It is not stored, and
	// Clone drops it: a copy may be edited.
	Memo any `json:"-"`
}

// Query is one statement of a case's variants.
type Query struct {
	Role string `json:"role"` // e.g. "norec.opt", "tlp.notp"
	Text string `json:"text"`
}

// Clone returns a deep copy of c.
func (c *Case) Clone() *Case {
	d := *c
	d.Memo = nil
	d.Setup = append([]string(nil), c.Setup...)
	d.Queries = append([]Query(nil), c.Queries...)
	if c.Params != nil {
		d.Params = make(map[string]string, len(c.Params))
		for k, v := range c.Params {
			d.Params[k] = v
		}
	}
	return &d
}

// Texts returns the texts of c's queries, in order.
func (c *Case) Texts() []string {
	out := make([]string, len(c.Queries))
	for i, q := range c.Queries {
		out[i] = q.Text
	}
	return out
}

// Query returns the text of the query with the given role and whether it exists.
func (c *Case) Query(role string) (string, bool) {
	for _, q := range c.Queries {
		if q.Role == role {
			return q.Text, true
		}
	}
	return "", false
}

// Status says how an engine answered one statement.
type Status int

// Statuses. The zero value is invalid so that an unset status is caught.
const (
	StatusInvalid     Status = iota
	StatusOK                 // the engine answered; Rows holds the answer
	StatusEngineError        // the engine rejected the statement; Code and Err say why
	StatusTimeout            // the statement ran past its timeout
	StatusCrash              // the engine died (process exit, signal, panic, lost connection)
)

var statusNames = [...]string{"invalid", "ok", "engine-error", "timeout", "crash"}

// String returns the status's name.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("status(%d)", int(s))
	}
	return statusNames[s]
}

// MarshalText stores the status by name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// Result is an engine's canonical answer to one statement. Engine errors are results, not Go errors.
type Result struct {
	Status Status `json:"status"`
	// Columns names the result columns, when the engine reports them.
	Columns []string `json:"columns,omitempty"`
	// Rows holds canonical values: each value is printed in a typed, engine-independent form
	// (see the target's documentation), so that rows compare exactly.
	Rows [][]string `json:"rows,omitempty"`
	// Code is the engine's error class (SQLSTATE, errno, extended result code name), if any.
	Code string `json:"code,omitempty"`
	// Err is the engine's message for an error, timeout or crash.
	Err string `json:"err,omitempty"`
	// Canaries are set by a planted bug (targets/fault): its id when the statement reached the
	// buggy feature, and id+"!" when the bug triggered.
	Canaries []string `json:"canaries,omitempty"`
}

// MarkCanary records a planted bug's canary on r: id when the statement reached the bug's feature,
// and id+"!" too when the bug triggered. A nil r or an empty id records nothing.
func (r *Result) MarkCanary(id string, triggered bool) {
	if r == nil || id == "" {
		return
	}
	r.Canaries = append(r.Canaries, id)
	if triggered {
		r.Canaries = append(r.Canaries, id+"!")
	}
}

// CodeUnexpectedAnswer is the Code of a StatusEngineError result whose engine answered outside
// its protocol (a solver that prints "banana" where a check-sat wants sat, unsat or unknown): the
// engine misbehaved rather than rejected the statement. The error oracle titles it "unexpected
// answer" without the answer, which varies from case to case.
const CodeUnexpectedAnswer = "unexpected-answer"

// Failed reports whether the statement did not answer normally.
func (r *Result) Failed() bool { return r == nil || r.Status != StatusOK }

// Run is one target's answers to one case.
type Run struct {
	Target string `json:"target"`
	// Setup holds the setup's results when this case ran it, nil when the case reused the setup
	// of the case before it on the same targets.
	Setup []*Result `json:"setup,omitempty"`
	// Results[i] answers Case.Queries[i].
	Results []*Result `json:"results"`
}

// Generator makes cases. The same seed always yields the same case. Implementations are safe for
// concurrent use.
type Generator interface {
	Generate(seed uint64) (*Case, error)
}

// Deriver is implemented by generators whose cases have a second stage: queries built from an
// engine's answers to the first (the pivot row of PQS, the values CODDTest folds into a query).
// The campaign runs a case's queries, asks Derive for more with the runs so far, runs those on
// every target, and appends them to the case with Case.Derived set, so that a stored case replays
// by its statements. Derive reads the first target's answers, must be deterministic in them, and
// returns nil when the case needs nothing more (or cannot get it: a first stage that failed).
type Deriver interface {
	Derive(c *Case, runs []Run) []Query
}

// Generated returns c as its generator made it: without the queries a Deriver added.
func (c *Case) Generated() *Case {
	if c.Derived == 0 {
		return c
	}
	d := c.Clone()
	d.Queries = d.Queries[:len(d.Queries)-c.Derived]
	d.Derived = 0
	return d
}

// Guided is implemented by generators that learn from the answers to the cases they made (query
// plan guidance): the campaign hands each case and its runs to Observe once they are judged. The
// cases a guided generator makes then depend on what the engines answered before, so a campaign's
// case sequence is no longer a function of its seed alone; each case still replays from its stored
// statements. Observe is called by the worker that ran the case; implementations are safe for
// concurrent use.
type Guided interface {
	Generator
	Observe(c *Case, runs []Run)
}

// SetupSharer is implemented by generators whose consecutive cases share a setup: seeds that agree
// in all bits above the low SetupBits share one setup (see [CaseSeed]).
type SetupSharer interface {
	// CasesPerSetup is how many consecutive cases share one setup (at most 1<<SetupBits).
	CasesPerSetup() int
}

// Target is one engine behind a driver. It executes text and returns canonical results; it returns
// a Go error only when the engine cannot be used at all. A Target is used by one goroutine.
type Target interface {
	// Name is the engine's name as it appears in titles ("sqlite", "postgres").
	Name() string
	// Version is the engine's version string.
	Version() string
	// Reset returns the engine to an empty state owned by polyfuzz.
	Reset(ctx context.Context) error
	// Exec runs one statement.
	Exec(ctx context.Context, stmt string) (*Result, error)
	io.Closer
}

// BatchTarget is a Target that can run several statements in one call (saving round trips, for
// example to an isolated child process). ExecBatch stops early only on a Go error.
type BatchTarget interface {
	Target
	ExecBatch(ctx context.Context, stmts []string) ([]*Result, error)
}

// ExecAll runs stmts on t, in one call when t is a BatchTarget.
func ExecAll(ctx context.Context, t Target, stmts []string) ([]*Result, error) {
	if b, ok := t.(BatchTarget); ok {
		return b.ExecBatch(ctx, stmts)
	}
	out := make([]*Result, 0, len(stmts))
	for _, s := range stmts {
		r, err := t.Exec(ctx, s)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Oracle compares the runs of a case. Check returns nil when nothing is wrong, and a Verdict that
// says why a check was skipped or passed. Oracles are safe for concurrent use.
type Oracle interface {
	Name() string
	Check(c *Case, runs []Run) Verdict
}

// Verdict is the outcome of one oracle check.
type Verdict struct {
	// Finding is set when the check failed.
	Finding *Finding
	// Skip, when not empty, says why the check could not be made (e.g. "expected-error");
	// a skipped check is not counted as a check.
	Skip string
	// Checked is true when the relation was actually tested.
	Checked bool
	// Checks is how many checks a checked verdict made when the case holds several (see
	// [CheckRole]); 0 means one. The checks a case could not make are in Skip or Partial.
	Checks int
	// Partial lists why parts of a made check were left out (an engine of several that could not
	// answer); each reason is counted like a skip.
	Partial []string
	// Notes are observations to count that are neither skips nor findings (a query that returned
	// no rows on the reference); a campaign's stats report how often each one was made.
	Notes []string
}

// Made returns how many checks v counts: 0 when it was not checked, else Checks or at least 1.
func (v Verdict) Made() int {
	if !v.Checked {
		return 0
	}
	return max(v.Checks, 1)
}

// Kind classifies a finding.
type Kind int

// Finding kinds. The zero value is invalid.
const (
	KindInvalid Kind = iota
	KindWrongResult
	KindInvalidModel
	KindCrash
	KindHang
	KindUnexpectedError
	// KindPerformance is a potential performance issue, not a wrong answer: an engine's estimate
	// that contradicts itself (a more restrictive query estimated to return more rows, CERT).
	KindPerformance
)

var kindNames = [...]string{"invalid", "wrong-result", "invalid-model", "crash", "hang", "unexpected-error", "performance"}

// String returns the kind's name.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// MarshalText stores the kind by name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) && i != 0 {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown finding kind %q", b)
}

// Finding is what an oracle reports: a kind, a title that is the dedup key, the case and the runs.
type Finding struct {
	// Title is "oracle: engine: summary", lowercase, literals stripped; equal titles are one bug.
	Title  string `json:"title"`
	Kind   Kind   `json:"kind"`
	Oracle string `json:"oracle"`
	// Expected and Actual say in a line each what the oracle expected and what it saw.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
	// Roles lists the queries of the case the finding is about; a reducer may drop the others.
	Roles []string `json:"roles,omitempty"`
	Case  *Case    `json:"-"`
	Runs  []Run    `json:"-"`
}

// Title builds a finding title from its parts, lowercased, with literals stripped from the summary.
func Title(oracle, engine, summary string) string {
	return strings.ToLower(oracle + ": " + engine + ": " + StripLiterals(summary))
}

// StripLiterals replaces quoted strings and numbers in s with placeholders, so that titles do not
// split one bug by the values that happened to trigger it.
func StripLiterals(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				j++
			}
			b.WriteString("?")
			i = j
		case c >= '0' && c <= '9' && (i == 0 || !isIdent(s[i-1])):
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'x' || s[j] == 'e' ||
				s[j] >= 'a' && s[j] <= 'f' || s[j] >= 'A' && s[j] <= 'F') {
				j++
			}
			b.WriteString("N")
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Reducer shrinks a case while keep reports that a re-run still gives a finding with the same title.
type Reducer interface {
	Reduce(ctx context.Context, c *Case, keep func(context.Context, *Case) bool) (*Case, error)
}

// GuidedReducer is a Reducer that also learns from the finding it reduces: evidence holds the
// case as the oracle saw it and its runs (for instance, to find the tuples that differ).
type GuidedReducer interface {
	Reducer
	ReduceGuided(ctx context.Context, c *Case, evidence *Finding, keep func(context.Context, *Case) bool) (*Case, error)
}

// SetupBits is how many low bits of a case seed select the case within a shared setup.
const SetupBits = 16

// CaseSeed returns the seed of case i of a campaign with the given seed, when perSetup consecutive
// cases share one setup: the high bits come from hash(seed, i/perSetup), the low SetupBits from
// i%perSetup. With perSetup <= 1 every case gets hash(seed, i).
func CaseSeed(seed, i uint64, perSetup int) uint64 {
	if perSetup <= 1 {
		return Mix(seed ^ Mix(i+0x9e3779b97f4a7c15))
	}
	g := i / uint64(perSetup)
	h := Mix(seed ^ Mix(g+0x9e3779b97f4a7c15))
	return h&^(1<<SetupBits-1) | i%uint64(perSetup)
}

// SetupSeed returns the part of a case seed that selects its setup.
func SetupSeed(caseSeed uint64) uint64 { return caseSeed >> SetupBits }

// Mix is the splitmix64 finalizer, a fast 64-bit hash.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
