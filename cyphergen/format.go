package cyphergen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Format prints graph cases for people and for a finding's repro.sh: a Cypher script with the
// setup statements and then each query under a comment naming its role ([ParseScript] reads it
// back), and a script that runs it on every engine with `polyfuzz graph run`.
type Format struct {
	// Engines are the engines the case ran on, in order; a server engine is given to
	// `polyfuzz graph run` as NAME and takes its URL from the environment variable Env[NAME].
	Engines []string
	Env     map[string]string
}

// Ext returns ".cypher".
func (Format) Ext() string { return ".cypher" }

// rolePrefix starts the comment line that names a query's role in a case script.
const rolePrefix = "// ---- "

// CaseText prints the setup statements, one per line ended by ';', then the queries of the
// given roles (all when roles is nil), each after a comment line naming its role.
func (Format) CaseText(c *fuzz.Case, roles []string) []byte {
	var b strings.Builder
	b.WriteString(rolePrefix + "setup\n")
	for _, s := range c.Setup {
		b.WriteString(s + ";\n")
	}
	for _, q := range c.Queries {
		if len(roles) > 0 && !slices.Contains(roles, q.Role) {
			continue
		}
		fmt.Fprintf(&b, "%s%s\n%s;\n", rolePrefix, q.Role, q.Text)
	}
	return []byte(b.String())
}

// ParseScript reads a case script as CaseText prints it: the statements after "// ---- setup"
// are the setup, each later "// ---- ROLE" line starts a query of that role. Statements end with
// ';' at the end of a line. Text before the first role line is setup too.
func ParseScript(text string) (setup []string, queries []fuzz.Query) {
	role := "setup"
	var cur strings.Builder
	flush := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		if s == "" {
			return
		}
		if role == "setup" {
			setup = append(setup, s)
		} else {
			queries = append(queries, fuzz.Query{Role: role, Text: s})
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if r, ok := strings.CutPrefix(line, rolePrefix); ok {
			flush()
			role = strings.TrimSpace(r)
			continue
		}
		t := strings.TrimRight(line, " \t\r")
		if s, ok := strings.CutSuffix(t, ";"); ok {
			cur.WriteString(s + "\n")
			flush()
			continue
		}
		cur.WriteString(t + "\n")
	}
	flush()
	return setup, queries
}

