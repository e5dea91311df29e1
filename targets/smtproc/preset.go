package smtproc

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout is the statement timeout of the presets and of Custom.
const DefaultTimeout = 10 * time.Second

// presets are the command lines of the known solvers. Only z3, cvc4 and cvc5 have been run here
// (Debian's boolector 1.5 predates interactive SMT-LIB 2); the others follow their documentation.
var presets = map[string][]string{
	// z3 reads SMT-LIB 2 from stdin with -in, answers each command at once and continues after
	// errors.
	"z3": {"z3", "-in", "-smt2"},
	// cvc5 answers each command at once on a pipe without --interactive (which changes nothing
	// for errors in 1.0.3: it exits on a parse error either way). --fp-exp admits floating-point
	// formats other than Float32 and Float64, as cvc5's own regression files ask.
	"cvc5": {"cvc5", "--lang", "smt2", "--incremental", "--fp-exp"},
	// cvc4 --interactive would continue after parse errors but prints a banner and a prompt
	// before every line; without it, cvc4 behaves like cvc5.
	"cvc4": {"cvc4", "--lang", "smt2", "--incremental"},
	// Boolector 3 (not 1.5, which reads a whole file before it answers).
	"boolector": {"boolector", "--smt2", "--incremental"},
	// Bitwuzla reads SMT-LIB 2 from stdin when given no file.
	"bitwuzla": {"bitwuzla", "--lang", "smt2"},
	// yices-smt2 needs --incremental for push/pop and several check-sat.
	"yices": {"yices-smt2", "--incremental"},
}

// Presets returns the names of the known solvers, sorted.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Preset returns the options of a known solver (see [Presets]) with the default timeout.
func Preset(name string) (Options, error) {
	argv, ok := presets[name]
	if !ok {
		return Options{}, fmt.Errorf("unknown solver %q (known: %s; or pass --solver-cmd 'path args')",
			name, strings.Join(Presets(), ", "))
	}
	return Options{Name: name, Command: slices.Clone(argv), Timeout: DefaultTimeout}, nil
}

// Custom returns the options of a user-given solver command line ("path args", split like a
// shell does for quotes and backslashes, without expansions). Its name is the base name of the
// path. A solver polyfuzz knows by that name still gets its soft time limit from [New].
func Custom(cmdline string) (Options, error) {
	argv, err := splitCommand(cmdline)
	if err != nil {
		return Options{}, fmt.Errorf("solver command %q: %w", cmdline, err)
	}
	if len(argv) == 0 {
		return Options{}, fmt.Errorf("solver command is empty")
	}
	return Options{Name: filepath.Base(argv[0]), Command: argv, Timeout: DefaultTimeout}, nil
}

// splitCommand splits a command line into words: blanks separate words, '...' quotes literally,
// "..." quotes with \" and \\ escapes, and \ escapes one character outside quotes.
func splitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed '")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \"")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// softLimitArgs returns the arguments that give the solver named by argv[0] its own per-query
// time limit d, unless argv already sets one. Solvers are recognised by their base name.
func softLimitArgs(argv []string, d time.Duration) []string {
	if d <= 0 || len(argv) == 0 {
		return nil
	}
	ms := strconv.FormatInt(max(d.Milliseconds(), 1), 10)
	has := func(prefixes ...string) bool {
		for _, a := range argv[1:] {
			for _, p := range prefixes {
				if strings.HasPrefix(a, p) {
					return true
				}
			}
		}
		return false
	}
	switch strings.TrimSuffix(filepath.Base(argv[0]), ".exe") {
	case "z3":
		if !has("-t:", "/t:") {
			return []string{"-t:" + ms}
		}
	case "cvc4", "cvc5":
		if !has("--tlimit-per") {
			return []string{"--tlimit-per=" + ms}
		}
	case "bitwuzla":
		if !has("--time-limit-per", "-T") {
			return []string{"--time-limit-per=" + ms}
		}
	case "yices-smt2":
		if !has("--timeout", "-t") {
			secs := (d + time.Second - 1) / time.Second
			return []string{"--timeout=" + strconv.FormatInt(int64(secs), 10)}
		}
	}
	// boolector's -t is a limit for the whole run, not per query; other solvers are unknown.
	return nil
}
