package isolated

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// EnvSpec is the environment variable that carries the child's target spec; a main that finds it
// set calls Serve instead of doing its own work.
const EnvSpec = "POLYFUZZ_ISOLATED_TARGET"

// Options configure an isolated target.
type Options struct {
	// Spec is passed to the child's open function; it names the engine and its options.
	Spec string
	// Command starts the child; empty means the running executable with no arguments.
	Command []string
	// Timeout bounds one statement: a batch of n statements may take Timeout plus n times
	// 20 ms before the child is killed and the batch answered with timeouts. 0 means 10 s. The
	// child may then run its statements without a timeout of its own, which is cheaper.
	Timeout time.Duration
}

type request struct {
	Op    string // "reset", "exec"
	Stmts []string
}

type response struct {
	Name, Version string
	Results       []*fuzz.Result
	Err           string
}

// Target is the parent's handle on an isolated child.
type Target struct {
	opts          Options
	name, version string

	p      *childproc.Process
	w      *os.File
	bw     *bufio.Writer
	enc    *gob.Encoder
	r      *os.File
	dec    *gob.Decoder
	stderr *childproc.Tail
	dead   string // why the child is gone; empty while it runs
	Starts int    // how many children were started, for statistics
}

// Open starts a child and waits for it to open its target.
func Open(ctx context.Context, opts Options) (*Target, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	t := &Target{opts: opts}
	if err := t.start(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Target) start() error {
	argv := t.opts.Command
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find polyfuzz executable for the isolated child: %w", err)
		}
		argv = []string{exe}
	}
	// Blocking pipes: a read blocks in the kernel and wakes at once, which halves the round trip
	// compared with the runtime's poller.
	reqR, reqW, err := childproc.Pipe()
	if err != nil {
		return err
	}
	respR, respW, err := childproc.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), EnvSpec+"="+t.opts.Spec, "GOTRACEBACK=single")
	cmd.ExtraFiles = []*os.File{reqR, respW} // fd 3 and 4 in the child
	t.stderr = childproc.NewTail(4096)
	cmd.Stderr = t.stderr
	p, err := childproc.Start(cmd)
	if err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return fmt.Errorf("start isolated child %s: %w", argv[0], err)
	}
	reqR.Close()
	respW.Close()
	t.p, t.w, t.r = p, reqW, respR
	t.bw = bufio.NewWriterSize(reqW, 64<<10)
	t.enc = gob.NewEncoder(t.bw)
	t.dec = gob.NewDecoder(bufio.NewReaderSize(respR, 64<<10))
	t.dead = ""
	t.Starts++
	var hello response
	if err := t.roundTrip(nil, &hello, 30*time.Second); err != nil {
		t.kill()
		return fmt.Errorf("isolated child for %q did not start: %s", t.opts.Spec, t.dead)
	}
	if hello.Err != "" {
		t.kill()
		return errors.New(hello.Err)
	}
	t.name, t.version = hello.Name, hello.Version
	return nil
}

// roundTrip sends req (if any) and reads one response within d. On failure the child is killed
// and t.dead says why.
func (t *Target) roundTrip(req *request, resp *response, d time.Duration) error {
	var timedOut atomic.Bool
	p := t.p
	watchdog := time.AfterFunc(d, func() { timedOut.Store(true); p.Kill() })
	if req != nil {
		if err := t.enc.Encode(req); err == nil {
			err = t.bw.Flush()
		}
	}
	err := t.dec.Decode(resp)
	watchdog.Stop()
	if err == nil {
		return nil
	}
	if timedOut.Load() {
		t.kill()
		t.dead = fmt.Sprintf("timeout: no answer within %s; child killed", d)
		return err
	}
	// The child died (EOF) or wrote garbage: collect its exit status.
	t.dead = "crash: child " + t.p.Await(2*time.Second).String()
	if msg := t.stderrSummary(); msg != "" {
		t.dead += ": " + msg
	}
	t.closePipes()
	return err
}

// stderrSummary returns the first line of a Go crash on the child's stderr, or else its last line.
func (t *Target) stderrSummary() string {
	b := t.stderr.Bytes()
	if i := childproc.CrashAt(b, childproc.GoCrashPatterns); i >= 0 {
		return childproc.FirstLine(b[i:], 300)
	}
	b = bytes.TrimSpace(b)
	return childproc.FirstLine(b[bytes.LastIndexByte(b, '\n')+1:], 300)
}