// Repro returns repro.sh: a bash script that saves the case and runs it with `polyfuzz graph run`
// ($POLYFUZZ names the binary; neither cypher-shell nor redis-cli is at hand, and redis-cli would
// print FalkorDB's compact replies raw) on the engines, each server engine at the URL its
// environment variable holds, prints each engine's rows (and Neo4j's version, warning on stderr
// when it is not the one the finding was recorded on), and judges the finding as its oracle did:
//
//   - diff: every engine that answers must return the same rows (as sorted canonical lines);
//   - tlp-where (partitioning): on each blamed engine the original query's rows must be, as a
//     multiset, the rows of its three partitions;
//   - genie and grev: on each blamed engine the rewrite's rows must equal, contain or be contained
//     in the query's, as its role says;
//   - a crash or an error whose recorded message is printed again, a hang (a timeout).
//
// It exits 0 when the finding reproduces, 1 when it does not, 2 when it cannot tell (no polyfuzz,
// an engine's URL unset, an engine that did not answer, a planted fault).
func (f Format) Repro(c *fuzz.Case, in fuzz.ReproInfo) []byte {
	var b strings.Builder
	fuzz.WriteReproHeader(&b, in.Header)
	b.WriteString("set -u\n" + fuzz.ReproHelpers)
	if in.Fault != "" {
		b.WriteString(in.PlantedExit())
		return []byte(b.String())
	}
	roles := in.Roles
	judge := graphJudgeFor(in)
	if judge == "crash" || judge == "hang" || judge == "error" {
		roles = nil
	}
	b.WriteString("cd \"$tmp\" || exit 2\npf=${POLYFUZZ:-polyfuzz}\n")
	b.WriteString("command -v \"$pf\" >/dev/null || cannot \"$pf not found: the case runs with 'polyfuzz graph run' (set POLYFUZZ)\"\n")
	fmt.Fprintf(&b, "cat > case.cypher <<'POLYFUZZ_EOF'\n%sPOLYFUZZ_EOF\n", Format{}.CaseText(c, roles))
	b.WriteString("# rows ENGINE ROLE prints ENGINE's rows for the query of ROLE, sorted; nothing when it did not answer.\n")
	b.WriteString("rows() { awk -v r=\"== $2\" '$0 == r { on = 1; head = 1; next } /^== / { on = 0 } on && head { head = 0; next } on && /^\\([0-9]+ rows\\)$/ { on = 0 } on' \"$tmp/$1.out\" | LC_ALL=C sort; }\n")
	b.WriteString("# answered ENGINE ROLE says whether ENGINE printed a row count for ROLE.\n")
	b.WriteString("answered() { awk -v r=\"== $2\" '$0 == r { on = 1; next } /^== / { on = 0 } on && /^\\([0-9]+ rows\\)$/ { ok = 1 } END { exit !ok }' \"$tmp/$1.out\"; }\n")
	engines := f.Engines
	if judge != "diff" {
		engines = in.BlamedOf(engines)
	}
	for _, e := range engines {
		arg := e
		if env := f.Env[e]; env != "" {
			fmt.Fprintf(&b, "[ -n \"${%s:-}\" ] || cannot %s\n", env, fuzz.ShellQuote("set "+env+" to "+e+"'s URL"))
			arg = fmt.Sprintf("%s=\"$%s\"", e, env)
			if e == "neo4j" {
				b.WriteString("printf '// ---- version\\nCALL dbms.components() YIELD versions RETURN versions[0] AS v;\\n' > version.cypher\n")
				fmt.Fprintf(&b, "version neo4j %s \"$(\"$pf\" graph run --engine %s version.cypher 2>&1 | sed -n 3p)\"\n", fuzz.ShellQuote(in.Version(e)), arg)
			}
		}
		fmt.Fprintf(&b, "echo '== %s'\nlimit %s \"$pf\" graph run --engine %s case.cypher >\"$tmp/%s.out\" 2>&1\necho $? >\"$tmp/%s.status\"\ncat \"$tmp/%s.out\"\n",
			e, in.ReproLimit(), arg, e, e, e)
	}
	b.WriteString("\n")
	list := strings.Join(engines, " ")
	switch judge {
	case "diff":
		role := ""
		for _, r := range in.Roles {
			if _, ok := c.Query(r); ok {
				role = r
				break
			}
		}
		if role == "" && len(c.Queries) > 0 {
			role = c.Queries[0].Role
		}
		fmt.Fprintf(&b, "# diff: every engine that answers must return the same rows for %s.\nfirst=\nsame=1\nn=0\nfor e in %s; do\n", role, list)
		fmt.Fprintf(&b, "\tanswered \"$e\" %s || { echo \"repro.sh: $e did not answer\" >&2; continue; }\n", fuzz.ShellQuote(role))
		fmt.Fprintf(&b, "\trows \"$e\" %s >\"$tmp/$e.rows\"\n\tn=$((n + 1))\n\tif [ -z \"$first\" ]; then first=$e; continue; fi\n", fuzz.ShellQuote(role))
		b.WriteString("\tif ! cmp -s \"$tmp/$first.rows\" \"$tmp/$e.rows\"; then\n\t\techo \"repro.sh: $e returns other rows than $first (< $first only, > $e only):\"\n" +
			"\t\tdiff \"$tmp/$first.rows\" \"$tmp/$e.rows\" | grep '^[<>]' | head -n 10\n\t\tsame=0\n\tfi\ndone\n")
		b.WriteString("[ \"$n\" -ge 2 ] || cannot \"fewer than two engines answered\"\n")
		b.WriteString("if [ \"$same\" = 0 ]; then echo \"repro.sh: the bug reproduces\"; exit 0; fi\necho \"repro.sh: the bug does not reproduce: the engines return the same rows\"\nexit 1\n")
	case "tlp":
		b.WriteString("# tlp-where: the original query's rows must be, as a multiset, its partitions' rows.\nres=1\n")
		r := fuzz.TLPWhere.Roles()
		fmt.Fprintf(&b, "for e in %s; do\n\tok=1\n\tfor r in %s; do answered \"$e\" \"$r\" || ok=0; done\n", list, strings.Join(r, " "))
		b.WriteString("\tif [ \"$ok\" = 0 ]; then echo \"repro.sh: $e did not answer every query\" >&2; res=2; continue; fi\n")
		fmt.Fprintf(&b, "\trows \"$e\" %s >\"$tmp/orig\"\n\t{ rows \"$e\" %s; rows \"$e\" %s; rows \"$e\" %s; } | LC_ALL=C sort >\"$tmp/parts\"\n", r[0], r[1], r[2], r[3])
		b.WriteString("\tif ! cmp -s \"$tmp/orig\" \"$tmp/parts\"; then\n\t\techo \"repro.sh: on $e the partitions' rows differ from the original rows (< missing from the partitions, > added by them):\"\n" +
			"\t\tdiff \"$tmp/orig\" \"$tmp/parts\" | grep '^[<>]' | head -n 10\n\t\techo \"repro.sh: the bug reproduces on $e\"; exit 0\n\tfi\ndone\n")
		b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce: the partitions give the original rows\"\nexit \"$res\"\n")
	case "rewrite":
		rewriteRepro(&b, in, list)
	case "crash", "hang", "error":
		msg, _, _ := strings.Cut(in.Actual, "\n")
		if m, ok := strings.CutSuffix(msg, " (in the query)"); ok {
			msg = m
		}
		if len(msg) > 60 {
			msg = strings.ToValidUTF8(msg[:60], "")
		}
		fmt.Fprintf(&b, "for e in %s; do\n", list)
		if judge == "hang" {
			b.WriteString("\tif [ \"$(cat \"$tmp/$e.status\")\" = 124 ] || grep -qiE 'timeout|timed out' \"$tmp/$e.out\"; then echo \"repro.sh: $e ran over its time: the bug reproduces\"; exit 0; fi\n")
		} else if msg != "" {
			fmt.Fprintf(&b, "\tif grep -qF -- %s \"$tmp/$e.out\"; then echo \"repro.sh: $e fails as recorded: the bug reproduces\"; exit 0; fi\n", fuzz.ShellQuote(msg))
		} else {
			b.WriteString("\tcannot 'the finding recorded no message to look for'\n")
		}
		b.WriteString("done\necho \"repro.sh: the bug does not reproduce\"\nexit 1\n")
	default:
		fmt.Fprintf(&b, "echo %s >&2\nexit 2\n", fuzz.ShellQuote("repro.sh: cannot judge: no shell judge for the oracle "+in.Oracle+"; run the replay line above"))
	}
	return []byte(b.String())
}

