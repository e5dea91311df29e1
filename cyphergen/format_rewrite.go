package cyphergen

import (
	"fmt"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// rewriteRepro writes repro.sh's judge of a genie or grev finding: on each engine of list, the
// rows of the query (role orig) and of its rewrite (role trans) must stand in the rewrite's
// relation, as multisets of sorted lines (comm pairs equal lines one by one); the script exits
// 0 when one engine breaks it.
func rewriteRepro(b *strings.Builder, in fuzz.ReproInfo, list string) {
	orig, trans := RoleQuery, ""
	for _, r := range in.Roles {
		if r != RoleQuery {
			trans = r
		}
	}
	var checks []string // comm options whose output must be empty, with what a line of it means
	switch trans {
	case Genie.Role("super"):
		checks = []string{"-23 rows of the query missing from the rewrite"}
	case Genie.Role("sub"):
		checks = []string{"-13 rows the rewrite adds"}
	default:
		checks = []string{"-23 rows of the query missing from the rewrite", "-13 rows the rewrite adds"}
	}
	fmt.Fprintf(b, "# %s: the rows of %s must stand in the rewrite's relation to the rows of %s.\nres=1\n", in.Oracle, trans, orig)
	fmt.Fprintf(b, "for e in %s; do\n\tif ! answered \"$e\" %s || ! answered \"$e\" %s; then echo \"repro.sh: $e did not answer both queries\" >&2; res=2; continue; fi\n",
		list, fuzz.ShellQuote(orig), fuzz.ShellQuote(trans))
	fmt.Fprintf(b, "\trows \"$e\" %s >\"$tmp/orig\"\n\trows \"$e\" %s >\"$tmp/trans\"\n", fuzz.ShellQuote(orig), fuzz.ShellQuote(trans))
	for _, c := range checks {
		opt, what, _ := strings.Cut(c, " ")
		fmt.Fprintf(b, "\tif [ -n \"$(LC_ALL=C comm %s \"$tmp/orig\" \"$tmp/trans\")\" ]; then\n\t\techo \"repro.sh: on $e, %s:\"\n\t\tLC_ALL=C comm %s \"$tmp/orig\" \"$tmp/trans\" | head -n 10\n\t\techo \"repro.sh: the bug reproduces on $e\"; exit 0\n\tfi\n",
			opt, what, opt)
	}
	b.WriteString("done\n[ \"$res\" = 1 ] && echo \"repro.sh: the bug does not reproduce: the rewrite stands in its relation\"\nexit \"$res\"\n")
}
