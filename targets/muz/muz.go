// Package muz is the target of Z3's μZ Datalog engine: SMT-LIB 2 fixedpoint programs
// (declare-rel, rule, query with :print-answer) run by one long-lived `z3 -in` process.
//
// # Protocol
//
// Exec sends (reset), the statement's commands, an (echo "polyfuzz-N-K") marker before and
// after every (query ...) and one after the last command, in one write, and reads stdout up to
// the last marker. (reset) makes each answer independent of the programs before it (checked by
// the tests) at a fraction of the cost of a new process per program (BenchmarkMuZ in package
// datalog measures both; Options.ProcessPerProgram selects the latter). A statement whose
// parentheses, strings or |quoted symbols| are not closed is not sent: it is answered with
// fuzz.StatusEngineError and Code "unbalanced".
//
// # Answers
//
// z3 answers a query with sat and a formula over (:var 0), (:var 1), ..., or with unsat. The
// answer has one row per tuple: the queried relation's name and the printed value of each
// column ("#b01", "#x0f", "true"), e.g. ["path", "#x01", "#x02"]; a 0-ary relation that holds
// is the row [name]. z3 prints an enumeration of tuples, (or (and (= (:var 0) v) ...) ...);
// any other formula (true for a relation with columns, ranges, a column left open) is evaluated
// on every tuple of the columns' sorts, read from the statement's define-sort and declare-rel
// commands, when there are at most 65536 of them.
//
// Everything z3 prints is parsed; its exit code alone decides nothing (z3 prints errors and
// unknown and exits 0). The status of a result:
//   - an (error "msg") anywhere: fuzz.StatusEngineError, Code "error", Err the first message;
//   - a query answered unknown: StatusEngineError, Code "unknown";
//   - an answer that is not sat and a formula, or unsat, or a formula that cannot be read:
//     StatusEngineError, Code "bad-answer";
//   - no answer within Options.Timeout: the process is killed, fuzz.StatusTimeout;
//   - the process dies (a signal, an exit status above 1) or prints a crash message (ASSERTION
//     VIOLATION, Segmentation fault, ... on stderr or at the start of a line of stdout):
//     fuzz.StatusCrash, Err how it ended and the end of stderr;
//   - the process exits with status 0 or 1 (an (exit) command; z3 exits with 1 after it printed
//     an error): StatusEngineError, Code "exited".
//
// After a timeout or a crash the next Exec starts a new process. A cancelled context kills the
// process, and Exec returns the context's error.
//
// z3 runs through package childproc: in a process group of its own, killed as a group, and
// killed when polyfuzz dies. This package imports only fuzz, childproc and sexpr, and runs on
// Linux.
package muz

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/sexpr"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// DefaultTimeout bounds one program when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Options configure a μZ target.
type Options struct {
	// Path is the z3 binary; empty means z3 on PATH.
	Path string
	// Timeout bounds one program; zero means DefaultTimeout.
	Timeout time.Duration
	// ProcessPerProgram starts a new z3 for every program instead of resetting a long-lived
	// one: several times slower, for measuring that and for ruling out state that (reset)
	// might leave behind.
	ProcessPerProgram bool
}

// Target runs Datalog programs on z3's μZ engine. It is used by one goroutine.
type Target struct {
	path    string
	version string
	timeout time.Duration
	p       *proc // nil when no process runs
	seq     uint64
	buf     []byte

	perProcess bool // Options.ProcessPerProgram

	// Starts counts the z3 processes started.
	Starts int
}

var _ fuzz.Target = (*Target)(nil)

// New finds z3, reads its version and starts it. A missing binary, or one that is not z3, is
// an error that names the fix.
func New(o Options) (*Target, error) {
	path := o.Path
	if path == "" {
		path = "z3"
	}
	abs, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("muz: z3 binary %s not found (%v): install z3 (Debian: apt-get install z3) or set Options.Path to it", path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := childproc.CombinedOutput(ctx, exec.Command(abs, "--version"))
	f := strings.Fields(string(out))
	if err != nil || len(f) < 3 || f[0] != "Z3" || f[1] != "version" {
		return nil, fmt.Errorf("muz: %s --version printed %q (%v), not a Z3 version: set Options.Path to a z3 binary", abs, out, err)
	}
	t := &Target{path: abs, version: f[2], timeout: o.Timeout, perProcess: o.ProcessPerProgram}
	if t.timeout <= 0 {
		t.timeout = DefaultTimeout
	}
	res, err := t.Exec(context.Background(), "")
	if err != nil || res.Status != fuzz.StatusOK {
		if err == nil {
			err = fmt.Errorf("%s: %s", res.Status, res.Err)
		}
		return nil, fmt.Errorf("muz: %s -in does not answer SMT-LIB commands: %v; set Options.Path to a z3 binary", abs, err)
	}
	return t, nil
}

// Name returns "muz".
func (t *Target) Name() string { return "muz" }

// Version returns z3's version, e.g. "4.8.12".
func (t *Target) Version() string { return t.version }

// Reset does nothing: every Exec starts with (reset).
func (t *Target) Reset(ctx context.Context) error { return ctx.Err() }

// Close stops z3.
func (t *Target) Close() error {
	if t.p != nil {
		t.p.stop()
		t.p = nil
	}
	return nil
}

// Exec runs one program (see the package doc).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmds, err := sexpr.Parse(stmt)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "unbalanced", Err: "statement not sent: " + err.Error()}, nil
	}
	sch := newSchema(cmds)
	t.seq++
	marker := "polyfuzz-" + strconv.FormatUint(t.seq, 10) + "-"
	b := append(t.buf[:0], "(reset)\n"...)
	k := 0
	for _, c := range cmds {
		isQuery := c.Head() == "query"
		if isQuery {
			b = appendEcho(b, marker, strconv.Itoa(k))
			k++
		}
		b = append(b, stmt[c.Pos:c.End]...)
		b = append(b, '\n')
		if isQuery {
			b = appendEcho(b, marker, strconv.Itoa(k))
			k++
		}
	}
	b = appendEcho(b, marker, "end")
	t.buf = b

	if t.p == nil {
		p, err := startProc([]string{t.path, "-in"})
		if err != nil {
			return nil, fmt.Errorf("muz: start %s: %w", t.path, err)
		}
		t.p = p
		t.Starts++
	}
	p := t.p
	var fired atomic.Bool
	timer := time.AfterFunc(t.timeout, func() { fired.Store(true); p.Kill() })
	stopCtx := context.AfterFunc(ctx, p.Kill)
	wrote := make(chan struct{})
	go func() { p.Stdin.Write(b); close(wrote) }()
	regions, found := readRegions(p, marker)
	alive := timer.Stop() && stopCtx() // false: the process is being killed, maybe after it answered
	<-wrote

	if !found || !alive || t.perProcess {
		defer func() { p.stop(); t.p = nil }()
	}
	out := strings.Join(regions, "")
	switch {
	case !found && ctx.Err() != nil:
		return nil, ctx.Err()
	case !found && fired.Load():
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("z3 gave no answer within %s", t.timeout)}, nil
	case !found:
		desc, crashed := p.exit()
		msg := "z3 " + desc
		if s := childproc.LastLines([]byte(p.stderr.String()+out), 300); s != "" {
			msg += ": " + s
		}
		if !crashed {
			return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "exited", Err: msg}, nil
		}
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: msg}, nil
	}
	if msg := crashMessage(out, p.stderr.String()); msg != "" {
		if found && alive && !t.perProcess {
			defer func() { p.stop(); t.p = nil }()
		}
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: "z3: " + msg}, nil
	}
	return answer(regions, sch), nil
}

