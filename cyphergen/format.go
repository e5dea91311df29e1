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

// Repro writes a script that saves the case and runs it on every engine.
func (f Format) Repro(c *fuzz.Case, roles []string, header string) []byte {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n")
	for _, line := range strings.Split(header, "\n") {
		b.WriteString("# " + line + "\n")
	}
	b.WriteString("set -u\ncd \"$(mktemp -d)\"\n")
	fmt.Fprintf(&b, "cat > case.cypher <<'POLYFUZZ_EOF'\n%sPOLYFUZZ_EOF\n", Format{}.CaseText(c, roles))
	for _, e := range f.Engines {
		arg := e
		if env := f.Env[e]; env != "" {
			arg = fmt.Sprintf("%s=\"${%s:?set %s to the engine's URL}\"", e, env, env)
		}
		fmt.Fprintf(&b, "echo '== %s'\npolyfuzz graph run --engine %s case.cypher\n", e, arg)
	}
	return []byte(b.String())
}