// graphJudgeFor names the judge of a finding: "diff", "tlp", "rewrite", "crash", "hang", "error", or "" when
// there is none.
func graphJudgeFor(in fuzz.ReproInfo) string {
	if j := in.KindJudge(); j != "" {
		return j
	}
	switch in.Oracle {
	case "diff":
		return "diff"
	case "tlp-where":
		return "tlp"
	case "genie", "grev":
		return "rewrite"
	}
	return ""
}

// ShowValue prints a canonical graph value (cypherval's Canon text) in Cypher's notation, for a
// finding's expected and actual lines: null, true, 3, 1.0 (a whole float keeps its point), 'it\'s',
// [1, 'a'], {k: 1}, a node as (:L0:L2 {id: 104, k0: 'x'}), a relationship as [:T2 {id: 163}], a
// path as (:A {id: 1})-[:T {id: 2}]-(:B {id: 3}). Canonical text does not escape strings, so a
// string holding ", k: " or a closing bracket may be cut at the wrong place; text that does not
// read as a canonical value is returned as it is. The domain wiring sets it on the oracles as
// oracles.Display{Value: cyphergen.ShowValue}.
func ShowValue(v string) string {
	// Where a string ends is a guess; a wrong guess fails later, and the next guess is tried, in
	// depth-first order over the strings' possible ends, a bounded number of times.
	p := &canonReader{s: v}
	for attempt := 0; attempt < 256; attempt++ {
		p.i, p.str = 0, 0
		var b strings.Builder
		if p.value(&b, stopTop) && p.i == len(p.s) {
			return b.String()
		}
		if !p.next() {
			break
		}
	}
	return v
}

// stopKind says where a string value of canonical text ends: what may follow it.
type stopKind int

const (
	stopTop  stopKind = iota // the end of the text
	stopList                 // ", " and another value, or "]"
	stopMap                  // ", key: " or "}"
	stopPath                 // ", " and an element, or ">"
)

// canonReader reads canonical graph values (cypherval.Val.Canon) from s at i. The k-th string
// read takes the choice[k]-th of its possible ends (cands[k] of them).
type canonReader struct {
	s      string
	i      int
	str    int
	choice []int
	cands  []int
}

// next moves to the next combination of string ends to try; false when all were tried.
func (p *canonReader) next() bool {
	n := min(p.str, len(p.choice))
	for k := n - 1; k >= 0; k-- {
		if p.choice[k]+1 < p.cands[k] {
			p.choice[k]++
			p.choice, p.cands = p.choice[:k+1], p.cands[:k+1]
			return true
		}
	}
	return false
}

func (p *canonReader) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

