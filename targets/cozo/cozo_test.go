package cozo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

// needCozo skips t, or fails it in CI, unless the target's python3 can import cozo_embedded.
func needCozo(t testing.TB) {
	t.Helper()
	testenv.NeedPythonModule(t, rowserver.Python(""), "cozo_embedded")
}

func newTarget(t testing.TB, timeout time.Duration) *Target {
	t.Helper()
	needCozo(t)
	tg, err := New(Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

func TestExec(t *testing.T) {
	tg := newTarget(t, 10*time.Second)
	if tg.Version() != "0.7.6" {
		t.Errorf("Version = %q, want the pinned 0.7.6", tg.Version())
	}
	tests := []struct {
		name, prog string
		want       *fuzz.Result
	}{
		{"closure", `edge[x, y] <- [[1, 2], [2, 3]]
path[x, y] := edge[x, y]
path[x, z] := path[x, y], edge[y, z]
?[t, x, y] := path[x, y], t = 'p'
`, &fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"p", "1", "2"}, {"p", "1", "3"}, {"p", "2", "3"}}}},
		{"nulls left out", "?[a, b] <- [['x', null], ['y', 2]]",
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"x"}, {"y", "2"}}}},
		{"escaped values", `?[a, b, c, d, e] <- [['a\\b\tc\nd\re', '', '\u00e9\u0000', -9223372036854775807 - 1, true]]`,
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"a\\b\tc\nd\re", "", "é\x00", "-9223372036854775808", "true"}}}},
		{"other values as JSON", "?[a, b] <- [[1.5, [1, 'x']]]",
			&fuzz.Result{Status: fuzz.StatusOK, Rows: [][]string{{"1.5", `[1, "x"]`}}}},
		{"no rows", "?[a] <- []", &fuzz.Result{Status: fuzz.StatusOK}},
		{"syntax error", "?[x] := x = (", &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error",
			Err: "parser::pest: The query parser has encountered unexpected input / end of input at 13..13"}},
		{"unstratifiable", "r[a] <- [[1]]\nu[a] := r[a], not u[a]\n?[a] := u[a]",
			&fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: "eval::unstratifiable: Query is unstratifiable"}},
	}
	for _, tt := range tests {
		got, err := tg.Exec(context.Background(), tt.prog)
		if err == nil {
			slices.SortFunc(got.Rows, slices.Compare)
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Exec = %+v, %v\nwant %+v", tt.name, got, err, tt.want)
		}
	}
	if tg.Starts != 1 {
		t.Errorf("%d processes started, want 1", tg.Starts)
	}
}

// slow derives 27 million tuples, which cozo does not do in a few milliseconds.
const slow = "n[x] := x in int_range(300)\n?[x, y, z] := n[x], n[y], n[z]"

func TestTimeout(t *testing.T) {
	tg := newTarget(t, 200*time.Millisecond)
	res, err := tg.Exec(context.Background(), slow)
	if err != nil || res.Status != fuzz.StatusTimeout || res.Err != "cozo: no answer within 200ms" {
		t.Fatalf("slow program: %+v, %v; want a timeout", res, err)
	}
	res, err = tg.Exec(context.Background(), "?[x] <- [[1]]")
	if err != nil || res.Status != fuzz.StatusOK || tg.Starts != 2 {
		t.Fatalf("after the timeout: %+v, %v with %d processes started; want OK from a second one", res, err, tg.Starts)
	}
}

// TestCrash kills the server with SIGSEGV while it runs a program: the answer is a crash that
// names the signal, and the next program runs on a new process.
func TestCrash(t *testing.T) {
	tg := newTarget(t, 0)
	pid := serverPid(t)
	go func() {
		time.Sleep(200 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGSEGV)
	}()
	res, err := tg.Exec(context.Background(), slow)
	if err != nil || res.Status != fuzz.StatusCrash || !strings.HasPrefix(res.Err, "cozo exited with status 139 (signal 11") {
		t.Fatalf("killed server: %+v, %v; want a crash with signal 11", res, err)
	}
	res, err = tg.Exec(context.Background(), "?[x] <- [[1]]")
	if err != nil || res.Status != fuzz.StatusOK || tg.Starts != 2 {
		t.Fatalf("after the crash: %+v, %v with %d processes started; want OK from a second one", res, err, tg.Starts)
	}
}

// serverPid returns the process id of this test process's one cozo server.
func serverPid(t *testing.T) int {
	t.Helper()
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var found []int
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(s)
			cmd, _ := os.ReadFile("/proc/" + s + "/cmdline")
			if strings.Contains(string(cmd), "polyfuzz-cozo") && !slices.Contains(found, pid) {
				found = append(found, pid)
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("found cozo servers %v among this process's children in /proc, want one", found)
	}
	return found[0]
}

func TestMissing(t *testing.T) {
	_, err := New(Options{Python: "/nonexistent/python3"})
	if err == nil || !strings.Contains(err.Error(), Fix) {
		t.Errorf("New with a missing python3: %v, want an error naming the fix", err)
	}
	// A python3 that cannot import cozo_embedded: the real one without site-packages.
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	script := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec "+py+" -I -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{Python: script})
	if err == nil || !strings.Contains(err.Error(), "the Python module cozo_embedded is missing") || !strings.Contains(err.Error(), Fix) {
		t.Errorf("New with a python3 without cozo_embedded: %v, want an error naming the fix", err)
	}
}

// BenchmarkExec measures small programs per second on one warm process.
func BenchmarkExec(b *testing.B) {
	tg := newTarget(b, 10*time.Second)
	const prog = "edge[x, y] <- [[1, 2], [2, 3], [3, 1], [3, 4]]\npath[x, y] := edge[x, y]\n" +
		"path[x, z] := path[x, y], edge[y, z]\n?[t, x, y] := path[x, y], t = 'path'\n"
	for b.Loop() {
		res, err := tg.Exec(context.Background(), prog)
		if err != nil || res.Status != fuzz.StatusOK || len(res.Rows) != 12 {
			b.Fatalf("Exec = %+v, %v", res, err)
		}
	}
}