// crashMessage returns the crash message (see childproc.CrashPatterns) on stderr, or on stdout
// at the start of a line (stdout's (error ...) answers may quote the program's names), or "".
func crashMessage(stdout, stderr string) string {
	if i := childproc.CrashAt([]byte(stderr), childproc.CrashPatterns); i >= 0 {
		return childproc.OneLine([]byte(stderr[i:]), 300)
	}
	if i := childproc.CrashAtLineStart([]byte(stdout), childproc.CrashPatterns); i >= 0 {
		return childproc.OneLine([]byte(stdout[i:]), 300)
	}
	return ""
}

// appendEcho appends an echo command printing marker+k.
func appendEcho(b []byte, marker, k string) []byte {
	return append(append(append(append(b, `(echo "`...), marker...), k...), "\")\n"...)
}

// readRegions reads stdout up to the end marker and splits it at the markers: region i is what
// z3 printed before marker i. found is false when stdout ended first.
func readRegions(p *proc, marker string) (regions []string, found bool) {
	var cur strings.Builder
	for {
		line, err := p.stdout.ReadString('\n')
		if s := strings.TrimSpace(line); err == nil && strings.HasPrefix(s, marker) {
			regions = append(regions, cur.String())
			cur.Reset()
			if s[len(marker):] == "end" {
				return regions, true
			}
			continue
		}
		cur.WriteString(line)
		if err != nil {
			return append(regions, cur.String()), false
		}
	}
}

// answer builds the result from the output regions: region 2i+1 answers the i-th query, the
// others hold what the other commands printed.
func answer(regions []string, sch *schema) *fuzz.Result {
	res := &fuzz.Result{Status: fuzz.StatusOK}
	fail := func(code, msg string) *fuzz.Result {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: code, Err: msg}
	}
	for i, r := range regions {
		nodes, err := sexpr.Parse(r)
		if err != nil {
			return fail("bad-answer", fmt.Sprintf("unreadable output %q: %v", clip(r), err))
		}
		var kept []sexpr.Node
		for _, n := range nodes {
			if n.Head() == "error" {
				msg := n.String()
				if len(n.List) == 2 && n.List[1].Kind == sexpr.String {
					msg = sexpr.Unquote(n.List[1].Text)
				}
				return fail("error", msg)
			}
			kept = append(kept, n)
		}
		if i%2 == 0 || i/2 >= len(sch.queries) {
			continue
		}
		rel := sch.queries[i/2]
		rows, err := queryAnswer(kept, sch.rels[rel])
		if err != nil {
			return fail(codeOf(err), fmt.Sprintf("query %s: %v", rel, err))
		}
		for _, row := range rows {
			res.Rows = append(res.Rows, append([]string{rel}, row...))
		}
	}
	return res
}

// errUnknown is the error of a query answered unknown.
var errUnknown = errors.New("z3 answered unknown")

func codeOf(err error) string {
	if errors.Is(err, errUnknown) {
		return "unknown"
	}
	return "bad-answer"
}

// queryAnswer reads the answer of one query: sat and a formula, unsat, or unknown.
func queryAnswer(nodes []sexpr.Node, cols []finSort) ([][]string, error) {
	switch {
	case len(nodes) == 1 && nodes[0].Symbol() == "unsat":
		return nil, nil
	case len(nodes) == 1 && nodes[0].Symbol() == "unknown":
		return nil, errUnknown
	case len(nodes) == 2 && nodes[0].Symbol() == "sat":
		return tuples(&nodes[1], cols)
	}
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = n.String()
	}
	return nil, fmt.Errorf("answer %q is not sat and a formula, unsat or unknown", clip(strings.Join(parts, " ")))
}
