package sqlgen

import (
	"fmt"
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
	writeSetup(b, c)
	writeQueries(b, c, roles, before, after)
}

// writeSetup writes the setup statements, each ending with ";" and a newline.
func writeSetup(b *strings.Builder, c *fuzz.Case) {
	for _, s := range c.Setup {
		b.WriteString(s)
		b.WriteString(";\n")
	}
}

// writeQueries writes the queries of roles (all when nil), each ending with ";" and a newline and
// preceded by a line made of before, its role, and after.
func writeQueries(b *strings.Builder, c *fuzz.Case, roles []string, before, after string) {
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

// firstRoleLine returns the number of the first line of text (from 1) that prints a role,
// a line past the end when there is none.
func firstRoleLine(text string) int {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".print '---- ") {
			return i + 1
		}
	}
	return len(lines) + 1
}

// Repro returns repro.sh: a bash script that runs the case with each engine's own client, prints
// the client's version (warning on stderr when it is not the version the finding was recorded
// on) and each query's answer after a "---- ROLE" line, and judges the answers as the finding's
// oracle did. It exits 0 when the finding reproduces, 1 when it does not, and 2 when it cannot
// tell: a client is missing, a server unreachable, a query of the relation failed, the finding
// came from a fault polyfuzz planted, or the oracle cannot be judged faithfully in a shell (see
// the judge's comment in the script).
//
// Clients: the sqlite3 shell ($SQLITE3, in memory), psql in a scratch schema polyfuzz_repro of
// the database POLYFUZZ_POSTGRES_DSN names, the mariadb client ($MYSQL) in a scratch database
// polyfuzz_repro of the server POLYFUZZ_MARIADB_DSN or POLYFUZZ_MYSQL_DSN names, the duckdb shell
// ($DUCKDB). A single-engine oracle runs the engines the finding blames; diff runs them all.
func (f Format) Repro(c *fuzz.Case, in fuzz.ReproInfo) []byte {
	var b strings.Builder
	fuzz.WriteReproHeader(&b, in.Header)
	b.WriteString("set -u\n" + fuzz.ReproHelpers + reproPrelude)
	engines := f.Engines
	if len(engines) == 0 {
		engines = []string{cond(f.Dialect == "", "sqlite", f.Dialect)}
	}
	if in.Fault != "" {
		b.WriteString(in.PlantedExit())
		return []byte(b.String())
	}
	j := sqlJudgeFor(c, in)
	run := engines
	if j.kind != judgeDiff {
		run = in.BlamedOf(engines)
	}
	roles := in.Roles
	if j.kind == judgeError {
		roles = nil // the statement that failed may be any of them
	}
	limit := in.ReproLimit()
	delim := heredocDelim(c)
	for _, e := range run {
		f.writeRun(&b, c, roles, in, e, j.kind == judgeDiff, limit, delim)
	}
	j.write(&b, c, in, run)
	return []byte(b.String())
}

// reproPrelude holds the helpers the SQL reproducers add to fuzz.ReproHelpers.
const reproPrelude = `# sec ENGINE ROLE prints ENGINE's answer to the query of ROLE.
sec() { awk -v r="---- $2" '$0 == r { on = 1; next } /^---- / { on = 0 } on' "$tmp/$1.out"; }
# ran ENGINE says whether ENGINE answered every query (the end line was printed and no query failed).
ran() { grep -qx -- '---- end' "$tmp/$1.out" && [ ! -s "$tmp/$1.qfail" ]; }
`

