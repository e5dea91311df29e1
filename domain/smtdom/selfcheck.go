package smtdom

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/childproc"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

const selfcheckSynopsis = `usage: polyfuzz smt selfcheck [flags]

Generates random ground terms of every theory (or of --theory), evaluates each with polyfuzz's own
evaluator and asks every --solver for its value with get-value, and prints the counts of agreement
and the disagreements. Exits 1 when a solver and the evaluator disagree.`

// selfcheck is "polyfuzz smt selfcheck".
func selfcheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("smt selfcheck", selfcheckSynopsis, stdout, stderr)
	var solvers domain.List
	fs.Var(&solvers, "solver", "solver to compare with, repeatable: "+strings.Join(smtproc.Presets(), ", ")+" (default z3 and cvc5)")
	theory := fs.String("theory", "", "one theory of "+strings.Join(smtgen.Theories, ", ")+" (default: all)")
	n := fs.Int("terms", 10000, "random ground terms per theory and solver")
	seed := domain.Seed{Value: 1, Given: true}
	fs.Var(&seed, "seed", "random seed of the terms (default 1)")
	timeout := fs.Duration("timeout", time.Minute, "time limit for one batch of terms on a solver")
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	if err := fs.NoArgs(); err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	if len(solvers) == 0 {
		solvers = []string{"z3", "cvc5"}
	}
	theories := smtgen.Theories
	if *theory != "" {
		theories = []string{*theory}
	}
	code := 0
	for _, name := range solvers {
		engine, version, _ := strings.Cut(name, "@") // z3@5.4.1: a PyPI wheel's solver
		o, err := solverOptions(domain.Spec{Engine: engine, Version: version, Timeout: *timeout})
		if err == nil {
			var t *smtproc.Target // start one to check the binary and learn its version
			if t, err = smtproc.New(o); err == nil {
				o.Name += " " + t.Version()
				t.Close()
			}
		}
		if err != nil {
			return fs.Fail(domain.ExitFailure, "%v", err)
		}
		// The solver reads each batch as a whole script in a process of its own, which keeps the
		// answers to the get-values after an error in place.
		ask := func(ctx context.Context, script string) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			cmd := exec.Command(o.Command[0], o.Command[1:]...)
			cmd.Stdin = strings.NewReader(script)
			var out strings.Builder
			cmd.Stdout = &out
			_, err := childproc.Run(ctx, cmd) // killed with its group on the timeout, and with polyfuzz
			if ctx.Err() != nil {
				return "", fmt.Errorf("%s ran over %s on a batch of terms", o.Name, *timeout)
			}
			if err != nil {
				return "", err
			}
			return out.String(), nil // cvc5 exits non-zero after an error; its output still counts
		}
		for _, th := range theories {
			rep, err := smtgen.SelfCheck(ctx, th, *n, int64(seed.Value), ask)
			if err != nil {
				return fs.Fail(domain.ExitFailure, "%s %s: %v", o.Name, th, err)
			}
			fmt.Fprintf(stdout, "%s: %s\n", o.Name, rep)
			if rep.Disagreed > 0 {
				code = 1
			}
		}
	}
	return code
}
