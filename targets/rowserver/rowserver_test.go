package rowserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// TestMain runs the test binary as a fake server when ROWSERVER_FAKE names its greeting.
func TestMain(m *testing.M) {
	if hello, ok := os.LookupEnv("ROWSERVER_FAKE"); ok {
		fakeServer(hello)
		return
	}
	os.Exit(m.Run())
}

// fakeServer speaks the protocol: after reading an Init line (when the greeting holds "%s", the
// line is put there) and greeting, it prints each program's lines as its answer, except the
// programs "sleep" (no answer) and "exit N" (exits with status N after a line on stderr).
func fakeServer(hello string) {
	in := bufio.NewReader(os.Stdin)
	if strings.Contains(hello, "%s") {
		line, _ := in.ReadString('\n')
		hello = fmt.Sprintf(hello, strings.TrimSpace(line))
	}
	fmt.Println(hello)
	for {
		header, err := in.ReadString('\n')
		if err != nil {
			os.Exit(0)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(header))
		prog := make([]byte, n)
		io.ReadFull(in, prog)
		switch p := string(prog); {
		case p == "sleep":
			time.Sleep(time.Hour)
		case strings.HasPrefix(p, "exit "):
			code, _ := strconv.Atoi(p[5:])
			fmt.Fprintln(os.Stderr, "dying\nnow")
			os.Exit(code)
		default:
			fmt.Println(p)
		}
	}
}

// fake returns the Config of a fake server with the given greeting.
func fake(t *testing.T, hello string, timeout time.Duration) Config {
	t.Setenv("ROWSERVER_FAKE", hello)
	return Config{Name: "fake", Path: os.Args[0], Hello: "fake ", Timeout: timeout}
}

func start(t *testing.T, c Config) *Server {
	t.Helper()
	s, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestExec(t *testing.T) {
	c := fake(t, "fake %s", 10*time.Second)
	c.Init = "1.2.3 \n"
	c.Reject = func(prog string) string {
		if prog == "bad" {
			return "bad program"
		}
		return ""
	}
	s := start(t, c)
	if s.Name() != "fake" || s.Version() != "1.2.3" {
		t.Errorf("Name, Version = %q, %q; want fake, 1.2.3", s.Name(), s.Version())
	}
	tests := []struct {
		name, prog string
		want       *fuzz.Result
	}{
		{"rows", "R\ta\tb\nR\tc\td\nOK", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"a", "b"}, {"c", "d"}}}},
		{"escapes", `R` + "\t" + `a\tb\nc\\d\r` + "\t\t\\x\nOK",
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"a\tb\nc\\d\r", "", "x"}}}},
		{"empty row", "R\nOK", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{}}}},
		{"no rows", "OK", &fuzz.Result{Status: fuzz.StatusOK}},
		{"other lines ignored", "hello\nRx\nR\t1\nOKAY\nOK", &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"1"}}}},
		{"error", "R\t1\nE\tno\\tway", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: "no\tway"}},
		{"rejected", "bad", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: "bad program"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Exec(context.Background(), tt.prog)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Exec = %+v, %v\nwant %+v", got, err, tt.want)
			}
		})
	}
	if s.Starts != 1 {
		t.Errorf("%d processes started, want 1", s.Starts)
	}
}

// TestRecovery checks that a timeout, a crash and a cancellation each end the process and that
// the next Exec or Reset starts a new one.
func TestRecovery(t *testing.T) {
	s := start(t, fake(t, "fake 1", 300*time.Millisecond))
	crash := func(s *Server) { syscall.Kill(s.p.Pid(), syscall.SIGKILL); s.p.Wait() }
	tests := []struct {
		name   string
		before func(*Server)
		prog   string
		ctx    func() context.Context
		want   *fuzz.Result
		err    error
		starts int
	}{
		{name: "timeout", prog: "sleep", starts: 2,
			want: &fuzz.Result{Status: fuzz.StatusTimeout, Err: "fake: no answer within 300ms"}},
		{name: "exit", prog: "exit 3", starts: 3,
			want: &fuzz.Result{Status: fuzz.StatusCrash, Err: "fake exited with status 3: dying; now"}},
		{name: "signal", before: crash, prog: "OK", starts: 4,
			want: &fuzz.Result{Status: fuzz.StatusCrash, Err: "fake exited with status 137 (signal 9, killed)"}},
		{name: "cancel", prog: "sleep", err: context.DeadlineExceeded, starts: 5, ctx: func() context.Context {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			t.Cleanup(cancel)
			return ctx
		}},
		{name: "cancelled before", prog: "OK", err: context.Canceled, starts: 5, ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.before != nil {
				tt.before(s)
			}
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx()
			}
			start := time.Now()
			got, err := s.Exec(ctx, tt.prog)
			if !errors.Is(err, tt.err) || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Exec = %+v, %v; want %+v, %v", got, err, tt.want, tt.err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Exec took %s", d)
			}
			if err := s.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Exec(context.Background(), "R\tx\nOK"); err != nil || got.Status != fuzz.StatusOK || len(got.Rows) != 1 {
				t.Fatalf("Exec afterwards = %+v, %v", got, err)
			}
			if s.Starts != tt.starts {
				t.Errorf("%d processes started, want %d", s.Starts, tt.starts)
			}
		})
	}
}

