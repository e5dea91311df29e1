package datalog

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Format prints Datalog cases for people and for a finding's repro.sh: the programs in canonical
// syntax, and a script that runs each program on every engine, with the engine's own command line
// where its dialect is a [Scripter] and with `polyfuzz datalog run` otherwise.
type Format struct {
	Engines  []string           // the engines the case ran on, in order
	Dialects map[string]Dialect // each engine's dialect, for those that have one
}

// Ext returns ".dl".
func (Format) Ext() string { return ".dl" }

// CaseText prints the programs of the given roles (all when roles is nil), each under a comment
// naming its role.
func (Format) CaseText(c *fuzz.Case, roles []string) []byte {
	var b strings.Builder
	for _, q := range c.Queries {
		if len(roles) > 0 && !slices.Contains(roles, q.Role) {
			continue
		}
		fmt.Fprintf(&b, "// ---- %s%s\n%s\n", q.Role, roleNote(c, q.Role), q.Text)
	}
	return []byte(b.String())
}

func roleNote(c *fuzz.Case, role string) string {
	if role == RoleTrans && c.Params[ParamExpect] != "" {
		return fmt.Sprintf(" (expected %s the original's answer; steps %s)", c.Params[ParamExpect], c.Params[ParamSteps])
	}
	return ""
}

// Repro writes a script that saves each program and runs it on every engine of the case.
func (f Format) Repro(c *fuzz.Case, roles []string, header string) []byte {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n")
	for _, line := range strings.Split(header, "\n") {
		b.WriteString("# " + line + "\n")
	}
	b.WriteString("set -u\ncd \"$(mktemp -d)\"\n")
	for i, q := range c.Queries {
		if len(roles) > 0 && !slices.Contains(roles, q.Role) {
			continue
		}
		base := fmt.Sprintf("p%d", i)
		fmt.Fprintf(&b, "\n# %s%s\ncat > %s.dl <<'POLYFUZZ_EOF'\n%sPOLYFUZZ_EOF\n", q.Role, roleNote(c, q.Role), base, q.Text)
		for _, e := range f.Engines {
			fmt.Fprintf(&b, "echo '== %s on %s'\n", q.Role, e)
			if cmd := ownCommand(f.Dialects[e], q.Text, base); cmd != "" {
				b.WriteString(cmd)
			} else {
				fmt.Fprintf(&b, "polyfuzz datalog run --engine %s %s.dl\n", e, base)
			}
		}
	}
	return []byte(b.String())
}

// ownCommand returns shell lines that run a program with the engine's own command line, or "".
func ownCommand(d Dialect, program, base string) string {
	s, ok := d.(Scripter)
	if !ok {
		return ""
	}
	p, err := Parse(base+".dl", program)
	if err != nil {
		return ""
	}
	files, cmd, err := s.Script(p, base)
	if err != nil {
		return "# " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n"
	}
	var b strings.Builder
	names := make([]string, 0, len(files))
	for k := range files {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&b, "mkdir -p \"$(dirname %s)\"; cat > %s <<'POLYFUZZ_EOF'\n%sPOLYFUZZ_EOF\n", name, name, files[name])
	}
	b.WriteString(cmd + "\n")
	return b.String()
}

// ShowValue prints a canonical value of a Datalog answer as the canonical syntax writes the
// constant: a number as it is ("i:-8" is -8), a symbol in double quotes ("t:k" is "k"); NULL and
// other values are returned as they are. The domain wiring sets it on the oracles as
// oracles.Display{Value: datalog.ShowValue, Row: datalog.ShowRow}.
func ShowValue(v string) string {
	switch {
	case strings.HasPrefix(v, "i:"):
		return v[2:]
	case strings.HasPrefix(v, "t:"):
		return quote(v[2:])
	}
	return v
}

// ShowRow prints one row of a Datalog answer, the relation's name followed by the tuple's
// canonical values, as a fact of the canonical syntax: ypt3(-8, "k", "k"). A row without values
// prints as its relation's name.
func ShowRow(row []string) string {
	if len(row) == 0 {
		return "()"
	}
	rel := strings.TrimPrefix(row[0], "t:")
	if len(row) == 1 {
		return rel
	}
	vals := make([]string, len(row)-1)
	for i, v := range row[1:] {
		vals[i] = ShowValue(v)
	}
	return rel + "(" + strings.Join(vals, ", ") + ")"
}
