// Package ascent is the target of Ascent, the Datalog engine embedded in Rust by the ascent!
// macro of the ascent crate: every program is a Rust program that cargo compiles, then runs.
//
// # Input and answers
//
// A statement is the text of src/main.rs of a cargo package that depends on the ascent crate
// only (as datalog.Ascent writes it). Its binary prints one row per line: fields separated by
// tabs, the first the relation's name; the target splits the lines and leaves the values to the
// dialect's decoder (datalog.Ascent prints a symbol as "..." with every byte other than
// printable ASCII, " and \ as \xNN, so that a value never holds a tab or a newline).
//
// # The cached project
//
// A target keeps a cargo project of its own under Options.Dir (default $POLYFUZZ_ASCENT_DIR,
// else $XDG_CACHE_HOME/polyfuzz/ascent, else ~/.cache/polyfuzz/ascent): ascent-VERSION/wN for worker
// N, with Cargo.toml and Cargo.lock pinned to ascent VERSION (this package's Cargo.lock) and its
// target directory inside, so that the dependencies are compiled once per worker and reused by
// every program, and concurrent workers never share a build directory. A project is locked
// (flock) while a target uses it: a second target with the same worker number, in this process
// or another, takes wN.1, wN.2, ... New builds the project once (downloading the crates the
// first time, which takes minutes, bounded by PrepareTimeout); scripts/ascent.sh's
// ascent_prepare does that ahead of tests and campaigns.
//
// Every Exec writes src/main.rs, runs `cargo build --offline --locked`, then runs the binary;
// Options.Timeout bounds both together.
//
// # Build profile
//
// Compiling dominates: a generated program runs in 1-2 ms, its compilation takes half a
// second. Measured on 20 generated programs (datalog.Generate, default options) on a 2-core
// machine with ascent 0.8.1 and rustc 1.95, CPU seconds (user+sys) of `cargo build` per program
// (the dependencies already built):
//
//	profile                                          build  run
//	dev (debuginfo, incremental), cargo's default    0.79   0.002
//	dev, debug = false, incremental = false          0.52   0.002
//	dev, debug = false, incremental = true           0.60   0.002
//	dev, debug = false, incremental = false, cgu 1   0.48   0.002  <- used
//	opt-level = 1, debug = false                     2.12   0.001
//	release (opt-level = 3)                          2.25   0.001
//
// Incremental compilation costs more than it saves, since every program is a new crate body;
// optimisation costs seconds to save a millisecond. A no-op `cargo build` (cargo's own part,
// which calling rustc directly would save) takes 0.04 s. The first build of the dependencies
// (ascent, ascent_macro, syn, ...) takes 10-30 s per worker; without ascent's default feature
// "par" (rayon, dashmap), which only ascent_par! needs, it is a third shorter; a new worker's
// project copies a built one's target directory instead (about 0.5 s). Through this target, the
// datalog integration tests measure 0.3-0.7 s of wall time per generated program (cargo and
// rustc) and 2-7 ms to run it, on the same shared 2-core machine.
//
// # Outcomes
//
// A program that does not compile is fuzz.StatusEngineError with Code "compile-error" and Err
// the first error line of rustc (the ascent! macro reports its own errors that way), unless
// the compiler itself died (a panicking proc macro, "error: proc macro panicked", or an
// internal compiler error): that is fuzz.StatusCrash, as is a binary that panics, aborts or
// dies of a signal (Err: its first panic line, or how it ended). Past Options.Timeout the build
// or the binary is killed with its process group (package childproc) and the answer is
// fuzz.StatusTimeout. A cancelled context kills the run, and Exec returns the context's error.
//
// This package imports only fuzz and childproc, and runs on Linux.
package ascent

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// Manifest is the Cargo.toml of the cached project: the binary prog, ascent pinned without its
// default feature, and the build profile measured fastest (see the package doc).
//
//go:embed Cargo.toml
var Manifest string

