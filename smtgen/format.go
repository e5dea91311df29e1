package smtgen

import (
	"fmt"
	"regexp"
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

// Repro returns repro.sh: a bash script that writes the case to a temporary file, runs the
// solvers on it with the command lines the campaign used, prints each solver's version (warning
// on stderr when it is not the one the finding was recorded on) and answers, and judges them as
// the finding's oracle did. It exits 0 when the finding reproduces, 1 when it does not, 2 when it
// cannot tell, so that it can serve as ddSMT's or C-Reduce's interestingness test:
//
//   - sat: the instance is satisfiable by construction (the model in the case's comments
//     satisfies it), so an unsat answer of a blamed solver reproduces;
//   - diff: two solvers give contradicting answers (sat against unsat) at one check-sat;
//   - a crash (the solver killed by a signal), a hang (still running at twice the campaign's
//     timeout) or the recorded error message;
//   - model: whether the solver's model satisfies the assertions is judged by polyfuzz's
//     evaluator, not in a shell: the script runs the solvers and exits 2.
func (f Format) Repro(c *fuzz.Case, in fuzz.ReproInfo) []byte {
	var b strings.Builder
	fuzz.WriteReproHeader(&b, in.Header)
	b.WriteString("set -u\n" + fuzz.ReproHelpers)
	if in.Fault != "" {
		b.WriteString(in.PlantedExit())
		return []byte(b.String())
	}
	text := f.CaseText(c, in.Roles)
	delim := "POLYFUZZ_SMT2"
	for strings.Contains(string(text), delim) {
		delim += "_"
	}
	b.WriteString("case=\"$tmp/case.smt2\"\n")
	b.WriteString("cat >\"$case\" <<'" + delim + "'\n")
	b.Write(text)
	b.WriteString(delim + "\n")
	judge := smtJudgeFor(in)
	var run []int
	for i, s := range f.Solvers {
		if judge == "diff" || len(in.Blamed) == 0 || slices.Contains(in.Blamed, s.Name) {
			run = append(run, i)
		}
	}
	if len(run) == 0 {
		for i := range f.Solvers {
			run = append(run, i)
		}
	}
	if len(run) == 0 {
		b.WriteString("cannot 'the finding names no solver to run'\n")
		return []byte(b.String())
	}
	for _, i := range run {
		s := f.Solvers[i]
		exe, _, _ := strings.Cut(strings.TrimSpace(s.Cmd), " ")
		fmt.Fprintf(&b, "\n# %s\n", s.Name)
		fmt.Fprintf(&b, "command -v %s >/dev/null || cannot %s\n", fuzz.ShellQuote(exe), fuzz.ShellQuote(exe+" not found"))
		fmt.Fprintf(&b, "version %s %s \"$(%s --version </dev/null 2>&1 | head -n 1)\"\n", fuzz.ShellQuote(s.Name), fuzz.ShellQuote(in.Version(s.Name)), exe)
		fmt.Fprintf(&b, "limit %s %s <\"$case\" >\"$tmp/s%d.out\" 2>\"$tmp/s%d.err\"\necho $? >\"$tmp/s%d.status\"\n", in.ReproLimit(), s.Cmd, i, i, i)
		fmt.Fprintf(&b, "echo '== %s answers:'\ncat \"$tmp/s%d.out\"\ncat \"$tmp/s%d.err\" >&2\n", s.Name, i, i)
		fmt.Fprintf(&b, "grep -xE 'sat|unsat|unknown' \"$tmp/s%d.out\" >\"$tmp/s%d.ans\"\n", i, i)
	}
	names := make([]string, len(run))
	ids := make([]string, len(run))
	for k, i := range run {
		names[k], ids[k] = f.Solvers[i].Name, fmt.Sprintf("s%d", i)
	}
	fmt.Fprintf(&b, "ids=(%s)\nnames=(%s)\n", strings.Join(ids, " "), quoteAll(names))
	switch judge {
	case "sat":
		b.WriteString("\n# sat: the model in the case's comments satisfies the instance, so unsat is wrong.\nres=1\n")
		b.WriteString("for k in \"${!ids[@]}\"; do\n\ta=\"$tmp/${ids[$k]}.ans\"\n")
		b.WriteString("\tif grep -qx unsat \"$a\"; then echo \"repro.sh: ${names[$k]} answers unsat on a satisfiable instance: the bug reproduces\"; exit 0; fi\n")
		b.WriteString("\tif [ ! -s \"$a\" ]; then echo \"repro.sh: ${names[$k]} gave no answer (exit status $(cat \"$tmp/${ids[$k]}.status\"))\" >&2; res=2; fi\ndone\n")
		b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce: no unsat\"\nexit \"$res\"\n")
	case "diff":
		b.WriteString("\n# diff: the solvers' answers at each check-sat must not contradict (unknown agrees with anything).\n")
		b.WriteString("paste -d '|' $(for i in \"${ids[@]}\"; do echo \"$tmp/$i.ans\"; done) | awk -F'|' -v names=\"${names[*]}\" '\n" +
			"\tBEGIN { split(names, n, \" \") }\n" +
			"\t{ s = 0; u = 0; for (i = 1; i <= NF; i++) { if ($i == \"sat\") s = 1; if ($i == \"unsat\") u = 1 }\n" +
			"\t  if (s && u) { printf \"repro.sh: check-sat %d: \", NR; for (i = 1; i <= NF; i++) printf \"%s %s; \", n[i], $i; print \"the bug reproduces\"; bad = 1; exit } }\n" +
			"\tEND { exit bad ? 0 : 1 }'\n")
		b.WriteString("res=$?\nanswered=0\nfor i in \"${ids[@]}\"; do [ -s \"$tmp/$i.ans\" ] && answered=$((answered + 1)); done\n")
		b.WriteString("if [ \"$res\" = 1 ] && [ \"$answered\" -lt 2 ]; then cannot \"fewer than two solvers answered\"; fi\n")
		b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce: the answers agree\"\nexit \"$res\"\n")
	case "crash", "hang", "error":
		b.WriteString("\nres=1\nfor k in \"${!ids[@]}\"; do\n\tst=$(cat \"$tmp/${ids[$k]}.status\")\n")
		switch judge {
		case "crash":
			b.WriteString("\tif [ \"$st\" -ge 128 ] && [ \"$st\" != 124 ]; then echo \"repro.sh: ${names[$k]} was killed by signal $((st - 128)): the bug reproduces\"; exit 0; fi\n")
		case "hang":
			b.WriteString("\tif [ \"$st\" = 124 ]; then echo \"repro.sh: ${names[$k]} still ran at its time limit: the bug reproduces\"; exit 0; fi\n")
		default:
			msg := in.ErrorMessage(solverMessage)
			pattern := "-e '(error'"
			if msg != "" {
				pattern = "-F -- " + fuzz.ShellQuote(msg)
			}
			fmt.Fprintf(&b, "\tif grep -q %s \"$tmp/${ids[$k]}.out\" \"$tmp/${ids[$k]}.err\"; then echo \"repro.sh: ${names[$k]} reports the error again: the bug reproduces\"; exit 0; fi\n", pattern)
		}
		b.WriteString("done\necho \"repro.sh: the bug does not reproduce\"\nexit 1\n")
	default:
		fmt.Fprintf(&b, "\necho %s >&2\nexit 2\n", fuzz.ShellQuote("repro.sh: cannot judge: "+judgeWhy(in)+"; run the replay line above"))
	}
	return []byte(b.String())
}

// smtJudgeFor names the judge of a finding: "sat", "diff", "crash", "hang", "error", or "" when
// a shell cannot judge it.
func smtJudgeFor(in fuzz.ReproInfo) string {
	if j := in.KindJudge(); j != "" {
		return j
	}
	switch in.Oracle {
	case OracleSat, "diff":
		return in.Oracle
	}
	return ""
}

func judgeWhy(in fuzz.ReproInfo) string {
	if in.Oracle == OracleModel {
		return "whether a model satisfies the assertions is decided by polyfuzz's evaluator, not by a solver's output"
	}
	return "no shell judge for the oracle " + in.Oracle
}

// solverMessage removes from a solver's error message what changes when the case is reduced:
// the "(error" wrapper and the position ("line 2 column 17: ").
func solverMessage(msg string) string {
	return position.ReplaceAllString(strings.TrimPrefix(msg, "(error \""), "")
}

var position = regexp.MustCompile(`^line \d+ column \d+: `)

// quoteAll quotes each of ss for bash, separated by spaces.
func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fuzz.ShellQuote(s)
	}
	return strings.Join(q, " ")
}
