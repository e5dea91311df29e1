package childproc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// parentEnv makes the test binary a polyfuzz-like parent: it starts `sh -c $CHILDPROC_TEST_PARENT`
// through the package, prints "child PID" and what the child prints, and waits to be killed.
// With CHILDPROC_TEST_NOKEEPER set it starts no keeper, so that only Pdeathsig is left.
const parentEnv = "CHILDPROC_TEST_PARENT"

func TestMain(m *testing.M) {
	if script, ok := os.LookupEnv(parentEnv); ok {
		if os.Getenv("CHILDPROC_TEST_NOKEEPER") != "" {
			keeper.once.Do(func() {})
		}
		p, err := StartPiped(exec.Command("/bin/sh", "-c", script))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Printf("child %d\n", p.Pid())
		sc := bufio.NewScanner(p.Stdout)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
		select {}
	}
	os.Exit(m.Run())
}

// gone reports whether the process pid no longer runs: it does not exist, or it is a zombie
// that waits for init to reap it.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	// pid (comm) S ...: the state follows the last ')'.
	s := string(st)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

// waitGone waits up to d for every pid to be gone and returns those still running.
func waitGone(pids []int, d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		var left []int
		for _, pid := range pids {
			if !gone(pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readPids reads "child PID" and then n lines that hold a pid each.
func readPids(t *testing.T, sc *bufio.Scanner, n int) []int {
	t.Helper()
	var pids []int
	for len(pids) < n+1 && sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		pid, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Fatalf("parent printed %q", sc.Text())
		}
		pids = append(pids, pid)
	}
	if len(pids) < n+1 {
		t.Fatalf("parent printed %d pids, want %d: %v", len(pids), n+1, sc.Err())
	}
	return pids
}

// TestDieWithParent SIGKILLs a parent that started a child through the package and checks that
// the child, and what a hanging wrapper script started, is gone within a second.
func TestDieWithParent(t *testing.T) {
	tests := []struct {
		name     string
		script   string // prints the pids of the grandchildren, one per line
		n        int    // how many it prints
		noKeeper bool
	}{
		{"solver that hangs", "exec sleep 1000", 0, false},
		{"solver that hangs, Pdeathsig alone", "exec sleep 1000", 0, true},
		{"wrapper with a hanging grandchild", "sleep 1000 & echo $!; wait", 1, false},
		{"wrapper whose pipeline hangs", "sleep 1000 | cat & echo $!; sleep 1000 & echo $!; wait", 2, false},
		{"grandchild that ignores hangups", "trap '' HUP TERM INT; sleep 1000 & echo $!; cat", 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := exec.Command(os.Args[0], "-test.run=^$")
			parent.Env = append(os.Environ(), parentEnv+"="+tc.script)
			if tc.noKeeper {
				parent.Env = append(parent.Env, "CHILDPROC_TEST_NOKEEPER=1")
			}
			out, err := parent.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := parent.Start(); err != nil {
				t.Fatal(err)
			}
			pids := readPids(t, bufio.NewScanner(out), tc.n)
			time.Sleep(50 * time.Millisecond) // let the grandchildren start
			if left := waitGone(pids, 0); len(left) != len(pids) {
				t.Fatalf("processes %v gone before the parent died, want all of %v running", left, pids)
			}
			parent.Process.Signal(syscall.SIGKILL)
			parent.Wait()
			if left := waitGone(pids, time.Second); len(left) > 0 {
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
				t.Fatalf("processes %v of %v still run a second after their parent was killed", left, pids)
			}
		})
	}
}

// TestGroupDies checks that closing a child, or its own exit, takes a wrapper's hanging
// grandchildren with it.
func TestGroupDies(t *testing.T) {
	tests := []struct {
		name   string
		script string
		end    func(p *Process)
	}{
		{"close", "sleep 1000 & echo $!; wait", func(p *Process) { p.Close() }},
		{"kill", "sleep 1000 & echo $!; wait", func(p *Process) { p.Kill(); p.Wait() }},
		{"wrapper exits", "sleep 1000 & echo $!; read x", func(p *Process) { p.Stdin.Close(); p.Wait() }},
		{"await", "sleep 1000 & echo $!; wait", func(p *Process) { p.Await(10 * time.Millisecond) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := StartPiped(exec.Command("/bin/sh", "-c", tc.script))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			sc := bufio.NewScanner(p.Stdout)
			if !sc.Scan() {
				t.Fatalf("no pid: %v", sc.Err())
			}
			grandchild, _ := strconv.Atoi(sc.Text())
			tc.end(p)
			if left := waitGone([]int{p.Pid(), grandchild}, time.Second); len(left) > 0 {
				syscall.Kill(grandchild, syscall.SIGKILL)
				t.Fatalf("processes %v still run", left)
			}
		})
	}
}

