package sqlgen

import (
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Format prints SQL cases for people: as a script and as a runnable reproducer.
type Format struct {
	// Dialect names the SQL dialect ("sqlite"); it selects the shell the reproducer runs.
	Dialect string
}

// Ext returns the file extension of case text: ".sql".
func (Format) Ext() string { return ".sql" }

// CaseText returns the setup statements and then the queries of the given roles (all queries when
// roles is nil), one statement per line, each ending with ";", each query preceded by a
// "-- role" comment line.
func (f Format) CaseText(c *fuzz.Case, roles []string) []byte {
	var b strings.Builder
	writeCase(&b, c, roles, "-- ", "\n")
	return []byte(b.String())
}

// writeCase writes the setup statements, then the queries of roles (all when nil), each ending with
// ";" and a newline; each query is preceded by a line made of before, its role, and after.
func writeCase(b *strings.Builder, c *fuzz.Case, roles []string, before, after string) {
	for _, s := range c.Setup {
		b.WriteString(s)
		b.WriteString(";\n")
	}
	for _, q := range c.Queries {
		if roles != nil && !slices.Contains(roles, q.Role) {
			continue
		}
		b.WriteString(before)
		b.WriteString(q.Role)
		b.WriteString(after)
		b.WriteString(q.Text)
		b.WriteString(";\n")
	}
}

// Repro returns a bash script (repro.sh) that runs the case in a fresh in-memory database of the
// dialect's shell (sqlite3, or $SQLITE3 when set), printing each query's role before its answer.
// header is written at the top as comment lines.
func (f Format) Repro(c *fuzz.Case, roles []string, header string) []byte {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n")
	if header != "" {
		for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
			b.WriteString("# ")
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	if f.Dialect != "" && f.Dialect != "sqlite" {
		b.WriteString("# no runner for dialect " + f.Dialect + "; the SQL follows\n")
		b.WriteString("cat <<'" + heredocDelim(c) + "'\n")
		b.Write(f.CaseText(c, roles))
		b.WriteString(heredocDelim(c) + "\n")
		return []byte(b.String())
	}
	delim := heredocDelim(c)
	b.WriteString("# Generated SQL may use functions of SQLite 3.48 or later (concat, unhex, if); set SQLITE3\n")
	b.WriteString("# to the sqlite3 shell to run.\n")
	b.WriteString("set -u\n")
	b.WriteString("\"${SQLITE3:-sqlite3}\" :memory: <<'" + delim + "'\n")
	b.WriteString(".headers off\n.mode list\n.nullvalue NULL\n")
	writeCase(&b, c, roles, ".print '-- ", "'\n")
	b.WriteString(delim)
	b.WriteByte('\n')
	return []byte(b.String())
}

// heredocDelim returns a here-document delimiter that no line of the case equals.
func heredocDelim(c *fuzz.Case) string {
	d := "POLYFUZZ_SQL"
	for {
		clash := false
		for _, s := range c.Setup {
			clash = clash || strings.Contains(s, d)
		}
		for _, q := range c.Queries {
			clash = clash || strings.Contains(q.Text, d)
		}
		if !clash {
			return d
		}
		d += "_"
	}
}