func (t *Target) kill() {
	if t.p != nil {
		t.p.Close()
	}
	t.closePipes()
}

func (t *Target) closePipes() {
	if t.w != nil {
		t.w.Close()
		t.r.Close()
		t.w, t.r = nil, nil
	}
}

// Name returns the child target's name.
func (t *Target) Name() string { return t.name }

// Version returns the child target's version.
func (t *Target) Version() string { return t.version }

// Reset resets the child's target, starting a new child if the old one is gone.
func (t *Target) Reset(ctx context.Context) error {
	if t.dead != "" || t.w == nil {
		if err := t.start(); err != nil {
			return err
		}
	}
	var resp response
	if err := t.roundTrip(&request{Op: "reset"}, &resp, t.opts.Timeout+time.Second); err != nil {
		// A child that dies on reset gets one more chance with a fresh process.
		if err := t.start(); err != nil {
			return err
		}
		if err := t.roundTrip(&request{Op: "reset"}, &resp, t.opts.Timeout+time.Second); err != nil {
			return fmt.Errorf("isolated %s: reset: %s", t.name, t.dead)
		}
	}
	if resp.Err != "" {
		return errors.New(resp.Err)
	}
	return nil
}

// Exec runs one statement in the child.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	rs, err := t.ExecBatch(ctx, []string{stmt})
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// ExecBatch runs statements in the child in one round trip. If the child dies or hangs, every
// statement of the batch is answered with a crash or timeout result naming the cause.
func (t *Target) ExecBatch(ctx context.Context, stmts []string) ([]*fuzz.Result, error) {
	if t.dead != "" || t.w == nil {
		return failed(stmts, fuzz.StatusCrash, "child not running: "+t.dead), nil
	}
	var resp response
	d := t.opts.Timeout + time.Duration(len(stmts))*perStatement
	if err := t.roundTrip(&request{Op: "exec", Stmts: stmts}, &resp, d); err != nil {
		st, msg := fuzz.StatusCrash, strings.TrimPrefix(t.dead, "crash: ")
		if strings.HasPrefix(t.dead, "timeout") {
			st = fuzz.StatusTimeout
		}
		return failed(stmts, st, msg), nil
	}
	if resp.Err != "" {
		return nil, errors.New(resp.Err)
	}
	return resp.Results, nil
}

func failed(stmts []string, st fuzz.Status, msg string) []*fuzz.Result {
	out := make([]*fuzz.Result, len(stmts))
	for i := range out {
		out[i] = &fuzz.Result{Status: st, Err: msg}
	}
	return out
}

// perStatement is the time a batch is allowed per statement on top of the statement timeout.
const perStatement = 20 * time.Millisecond

// Close stops the child.
func (t *Target) Close() error {
	if t.w != nil {
		t.w.Close() // the child sees EOF and exits
		t.p.Await(2 * time.Second)
		t.closePipes()
	}
	return nil
}

// Serve is the child's main loop: it opens the target named by the EnvSpec variable with open,
// answers requests on fd 3/4 until the parent closes the pipe, and exits the process.
func Serve(open func(spec string) (fuzz.Target, error)) {
	in := os.NewFile(3, "requests")
	out := os.NewFile(4, "responses")
	bw := bufio.NewWriterSize(out, 64<<10)
	enc := gob.NewEncoder(bw)
	dec := gob.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	send := func(r *response) {
		if err := enc.Encode(r); err == nil {
			err = bw.Flush()
		}
	}
	tg, err := open(os.Getenv(EnvSpec))
	if err != nil {
		send(&response{Err: err.Error()})
		os.Exit(1)
	}
	send(&response{Name: tg.Name(), Version: tg.Version()})
	ctx := context.Background()
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			tg.Close()
			os.Exit(0)
		}
		var resp response
		switch req.Op {
		case "reset":
			if err := tg.Reset(ctx); err != nil {
				resp.Err = err.Error()
			}
		case "exec":
			rs, err := fuzz.ExecAll(ctx, tg, req.Stmts)
			if err != nil {
				resp.Err = err.Error()
			}
			resp.Results = rs
		default:
			resp.Err = fmt.Sprintf("isolated child: unknown request %q", req.Op)
		}
		send(&resp)
	}
}

// IsChild reports whether this process was started as an isolated child.
func IsChild() bool { return os.Getenv(EnvSpec) != "" }