// value reads one value and writes it in Cypher's notation; stop says where a string ends.
func (p *canonReader) value(b *strings.Builder, stop stopKind) bool {
	switch {
	case p.eat("NULL"):
		b.WriteString("null")
	case p.eat("B:"):
		switch {
		case p.eat("true"):
			b.WriteString("true")
		case p.eat("false"):
			b.WriteString("false")
		default:
			return false
		}
	case p.eat("i:"), p.eat("d:"):
		b.WriteString(p.number())
	case p.eat("r:"):
		f := p.number()
		switch {
		case f == "NaN", f == "-Inf":
			b.WriteString(strings.Replace(f, "Inf", "Infinity", 1))
		case f == "+Inf":
			b.WriteString("Infinity")
		case strings.ContainsAny(f, ".e"):
			b.WriteString(f)
		default:
			b.WriteString(f + ".0")
		}
	case p.eat("t:"):
		end := p.stringEnd(stop)
		b.WriteString("'" + cypherQuoter.Replace(p.s[p.i:end]) + "'")
		p.i = end
	case p.eat("l:["):
		b.WriteString("[")
		if !p.seq(b, "]", stopList, p.value) {
			return false
		}
		b.WriteString("]")
	case p.eat("m:"):
		return p.props(b, false)
	case p.eat("n:("):
		b.WriteString("(")
		if !p.labels(b) || !p.props(b, true) || !p.eat(")") {
			return false
		}
		b.WriteString(")")
	case p.eat("e:["):
		b.WriteString("[")
		if !p.labels(b) || !p.props(b, true) || !p.eat("]") {
			return false
		}
		b.WriteString("]")
	case p.eat("p:<"):
		first := true
		for !p.eat(">") {
			if !first && !p.eat(", ") {
				return false
			}
			if !first {
				b.WriteString("-")
			}
			first = false
			if !p.value(b, stopPath) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

var cypherQuoter = strings.NewReplacer(`\`, `\\`, `'`, `\'`)

// number reads the text of a number up to the next delimiter.
func (p *canonReader) number() string {
	j := p.i
	for j < len(p.s) && strings.IndexByte(",]}>) ", p.s[j]) < 0 {
		j++
	}
	n := p.s[p.i:j]
	p.i = j
	return n
}

// stringEnd returns where a string value starting at p.i ends: the first, second, ... place
// (as p.choice says for this string) where what follows may follow a string in its context.
func (p *canonReader) stringEnd(stop stopKind) int {
	s := p.s
	var ends []int
	for j := p.i; j < len(s); j++ {
		rest := s[j:]
		switch stop {
		case stopList:
			if rest[0] == ']' || strings.HasPrefix(rest, ", ") && startsValue(rest[2:]) {
				ends = append(ends, j)
			}
		case stopMap:
			if rest[0] == '}' || strings.HasPrefix(rest, ", ") && startsKey(rest[2:]) {
				ends = append(ends, j)
			}
		case stopPath:
			if rest[0] == '>' || strings.HasPrefix(rest, ", ") && startsValue(rest[2:]) {
				ends = append(ends, j)
			}
		}
	}
	ends = append(ends, len(s))
	k := p.str
	p.str++
	if k == len(p.choice) {
		p.choice, p.cands = append(p.choice, 0), append(p.cands, len(ends))
	}
	return ends[min(p.choice[k], len(ends)-1)]
}

// startsValue reports whether s starts with a canonical value's tag.
func startsValue(s string) bool {
	return strings.HasPrefix(s, "NULL") || len(s) >= 2 && s[1] == ':' && strings.IndexByte("Bidrtlmnep", s[0]) >= 0
}

// startsKey reports whether s starts with "key: ".
func startsKey(s string) bool {
	k, _, ok := strings.Cut(s, ": ")
	if !ok || k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// seq reads items separated by ", " up to close, writing them separated by ", ".
func (p *canonReader) seq(b *strings.Builder, close string, stop stopKind, item func(*strings.Builder, stopKind) bool) bool {
	for n := 0; !p.eat(close); n++ {
		if n > 0 {
			if !p.eat(", ") {
				return false
			}
			b.WriteString(", ")
		}
		if p.i >= len(p.s) || !item(b, stop) {
			return false
		}
	}
	return true
}

// labels reads ":L0:L1 " (labels and the space after them), or nothing.
func (p *canonReader) labels(b *strings.Builder) bool {
	if !strings.HasPrefix(p.s[p.i:], ":") {
		return true
	}
	j := strings.IndexByte(p.s[p.i:], ' ')
	if j < 0 {
		return false
	}
	b.WriteString(p.s[p.i : p.i+j+1])
	p.i += j + 1
	return true
}

// props reads a map "{k: v, ...}"; the empty properties of an element are not written (nor the
// space after its labels).
func (p *canonReader) props(b *strings.Builder, element bool) bool {
	if !p.eat("{") {
		return false
	}
	var m strings.Builder
	m.WriteString("{")
	ok := p.seq(&m, "}", stopMap, func(m *strings.Builder, stop stopKind) bool {
		k, _, found := strings.Cut(p.s[p.i:], ": ")
		if !found || !startsKey(p.s[p.i:]) {
			return false
		}
		m.WriteString(k + ": ")
		p.i += len(k) + 2
		return p.value(m, stop)
	})
	if !ok {
		return false
	}
	m.WriteString("}")
	text := m.String()
	if element && text == "{}" {
		if s := b.String(); strings.HasSuffix(s, " ") {
			b.Reset()
			b.WriteString(strings.TrimSuffix(s, " "))
		}
		return true
	}
	b.WriteString(text)
	return true
}