// Lock is the Cargo.lock of the cached project, which pins every crate it builds.
//
//go:embed Cargo.lock
var Lock string

// DefaultTimeout bounds one program (build and run) when Options.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// PrepareTimeout bounds New's first build of a project, which downloads and compiles the
// dependencies.
const PrepareTimeout = 15 * time.Minute

// slots bounds the projects New tries for one worker.
const slots = 32

// Options configure an Ascent target.
type Options struct {
	// Dir is the cache directory of the projects; empty means DefaultDir.
	Dir string
	// Cargo is the cargo binary; empty means cargo on PATH, else ~/.cargo/bin/cargo.
	Cargo string
	// Timeout bounds one program, build and run; zero means DefaultTimeout.
	Timeout time.Duration
	// Worker numbers the worker, whose project is wWorker.
	Worker int
}

// Target runs programs with Ascent. It is used by one goroutine.
type Target struct {
	cargo   string
	dir     string // the project
	lock    *os.File
	version string
	timeout time.Duration

	// Programs counts the programs built; BuildTime and RunTime sum the time spent building
	// and running them.
	Programs           int
	BuildTime, RunTime time.Duration
}

var _ fuzz.Target = (*Target)(nil)

// New finds cargo, takes a cached project for o.Worker (see the package doc) and builds it.
func New(o Options) (*Target, error) {
	cargo, err := FindCargo(o.Cargo)
	if err != nil {
		return nil, err
	}
	version := LockedVersion()
	base := o.Dir
	if base == "" {
		if base, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	root := filepath.Join(base, "ascent-"+version)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("ascent: cache directory: %w; set Options.Dir to a writable directory", err)
	}
	t := &Target{cargo: cargo, version: "ascent " + version, timeout: o.Timeout}
	if t.timeout <= 0 {
		t.timeout = DefaultTimeout
	}
	if t.dir, t.lock, err = claim(root, o.Worker); err != nil {
		return nil, err
	}
	seed(root, t.dir)
	if err := t.prepare(); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// findCargo returns the cargo binary: path, else cargo on PATH, else ~/.cargo/bin/cargo.
func FindCargo(path string) (string, error) {
	if path != "" {
		abs, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("ascent: cargo %s not found (%v); set Options.Cargo to a cargo binary", path, err)
		}
		return abs, nil
	}
	if abs, err := exec.LookPath("cargo"); err == nil {
		return abs, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		if p := filepath.Join(home, ".cargo", "bin", "cargo"); isExecutable(p) {
			return p, nil
		}
	}
	return "", errors.New("ascent: cargo not found on PATH nor in ~/.cargo/bin; install Rust with rustup (https://rustup.rs) or set Options.Cargo")
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// EnvDir names the environment variable that overrides the default cache directory.
const EnvDir = "POLYFUZZ_ASCENT_DIR"

// DefaultDir returns the default cache directory: $POLYFUZZ_ASCENT_DIR, else
// $XDG_CACHE_HOME/polyfuzz/ascent, else ~/.cache/polyfuzz/ascent.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "polyfuzz", "ascent"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("ascent: no cache directory (%v); set XDG_CACHE_HOME or Options.Dir", err)
	}
	return filepath.Join(home, ".cache", "polyfuzz", "ascent"), nil
}

var lockVersionRE = regexp.MustCompile(`(?m)^name = "ascent"\nversion = "([^"]+)"`)

// LockedVersion returns the version of the ascent crate that Lock pins.
func LockedVersion() string {
	if m := lockVersionRE.FindStringSubmatch(Lock); m != nil {
		return m[1]
	}
	return "unknown"
}

