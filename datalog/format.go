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

// Repro returns repro.sh: a bash script that saves each program of the finding, runs it on the
// engines with their own command lines where the dialect is a [Scripter] (z3, swipl, clingo,
// souffle), printing each engine's version (warning on stderr when it is not the one the finding
// was recorded on) and answer, and judges the finding as its oracle did. The judge compares the
// answers `polyfuzz datalog run --engine NAME` decodes from each engine (the reference engine and
// the SQL engines run only there; $POLYFUZZ names the binary), as sets of facts:
//
//   - diff: every engine that answers must derive the same facts;
//   - metamorphic: on each blamed engine, the transformed program's facts must stand in the
//     case's relation (equal, subset, superset) to the original's;
//   - a crash (an engine's own command killed by a signal), a hang (still running at twice the
//     campaign's timeout) or the recorded error message.
//
// It exits 0 when the finding reproduces, 1 when it does not, 2 when it cannot tell (no polyfuzz
// to decode the answers, an engine that did not answer, a planted fault).
func (f Format) Repro(c *fuzz.Case, in fuzz.ReproInfo) []byte {
	var b strings.Builder
	fuzz.WriteReproHeader(&b, in.Header)
	b.WriteString("set -u\n" + fuzz.ReproHelpers)
	if in.Fault != "" {
		b.WriteString(in.PlantedExit())
		return []byte(b.String())
	}
	b.WriteString("cd \"$tmp\" || exit 2\npf=${POLYFUZZ:-polyfuzz}\n")
	b.WriteString("# run ENGINE BASE runs polyfuzz's decoding of ENGINE's answer to BASE.dl into $tmp/ENGINE.BASE.rows.\n")
	b.WriteString("run() {\n\tcommand -v \"$pf\" >/dev/null || cannot \"$pf not found: the answers are decoded by 'polyfuzz datalog run' (set POLYFUZZ)\"\n")
	fmt.Fprintf(&b, "\tlimit %s \"$pf\" datalog run --engine \"$1\" \"$2.dl\" >\"$tmp/$1.$2.out\" 2>&1\n", in.ReproLimit())
	b.WriteString("\techo $? >\"$tmp/$1.$2.status\"\n\tLC_ALL=C sort -u \"$tmp/$1.$2.out\" >\"$tmp/$1.$2.rows\"\n}\n")

	judge := dlJudgeFor(in)
	engines := f.Engines
	if judge != "diff" {
		engines = in.BlamedOf(engines)
	}
	versions := map[string]string{"muz": "z3", "swipl": "swipl", "clingo": `"${POLYFUZZ_PYTHON:-python3}" -m clingo`, "souffle": "souffle"}
	for _, e := range engines {
		if cmd := versions[e]; cmd != "" {
			exe, _, _ := strings.Cut(cmd, " ")
			fmt.Fprintf(&b, "command -v %s >/dev/null && version %s %s \"$(%s --version </dev/null 2>&1 | head -n 1)\"\n",
				exe, e, fuzz.ShellQuote(in.Version(e)), cmd)
		}
	}
	var bases []string
	roles := map[string]string{} // base -> role
	for i, q := range c.Queries {
		if len(in.Roles) > 0 && !slices.Contains(in.Roles, q.Role) && judge != "metamorphic" {
			continue
		}
		base := fmt.Sprintf("p%d", i)
		bases = append(bases, base)
		roles[base] = q.Role
		fmt.Fprintf(&b, "\n# %s%s\ncat > %s.dl <<'POLYFUZZ_EOF'\n%sPOLYFUZZ_EOF\n", q.Role, roleNote(c, q.Role), base, q.Text)
		for _, e := range engines {
			fmt.Fprintf(&b, "echo '== %s on %s'\n", q.Role, e)
			if cmd := ownCommand(f.Dialects[e], q.Text, base); cmd != "" && !strings.HasPrefix(cmd, "#") {
				fmt.Fprintf(&b, "cat >%s-%s.sh <<'POLYFUZZ_RUN'\n%sPOLYFUZZ_RUN\n", e, base, cmd)
				fmt.Fprintf(&b, "limit %s bash %s-%s.sh >\"$tmp/%s.%s.own\" 2>&1\necho $? >\"$tmp/%s.%s.ownstatus\"\ncat \"$tmp/%s.%s.own\"\n",
					in.ReproLimit(), e, base, e, base, e, base, e, base)
				if judge != "crash" && judge != "hang" {
					fmt.Fprintf(&b, "run %s %s\n", e, base)
				}
			} else {
				if cmd != "" {
					b.WriteString(cmd) // why the engine cannot run it
				}
				fmt.Fprintf(&b, "run %s %s\ncat \"$tmp/%s.%s.out\"\ncp \"$tmp/%s.%s.status\" \"$tmp/%s.%s.ownstatus\"\ncp \"$tmp/%s.%s.out\" \"$tmp/%s.%s.own\"\n",
					e, base, e, base, e, base, e, base, e, base, e, base)
			}
		}
	}
	b.WriteString("\n")
	switch judge {
	case "diff":
		if len(bases) == 0 {
			b.WriteString("cannot 'the case has no program'\n")
			break
		}
		base := bases[0]
		fmt.Fprintf(&b, "# diff: every engine that answers must derive the same facts from %s.\nfirst=\nsame=1\nanswered=0\n", roles[base])
		fmt.Fprintf(&b, "for e in %s; do\n", strings.Join(engines, " "))
		fmt.Fprintf(&b, "\tif [ \"$(cat \"$tmp/$e.%s.status\")\" != 0 ]; then echo \"repro.sh: $e did not answer\" >&2; continue; fi\n", base)
		b.WriteString("\tanswered=$((answered + 1))\n\tif [ -z \"$first\" ]; then first=$e; continue; fi\n")
		fmt.Fprintf(&b, "\tif ! cmp -s \"$tmp/$first.%s.rows\" \"$tmp/$e.%s.rows\"; then\n", base, base)
		fmt.Fprintf(&b, "\t\techo \"repro.sh: $e derives other facts than $first (< $first only, > $e only):\"\n\t\tdiff \"$tmp/$first.%s.rows\" \"$tmp/$e.%s.rows\" | grep '^[<>]' | head -n 10\n\t\tsame=0\n\tfi\ndone\n", base, base)
		b.WriteString("[ \"$answered\" -ge 2 ] || cannot \"fewer than two engines answered\"\n")
		b.WriteString("if [ \"$same\" = 0 ]; then echo \"repro.sh: the bug reproduces\"; exit 0; fi\necho \"repro.sh: the bug does not reproduce: the engines derive the same facts\"\nexit 1\n")
	case "metamorphic":
		var ob, tb string
		for _, base := range bases {
			switch roles[base] {
			case RoleOrig:
				ob = base
			case RoleTrans:
				tb = base
			}
		}
		rel := c.Params[ParamExpect]
		if ob == "" || tb == "" || (rel != "equal" && rel != "subset" && rel != "superset") {
			b.WriteString("cannot 'the case lacks the original or the transformed program, or their relation'\n")
			break
		}
		fmt.Fprintf(&b, "# metamorphic: the original's facts must be %s the transformed program's.\nres=1\n", map[string]string{
			"equal": "equal to", "subset": "a subset of", "superset": "a superset of"}[rel])
		fmt.Fprintf(&b, "for e in %s; do\n", strings.Join(engines, " "))
		fmt.Fprintf(&b, "\tif [ \"$(cat \"$tmp/$e.%s.status\")\" != 0 ] || [ \"$(cat \"$tmp/$e.%s.status\")\" != 0 ]; then echo \"repro.sh: $e did not answer both programs\" >&2; res=2; continue; fi\n", ob, tb)
		fmt.Fprintf(&b, "\tmiss=$(comm -23 \"$tmp/$e.%s.rows\" \"$tmp/$e.%s.rows\")\n\tadd=$(comm -13 \"$tmp/$e.%s.rows\" \"$tmp/$e.%s.rows\")\n", ob, tb, ob, tb)
		broken := map[string]string{"equal": `[ -n "$miss$add" ]`, "subset": `[ -n "$miss" ]`, "superset": `[ -n "$add" ]`}[rel]
		fmt.Fprintf(&b, "\tif %s; then\n\t\techo \"repro.sh: on $e the transformed program misses:\"; echo \"$miss\" | head -n 5\n\t\techo \"and adds:\"; echo \"$add\" | head -n 5\n\t\techo \"repro.sh: the bug reproduces on $e\"; exit 0\n\tfi\ndone\n", broken)
		b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce: the relation holds\"\nexit \"$res\"\n")
	case "crash", "hang", "error":
		b.WriteString("res=1\n")
		for _, base := range bases {
			for _, e := range engines {
				st := fmt.Sprintf("$(cat \"$tmp/%s.%s.ownstatus\")", e, base)
				switch judge {
				case "crash":
					fmt.Fprintf(&b, "st=%s\nif [ \"$st\" -ge 128 ] && [ \"$st\" != 124 ]; then echo \"repro.sh: %s was killed by signal $((st - 128)): the bug reproduces\"; exit 0; fi\n", st, e)
				case "hang":
					fmt.Fprintf(&b, "if [ %s = 124 ]; then echo \"repro.sh: %s still ran at its time limit: the bug reproduces\"; exit 0; fi\n", st, e)
				default:
					msg := in.ErrorMessage(nil)
					if msg == "" {
						b.WriteString("res=2\n")
						continue
					}
					fmt.Fprintf(&b, "if grep -qF -- %s \"$tmp/%s.%s.own\" \"$tmp/%s.%s.out\" 2>/dev/null; then echo \"repro.sh: %s reports the error again: the bug reproduces\"; exit 0; fi\n",
						fuzz.ShellQuote(msg), e, base, e, base, e)
				}
			}
		}
		b.WriteString("[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce\"\nexit \"$res\"\n")
	default:
		fmt.Fprintf(&b, "echo %s >&2\nexit 2\n", fuzz.ShellQuote("repro.sh: cannot judge: no shell judge for the oracle "+in.Oracle+"; run the replay line above"))
	}
	return []byte(b.String())
}

// dlJudgeFor names the judge of a finding: "diff", "metamorphic", "crash", "hang", "error", or ""
// when there is none.
func dlJudgeFor(in fuzz.ReproInfo) string {
	if j := in.KindJudge(); j != "" {
		return j
	}
	switch in.Oracle {
	case "diff", "metamorphic":
		return in.Oracle
	}
	return ""
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
