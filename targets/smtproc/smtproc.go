package smtproc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// Options configure a solver target.
type Options struct {
	// Name is the solver's name in titles; empty means the base name of Command[0].
	Name string
	// Command starts the solver: a program that reads SMT-LIB 2 commands on stdin and answers
	// each one as soon as it has read it.
	Command []string
	// Timeout bounds one statement (see the package doc); 0 means no limit. [Preset] and
	// [Custom] set [DefaultTimeout].
	Timeout time.Duration
	// Env holds extra environment variables ("KEY=value") for the solver.
	Env []string
	// Version is the solver's version when it does not answer (get-info :version): a bridge
	// run by Python, whose --version is Python's. Empty means Command[0] --version.
	Version string
}

// handshakeTimeout bounds the first answer of a new solver; restartTimeout that of a restarted
// one (a machine under load may start it slowly, and a restart failure stops the campaign).
var (
	handshakeTimeout = 5 * time.Second
	restartTimeout   = 30 * time.Second
)

const (
	helloMarker = "polyfuzz-hello"
	syncPrefix  = "polyfuzz-sync-"
	// maxLog bounds the statements kept for a replay after an error exit.
	maxLogStmts = 4096
	maxLogBytes = 1 << 20
)

// Target is one solver process behind the fuzz.Target contract. It is used by one goroutine.
type Target struct {
	opts    Options
	name    string
	version string
	argv    []string // Command plus the soft time limit
	p       *proc    // nil when no process runs
	seq     uint64   // the last sync marker's number

	pendingReset bool // "(reset)" goes in front of the next statement
	resetRestart bool // the solver cannot (reset): Reset starts a new process
	eagerReset   bool // send (reset) from Reset itself and wait for it (for benchmarks)

	// log holds the statements run since the last Reset, replayed into a new process after an
	// error exit (replay is then true). logLost is set when it grew past its bounds.
	log      []string
	logBytes int
	logLost  bool
	replay   bool

	wbuf, out, mbuf []byte
	shapes          []stmtShape
	closed          bool

	// Starts counts the solver processes started, for statistics.
	Starts int
}

var (
	_ fuzz.Target      = (*Target)(nil)
	_ fuzz.BatchTarget = (*Target)(nil)
)

// New starts the solver and checks that it speaks SMT-LIB (see the package doc). A missing
// binary or one that does not answer is an error that names the fix.
func New(o Options) (*Target, error) {
	if len(o.Command) == 0 {
		return nil, errors.New("smtproc: no solver command")
	}
	name := o.Name
	if name == "" {
		name = filepath.Base(o.Command[0])
	}
	if _, err := exec.LookPath(o.Command[0]); err != nil {
		return nil, fmt.Errorf("solver %s: %s not found (%v): install %s or pass --solver-cmd 'path args'",
			name, o.Command[0], err, filepath.Base(o.Command[0]))
	}
	t := &Target{opts: o, name: name}
	t.argv = append(slices.Clone(o.Command), softLimitArgs(o.Command, o.Timeout)...)
	if err := t.start(handshakeTimeout, true); err != nil {
		return nil, err
	}
	if t.version == "" {
		t.version = o.Version
	}
	if t.version == "" {
		t.version = versionFromBinary(o.Command[0])
	}
	return t, nil
}

// Name returns the solver's name.
func (t *Target) Name() string { return t.name }

// Version returns the solver's version, from (get-info :version) or else from --version.
func (t *Target) Version() string { return t.version }

// Command returns the command line the target runs, with the soft time limit it added.
func (t *Target) Command() []string { return slices.Clone(t.argv) }

// start starts a process and waits for it to answer within d. The first start also reads the
// version and checks whether the solver answers (reset) silently.
func (t *Target) start(d time.Duration, first bool) error {
	p, err := startProc(t.argv, t.opts.Env)
	if err != nil {
		return fmt.Errorf("start solver %s (%s): %w", t.name, strings.Join(t.argv, " "), err)
	}
	t.Starts++
	hello := "(set-option :print-success false)\n"
	if first {
		hello += "(get-info :version)\n"
	}
	hello += `(echo "` + helloMarker + `")` + "\n"
	out, err := t.handshake(p, hello, d)
	if err != nil {
		return err
	}
	if first {
		t.version = versionOf(out)
		out, err := t.handshake(p, "(reset)\n(echo \""+helloMarker+"\")\n", d)
		if err != nil {
			return err
		}
		t.resetRestart = len(bytes.TrimSpace(out)) > 0
	}
	t.p, t.pendingReset = p, false
	return nil
}

