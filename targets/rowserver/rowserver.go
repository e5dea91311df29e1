// Package rowserver runs an engine behind one long-lived server process that answers programs
// with rows, so that a target pays for a process start only after a timeout or a crash.
//
// # Protocol
//
// [Start] starts the server (Config.Path with Config.Args), writes Config.Init to its standard
// input when there is one, and reads its greeting: a line that starts with Config.Hello followed
// by the engine's version. Each request is then a line with the program's length (Config.Length)
// and the program. The server answers with rows, each a line "R" followed by tab-separated fields,
// then a line "OK"; or with one line "E", a tab and an error message, which becomes
// fuzz.StatusEngineError with Code "error". Fields and messages escape backslash, tab, newline
// and carriage return as \\, \t, \n and \r. Other lines are ignored.
//
// # Timeouts and crashes
//
// A request that runs past Config.Timeout is answered with fuzz.StatusTimeout; its process is
// killed and the next Exec starts a new one. A process that exits before it answers is a
// fuzz.StatusCrash, with its exit status and the last of its standard error. A cancelled context
// kills the process too; Exec then returns the context's error. The server runs through package
// childproc: in a process group of its own, killed as a group, and killed when polyfuzz dies.
//
// This package imports only fuzz, childproc and pypi (for the project's Python interpreter).
package rowserver

