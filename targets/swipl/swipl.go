// Package swipl is the SWI-Prolog target: one long-lived swipl process per target that loads
// each program into a fresh temporary module, so that Datalog programs translated to tabled
// Prolog (datalog.SWIProlog) run without a process start each.
//
// # Protocol
//
// [New] starts swipl, writes the embedded server (server.pl) to its standard input followed by
// end_of_file, and waits for the line "polyfuzz-swipl VERSION". Exec then sends a line with the
// program's length in characters and the program, Prolog source text. The server loads it with
// load_files/2 into the temporary module polyfuzz_program (in_temporary_module/3), collects the
// solutions of row(R) in that module, destroys the module and abolishes all tables, so that no
// answer depends on an earlier program. Each solution R, a list, is one row: integers as write/1
// prints them, atoms and strings as their text, other terms as writeq/1 prints them. Whatever the
// program prints is discarded. The first error message printed while loading or running (a
// syntax error, an unknown procedure, a resource error) makes the answer fuzz.StatusEngineError
// with Code "error" and the message as Err, and the program's rows are dropped.
//
// # Timeouts and crashes
//
// A program that runs past Options.Timeout is answered with fuzz.StatusTimeout; its process is
// killed and the next Exec starts a new one. A process that exits before it answers is a
// fuzz.StatusCrash, with its exit status and the last lines of its standard error. A cancelled
// context kills the process too; Exec then returns the context's error.
//
// This package imports only fuzz and the standard library.
package swipl

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

//go:embed server.pl
var serverSource string

// Options configure a SWI-Prolog target.
type Options struct {
	// Path is the swipl binary; empty means "swipl" on PATH.
	Path string
	// Timeout bounds one program; 0 means no limit.
	Timeout time.Duration
}

// startTimeout bounds the start of a swipl process.
const startTimeout = 20 * time.Second

const hello = "polyfuzz-swipl "

// Target runs Prolog programs on one swipl process. It is used by one goroutine.
type Target struct {
	opts    Options
	path    string
	version string
	srv     *server // nil when no process runs
	closed  bool

	// Starts counts the swipl processes started, for statistics and tests.
	Starts int
}

var _ fuzz.Target = (*Target)(nil)

// New starts swipl. A missing binary is an error that names the fix.
func New(o Options) (*Target, error) {
	name := o.Path
	if name == "" {
		name = "swipl"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("swipl: %s not found (%v): install SWI-Prolog (apt-get install swi-prolog-nox) or set the path to swipl", name, err)
	}
	t := &Target{opts: o, path: path}
	if err := t.start(); err != nil {
		return nil, err
	}
	return t, nil
}

// Name returns "swipl".
func (t *Target) Name() string { return "swipl" }

// Version returns SWI-Prolog's version, such as "9.0.4".
func (t *Target) Version() string { return t.version }

// Reset starts a new process when none runs (after a timeout or a crash); a running one needs
// no reset, since every program runs in a fresh module.
func (t *Target) Reset(ctx context.Context) error {
	if t.closed {
		return errClosed
	}
	if t.srv == nil {
		return t.start()
	}
	return nil
}

// Exec runs one program and answers with the rows of its row/1 predicate.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !utf8.ValidString(stmt) {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: "the program is not valid UTF-8"}, nil
	}
	if t.srv == nil {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	s := t.srv
	var timedOut atomic.Bool
	var timer *time.Timer
	if t.opts.Timeout > 0 {
		timer = time.AfterFunc(t.opts.Timeout, func() { timedOut.Store(true); s.kill() })
	}
	stopCtx := context.AfterFunc(ctx, s.kill)
	req := strconv.Itoa(utf8.RuneCountInString(stmt)) + "\n" + stmt
	res, ok := s.roundTrip(req)
	ctxFired := !stopCtx()
	timerFired := timer != nil && !timer.Stop()
	if ok && !ctxFired && !timerFired {
		return res, nil
	}
	// The process is gone or being killed: the next Exec starts a new one.
	t.srv = nil
	desc, stderr := s.stop()
	switch {
	case ok:
		return res, nil // answered just before the deadline or the cancellation
	case timedOut.Load():
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("swipl: no answer within %s", t.opts.Timeout)}, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	msg := "swipl process ended (" + desc + ")"
	if stderr != "" {
		msg += ": " + stderr
	}
	return &fuzz.Result{Status: fuzz.StatusCrash, Err: msg}, nil
}

