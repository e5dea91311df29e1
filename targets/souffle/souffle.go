// Package souffle is the target of the Soufflé Datalog engine: every program runs as
// `souffle -w -F FACTS -D OUT [Args...] prog.dl` in a temporary directory, and the answer is
// read from the OUT/<relation>.csv files.
//
// # Input
//
// A statement is a Soufflé program, or an archive of files: a line "-- prog.dl --" followed by
// the program, then for each fact file a line "-- NAME.facts --" followed by its content (one
// tuple per line, values separated by tabs, as Soufflé's .input reads them). File names are base
// names; prog.dl must come first. A statement that does not start with "-- " is the program
// alone. A malformed archive is answered with fuzz.StatusEngineError and Code "bad-input".
//
// # Answers
//
// After a successful run every OUT/<relation>.csv file gives one row per line: the relation's
// name and the line's tab-separated values as Soufflé printed them; a 0-ary relation that holds
// (Soufflé prints "()") is the row [name]. Arities come from the program's .decl lines.
//
// A run that exits with a non-zero status is fuzz.StatusEngineError with Code "error" and Err
// the first line that mentions an error (or else the last lines of its output), unless its
// output has a crash message (Assertion, Segmentation fault, terminate called, ...) or it died
// of a signal: that is fuzz.StatusCrash. A run past Options.Timeout is killed (with its process
// group, which includes the C++ compiler of `-c`) and answered with fuzz.StatusTimeout. A
// cancelled context kills the run, and Exec returns the context's error.
//
// Soufflé runs through package childproc, so that it dies with polyfuzz. This package imports
// only fuzz and childproc, and runs on Linux.
package souffle

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// versionTimeout bounds souffle --version.
const versionTimeout = 10 * time.Second

// DefaultTimeout bounds one program when Options.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// Options configure a Soufflé target.
type Options struct {
	// Path is the souffle binary; empty means souffle on PATH.
	Path string
	// Timeout bounds one program; zero means DefaultTimeout.
	Timeout time.Duration
	// Args are extra arguments, e.g. "--magic-transform=*", "-c" or "-j4".
	Args []string
}

// Target runs programs on Soufflé. It is used by one goroutine.
type Target struct {
	path    string
	version string
	timeout time.Duration
	args    []string
}

var _ fuzz.Target = (*Target)(nil)

// New finds souffle and reads its version. A missing binary is an error that names the fix.
func New(o Options) (*Target, error) {
	path := o.Path
	if path == "" {
		path = "souffle"
	}
	abs, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("souffle: binary %s not found (%v): install Soufflé (https://souffle-lang.github.io/install; Debian does not package it) or set Options.Path to it", path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	out, err := childproc.CombinedOutput(ctx, exec.Command(abs, "--version"))
	if err != nil {
		return nil, fmt.Errorf("souffle: %s --version failed (%v): %q; set Options.Path to a souffle binary", abs, err, clip(string(out)))
	}
	t := &Target{path: abs, version: versionOf(string(out)), timeout: o.Timeout, args: slices.Clone(o.Args)}
	if t.timeout <= 0 {
		t.timeout = DefaultTimeout
	}
	return t, nil
}

// versionOf reads the version from souffle --version, which prints e.g. "Souffle: 2.4.1(64bit
// Domains)" or "Version: 2.0.2" among other lines.
func versionOf(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"Souffle:", "Version:"} {
			if v, ok := strings.CutPrefix(l, p); ok {
				v = strings.TrimSpace(v)
				if i := strings.IndexAny(v, "( "); i > 0 {
					v = v[:i]
				}
				return v
			}
		}
	}
	return strings.TrimSpace(strings.SplitN(strings.TrimSpace(out), "\n", 2)[0])
}

// Name returns "souffle".
func (t *Target) Name() string { return "souffle" }

// Version returns Soufflé's version, e.g. "2.4.1".
func (t *Target) Version() string { return t.version }

// Reset does nothing: every program runs in a directory of its own.
func (t *Target) Reset(ctx context.Context) error { return ctx.Err() }

// Close does nothing.
func (t *Target) Close() error { return nil }

// crashPatterns are messages of a dying Soufflé or of the C++ code it generated.
var crashPatterns = append([]string{"Assertion", "core dumped", "Floating point exception", "internal error"},
	childproc.CrashPatterns...)

