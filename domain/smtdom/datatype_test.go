package smtdom

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// TestSelfCheckNewTheories compares the evaluator with the newest z3 (the z3-solver 5.4.1 wheel)
// on a few hundred random ground terms of each theory Debian's z3 cannot take (datatypes, SMT-LIB
// 2.7's overflow predicates): no disagreement, and most terms decided and answered.
func TestSelfCheckNewTheories(t *testing.T) {
	w := Wheels["z3"]
	if !pypi.Installed(w.Package, w.Version("5.4.1")) {
		testenv.Missing(t, fmt.Sprintf("%s==%s is not installed: polyfuzz bench install %s==%s", w.Package,
			w.Version("5.4.1"), w.Package, w.Version("5.4.1")))
		return
	}
	o, err := solverOptions(domain.Spec{Engine: "z3", Version: "5.4.1"})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(ctx context.Context, script string) (string, error) {
		cmd := exec.CommandContext(ctx, o.Command[0], o.Command[1:]...)
		cmd.Stdin = strings.NewReader(script)
		out, err := cmd.Output()
		if err != nil && len(out) == 0 {
			return "", err
		}
		return string(out), nil
	}
	for _, theory := range []string{"datatypes", "bv-overflow"} {
		t.Run(theory, func(t *testing.T) {
			rep, err := smtgen.SelfCheck(context.Background(), theory, 400, 1, ask)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(rep)
			for _, e := range rep.ErrorExamples {
				t.Log(e)
			}
			for _, d := range rep.Examples {
				t.Errorf("disagreement: %s: ours %s, z3 %s", d.Term, d.Ours, d.Solver)
			}
			if rep.Agreed < rep.Terms*9/10 {
				t.Errorf("only %d of %d terms agreed", rep.Agreed, rep.Terms)
			}
		})
	}
}
