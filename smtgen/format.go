package smtgen

import (
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Solver names one solver a reproducer runs: Cmd is its command line reading SMT-LIB on stdin.
type Solver struct {
	Name string
	Cmd  string
}

// Format prints SMT cases as .smt2 scripts and reproducers that pipe them into the campaign's
// solvers.
type Format struct {
	Solvers []Solver
}

// Ext returns ".smt2".
func (Format) Ext() string { return ".smt2" }

// CaseText returns the instance, then the model query (when roles is nil or names it), then the
// case's model as comment lines.
func (Format) CaseText(c *fuzz.Case, roles []string) []byte {
	var b strings.Builder
	if m := c.Params[ParamSeed]; m != "" {
		b.WriteString("; from seed " + m + ", mode " + c.Params[ParamMode] + "\n")
	}
	for _, q := range c.Queries {
		if roles != nil && !slices.Contains(roles, q.Role) {
			continue
		}
		b.WriteString(q.Text)
		b.WriteByte('\n')
	}
	if m := c.Params[ParamModel]; m != "" {
		b.WriteString("; the model every assertion is true under (polyfuzz's evaluator certifies it):\n")
		for _, line := range strings.Split(strings.TrimRight(m, "\n"), "\n") {
			b.WriteString(";   " + line + "\n")
		}
	}
	return []byte(b.String())
}

// Repro returns a bash script that writes the case to a temporary file and runs every solver of
// the format on it, printing each solver's name before its answers. header becomes comment lines.
func (f Format) Repro(c *fuzz.Case, roles []string, header string) []byte {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n")
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		if line != "" {
			b.WriteString("# " + line + "\n")
		}
	}
	delim := "POLYFUZZ_SMT2"
	for strings.Contains(string(f.CaseText(c, roles)), delim) {
		delim += "_"
	}
	b.WriteString("set -u\ncase=$(mktemp --suffix=.smt2)\ntrap 'rm -f \"$case\"' EXIT\n")
	b.WriteString("cat > \"$case\" <<'" + delim + "'\n")
	b.Write(f.CaseText(c, roles))
	b.WriteString(delim + "\n")
	for _, s := range f.Solvers {
		b.WriteString("echo '== " + s.Name + "'\n")
		b.WriteString(s.Cmd + " < \"$case\"\n")
	}
	return []byte(b.String())
}