// Exec runs one program (see the package doc).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files, err := unpack(stmt)
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "bad-input", Err: err.Error()}, nil
	}
	dir, err := os.MkdirTemp("", "polyfuzz-souffle-")
	if err != nil {
		return nil, fmt.Errorf("souffle: %w", err)
	}
	defer os.RemoveAll(dir)
	for _, d := range []string{"facts", "out"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("souffle: %w", err)
		}
	}
	for _, f := range files {
		name := filepath.Join(dir, "facts", f.name)
		if f.name == "prog.dl" {
			name = filepath.Join(dir, f.name)
		}
		if err := os.WriteFile(name, []byte(f.text), 0o644); err != nil {
			return nil, fmt.Errorf("souffle: %w", err)
		}
	}

	args := append([]string{"-w", "-F", "facts", "-D", "out"}, t.args...)
	cmd := exec.Command(t.path, append(args, "prog.dl")...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	rctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	exit, err := childproc.Run(rctx, cmd)
	text := out.String()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil && rctx.Err() != nil:
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("souffle gave no answer within %s", t.timeout)}, nil
	case err != nil:
		return nil, fmt.Errorf("souffle: start %s: %w", t.path, err)
	}
	if i := childproc.CrashAt([]byte(text), crashPatterns); i >= 0 {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: "souffle: " + childproc.OneLine([]byte(text[i:]), 300)}, nil
	}
	if exit.Signaled() {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: "souffle " + exit.String() + ": " + childproc.LastLines([]byte(text), 300)}, nil
	}
	if exit.Code != 0 {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "error", Err: errorLine(text, exit.Code)}, nil
	}
	rows, err := readOutputs(filepath.Join(dir, "out"), arities(files[0].text))
	if err != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: "bad-answer", Err: err.Error()}, nil
	}
	return &fuzz.Result{Status: fuzz.StatusOK, Rows: rows}, nil
}

// file is one file of an archive.
type file struct{ name, text string }

// unpack splits a statement into prog.dl and fact files (see the package doc).
func unpack(stmt string) ([]file, error) {
	if !strings.HasPrefix(stmt, "-- ") {
		return []file{{"prog.dl", stmt}}, nil
	}
	var files []file
	seen := map[string]bool{}
	for len(stmt) > 0 {
		line, rest, _ := strings.Cut(stmt, "\n")
		stmt = rest
		name, ok := header(line)
		if !ok {
			if len(files) == 0 {
				return nil, fmt.Errorf("archive header %q is not -- NAME --", clip(line))
			}
			files[len(files)-1].text += line + "\n"
			continue
		}
		switch {
		case len(files) == 0 && name != "prog.dl":
			return nil, fmt.Errorf("the archive starts with %s, not prog.dl", name)
		case len(files) > 0 && (!strings.HasSuffix(name, ".facts") || strings.ContainsAny(name, `/\`) || name == ".facts"):
			return nil, fmt.Errorf("archive file %q is not NAME.facts", name)
		case seen[name]:
			return nil, fmt.Errorf("archive file %s appears twice", name)
		}
		seen[name] = true
		files = append(files, file{name: name})
	}
	return files, nil
}

// header reads a line "-- NAME --".
func header(line string) (string, bool) {
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < 7 {
		return "", false
	}
	return strings.TrimSpace(line[3 : len(line)-3]), true
}

var declRE = regexp.MustCompile(`(?m)^\s*\.decl\s+([A-Za-z_?][A-Za-z0-9_?]*)\s*\(([^)]*)\)`)

// arities reads the arities of a program's relations from its .decl lines.
func arities(prog string) map[string]int {
	m := map[string]int{}
	for _, d := range declRE.FindAllStringSubmatch(prog, -1) {
		n := 0
		if strings.TrimSpace(d[2]) != "" {
			n = strings.Count(d[2], ",") + 1
		}
		m[d[1]] = n
	}
	return m
}

// readOutputs reads the .csv files of dir into rows, in name order.
func readOutputs(dir string, arity map[string]int) ([][]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var rows [][]string
	for _, path := range names {
		rel := strings.TrimSuffix(filepath.Base(path), ".csv")
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		n, known := arity[rel]
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if line == "" {
				continue // after the last newline
			}
			if !strings.HasSuffix(line, "\n") {
				return nil, fmt.Errorf("%s.csv ends without a newline: %q", rel, clip(line))
			}
			line = strings.TrimSuffix(line, "\n")
			row := []string{rel}
			if known && n == 0 {
				if line != "()" {
					return nil, fmt.Errorf("%s.csv has %q for a 0-ary relation", rel, clip(line))
				}
			} else {
				row = append(row, strings.Split(line, "\t")...)
				if known && len(row)-1 != n {
					return nil, fmt.Errorf("%s.csv has %d values in %q; %s has arity %d", rel, len(row)-1, clip(line), rel, n)
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// errorLine returns the first line of out that mentions an error, or its last lines.
func errorLine(out string, code int) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Error") || strings.Contains(l, "error") {
			return strings.TrimSpace(l)
		}
	}
	if s := childproc.LastLines([]byte(out), 300); s != "" {
		return s
	}
	return fmt.Sprintf("souffle exited with status %d", code)
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