// writeRun writes the lines that run the case on engine e into $tmp/e.out, e.err and e.status,
// and a non-empty $tmp/e.qfail when a query (not a setup statement) failed. list selects the
// engine's plain output (for comparing engines) over its typed output where it has one.
func (f Format) writeRun(b *strings.Builder, c *fuzz.Case, roles []string, in fuzz.ReproInfo, e string, list bool, limit, delim string) {
	rec := fuzz.ShellQuote(in.Version(e))
	switch e {
	case "sqlite", "duckdb":
		shell, env, what := "sqlite3", "SQLITE3", "SQLite's sqlite3 shell (generated SQL may use functions of 3.48 or later)"
		if e == "duckdb" {
			shell, env, what = "duckdb", "DUCKDB", "DuckDB's shell"
		}
		fmt.Fprintf(b, "\n# %s, in memory; set %s to name it.\n", what, env)
		fmt.Fprintf(b, "sh=${%s:-%s}\ncommand -v \"$sh\" >/dev/null || cannot \"$sh not found: install it or set %s\"\n", env, shell, env)
		fmt.Fprintf(b, "version %s %s \"$(\"$sh\" --version 2>&1 | head -n 1)\"\n", e, rec)
		var body strings.Builder
		body.WriteString(".headers off\n")
		if e == "sqlite" && !list {
			body.WriteString(".mode quote\n") // typed: 'text', X'00', 1, 1.0, NULL
		} else {
			body.WriteString(".mode list\n")
		}
		body.WriteString(".separator |\n.nullvalue NULL\n")
		writeSetup(&body, c)
		writeQueries(&body, c, roles, ".print '---- ", "'\n")
		body.WriteString(".print '---- end'\n")
		fmt.Fprintf(b, "limit %s \"$sh\" :memory: >\"$tmp/%s.out\" 2>\"$tmp/%s.err\" <<'%s'\n%s%s\n", limit, e, e, delim, body.String(), delim)
		fmt.Fprintf(b, "echo $? >\"$tmp/%s.status\"\n", e)
		// The shell goes on after an error and names the line of the failed statement; the
		// queries start at the first role line.
		fmt.Fprintf(b, "grep -Eo 'line [0-9]+' \"$tmp/%s.err\" | awk '$2 + 0 >= %d' >\"$tmp/%s.qfail\"\n", e, firstRoleLine(body.String()), e)
	case "postgres":
		b.WriteString("\n# PostgreSQL, in a scratch schema of the database POLYFUZZ_POSTGRES_DSN names.\n")
		b.WriteString("command -v psql >/dev/null || cannot \"psql not found\"\n")
		b.WriteString("dsn=${POLYFUZZ_POSTGRES_DSN:-}\n[ -n \"$dsn\" ] || cannot \"set POLYFUZZ_POSTGRES_DSN=postgres://USER:PASS@HOST:PORT/DB\"\n")
		fmt.Fprintf(b, "v=$(psql \"$dsn\" -X -tAc 'SELECT version()' 2>\"$tmp/postgres.err\") || cannot \"PostgreSQL is unreachable: $(head -n 1 \"$tmp/postgres.err\")\"\n")
		fmt.Fprintf(b, "version postgres %s \"$v\"\n", rec)
		fmt.Fprintf(b, "limit %s psql \"$dsn\" -X -q -A -t >\"$tmp/postgres.out\" 2>\"$tmp/postgres.err\" <<'%s'\n", limit, delim)
		b.WriteString("\\pset null NULL\nSET client_min_messages = warning;\nDROP SCHEMA IF EXISTS polyfuzz_repro CASCADE;\nCREATE SCHEMA polyfuzz_repro;\nSET search_path = polyfuzz_repro;\n")
		writeSetup(b, c)
		b.WriteString("\\set ON_ERROR_STOP 1\n")
		writeQueries(b, c, roles, "\\echo '---- ", "'\n")
		b.WriteString("\\echo '---- end'\n\\set ON_ERROR_STOP 0\nDROP SCHEMA polyfuzz_repro CASCADE;\n")
		b.WriteString(delim + "\n")
		b.WriteString("echo $? >\"$tmp/postgres.status\"\n: >\"$tmp/postgres.qfail\"\n")
	case "mariadb", "mysql":
		env := "POLYFUZZ_" + strings.ToUpper(e) + "_DSN"
		fmt.Fprintf(b, "\n# %s, in a scratch database polyfuzz_repro on the server %s names; set MYSQL to name the client.\n", e, env)
		fmt.Fprintf(b, "dsn=${%s:-}\n[ -n \"$dsn\" ] || cannot \"set %s=%s://USER:PASS@HOST:PORT/DB\"\n", env, env, e)
		b.WriteString("re='^[a-z]+://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?'\n")
		fmt.Fprintf(b, "[[ $dsn =~ $re ]] || cannot \"cannot read %s\"\n", env)
		b.WriteString("cli=(\"${MYSQL:-mariadb}\" -h \"${BASH_REMATCH[4]}\" -P \"${BASH_REMATCH[6]:-3306}\" -u \"${BASH_REMATCH[1]}\" -N -B)\n")
		b.WriteString("export MYSQL_PWD=${BASH_REMATCH[3]}\n")
		b.WriteString("command -v \"${cli[0]}\" >/dev/null || cannot \"${cli[0]} not found: install the client or set MYSQL\"\n")
		fmt.Fprintf(b, "v=$(\"${cli[@]}\" -e 'SELECT VERSION()' 2>\"$tmp/%s.err\") || cannot \"%s is unreachable: $(head -n 1 \"$tmp/%s.err\")\"\n", e, e, e)
		fmt.Fprintf(b, "version %s %s \"$v\"\n", e, rec)
		mode := "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION';\n"
		b.WriteString("# The setup goes on after errors (--force); the queries stop at the first.\n")
		fmt.Fprintf(b, "limit %s \"${cli[@]}\" --force >\"$tmp/%s.out\" 2>\"$tmp/%s.err\" <<'%s'\n", limit, e, e, delim)
		b.WriteString("DROP DATABASE IF EXISTS polyfuzz_repro;\nCREATE DATABASE polyfuzz_repro CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;\nUSE polyfuzz_repro;\n")
		b.WriteString(mode)
		writeSetup(b, c)
		b.WriteString(delim + "\n")
		fmt.Fprintf(b, "st=$?\nif [ \"$st\" = 0 ]; then\n\tlimit %s \"${cli[@]}\" polyfuzz_repro >>\"$tmp/%s.out\" 2>>\"$tmp/%s.err\" <<'%s'\n", limit, e, e, delim)
		b.WriteString(mode)
		writeQueries(b, c, roles, "SELECT '---- ", "';\n")
		b.WriteString("SELECT '---- end';\n")
		b.WriteString(delim + "\n")
		fmt.Fprintf(b, "\tst=$?\nfi\necho \"$st\" >\"$tmp/%s.status\"\n: >\"$tmp/%s.qfail\"\n", e, e)
		// Batch mode separates values by tabs; the judges read "|" as the other clients print.
		fmt.Fprintf(b, "tr '\\t' '|' <\"$tmp/%s.out\" >\"$tmp/%s.tab\" && mv \"$tmp/%s.tab\" \"$tmp/%s.out\"\n", e, e, e, e)
		fmt.Fprintf(b, "\"${cli[@]}\" -e 'DROP DATABASE IF EXISTS polyfuzz_repro' 2>/dev/null\n")
	default:
		fmt.Fprintf(b, "\ncannot %s\n", fuzz.ShellQuote("no client known for "+e))
		return
	}
	fmt.Fprintf(b, "echo '== %s answers:'\ncat \"$tmp/%s.out\"\ncat \"$tmp/%s.err\" >&2\n", e, e, e)
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

// judgeKind says how a reproducer judges a finding.
type judgeKind int

const (
	judgeNone  judgeKind = iota // no faithful judge in a shell: exit 2 after running the case
	judgeNoREC                  // the optimized count against the unoptimized sum
	judgeTLP                    // the original rows against the partitions' rows
	judgeAgg                    // the original aggregate against the partitions' aggregates
	judgeDiff                   // the same rows from every engine
	judgeDQP                    // the same rows under the default plan and the plan variant
	judgeError                  // a crash, a hang or the recorded error message
	judgeSame                   // two queries return the same rows (eet: the original and the rewritten)
	judgeDQE                    // the SELECT's rows, the rows the UPDATE marked and the rows the DELETE removed
	judgePQS                    // the containment query finds the pivot row while the pivot exists
)

// sqlJudge is the judge of one finding.
type sqlJudge struct {
	kind  judgeKind
	why   string   // judgeNone: why there is no judge
	roles []string // judgeNoREC: optimized, unoptimized; judgeTLP: orig, p, notp, null; judgeDiff: the role
	set   bool     // judgeTLP: compare as sets
	agg   string   // judgeAgg: MIN, MAX, SUM, COUNT or AVG
	msg   string   // judgeError: the error message to find
}

// sqlJudgeFor returns the judge of the finding described by in on case c.
func sqlJudgeFor(c *fuzz.Case, in fuzz.ReproInfo) sqlJudge {
	has := func(role string) bool { _, ok := c.Query(role); return ok }
	hasAll := func(roles []string) bool { return !slices.ContainsFunc(roles, func(r string) bool { return !has(r) }) }
	switch in.Kind {
	case fuzz.KindCrash, fuzz.KindHang, fuzz.KindUnexpectedError:
		return sqlJudge{kind: judgeError, msg: in.ErrorMessage(nil)}
	}
	if slices.ContainsFunc(c.Queries, func(q fuzz.Query) bool { _, k := fuzz.SplitCheck(q.Role); return k > 0 }) {
		return sqlJudge{why: "the case makes several checks (its reduced case, of one check, has a judge)"}
	}
	switch in.Oracle {
	case OracleNoREC:
		opt := RoleNoRECOptCount
		if !has(opt) {
			opt = RoleNoRECOptRows
		}
		if has(opt) && has(RoleNoRECUnopt) {
			return sqlJudge{kind: judgeNoREC, roles: []string{opt, RoleNoRECUnopt}}
		}
	case OracleTLPWhere, OracleTLPHaving, OracleTLPDistinct, OracleTLPGroupBy:
		roles := oracleLayouts[in.Oracle].Roles()
		if hasAll(roles) {
			set := in.Oracle == OracleTLPDistinct || in.Oracle == OracleTLPGroupBy
			return sqlJudge{kind: judgeTLP, roles: roles, set: set}
		}
	case OracleTLPAgg:
		agg := strings.ToUpper(c.Params["agg"])
		if slices.Contains([]string{"MIN", "MAX", "SUM", "COUNT", "AVG"}, agg) && hasAll(fuzz.TLPAgg.Roles()) {
			return sqlJudge{kind: judgeAgg, agg: agg}
		}
	case OracleDQP:
		if has(RoleDQPBase) && has(RoleDQPPlan) {
			return sqlJudge{kind: judgeDQP, roles: []string{RoleDQPBase, RoleDQPPlan}}
		}
	case OracleEET:
		for _, pair := range [][]string{{RoleEETOrig, RoleEETTrans}, {RoleEETDMLPost, RoleEETDMLTPost}} {
			if hasAll(pair) {
				return sqlJudge{kind: judgeSame, roles: pair}
			}
		}
	case OracleDQE:
		roles := []string{RoleDQESelect, RoleDQEUpdated, RoleDQEAll, RoleDQERemaining}
		if hasAll(fuzz.DQE.Roles()) {
			return sqlJudge{kind: judgeDQE, roles: roles}
		}
	case OraclePQS:
		if has(RolePQSPivot) && has(RolePQSContains) {
			return sqlJudge{kind: judgePQS, roles: []string{RolePQSPivot, RolePQSContains}}
		}
	case "diff":
		for _, r := range in.Roles {
			if has(r) {
				return sqlJudge{kind: judgeDiff, roles: []string{r}}
			}
		}
		if len(c.Queries) > 0 {
			return sqlJudge{kind: judgeDiff, roles: []string{c.Queries[0].Role}}
		}
	default:
		return sqlJudge{why: "no shell judge for the oracle " + in.Oracle}
	}
	return sqlJudge{why: "the case lacks the queries of the oracle " + in.Oracle}
}

// write writes the judge and the lines that run it on the engines of run and exit.
func (j sqlJudge) write(b *strings.Builder, c *fuzz.Case, in fuzz.ReproInfo, run []string) {
	engines := strings.Join(run, " ")
	switch j.kind {
	case judgeNone:
		fmt.Fprintf(b, "\necho %s >&2\nexit 2\n", fuzz.ShellQuote("repro.sh: cannot judge: "+j.why+"; compare the answers above by hand, or run the replay line"))
		return
	case judgeDiff:
		b.WriteString("\n# diff: every engine must return the same rows, compared as sorted lines with numbers\n" +
			"# printed alike and Booleans as 1 and 0 (the oracle compares typed values; text that reads as a\n" +
			"# number or a Boolean may compare equal here where the oracle saw a difference).\n")
		b.WriteString(`norm() {
	awk -F'|' -v OFS='|' -v e="$1" '{
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/) $i = sprintf("%.15g", $i)
			else if (e == "postgres" && ($i == "t" || $i == "f")) $i = ($i == "t") ? 1 : 0
			else if (e == "duckdb" && ($i == "true" || $i == "false")) $i = ($i == "true") ? 1 : 0
		}
		print
	}'
}
`)
		fmt.Fprintf(b, "first=\nsame=1\nfor e in %s; do\n", engines)
		b.WriteString("\tran \"$e\" || cannot \"$e did not answer every query (see above)\"\n")
		fmt.Fprintf(b, "\tsec \"$e\" %s | norm \"$e\" | LC_ALL=C sort >\"$tmp/$e.rows\"\n", fuzz.ShellQuote(j.roles[0]))
		b.WriteString("\tif [ -z \"$first\" ]; then first=$e; continue; fi\n")
		b.WriteString("\tif ! cmp -s \"$tmp/$first.rows\" \"$tmp/$e.rows\"; then\n" +
			"\t\techo \"repro.sh: $e returns other rows than $first (< $first, > $e):\"\n" +
			"\t\tdiff \"$tmp/$first.rows\" \"$tmp/$e.rows\" | grep '^[<>]' | head -n 10\n\t\tsame=0\n\tfi\ndone\n")
		b.WriteString("if [ \"$same\" = 0 ]; then echo \"repro.sh: the bug reproduces\"; exit 0; fi\n" +
			"echo \"repro.sh: the bug does not reproduce: every engine returns the same rows\"\nexit 1\n")
		return
	case judgeDQP:
		b.WriteString("\n# dqp: the query must return the same rows (as sorted lines) under the default plan and under\n# the plan variant.\n")
		fmt.Fprintf(b, "res=1\nfor e in %s; do\n", engines)
		b.WriteString("\tran \"$e\" || cannot \"$e did not answer every query (see above)\"\n")
		fmt.Fprintf(b, "\tsec \"$e\" %s | LC_ALL=C sort >\"$tmp/$e.base\"\n\tsec \"$e\" %s | LC_ALL=C sort >\"$tmp/$e.plan\"\n",
			fuzz.ShellQuote(j.roles[0]), fuzz.ShellQuote(j.roles[1]))
		b.WriteString("\tif ! cmp -s \"$tmp/$e.base\" \"$tmp/$e.plan\"; then\n" +
			"\t\techo \"repro.sh: on $e the plan variant returns other rows (< default plan, > variant):\"\n" +
			"\t\tdiff \"$tmp/$e.base\" \"$tmp/$e.plan\" | grep '^[<>]' | head -n 10\n\t\tres=0\n\tfi\ndone\n")
		b.WriteString("if [ \"$res\" = 0 ]; then echo \"repro.sh: the bug reproduces\"; exit 0; fi\n" +
			"echo \"repro.sh: the bug does not reproduce: both plans return the same rows\"\nexit 1\n")
		return
	case judgeError:
		b.WriteString("\n# error: the engine crashed (killed by a signal, or its server lost), hung, or printed the\n# recorded error message.\njudge() {\n")
		b.WriteString("\tlocal st; st=$(cat \"$tmp/$1.status\")\n")
		switch in.Kind {
		case fuzz.KindCrash:
			b.WriteString("\tif [ \"$st\" -ge 128 ] && [ \"$st\" != 124 ]; then echo \"$1: killed by signal $((st - 128))\"; return 0; fi\n")
			b.WriteString("\tif grep -qiE 'lost connection|gone away|server closed the connection|terminating connection|connection .* (reset|closed)' \"$tmp/$1.err\"; then echo \"$1: the server went away\"; return 0; fi\n")
			b.WriteString("\techo \"$1: exit status $st, no crash\"; return 1\n")
		case fuzz.KindHang:
			b.WriteString("\tif [ \"$st\" = 124 ]; then echo \"$1: still running after its time limit\"; return 0; fi\n")
			b.WriteString("\techo \"$1: finished in time (exit status $st)\"; return 1\n")
		default:
			if j.msg == "" {
				b.WriteString("\techo \"$1: the finding recorded no message to look for\"; return 2\n")
			} else {
				fmt.Fprintf(b, "\tif grep -qF -- %s \"$tmp/$1.out\" \"$tmp/$1.err\"; then echo \"$1: the error is back\"; return 0; fi\n", fuzz.ShellQuote(j.msg))
				fmt.Fprintf(b, "\techo \"$1: no error %s\"; return 1\n", strings.ReplaceAll(fuzz.ShellQuote(j.msg), `"`, `\"`))
			}
		}
		b.WriteString("}\n")
		fmt.Fprintf(b, "res=1\nfor e in %s; do\n\tjudge \"$e\"\n\tcase $? in\n\t0) echo \"repro.sh: the bug reproduces on $e\"; exit 0 ;;\n\t2) res=2 ;;\n\tesac\ndone\n", engines)
		b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce\"\nexit \"$res\"\n")
		return
	case judgeNoREC:
		b.WriteString("\n# norec: the count of the optimized query must equal the sum of the unoptimized one.\njudge() {\n\tlocal n opt unopt\n")
		if j.roles[0] == RoleNoRECOptCount {
			fmt.Fprintf(b, "\tn=$(sec \"$1\" %s | wc -l)\n\t[ \"$n\" = 1 ] || { echo \"$1: the count query returned $n rows\"; return 0; }\n", j.roles[0])
			fmt.Fprintf(b, "\topt=$(sec \"$1\" %s)\n", j.roles[0])
		} else {
			fmt.Fprintf(b, "\topt=$(sec \"$1\" %s | wc -l)\n", j.roles[0])
		}
		fmt.Fprintf(b, "\tn=$(sec \"$1\" %s | wc -l)\n\t[ \"$n\" = 1 ] || { echo \"$1: the sum query returned $n rows\"; return 0; }\n", j.roles[1])
		fmt.Fprintf(b, "\tunopt=$(sec \"$1\" %s)\n\t[ \"$unopt\" = NULL ] && unopt=0\n", j.roles[1])
		b.WriteString("\techo \"$1: the optimized query counts $opt rows, the unoptimized query $unopt\"\n")
		b.WriteString("\tawk -v a=\"$opt\" -v b=\"$unopt\" 'BEGIN { exit (a + 0 == b + 0) }'\n}\n")
	case judgeTLP:
		r := make([]string, 4)
		for i, role := range j.roles {
			r[i] = fuzz.ShellQuote(role)
		}
		if j.set {
			b.WriteString("\n# " + in.Oracle + ": the original query's rows must be distinct and, as a set, the partitions' rows.\n" +
				"# (The oracle skips a group whose representative an engine may pick from members that differ only\n" +
				"# in case, trailing spaces or numeric form; this script does not.)\n")
		} else {
			b.WriteString("\n# " + in.Oracle + ": the original query's rows must be, as a multiset, the partitions' rows.\n")
		}
		b.WriteString("judge() {\n")
		fmt.Fprintf(b, "\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/orig\"\n", r[0])
		fmt.Fprintf(b, "\t{ sec \"$1\" %s; sec \"$1\" %s; sec \"$1\" %s; } | LC_ALL=C sort >\"$tmp/parts\"\n", r[1], r[2], r[3])
		if j.set {
			b.WriteString("\tif [ -n \"$(uniq -d \"$tmp/orig\")\" ]; then echo \"$1: the original query returns repeated rows:\"; uniq -d \"$tmp/orig\" | head -n 3; return 0; fi\n")
			b.WriteString("\tLC_ALL=C sort -u -o \"$tmp/parts\" \"$tmp/parts\"\n")
		}
		b.WriteString("\tif cmp -s \"$tmp/orig\" \"$tmp/parts\"; then echo \"$1: the partitions give the $(wc -l <\"$tmp/orig\") rows of the original query\"; return 1; fi\n")
		b.WriteString("\techo \"$1: the partitions' rows differ from the original rows (< missing from the partitions, > added by them):\"\n")
		b.WriteString("\tdiff \"$tmp/orig\" \"$tmp/parts\" | grep '^[<>]' | head -n 10\n\treturn 0\n}\n")
	case judgeSame:
		b.WriteString("\n# eet: the original and the rewritten query (or the table after the original and after the\n" +
			"# rewritten statement) must return the same rows, as a multiset.\njudge() {\n")
		fmt.Fprintf(b, "\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/orig\"\n\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/trans\"\n",
			fuzz.ShellQuote(j.roles[0]), fuzz.ShellQuote(j.roles[1]))
		b.WriteString("\tif cmp -s \"$tmp/orig\" \"$tmp/trans\"; then echo \"$1: both return the same $(wc -l <\"$tmp/orig\") rows\"; return 1; fi\n")
		b.WriteString("\techo \"$1: the rewritten form returns other rows (< original, > rewritten):\"\n")
		b.WriteString("\tdiff \"$tmp/orig\" \"$tmp/trans\" | grep '^[<>]' | head -n 10\n\treturn 0\n}\n")
	case judgeDQE:
		r := make([]string, 4)
		for i, role := range j.roles {
			r[i] = fuzz.ShellQuote(role)
		}
		b.WriteString("\n# dqe: the rows the SELECT returns, the rows the UPDATE marked and the rows the DELETE removed\n" +
			"# (the rows before it less the rows after it) must be the same multiset, and the DELETE adds no row.\njudge() {\n")
		fmt.Fprintf(b, "\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/sel\"\n\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/upd\"\n", r[0], r[1])
		fmt.Fprintf(b, "\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/all\"\n\tsec \"$1\" %s | LC_ALL=C sort >\"$tmp/rem\"\n", r[2], r[3])
		b.WriteString("\tLC_ALL=C comm -23 \"$tmp/all\" \"$tmp/rem\" >\"$tmp/del\"\n\tlocal res=1\n")
		b.WriteString("\tif [ -n \"$(LC_ALL=C comm -13 \"$tmp/all\" \"$tmp/rem\")\" ]; then echo \"$1: the DELETE added rows:\"; " +
			"LC_ALL=C comm -13 \"$tmp/all\" \"$tmp/rem\" | head -n 10; res=0; fi\n")
		b.WriteString("\tif ! cmp -s \"$tmp/sel\" \"$tmp/upd\"; then echo \"$1: the UPDATE marked other rows than the SELECT returns (< SELECT, > UPDATE):\"; " +
			"diff \"$tmp/sel\" \"$tmp/upd\" | grep '^[<>]' | head -n 10; res=0; fi\n")
		b.WriteString("\tif ! cmp -s \"$tmp/sel\" \"$tmp/del\"; then echo \"$1: the DELETE removed other rows than the SELECT returns (< SELECT, > DELETE):\"; " +
			"diff \"$tmp/sel\" \"$tmp/del\" | grep '^[<>]' | head -n 10; res=0; fi\n")
		b.WriteString("\t[ \"$res\" = 1 ] && echo \"$1: the SELECT, the UPDATE and the DELETE touch the same $(wc -l <\"$tmp/sel\") rows\"\n\treturn $res\n}\n")
	case judgePQS:
		b.WriteString("\n# pqs: while the pivot row exists (the pivot query returns it), the containment query must return\n# it too.\njudge() {\n")
		fmt.Fprintf(b, "\tif [ -z \"$(sec \"$1\" %s)\" ]; then echo \"$1: the pivot row is not in the tables: the case does not test it\"; return 2; fi\n", fuzz.ShellQuote(j.roles[0]))
		fmt.Fprintf(b, "\tif [ -n \"$(sec \"$1\" %s)\" ]; then echo \"$1: the rectified query fetches the pivot row\"; return 1; fi\n", fuzz.ShellQuote(j.roles[1]))
		b.WriteString("\techo \"$1: the rectified query misses the pivot row\"\n\treturn 0\n}\n")
	case judgeAgg:
		b.WriteString("\n# tlp-agg: the " + j.agg + " of the original query must be composed from the partitions' as the oracle\n" +
			"# does; a sum that is not whole (float sums depend on the order of addition) is not judged here.\n")
		r := fuzz.TLPAgg.Roles()
		fmt.Fprintf(b, "judge() {\n\tlocal r n\n\tfor r in %s; do\n", strings.Join(r, " "))
		b.WriteString("\t\tn=$(sec \"$1\" \"$r\" | wc -l)\n\t\t[ \"$n\" = 1 ] || { echo \"$1: $r returned $n rows, not one\"; return 0; }\n\tdone\n")
		fmt.Fprintf(b, "\t{ sec \"$1\" %s; sec \"$1\" %s; sec \"$1\" %s; sec \"$1\" %s; } | awk -F'|' -v agg=%s -v e=\"$1\" '%s'\n}\n", r[0], r[1], r[2], r[3], j.agg, aggJudge)
	}
	fmt.Fprintf(b, "res=1\nfor e in %s; do\n", engines)
	b.WriteString("\tif ! ran \"$e\"; then echo \"repro.sh: $e did not answer every query of the relation (see above)\" >&2; res=2; continue; fi\n")
	b.WriteString("\tjudge \"$e\"\n\tcase $? in\n\t0) echo \"repro.sh: the bug reproduces on $e\"; exit 0 ;;\n\t2) res=2 ;;\n\tesac\ndone\n")
	b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce\"\nexit \"$res\"\n")
}