func TestStartErrors(t *testing.T) {
	errRefused := errors.New("refused")
	refuse := func(line string) error {
		if strings.HasPrefix(line, "missing") {
			return errRefused
		}
		return nil
	}
	tests := []struct {
		name, hello string
		path        string
		want        string // a part of the error
	}{
		{"wrong greeting", "other 1", "", `fake (` + os.Args[0] + `) did not start: it printed "other 1\n" and exited with status 0`},
		{"refused", "missing module", "", "refused"},
		{"missing binary", "fake 1", "/nonexistent/server", "start fake (/nonexistent/server)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake(t, tt.hello, 0)
			c.Refused = refuse
			if tt.path != "" {
				c.Path = tt.path
			}
			s, err := Start(c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Start = %v, %v; want an error with %q", s, err, tt.want)
			}
		})
	}
}

func TestClose(t *testing.T) {
	s := start(t, fake(t, "fake 1", 0))
	p := s.p
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	default:
		t.Error("the process runs after Close")
	}
	if _, err := s.Exec(context.Background(), "OK"); err == nil || err.Error() != "fake: target is closed" {
		t.Errorf("Exec after Close: %v, want an error", err)
	}
	if err := s.Reset(context.Background()); err == nil {
		t.Error("Reset after Close: no error")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		``: ``, `abc`: `abc`, `a\tb`: "a\tb", `\\n`: `\n`, `\n\r\\`: "\n\r\\", `x\`: `x\`, `\q`: `q`,
	} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPython checks the interpreter a Python row server runs on: the explicit one, else
// $POLYFUZZ_PYTHON, else python3.
func TestPython(t *testing.T) {
	tests := []struct{ opt, env, want string }{
		{"", "", "python3"},
		{"", "/venv/bin/python3", "/venv/bin/python3"},
		{"/usr/bin/python3", "/venv/bin/python3", "/usr/bin/python3"},
	}
	for _, tt := range tests {
		t.Setenv(EnvPython, tt.env)
		if got := Python(tt.opt); got != tt.want {
			t.Errorf("Python %q with %s=%q: %q, want %q", tt.opt, EnvPython, tt.env, got, tt.want)
		}
	}
}

// TestPythonServe runs a Python server on serve.py: answers come back escaped and unescaped
// intact, ResetProgram calls the server's reset function, failure writes an error that ExecRows
// splits into code and message, and an exception that escapes the server's answer function ends
// the process with status 70 and its message, which is a crash; the next program gets a new
// process.
func TestPythonServe(t *testing.T) {
	src := `state = {"n": 0}

def answer(prog):
    if prog == "boom":
        raise RuntimeError("boom")
    if prog == "fail":
        return failure("Code", " bad\tthing\n")
    state["n"] += 1
    return answer_rows([[prog.translate(ESCAPES), "i:%d" % state["n"]]])

def reset():
    state["n"] = 0

serve("polyfuzz-echo 1.0", answer, "echo failed", reset=reset)
`
	s, err := StartPython(PythonServer{Name: "echo", Module: "none", Source: src, Fix: "install python3", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		prog   string
		status fuzz.Status
		want   string
	}{
		{"a\tb\\c\nd", fuzz.StatusOK, "[[a\tb\\c\nd i:1]]"},
		{"b", fuzz.StatusOK, "[[b i:2]]"},
		{ResetProgram, fuzz.StatusOK, "[]"},
		{"c", fuzz.StatusOK, "[[c i:1]]"},
		{"fail", fuzz.StatusEngineError, "Code: bad\tthing"},
		{"boom", fuzz.StatusCrash, "echo failed: RuntimeError: boom"},
		{"again", fuzz.StatusOK, "[[again i:1]]"},
	} {
		res, err := s.ExecRows(context.Background(), tc.prog, func(v string) string { return v })
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(res.Rows)
		switch res.Status {
		case fuzz.StatusCrash:
			got = res.Err
		case fuzz.StatusEngineError:
			got = res.Code + ": " + res.Err
		}
		if res.Status != tc.status || !strings.Contains(got, tc.want) || (tc.status == fuzz.StatusCrash && !strings.Contains(got, "status 70")) {
			t.Errorf("%q: %s %q, want %s with %q", tc.prog, res.Status, got, tc.status, tc.want)
		}
	}
}

// TestPythonMissing checks that a server whose module is missing (serve.py's missing) fails to
// start with an error that names the module and the fix.
func TestPythonMissing(t *testing.T) {
	src := `try:
    import polyfuzz_no_such_module
except ImportError as e:
    missing("echo", e)
`
	_, err := StartPython(PythonServer{Name: "echo", Module: "polyfuzz_no_such_module", Source: src, Fix: "pip install it"})
	if err == nil || !strings.Contains(err.Error(), "the Python module polyfuzz_no_such_module is missing") ||
		!strings.Contains(err.Error(), "install it with pip install it") {
		t.Fatalf("StartPython = %v; want an error that names the module and the fix", err)
	}
}