// claim locks the first free project of worker under root: wN, wN.1, wN.2, ...
func claim(root string, worker int) (string, *os.File, error) {
	for i := range slots {
		name := "w" + strconv.Itoa(worker)
		if i > 0 {
			name += "." + strconv.Itoa(i)
		}
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
			return "", nil, fmt.Errorf("ascent: %w; set Options.Dir to a writable directory", err)
		}
		f, err := os.OpenFile(filepath.Join(dir, "polyfuzz.lock"), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return "", nil, fmt.Errorf("ascent: %w; set Options.Dir to a writable directory", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				continue
			}
			return "", nil, fmt.Errorf("ascent: lock %s: %w", dir, err)
		}
		return dir, f, nil
	}
	return "", nil, fmt.Errorf("ascent: the %d projects of worker %d under %s are all in use; close other targets or set Options.Dir", slots, worker, root)
}

// prepare writes the project's files and builds it once, compiling the dependencies when they
// are not built yet.
func (t *Target) prepare() error {
	for name, text := range map[string]string{"Cargo.toml": Manifest, "Cargo.lock": Lock,
		"src/main.rs": "fn main() {}\n"} {
		path := filepath.Join(t.dir, name)
		if old, err := os.ReadFile(path); err == nil && string(old) == text {
			continue
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return fmt.Errorf("ascent: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), PrepareTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd := t.command("build", "--locked", "--quiet", "--message-format=short")
	cmd.Stdout, cmd.Stderr = &out, &out
	exit, err := childproc.Run(ctx, cmd)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("ascent: building the project %s took more than %s; run ascent_prepare (scripts/ascent.sh) once, or check that crates.io is reachable", t.dir, PrepareTimeout)
	case err != nil:
		return fmt.Errorf("ascent: start %s: %w; install Rust with rustup (https://rustup.rs) or set Options.Cargo", t.cargo, err)
	case exit.Code == 0:
		return os.WriteFile(filepath.Join(t.dir, readyFile), nil, 0o644)
	default:
		return fmt.Errorf("ascent: building the project %s failed (%s): %s; check that crates.io is reachable, or run ascent_prepare (scripts/ascent.sh)",
			t.dir, exit, firstError(out.Bytes()))
	}
}

// readyFile marks a project whose dependencies are built.
const readyFile = "polyfuzz.ready"

// seed gives the project dir, when its dependencies are not built, a copy of the target
// directory of another project under root that has them (cargo finds the copies fresh), which
// takes a second where compiling them takes half a minute. It does nothing when it cannot.
func seed(root, dir string) {
	if _, err := os.Stat(filepath.Join(dir, readyFile)); err == nil {
		return
	}
	others, _ := filepath.Glob(filepath.Join(root, "w*", readyFile))
	for _, ready := range others {
		from := filepath.Join(filepath.Dir(ready), "target")
		tmp, err := os.MkdirTemp(dir, "target-seed-")
		if err != nil {
			return
		}
		if err := copyTree(from, tmp); err != nil {
			os.RemoveAll(tmp)
			continue
		}
		to := filepath.Join(dir, "target")
		os.RemoveAll(to)
		if os.Rename(tmp, to) != nil {
			os.RemoveAll(tmp)
		}
		return
	}
}

// copyTree copies the directories and regular files under from to to, with their modification
// times, except the binaries
// and dependency files of the program itself (target/debug/prog*), which every build rewrites.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case !d.Type().IsRegular() || filepath.Dir(rel) == "debug" && strings.HasPrefix(d.Name(), "prog"):
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, info.Mode().Perm()); err != nil {
			return err
		}
		// Cargo compares the times of a crate's outputs with its dependencies' outputs.
		return os.Chtimes(dst, info.ModTime(), info.ModTime())
	})
}

// command returns cargo with args, run in the project with its own target directory.
func (t *Target) command(args ...string) *exec.Cmd {
	cmd := exec.Command(t.cargo, args...)
	cmd.Dir = t.dir
	cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+filepath.Join(t.dir, "target"), "CARGO_TERM_COLOR=never",
		"CARGO_INCREMENTAL=0")
	return cmd
}

// Dir returns the project the target builds programs in.
func (t *Target) Dir() string { return t.dir }

// Name returns "ascent".
func (t *Target) Name() string { return "ascent" }