import (
	"bufio"
	"context"
	_ "embed" // serve.py
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// StartTimeout bounds the start of a server process, up to its greeting.
const StartTimeout = 20 * time.Second

// Config describes a server program and how to talk to it.
type Config struct {
	// Name is the engine's name, for Name and for messages ("swipl").
	Name string
	// Path and Args are the server's command line.
	Path string
	Args []string
	// Init, when not empty, is written to the server's standard input before its greeting is read.
	Init string
	// Hello starts the server's greeting line; the rest of the line is the engine's version.
	Hello string
	// Refused, when not nil, explains a first line without Hello (such as a missing module) by an
	// error that names the fix; it returns nil for a line it does not know.
	Refused func(line string) error
	// Reject, when not nil, says why a program cannot be sent to the server (such as text the
	// server cannot read), or returns "". Exec answers a rejected program with
	// fuzz.StatusEngineError, Code "error" and the reason as Err.
	Reject func(prog string) string
	// Length measures a program for its request's header; nil means its length in bytes.
	Length func(string) int
	// Timeout bounds one program; 0 means no limit.
	Timeout time.Duration
}

// Server runs programs on one server process at a time. It is a fuzz.Target used by one
// goroutine.
type Server struct {
	cfg     Config
	version string
	p       *process // nil when no process runs
	closed  bool

	// Starts counts the processes started, for statistics and tests.
	Starts int
}

var _ fuzz.Target = (*Server)(nil)

// Start starts a server process and reads its greeting.
func Start(c Config) (*Server, error) {
	if c.Length == nil {
		c.Length = func(s string) int { return len(s) }
	}
	s := &Server{cfg: c}
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// Name returns Config.Name.
func (s *Server) Name() string { return s.cfg.Name }

// Version returns the version the server's greeting named.
func (s *Server) Version() string { return s.version }

// Reset starts a new process when none runs (after a timeout or a crash); a running one needs
// no reset, since the server runs every program on its own.
func (s *Server) Reset(ctx context.Context) error {
	if s.closed {
		return s.errClosed()
	}
	if s.p == nil {
		return s.start()
	}
	return nil
}

// ResetWith starts a new process when none runs and sends it prog, a target's request to empty
// its database; a process that dies or hangs on prog is replaced, so the next Exec starts afresh.
func (s *Server) ResetWith(ctx context.Context, prog string) error {
	if err := s.Reset(ctx); err != nil {
		return err
	}
	res, err := s.Exec(ctx, prog)
	if err != nil {
		return err
	}
	if res.Status != fuzz.StatusOK {
		return s.Reset(ctx)
	}
	return nil
}

// ExecRows runs prog like Exec and puts the answer in its canonical form: every value through
// canon, and an engine error the server wrote as "CODE\tMESSAGE" split into Result.Code and
// Result.Err (an error raised before the program reached the server keeps Code "error").
func (s *Server) ExecRows(ctx context.Context, prog string, canon func(string) string) (*fuzz.Result, error) {
	res, err := s.Exec(ctx, prog)
	if err != nil || res == nil {
		return res, err
	}
	switch res.Status {
	case fuzz.StatusOK:
		for _, row := range res.Rows {
			for i, v := range row {
				row[i] = canon(v)
			}
		}
	case fuzz.StatusEngineError:
		if code, msg, ok := strings.Cut(res.Err, "\t"); ok {
			res.Code, res.Err = code, msg
		}
	}
	return res, nil
}

// Exec runs one program and answers with the server's rows.
func (s *Server) Exec(ctx context.Context, prog string) (*fuzz.Result, error) {
	if s.closed {
		return nil, s.errClosed()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.cfg.Reject != nil {
		if why := s.cfg.Reject(prog); why != "" {
			return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: why}, nil
		}
	}
	if s.p == nil {
		if err := s.start(); err != nil {
			return nil, err
		}
	}
	p := s.p
	var timedOut atomic.Bool
	var timer *time.Timer
	if s.cfg.Timeout > 0 {
		timer = time.AfterFunc(s.cfg.Timeout, func() { timedOut.Store(true); p.Kill() })
	}
	stopCtx := context.AfterFunc(ctx, p.Kill)
	res, ok := p.roundTrip(strconv.Itoa(s.cfg.Length(prog)) + "\n" + prog)
	ctxFired := !stopCtx()
	timerFired := timer != nil && !timer.Stop()
	if ok && !ctxFired && !timerFired {
		return res, nil
	}
	// The process is gone or being killed: the next Exec starts a new one, with none of this
	// one's state. An answer that came just as the timeout killed the process is a timeout all
	// the same, so that the caller knows the state is lost (and sets it up again).
	s.p = nil
	desc, stderr := p.stop()
	switch {
	case timedOut.Load():
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("%s: no answer within %s", s.cfg.Name, s.cfg.Timeout)}, nil
	case ok:
		return res, nil // answered just before the cancellation
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	msg := s.cfg.Name + " " + desc
	if stderr != "" {
		msg += ": " + stderr
	}
	return &fuzz.Result{Status: fuzz.StatusCrash, Err: msg}, nil
}

// Close kills the process.
func (s *Server) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.p != nil {
		s.p.stop()
		s.p = nil
	}
	return nil
}

// start starts a process, writes Init and reads the greeting.
func (s *Server) start() error {
	p, err := startProcess(s.cfg.Path, s.cfg.Args)
	if err != nil {
		return fmt.Errorf("start %s (%s): %w", s.cfg.Name, s.cfg.Path, err)
	}
	s.Starts++
	timer := time.AfterFunc(StartTimeout, p.Kill)
	if s.cfg.Init != "" {
		p.write(s.cfg.Init)
	}
	line, err := p.out.ReadString('\n')
	timer.Stop()
	if err != nil || !strings.HasPrefix(line, s.cfg.Hello) {
		desc, stderr := p.stop()
		if s.cfg.Refused != nil {
			if err := s.cfg.Refused(line); err != nil {
				return err
			}
		}
		return fmt.Errorf("%s (%s) did not start: it printed %q and %s: %s", s.cfg.Name, s.cfg.Path, line, desc, stderr)
	}
	s.version = strings.TrimSpace(strings.TrimPrefix(line, s.cfg.Hello))
	s.p = p
	return nil
}

func (s *Server) errClosed() error { return errors.New(s.cfg.Name + ": target is closed") }

// process is one running server.
type process struct {
	*childproc.Process
	out    *bufio.Reader // over Stdout
	stderr *childproc.Tail
}

func startProcess(path string, args []string) (*process, error) {
	cmd := exec.Command(path, args...)
	p := &process{stderr: childproc.NewTail(8 << 10)}
	cmd.Stderr = p.stderr
	cp, err := childproc.StartPiped(cmd)
	if err != nil {
		return nil, err
	}
	p.Process, p.out = cp, bufio.NewReaderSize(cp.Stdout, 64<<10)
	return p, nil
}

// write sends text; an error means the process is gone, which the next read sees.
func (p *process) write(text string) { io.WriteString(p.Stdin, text) }

// stop closes the process's input, waits a little for it to end, kills its group, reaps it, and
// says how it ended and what it last wrote to stderr, on one line.
func (p *process) stop() (desc, stderr string) {
	p.Stdin.Close()
	desc = p.Await(2 * time.Second).String()
	p.Close()
	return desc, childproc.LastLines(p.stderr.Bytes(), 300)
}

// roundTrip sends a request and reads its answer; ok is false when the process ended first.
func (p *process) roundTrip(req string) (res *fuzz.Result, ok bool) {
	go p.write(req) // a goroutine, so that a process that stops reading cannot block the reader
	res = &fuzz.Result{Status: fuzz.StatusOK}
	for {
		line, err := p.out.ReadString('\n')
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

// EnvPython names the environment variable with the Python interpreter of the project's virtual
// environment (scripts/python.sh sets it), for row servers written in Python.
const EnvPython = pypi.EnvPython

// Python returns the interpreter a Python row server runs on: explicit when set, else the
// project's ([pypi.Python]).
func Python(explicit string) string {
	if explicit != "" {
		return explicit
	}
	return pypi.Python()
}

//go:embed serve.py
var serveSource string

// ResetProgram is the program a Python row server answers by calling the reset function it gave
// serve (serve.py's RESET), for a target's Reset: [Server.ResetWith](ctx, ResetProgram).
const ResetProgram = "\x00reset"

// PythonServer is a row server written in Python, run with `python -c` and the shared part of
// the protocol before Source (serve.py: serve, which greets, answers framed requests and calls
// the server's reset function on [ResetProgram]; missing, the greeting of a missing module;
// failure and answer_rows, which write an error and rows; ESCAPES). It greets with
// "polyfuzz-NAME VERSION" and, when its engine's module cannot be imported, with
// "polyfuzz-NAME-missing REASON".
type PythonServer struct {
	// Name is the engine's name; Module the Python module the server imports, for errors.
	Name, Module string
	Source       string
	// Python is the interpreter (see [Python]); Fix says how to install the module.
	Python, Fix string
	Timeout     time.Duration
	// Refused, when not nil, explains a first line of the server's own (such as a library it
	// will not load) by an error; it returns nil for a line it does not know.
	Refused func(line string) error
}

// StartPython starts a Python row server. A missing interpreter or module is an error that names
// the fix.
func StartPython(p PythonServer) (*Server, error) {
	name := Python(p.Python)
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %s not found (%v): make the project's Python environment with %s, or set %s",
			p.Name, name, err, p.Fix, EnvPython)
	}
	missing := "polyfuzz-" + p.Name + "-missing "
	return Start(Config{
		Name:  p.Name,
		Path:  path,
		Args:  []string{"-c", serveSource + p.Source},
		Hello: "polyfuzz-" + p.Name + " ",
		Refused: func(line string) error {
			if p.Refused != nil {
				if err := p.Refused(line); err != nil {
					return err
				}
			}
			if !strings.HasPrefix(line, missing) {
				return nil
			}
			return fmt.Errorf("%s: the Python module %s is missing for %s (%s): install it with %s",
				p.Name, p.Module, path, strings.TrimSpace(strings.TrimPrefix(line, missing)), p.Fix)
		},
		Timeout: p.Timeout,
	})
}

// Canonical turns a value as a Python SQL row server writes it into its canonical form (see
// fuzz.Int and the others): the tags r:<repr of a double>, f:<repr of a float32 held in a
// double>, d:<decimal text> and x:<text of another type> are rewritten as r:, r:, d: and t:
// values; every other value (NULL, i:, t:, b:, B:) is already canonical.
func Canonical(v string) string {
	if len(v) < 2 || v[1] != ':' {
		return v // NULL
	}
	switch v[0] {
	case 'r':
		if f, err := strconv.ParseFloat(v[2:], 64); err == nil {
			return fuzz.Float(f)
		}
	case 'f':
		if f, err := strconv.ParseFloat(v[2:], 64); err == nil {
			return fuzz.Float32(float32(f))
		}
	case 'd':
		return fuzz.Decimal(v[2:])
	case 'x':
		return "t:" + v[2:]
	}
	return v
}