// handshake sends text, which ends with the hello echo, and returns the output before it. On
// failure the process is stopped and the error says what the program printed.
func (t *Target) handshake(p *proc, text string, d time.Duration) ([]byte, error) {
	marker := []byte(helloMarker)
	echoed := []byte(`(echo "` + helloMarker + `")`)
	p.arm(d)
	p.write([]byte(text))
	var out []byte
	found, echo := false, false
	for !found && !echo {
		line, err := p.br.ReadSlice('\n')
		if err == nil {
			if i := markerAt(line, marker); i >= 0 {
				out = append(out, line[:i]...)
				found = true
				break
			}
		}
		echo = bytes.Contains(line, echoed)
		out = append(out, line...)
		if err != nil && err != bufio.ErrBufferFull {
			break
		}
	}
	fired := !p.disarm(d)
	if found && !fired {
		p.drainStderr() // start-up chatter belongs to no statement
		return out, nil
	}
	if echo {
		p.Kill()
	}
	desc := p.exitStatus(2 * time.Second).String()
	printed := bytes.TrimSpace(append(out, p.stderr.Bytes()...))
	p.stop()
	var why string
	switch {
	case echo:
		why = fmt.Sprintf("it echoed its input back: %q", clip(printed, 200))
	case len(printed) == 0 && fired:
		why = fmt.Sprintf("it printed nothing in %s", d)
	case len(printed) == 0:
		why = "it printed nothing and " + desc
	case fired:
		why = fmt.Sprintf("it printed %q and no answer to (echo) in %s", clip(printed, 200), d)
	default:
		why = fmt.Sprintf("it printed %q and %s", clip(printed, 200), desc)
	}
	return nil, fmt.Errorf("%s does not speak SMT-LIB on stdin: %s (command: %s; pass --solver-cmd 'path args' for a solver that reads SMT-LIB 2 on stdin)",
		t.name, why, strings.Join(t.argv, " "))
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// versionFromBinary runs "bin --version" and returns the first word that looks like a version.
func versionFromBinary(bin string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := childproc.CombinedOutput(ctx, exec.Command(bin, "--version"))
	for _, f := range strings.Fields(string(out)) {
		f = strings.Trim(f, "v,;()")
		if f != "" && f[0] >= '0' && f[0] <= '9' && strings.Contains(f, ".") {
			return f
		}
	}
	return "unknown"
}

// Reset returns the solver to its initial state: it queues (reset) for the next statement, or
// starts a new process when none runs or the solver cannot reset.
func (t *Target) Reset(ctx context.Context) error {
	if t.closed {
		return errClosed
	}
	t.clearLog()
	if t.p != nil && t.resetRestart {
		t.lose(false)
	}
	if t.p == nil {
		return t.start(restartTimeout, false)
	}
	if !t.eagerReset {
		t.pendingReset = true
		return nil
	}
	t.seq++
	t.mbuf = appendMarker(t.mbuf[:0], t.seq)
	w := append(append(append(t.wbuf[:0], "(reset)\n(echo \""...), t.mbuf...), "\")\n"...)
	t.wbuf = w
	d := t.hardTimeout()
	t.p.arm(d)
	t.p.write(w)
	out, found := t.p.readUntil(t.mbuf, t.out[:0])
	t.out = out
	if fired := !t.p.disarm(d); !found || fired {
		t.lose(false)
		return t.start(restartTimeout, false)
	}
	return nil
}

// Exec runs one statement: any sequence of SMT-LIB commands.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	stmts := [1]string{stmt}
	var res [1]*fuzz.Result
	_, err := t.run(ctx, stmts[:], res[:])
	return res[0], err
}