// Version returns "ascent VERSION", the version of the crate Lock pins.
func (t *Target) Version() string { return t.version }

// Reset does nothing: every program is a new binary.
func (t *Target) Reset(ctx context.Context) error { return ctx.Err() }

// Close releases the project.
func (t *Target) Close() error {
	if t.lock == nil {
		return nil
	}
	err := t.lock.Close()
	t.lock = nil
	return err
}

// compilerCrash are the messages of a compiler that died rather than rejected the program.
var compilerCrash = []string{"proc macro panicked", "internal compiler error", "thread 'rustc' panicked"}

// Exec builds and runs one program (see the package doc).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if t.lock == nil {
		return nil, errors.New("ascent: the target is closed")
	}
	bin := filepath.Join(t.dir, "target", "debug", "prog")
	os.Remove(bin)
	if err := os.WriteFile(filepath.Join(t.dir, "src", "main.rs"), []byte(stmt), 0o644); err != nil {
		return nil, fmt.Errorf("ascent: %w", err)
	}
	rctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	timeout := func() (*fuzz.Result, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("ascent gave no answer within %s", t.timeout)}, nil
	}

	start := time.Now()
	var out bytes.Buffer
	cmd := t.command("build", "--offline", "--locked", "--quiet", "--message-format=short")
	cmd.Stdout, cmd.Stderr = &out, &out
	exit, err := childproc.Run(rctx, cmd)
	t.Programs++
	t.BuildTime += time.Since(start)
	switch {
	case err != nil && rctx.Err() != nil:
		return timeout()
	case err != nil:
		return nil, fmt.Errorf("ascent: start %s: %w", t.cargo, err)
	case exit.Code != 0:
		if i := childproc.CrashAt(out.Bytes(), compilerCrash); i >= 0 {
			return &fuzz.Result{Status: fuzz.StatusCrash, Err: "ascent: " + childproc.OneLine(out.Bytes()[i:], 300)}, nil
		}
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "compile-error", Err: firstError(out.Bytes())}, nil
	}

	start = time.Now()
	var stdout bytes.Buffer
	stderr := childproc.NewTail(4096)
	run := exec.Command(bin)
	run.Dir = t.dir
	run.Stdout, run.Stderr = &stdout, stderr
	exit, err = childproc.Run(rctx, run)
	t.RunTime += time.Since(start)
	switch {
	case err != nil && rctx.Err() != nil:
		return timeout()
	case err != nil:
		return nil, fmt.Errorf("ascent: start %s: %w", bin, err)
	case exit.Code != 0 || exit.Signaled():
		msg := "ascent program " + exit.String()
		if i := childproc.CrashAt(stderr.Bytes(), []string{"panicked", "overflowed", "memory allocation"}); i >= 0 {
			msg += ": " + childproc.FirstLine(stderr.Bytes()[i:], 300)
		} else if s := childproc.LastLines(stderr.Bytes(), 300); s != "" {
			msg += ": " + s
		}
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: msg}, nil
	}
	rows, err := Rows(stdout.Bytes())
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "bad-answer", Err: err.Error()}, nil
	}
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows}, nil
}

// Rows splits a program's output into rows: one per line, fields separated by tabs.
func Rows(out []byte) ([][]string, error) {
	var rows [][]string
	for len(out) > 0 {
		i := bytes.IndexByte(out, '\n')
		if i < 0 {
			return nil, fmt.Errorf("the output ends without a newline: %q", clip(string(out)))
		}
		line := string(out[:i])
		out = out[i+1:]
		if line == "" {
			return nil, errors.New("the output has an empty line, where a row starts with its relation's name")
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows, nil
}

// firstError returns the first line of cargo's output that reports an error, or its last lines.
func firstError(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "error") && !strings.Contains(l, "could not compile") {
			return clip(strings.TrimSpace(l))
		}
	}
	if s := childproc.LastLines(out, 300); s != "" {
		return s
	}
	return "cargo build failed"
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