// Close kills the process.
func (t *Target) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if t.srv != nil {
		t.srv.stop()
		t.srv = nil
	}
	return nil
}

// start starts a process, loads the server and reads its version.
func (t *Target) start() error {
	cmd := exec.Command(t.path, "-f", "none", "-q", "--tty=false", "--packs=false",
		"-g", "load_files(polyfuzz_server, [stream(user_input)])", "-g", "polyfuzz_server:serve", "-t", "halt")
	s, err := startServer(cmd)
	if err != nil {
		return fmt.Errorf("start swipl (%s): %w", t.path, err)
	}
	t.Starts++
	timer := time.AfterFunc(startTimeout, s.kill)
	s.write(serverSource + "\nend_of_file.\n")
	line, err := s.out.ReadString('\n')
	timer.Stop()
	if err != nil || !strings.HasPrefix(line, hello) {
		desc, stderr := s.stop()
		return fmt.Errorf("swipl (%s) did not start: it printed %q and %s: %s", t.path, line, desc, stderr)
	}
	t.version = strings.TrimSpace(strings.TrimPrefix(line, hello))
	t.srv = s
	return nil
}

var errClosed = errors.New("swipl: target is closed")

// server is one running process that answers requests with rows ("R" and tab-separated escaped
// fields), then "OK", or with an error line ("E", a tab and the escaped message).
type server struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	done   chan struct{} // closed when the process has been reaped
	killed atomic.Bool
}

func startServer(cmd *exec.Cmd) (*server, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), stderr: &tail{max: 8 << 10},
		done: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { cmd.Wait(); close(s.done) }()
	return s, nil
}

// write sends text; an error means the process is gone, which the next read sees.
func (s *server) write(text string) { io.WriteString(s.in, text) }

// kill kills the process; it is safe to call more than once and from any goroutine.
func (s *server) kill() {
	if !s.killed.Swap(true) {
		s.cmd.Process.Kill()
	}
}

// stop kills the process, reaps it, and says how it ended and what it last wrote to stderr.
func (s *server) stop() (desc, stderr string) {
	s.in.Close()
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
	}
	s.kill()
	<-s.done
	desc = "ended"
	if ps := s.cmd.ProcessState; ps != nil {
		desc = ps.String() // "exit status 1", "signal: killed"
	}
	return desc, s.stderr.last(300)
}

// roundTrip sends a request and reads its answer; ok is false when the process ended first.
func (s *server) roundTrip(req string) (res *fuzz.Result, ok bool) {
	go s.write(req) // a goroutine, so that a process that stops reading cannot block the reader
	res = &fuzz.Result{Status: fuzz.StatusOK}
	for {
		line, err := s.out.ReadString('\n')
		if err != nil {
			return nil, false
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "R\t"):
			fields := strings.Split(line[2:], "\t")
			for i, f := range fields {
				fields[i] = unescape(f)
			}
			res.Rows = append(res.Rows, fields)
		case line == "R":
			res.Rows = append(res.Rows, []string{})
		case line == "OK":
			return res, true
		case strings.HasPrefix(line, "E\t"):
			return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: unescape(line[2:])}, true
		}
	}
}

// unescape undoes the server's escapes: \\, \t, \n and \r.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			default:
				c = s[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// last returns the end of what was written, at most n bytes, on one line.
func (t *tail) last(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := bytes.TrimSpace(t.buf)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.Join(strings.Fields(string(b)), " ")
}
