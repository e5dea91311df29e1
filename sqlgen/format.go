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
	// Engines names the engines the case ran on (registry names: sqlite, postgres, mariadb, mysql,
	// duckdb); the reproducer runs the case on each. Empty means the dialect's own engine.
	Engines []string
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
	engines := f.Engines
	if len(engines) == 0 {
		engines = []string{cond(f.Dialect == "", "sqlite", f.Dialect)}
	}
	b.WriteString("# Runs the case on each engine it was found on, printing each query's role before its answer.\n")
	b.WriteString("set -u\n")
	delim := heredocDelim(c)
	for _, e := range engines {
		switch e {
		case "sqlite":
			b.WriteString("\n# SQLite: generated SQL may use functions of SQLite 3.48 or later (concat, unhex, if); set\n")
			b.WriteString("# SQLITE3 to a recent sqlite3 shell.\n")
			b.WriteString("\"${SQLITE3:-sqlite3}\" :memory: <<'" + delim + "'\n")
			b.WriteString(".headers off\n.mode list\n.nullvalue NULL\n")
			writeCase(&b, c, roles, ".print '-- ", "'\n")
		case "postgres":
			b.WriteString("\n# PostgreSQL, in a scratch schema of the database POLYFUZZ_POSTGRES_DSN names.\n")
			b.WriteString("psql \"${POLYFUZZ_POSTGRES_DSN:?set POLYFUZZ_POSTGRES_DSN=postgres://USER:PASS@HOST:PORT/DB}\" -X -q -A -t <<'" + delim + "'\n")
			b.WriteString("DROP SCHEMA IF EXISTS polyfuzz_repro CASCADE;\nCREATE SCHEMA polyfuzz_repro;\nSET search_path = polyfuzz_repro;\n")
			writeCase(&b, c, roles, "\\echo '-- ", "'\n")
			b.WriteString("DROP SCHEMA polyfuzz_repro CASCADE;\n")
		case "mariadb", "mysql":
			env := "POLYFUZZ_" + strings.ToUpper(e) + "_DSN"
			b.WriteString("\n# " + e + ", in a scratch database polyfuzz_repro on the server " + env + " names.\n")
			b.WriteString("dsn=${" + env + ":?set " + env + "=" + e + "://USER:PASS@HOST:PORT/DB}\n")
			b.WriteString("re='^[a-z]+://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?'\n")
			b.WriteString("[[ $dsn =~ $re ]] || { echo \"cannot read $dsn\" >&2; exit 2; }\n")
			b.WriteString("MYSQL_PWD=${BASH_REMATCH[3]} \"${MYSQL:-mariadb}\" -h \"${BASH_REMATCH[4]}\" -P \"${BASH_REMATCH[6]:-3306}\" -u \"${BASH_REMATCH[1]}\" -N -B --force <<'" + delim + "'\n")
			b.WriteString("DROP DATABASE IF EXISTS polyfuzz_repro;\nCREATE DATABASE polyfuzz_repro CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;\nUSE polyfuzz_repro;\n")
			b.WriteString("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';\n")
			writeCase(&b, c, roles, "SELECT '-- ", "';\n")
			b.WriteString("DROP DATABASE polyfuzz_repro;\n")
		case "duckdb":
			b.WriteString("\n# DuckDB, in memory, with its command-line shell (DUCKDB to name it).\n")
			b.WriteString("\"${DUCKDB:-duckdb}\" -noheader -list <<'" + delim + "'\n")
			writeCase(&b, c, roles, ".print '-- ", "'\n")
		default:
			b.WriteString("\n# no runner for " + e + "; the SQL follows\n")
			b.WriteString("cat <<'" + delim + "'\n")
			b.Write(f.CaseText(c, roles))
		}
		b.WriteString(delim)
		b.WriteByte('\n')
	}
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

// ShowValue prints a canonical value (see fuzz/values.go) as a SQL literal, for a finding's
// expected and actual lines: NULL, 3, 1.50 (a decimal), 1.0 and 2.5e+300 (floats; a whole float
// gets ".0" so that it does not read as an integer), NaN and Inf for the float specials,
// text in single quotes (a quote in it doubled), X'00ff' for bytes, TRUE and FALSE. Values of
// other forms are returned as they are. The domain wiring sets it on the oracles as oracles.Display{Value: sqlgen.ShowValue}.
func ShowValue(v string) string {
	if v == fuzz.Null {
		return "NULL"
	}
	tag, body, ok := strings.Cut(v, ":")
	if !ok {
		return v
	}
	switch tag {
	case "i", "d":
		return body
	case "r":
		switch body {
		case "+Inf":
			return "Inf"
		case "NaN", "-Inf":
			return body
		}
		if strings.ContainsAny(body, ".e") {
			return body
		}
		return body + ".0"
	case "t":
		return "'" + strings.ReplaceAll(body, "'", "''") + "'"
	case "b":
		return "X'" + body + "'"
	case "B":
		return strings.ToUpper(body)
	}
	return v
}
