package domain

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

// Exit codes, the same for every command and domain.
const (
	ExitOK        = 0   // done; a replay reproduced
	ExitFailure   = 1   // could not run (an engine missing or unreachable), or did not reproduce
	ExitUsage     = 2   // bad flags or arguments
	ExitFindings  = 3   // new findings, with --fail-on-finding
	ExitInterrupt = 130 // stopped by Ctrl-C (SIGINT) or SIGTERM; findings and report are written
)

// Flags is a command's flag set: --help prints the synopsis and every flag on stdout, and a bad
// flag is one line on stderr that points to --help.
type Flags struct {
	*flag.FlagSet
	cmd            string
	stdout, stderr io.Writer
	help           func()
}

// NewFlags returns the flag set of "polyfuzz CMD".
func NewFlags(cmd, synopsis string, stdout, stderr io.Writer) *Flags {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &Flags{FlagSet: fs, cmd: cmd, stdout: stdout, stderr: stderr}
	fs.Usage = func() {} // a flag error is one line (Parse), help is asked for
	f.help = func() {
		fmt.Fprintf(stdout, "%s\n\nflags:\n", synopsis)
		fs.VisitAll(func(fl *flag.Flag) {
			typ, help := flag.UnquoteUsage(fl)
			dash := "--"
			if len(fl.Name) == 1 {
				dash = "-"
			}
			fmt.Fprintf(stdout, "  %s%s %s\n      %s", dash, fl.Name, typ, help)
			if d := fl.DefValue; d != "" && d != "0" && d != "0s" && d != "false" && d != "[]" {
				fmt.Fprintf(stdout, " (default %s)", d)
			}
			fmt.Fprintln(stdout)
		})
	}
	return f
}

// Parse parses args; it returns -1 to go on, or the exit code to return (0 after --help).
func (f *Flags) Parse(args []string) int {
	if err := f.FlagSet.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			f.help()
			return ExitOK
		}
		f.Usagef("%v", err)
		return ExitUsage
	}
	return -1
}

// Usagef prints a usage error in one line, passwords redacted, and where to read more.
func (f *Flags) Usagef(format string, a ...any) {
	fmt.Fprintf(f.stderr, "polyfuzz %s: %s (see polyfuzz %s --help)\n", f.cmd, Redact(fmt.Sprintf(format, a...)), f.cmd)
}

// Fail prints an error of the command in one line, passwords redacted, and returns code.
func (f *Flags) Fail(code int, format string, a ...any) int {
	if code == ExitUsage {
		f.Usagef(format, a...)
	} else {
		fmt.Fprintf(f.stderr, "polyfuzz %s: %s\n", f.cmd, Redact(fmt.Sprintf(format, a...)))
	}
	return code
}

// NoArgs fails when arguments are left after the flags.
func (f *Flags) NoArgs() error {
	if f.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags start with --)", f.Arg(0))
	}
	return nil
}

// List is a flag that may be repeated and whose values may be comma-separated.
type List []string

// String joins the values with commas.
func (l *List) String() string { return strings.Join(*l, ",") }

// Set adds the comma-separated values of v.
func (l *List) Set(v string) error {
	added := false
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
			added = true
		}
	}
	if !added {
		return errors.New("empty value")
	}
	return nil
}

// Repeated is a flag that may be repeated and whose values are taken whole (an engine's DSN or
// command line may hold commas).
type Repeated []string

// String joins the values with commas.
func (l *Repeated) String() string { return strings.Join(*l, ",") }

// Set adds v.
func (l *Repeated) Set(v string) error {
	if v == "" {
		return errors.New("empty value")
	}
	*l = append(*l, v)
	return nil
}

// Seed is the --seed flag of every command: a non-negative integer, or random when not given.
type Seed struct {
	Value uint64
	Given bool
}

// String prints the seed, or "random".
func (s *Seed) String() string {
	if s == nil || !s.Given {
		return "random"
	}
	return strconv.FormatUint(s.Value, 10)
}

// Set reads a seed.
func (s *Seed) Set(v string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return fmt.Errorf("want a non-negative integer, got %q", v)
	}
	s.Value, s.Given = n, true
	return nil
}

// Get returns the seed, drawing a random one (that fits in 63 bits) when none was given.
func (s *Seed) Get() uint64 {
	if !s.Given {
		s.Value, s.Given = rand.Uint64()>>1, true
	}
	return s.Value
}

// ShellJoin quotes a command line for a POSIX shell.
func ShellJoin(args []string) string {
	var parts []string
	for _, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
			parts = append(parts, a)
		} else {
			parts = append(parts, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
		}
	}
	return strings.Join(parts, " ")
}

// CommandLine is the redacted, shell-quoted command line "polyfuzz ARGS...".
func CommandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Redact(a)
	}
	return "polyfuzz " + ShellJoin(q)
}

// FileCommand reads the command line of a domain's subcommand that runs one file (what it
// holds, for the error) on one engine: --engine NAME[=DSN], --timeout and --force. It returns the
// flags (for errors), the engine's spec and the file's text, or the exit code to return (-1: go on).
func (d *Domain) FileCommand(name, synopsis, what string, args []string, stdout, stderr io.Writer) (*Flags, Spec, string, int) {
	fs := NewFlags(d.Name+" "+name, synopsis, stdout, stderr)
	engine := fs.String("engine", d.DefaultEngine, "the engine, NAME or NAME=DSN: "+d.EngineNames())
	timeout := fs.Duration("timeout", 10*time.Second, "time limit for each statement")
	force := fs.Bool("force", false, "work in a server database that holds data polyfuzz did not create")
	if code := fs.Parse(args); code >= 0 {
		return fs, Spec{}, "", code
	}
	if fs.NArg() != 1 {
		return fs, Spec{}, "", fs.Fail(ExitUsage, "want one argument, %s", what)
	}
	src, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fs, Spec{}, "", fs.Fail(ExitUsage, "%v", err)
	}
	specs, err := d.EngineArgs([]string{*engine}, Spec{Timeout: *timeout, Force: *force})
	if err != nil {
		return fs, Spec{}, "", fs.Fail(ExitUsage, "%v", err)
	}
	return fs, specs[0], string(src), -1
}
