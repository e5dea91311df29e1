package ascent

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

// needCargo skips t, or fails it in CI, unless cargo can be found.
func needCargo(t testing.TB) {
	t.Helper()
	if _, err := FindCargo(""); err != nil {
		testenv.Missing(t, err.Error()+": install Rust (scripts/test.sh does) and run ascent_prepare (scripts/ascent.sh) to build the cached project")
	}
}

func newTarget(t testing.TB, timeout time.Duration) *Target {
	t.Helper()
	needCargo(t)
	tg, err := New(Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return tg
}

// program returns a Rust program with an Ascent program and main's body after p.run().
func program(decls, main string) string {
	return "use ascent::ascent;\nascent! {\n" + decls + "\n}\nfn main() {\n    let mut p = AscentProgram::default();\n    p.run();\n" +
		main + "\n}\n"
}

func TestExec(t *testing.T) {
	tg := newTarget(t, time.Minute)
	if v := tg.Version(); v != "ascent "+LockedVersion() || !strings.HasPrefix(v, "ascent 0.") {
		t.Errorf("Version() = %q", v)
	}
	closure := program(`relation edge(i64, i64);
    relation path(i64, i64);
    edge(1, 2); edge(2, 3);
    path(x, y) <-- edge(x, y);
    path(x, z) <-- edge(x, y), path(y, z);`,
		`    let mut v = p.path.clone(); v.sort();
    for (x, y) in v { println!("path\t{}\t{}", x, y); }`)
	tests := []struct {
		name, src string
		status    fuzz.Status
		code, err string
		rows      [][]string
	}{
		{"rows", closure, fuzz.StatusOK, "", "", [][]string{{"path", "1", "2"}, {"path", "1", "3"}, {"path", "2", "3"}}},
		{"no rows", program("relation e(i64);", ""), fuzz.StatusOK, "", "", nil},
		{"compile error", program("relation e(i64);\n    e(x) <-- f(x);", ""), fuzz.StatusEngineError, "compile-error", "error", nil},
		{"panic", program("relation e(i64);", `    panic!("boom");`), fuzz.StatusCrash, "", "panicked", nil},
		{"abort", program("relation e(i64);", `    std::process::abort();`), fuzz.StatusCrash, "", "signal 6", nil},
		{"unterminated row", program("relation e(i64);", `    print!("e\t1");`), fuzz.StatusEngineError, "bad-answer", "newline", nil},
		{"after errors", closure, fuzz.StatusOK, "", "", [][]string{{"path", "1", "2"}, {"path", "1", "3"}, {"path", "2", "3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tg.Exec(context.Background(), tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.status || res.Code != tt.code || !strings.Contains(res.Err, tt.err) ||
				!slices.EqualFunc(res.Rows, tt.rows, slices.Equal) {
				t.Errorf("Exec = %+v, want status %v, code %q, an error with %q, rows %q", res, tt.status, tt.code, tt.err, tt.rows)
			}
		})
	}
	if tg.Programs != len(tests) || tg.BuildTime <= 0 {
		t.Errorf("%d programs built in %s, want %d", tg.Programs, tg.BuildTime, len(tests))
	}
	t.Logf("%d programs: build %s, run %s per program", tg.Programs, tg.BuildTime/time.Duration(tg.Programs),
		tg.RunTime/time.Duration(tg.Programs))
}

func TestTimeout(t *testing.T) {
	tg := newTarget(t, 2*time.Second)
	loop := program("relation e(i64);", "    loop { std::hint::black_box(0); }")
	res, err := tg.Exec(context.Background(), loop)
	if err != nil || res.Status != fuzz.StatusTimeout {
		t.Fatalf("endless program: %+v, %v; want a timeout", res, err)
	}
	res, err = tg.Exec(context.Background(), program("relation e(i64);", `    println!("e\t1");`))
	if err != nil || res.Status != fuzz.StatusOK || !slices.EqualFunc(res.Rows, [][]string{{"e", "1"}}, slices.Equal) {
		t.Fatalf("program after a timeout: %+v, %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tg.Exec(ctx, loop); err == nil {
		t.Error("Exec with a cancelled context returned no error")
	}
}

// TestProjects checks that two targets of one worker get projects of their own, and that a
// closed target's project is free again.
func TestProjects(t *testing.T) {
	a := newTarget(t, time.Minute)
	b := newTarget(t, time.Minute)
	if a.Dir() == b.Dir() {
		t.Fatalf("two targets share the project %s", a.Dir())
	}
	dir := b.Dir()
	b.Close()
	c := newTarget(t, time.Minute)
	if c.Dir() != dir {
		t.Errorf("after Close the next target took %s, want the freed %s", c.Dir(), dir)
	}
	if _, err := b.Exec(context.Background(), "fn main() {}"); err == nil {
		t.Error("Exec on a closed target returned no error")
	}
}

func TestMissingCargo(t *testing.T) {
	_, err := New(Options{Cargo: "/nonexistent/cargo"})
	if err == nil || !strings.Contains(err.Error(), "Options.Cargo") {
		t.Errorf("New with a missing cargo: %v, want an error that names Options.Cargo", err)
	}
}

func TestRows(t *testing.T) {
	tests := []struct {
		out  string
		rows [][]string
		err  bool
	}{
		{"", nil, false},
		{"e\t1\t\"a\"\n", [][]string{{"e", "1", `"a"`}}, false},
		{"yes\ne\t\t\n", [][]string{{"yes"}, {"e", "", ""}}, false},
		{"e\t1", nil, true},
		{"e\n\n", nil, true},
	}
	for _, tt := range tests {
		rows, err := Rows([]byte(tt.out))
		if (err != nil) != tt.err || !slices.EqualFunc(rows, tt.rows, slices.Equal) {
			t.Errorf("Rows(%q) = %q, %v; want %q, error %v", tt.out, rows, err, tt.rows, tt.err)
		}
	}
}

func TestLockedVersion(t *testing.T) {
	if v := LockedVersion(); !strings.HasPrefix(v, "0.8.") {
		t.Errorf("LockedVersion() = %q, want 0.8.x", v)
	}
	if !strings.Contains(Manifest, `version = "=`+LockedVersion()+`"`) {
		t.Errorf("Cargo.toml does not pin ascent %s, the version of Cargo.lock:\n%s", LockedVersion(), Manifest)
	}
}

func TestFirstError(t *testing.T) {
	out := "warning: unused\nsrc/main.rs:3:5: error[E0425]: cannot find value `x`\nerror: could not compile `prog`\n"
	if got, want := firstError([]byte(out)), "src/main.rs:3:5: error[E0425]: cannot find value `x`"; got != want {
		t.Errorf("firstError = %q, want %q", got, want)
	}
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip(err)
	}
}