// ExecBatch runs statements in order, writing them all at once; it answers as Exec would one
// statement at a time (a process that dies is restarted for the statements after it).
func (t *Target) ExecBatch(ctx context.Context, stmts []string) ([]*fuzz.Result, error) {
	res := make([]*fuzz.Result, len(stmts))
	n, err := t.run(ctx, stmts, res)
	return res[:n], err
}

// Close kills the solver and reaps it.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if t.p != nil {
		t.p.stop()
		t.p = nil
	}
	return nil
}

// hardTimeout is the time a statement may take before its process is killed; 0 means no limit.
func (t *Target) hardTimeout() time.Duration {
	if t.opts.Timeout <= 0 {
		return 0
	}
	return t.opts.Timeout + t.opts.Timeout/4 + 250*time.Millisecond
}

func appendMarker(b []byte, seq uint64) []byte {
	return strconv.AppendUint(append(b, syncPrefix...), seq, 10)
}

// run answers stmts into res and returns how many it answered.
func (t *Target) run(ctx context.Context, stmts []string, res []*fuzz.Result) (int, error) {
	if t.closed {
		return 0, errClosed
	}
	i := 0
	for i < len(stmts) {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		if t.p == nil {
			if err := t.start(restartTimeout, false); err != nil {
				return i, err
			}
			if t.replay {
				if msg := t.replayLog(); msg != "" {
					res[i] = &fuzz.Result{Status: fuzz.StatusCrash, Err: msg}
					i++
					continue
				}
			}
		}
		n, err := t.pipeline(ctx, stmts[i:], res[i:])
		i += n
		if err != nil {
			return i, err
		}
	}
	return i, nil
}

var unbalancedResult = fuzz.Result{Status: fuzz.StatusEngineError, Code: "unbalanced",
	Err: "statement not sent: an unclosed parenthesis, string or |symbol| would make the solver wait for more input"}

// pipeline writes stmts to the running process, each followed by its sync marker, and reads the
// answers. It returns how many statements it answered: all of them, or up to and including the
// one that lost the process.
func (t *Target) pipeline(ctx context.Context, stmts []string, res []*fuzz.Result) (n int, err error) {
	p := t.p
	w := t.wbuf[:0]
	if t.pendingReset {
		w = append(w, "(reset)\n"...)
		t.pendingReset = false
	}
	t.shapes = t.shapes[:0]
	seq := t.seq
	for _, s := range stmts {
		sh := shapeOf(s)
		t.shapes = append(t.shapes, sh)
		if !sh.balanced {
			continue
		}
		t.seq++
		w = append(w, s...)
		w = append(w, "\n(echo \""...)
		w = appendMarker(w, t.seq)
		w = append(w, "\")\n"...)
	}
	t.wbuf = w
	var stopCtx func() bool
	if ctx.Done() != nil {
		stopCtx = context.AfterFunc(ctx, p.Kill)
	}
	d := t.hardTimeout()
	p.arm(d) // the first statement's deadline covers the write
	armed := true
	wdone := p.write(w)
	defer func() {
		if wdone != nil {
			<-wdone
		}
		if stopCtx != nil && !stopCtx() && ctx.Err() != nil {
			// The context killed the process: the statement in flight has no answer.
			if t.p == p {
				t.lose(false)
			}
			if n > 0 && res[n-1] != nil && res[n-1].Status != fuzz.StatusOK && res[n-1].Status != fuzz.StatusEngineError {
				res[n-1] = nil
				n--
			}
			err = ctx.Err()
		}
	}()
	for k, s := range stmts {
		if !t.shapes[k].balanced {
			r := unbalancedResult
			res[k] = &r
			continue
		}
		seq++
		t.mbuf = appendMarker(t.mbuf[:0], seq)
		if !armed {
			p.arm(d)
		}
		armed = false
		out, found := p.readUntil(t.mbuf, t.out[:0])
		t.out = out
		fired := !p.disarm(d)
		if !found {
			res[k] = t.lost(p, out, fired)
			return k + 1, nil
		}
		crash := crashText(out, 300)
		if errBefore := p.drainStderr(); crash == "" && p.stderr.Total() != errBefore {
			crash = crashText(p.stderr.Since(errBefore), 300)
		}
		if crash != "" {
			res[k] = &fuzz.Result{Status: fuzz.StatusCrash, Err: t.name + ": " + crash}
			t.lose(false)
			return k + 1, nil
		}
		res[k] = parseOutput(out)
		checkAnswers(res[k], t.shapes[k].checks)
		t.logStmt(s)
		if fired { // the deadline fired as the answer came: the process is being killed
			t.lose(true)
			return k + 1, nil
		}
	}
	if armed && !p.disarm(d) { // nothing was sent but the deadline fired
		t.lose(true)
	}
	return len(stmts), nil
}