func TestExit(t *testing.T) {
	tests := []struct {
		script string
		kill   bool
		want   string
	}{
		{"exit 0", false, "exited with status 0"},
		{"exit 3", false, "exited with status 3"},
		{"kill -SEGV $$", false, "exited with status 139 (signal 11, segmentation fault)"},
		{"sleep 1000", true, "exited with status 137 (signal 9, killed)"},
	}
	for _, tc := range tests {
		p, err := Start(exec.Command("/bin/sh", "-c", tc.script))
		if err != nil {
			t.Fatal(err)
		}
		if tc.kill {
			p.Kill()
		}
		if got := p.Wait().String(); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.script, got, tc.want)
		}
		p.Kill() // after the end: nothing happens
		p.Close()
	}
	if got := (Exit{Code: -1}).String(); got != "ended" {
		t.Errorf("unknown exit: %s", got)
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	cmd := exec.Command("/bin/sh", "-c", "echo hi; exit 2")
	cmd.Stdout = &out
	if e, err := Run(context.Background(), cmd); err != nil || e.Code != 2 || out.String() != "hi\n" {
		t.Errorf("Run: %v %v %q", e, err, out.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	cmd = exec.Command("/bin/sh", "-c", "sleep 1000 & echo $!; wait")
	out.Reset()
	cmd.Stdout = &out
	if e, err := Run(ctx, cmd); err != context.DeadlineExceeded || e.Signal != syscall.SIGKILL || time.Since(start) > 2*time.Second {
		t.Errorf("Run past its deadline: %v %v after %s", e, err, time.Since(start))
	}
	grandchild, _ := strconv.Atoi(strings.TrimSpace(out.String()))
	if left := waitGone([]int{grandchild}, time.Second); len(left) > 0 {
		syscall.Kill(grandchild, syscall.SIGKILL)
		t.Errorf("grandchild %d still runs", grandchild)
	}
}

func TestCombinedOutput(t *testing.T) {
	tests := []struct {
		script, out, err string
	}{
		{"echo out; echo err >&2", "out\nerr\n", ""},
		{"echo usage >&2; exit 2", "usage\n", "exited with status 2"},
	}
	for _, tc := range tests {
		out, err := CombinedOutput(context.Background(), exec.Command("/bin/sh", "-c", tc.script))
		if string(out) != tc.out || fmt.Sprint(err) != tc.err && (err != nil || tc.err != "") {
			t.Errorf("%q: %q, %v; want %q, %q", tc.script, out, err, tc.out, tc.err)
		}
	}
}

func TestStartError(t *testing.T) {
	if _, err := StartPiped(exec.Command("/nonexistent/solver")); err == nil {
		t.Fatal("no error for a missing binary")
	}
}

func TestTail(t *testing.T) {
	tl := NewTail(8)
	fmt.Fprint(tl, "abcdef")
	n := tl.Total()
	fmt.Fprint(tl, "ghijkl")
	if got := tl.String(); got != "efghijkl" {
		t.Errorf("String = %q", got)
	}
	if got := string(tl.Since(n)); got != "ghijkl" {
		t.Errorf("Since = %q", got)
	}
	if got := string(tl.Since(0)); got != "efghijkl" {
		t.Errorf("Since(0) = %q", got)
	}
	if tl.Since(tl.Total()) != nil || tl.Total() != 12 || !bytes.Equal(tl.Bytes(), []byte("efghijkl")) {
		t.Errorf("Since(Total) = %q, Total = %d", tl.Since(tl.Total()), tl.Total())
	}
}

// crashText is how the targets use CrashAt.
func crashText(b []byte, max int) string {
	if i := CrashAt(b, CrashPatterns); i >= 0 {
		return OneLine(b[i:], max)
	}
	return ""
}

func TestCrashText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"sat\n", ""},
		{"(error \"Assertions are not available\")", ""},
		{"warning: x\nASSERTION VIOLATION\nFile: ../src/smt/x.cpp\nLine: 12\n",
			"ASSERTION VIOLATION; File: ../src/smt/x.cpp; Line: 12"},
		{"z3: ../src/a.cpp:10: void f(): Assertion `x' failed.\n", "z3: ../src/a.cpp:10: void f(): Assertion `x' failed."},
		{"==1==ERROR: AddressSanitizer: heap-use-after-free", "==1==ERROR: AddressSanitizer: heap-use-after-free"},
		{"Fatal failure within void cvc5::f() at a.cpp:3\n", "Fatal failure within void cvc5::f() at a.cpp:3"},
	}
	for _, tc := range tests {
		if got := crashText([]byte(tc.in), 300); got != tc.want {
			t.Errorf("crashText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := strings.Repeat("x", 500) + "\nSegmentation fault " + strings.Repeat("y", 500)
	if got := crashText([]byte(long), 300); len(got) != 300 || !strings.HasPrefix(got, "Segmentation fault") {
		t.Errorf("crashText of a long text = %q", got)
	}
}

func TestCrashAtLineStart(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"(error \"x: Segmentation fault\")\n", -1},
		{"sat\n  Segmentation fault\n", 4},
		{"UNREACHABLE code", 0},
		{"", -1},
	}
	for _, tc := range tests {
		if got := CrashAtLineStart([]byte(tc.in), CrashPatterns); got != tc.want {
			t.Errorf("CrashAtLineStart(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestGoCrash(t *testing.T) {
	in := "log line\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n"
	if i := CrashAt([]byte(in), GoCrashPatterns); i < 0 || FirstLine([]byte(in[i:]), 100) != "panic: boom" {
		t.Errorf("Go panic at %d", i)
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		f    func([]byte, int) string
		in   string
		max  int
		want string
	}{
		{LastLines, "a\n\nb\nc\n", 300, "a; b; c"},
		{LastLines, strings.Repeat("line of text\n", 100) + "the end\n", 40, "line of text; line of text; the end"},
		{OneLine, " a \n\n b", 300, "a; b"},
		{OneLine, "abcdef\nghi", 4, "abcd"},
		{FirstLine, "  first \nsecond", 300, "first"},
		{FirstLine, "first", 3, "fir"},
	}
	for _, tc := range tests {
		if got := tc.f([]byte(tc.in), tc.max); got != tc.want {
			t.Errorf("(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}