// aggJudge is the awk program that judges one engine's aggregates: the original's line, then
// the partitions' (value, or sum and count for SUM and AVG); exit 0 when they do not compose as
// the oracle requires, 1 when they do, 2 when this cannot be judged faithfully.
const aggJudge = `function null(v) { return v == "NULL" }
function whole(v) { return v ~ /^-?[0-9]+$/ && length(v) <= 15 }
function num(v) { return v ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function loose(v) { gsub(/^x?\047|\047$/, "", v); sub(/ +$/, "", v); return tolower(v) }
function say(s) { print e ": " s }
{ v[NR] = $1; c[NR] = $2 }
END {
	o = v[1]
	parts = v[2] ", " v[3] ", " v[4]
	if (agg == "COUNT") {
		for (i = 1; i <= 4; i++) if (!whole(v[i])) { say("count " v[i] " is not a count"); exit 0 }
		got = v[2] + v[3] + v[4]
		say("count " o " from the original query; the partitions count " parts ", together " got)
		exit (o + 0 == got)
	}
	if (agg == "SUM") {
		for (i = 1; i <= 4; i++) if (null(v[i]) && c[i] + 0 > 0) { say("a NULL sum of " c[i] " values (a NaN): not judged"); exit 2 }
		alln = null(v[2]) && null(v[3]) && null(v[4])
		if (null(o) != alln) { say("sum " o " from the original query; the partitions sum " parts); exit 0 }
		if (alln) { say("every sum is NULL"); exit 1 }
		for (i = 1; i <= 4; i++) if (!null(v[i]) && !whole(v[i])) { say("sum " v[i] " is not whole: not judged"); exit 2 }
		got = 0
		for (i = 2; i <= 4; i++) if (!null(v[i])) got += v[i]
		say("sum " o " from the original query; the partitions sum " parts ", together " got)
		exit (o + 0 == got)
	}
	if (agg == "AVG") {
		n = 0; s = 0
		for (i = 2; i <= 4; i++) {
			if (!whole(c[i])) { say("count " c[i] " is not a count"); exit 0 }
			if (null(v[i]) && c[i] > 0) { say("a NULL sum of " c[i] " values (a NaN): not judged"); exit 2 }
			if (!null(v[i]) && !num(v[i])) { say("sum " v[i] " is not a number: not judged"); exit 2 }
			n += c[i]; if (!null(v[i])) s += v[i]
		}
		if (null(o) != (n == 0)) { say("avg " o " from the original query; the partitions count " n " values"); exit 0 }
		if (n == 0) { say("no values: every avg is NULL"); exit 1 }
		if (!num(o)) { say("avg " o " is not a number: not judged"); exit 2 }
		want = s / n; d = o - want; if (d < 0) d = -d
		m = want < 0 ? -want : want; if (m < 1) m = 1
		say("avg " o " from the original query; the partitions sum " s " over " n " values: " want)
		exit (d <= 0.001 * m)
	}
	k = 0
	for (i = 2; i <= 4; i++) if (!null(v[i])) w[++k] = v[i]
	if (null(o) != (k == 0)) { say(tolower(agg) " " o " from the original query; the partitions give " parts); exit 0 }
	if (k == 0) { say("every " tolower(agg) " is NULL"); exit 1 }
	allnum = num(o)
	for (i = 1; i <= k; i++) allnum = allnum && num(w[i])
	if (allnum) {
		best = w[1]
		for (i = 2; i <= k; i++) if (agg == "MIN" ? w[i] + 0 < best + 0 : w[i] + 0 > best + 0) best = w[i]
		say(tolower(agg) " " o " from the original query; the partitions give " parts ": " best)
		exit (o + 0 == best + 0)
	}
	for (i = 1; i <= k; i++) if (w[i] == o) { say(tolower(agg) " " o " is one of the partition values " parts); exit 1 }
	for (i = 1; i <= k; i++) if (loose(w[i]) == loose(o)) { say(tolower(agg) " " o " differs from " w[i] " in case or trailing spaces only: not judged"); exit 2 }
	say(tolower(agg) " " o " from the original query is none of the partition values " parts)
	exit 0
}`