// lost answers the statement whose marker never came: the process timed out, crashed or
// exited. The process is gone afterwards.
func (t *Target) lost(p *proc, out []byte, timedOut bool) *fuzz.Result {
	errBefore := p.stderr.Total()
	exit := p.exitStatus(2 * time.Second)
	stderr := p.stderr.Bytes()
	crash := crashText(out, 300)
	if crash == "" {
		crash = crashText(p.stderr.Since(errBefore), 300)
	}
	switch {
	case timedOut && crash == "":
		t.lose(false)
		return &fuzz.Result{Status: fuzz.StatusTimeout,
			Err: fmt.Sprintf("no answer within %s; %s killed", t.hardTimeout(), t.name)}
	case timedOut:
		t.lose(false)
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: t.name + " hung: " + crash}
	case crash == "" && !exit.Signaled() && (exit.Code == 0 || exit.Code == 1 && hasError(out)) && !t.logLost:
		// An exit on an error (cvc4 and cvc5 exit on parse errors): not a crash.
		r := parseOutput(out)
		if r.Status != fuzz.StatusEngineError {
			r.Status, r.Code, r.Err = fuzz.StatusEngineError, "exit", t.name+" "+exit.String()+" before answering"
		}
		t.lose(true)
		return r
	}
	msg := t.name + " " + exit.String()
	detail := crash
	if detail == "" {
		detail = childproc.LastLines(stderr, 300)
	}
	if detail == "" {
		detail = childproc.LastLines(out, 300)
	}
	if detail != "" {
		msg += ": " + detail
	}
	t.lose(false)
	return &fuzz.Result{Status: fuzz.StatusCrash, Err: msg}
}

// lose stops the process. With replay, the next process replays the statements run since the
// last Reset; without, it starts empty.
func (t *Target) lose(replay bool) {
	if t.p != nil {
		t.p.stop()
		t.p = nil
	}
	t.pendingReset = false
	if replay && !t.logLost {
		t.replay = true
	} else {
		t.clearLog()
	}
}

// replayLog runs the logged statements in the new process, discarding their output. It returns
// why that failed, or "".
func (t *Target) replayLog() string {
	p := t.p
	t.seq++
	t.mbuf = appendMarker(t.mbuf[:0], t.seq)
	w := t.wbuf[:0]
	for _, s := range t.log {
		w = append(append(w, s...), '\n')
	}
	w = append(append(append(w, "(echo \""...), t.mbuf...), "\")\n"...)
	t.wbuf = w
	d := t.hardTimeout() * time.Duration(max(len(t.log), 1))
	p.arm(d)
	wdone := p.write(w)
	out, found := p.readUntil(t.mbuf, t.out[:0])
	t.out = out
	fired := !p.disarm(d)
	if wdone != nil {
		<-wdone
	}
	t.replay = false
	p.drainStderr()
	if !found || fired || crashText(out, 300) != "" {
		msg := fmt.Sprintf("%s could not restore its state after it exited on an error: replaying %d statements failed", t.name, len(t.log))
		t.lose(false)
		return msg
	}
	return ""
}

func (t *Target) logStmt(s string) {
	if t.logLost {
		return
	}
	t.log = append(t.log, s)
	t.logBytes += len(s)
	if len(t.log) > maxLogStmts || t.logBytes > maxLogBytes {
		t.log, t.logBytes, t.logLost = nil, 0, true
	}
}

func (t *Target) clearLog() {
	clear(t.log)
	t.log, t.logBytes, t.logLost, t.replay = t.log[:0], 0, false, false
}
