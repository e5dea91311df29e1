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
	fs.Var(&seed, "seed", "random seed of the terms")
	timeout := fs.Duration("timeout", time.Minute, "time limit for one batch of terms on a solver")
	fpOp := fs.String("fp-op", "", "with --theory fp: only terms of this operation, one of "+strings.Join(smtgen.FPOps, ", ")+", or \"all\" for one line per operation and format")
	fpFormat := fs.String("fp-format", "", "with --fp-op: only this format, Float16, Float32, Float64, Float128 or (_ FloatingPoint e s) (default: Float16, Float32, Float64, (_ FloatingPoint 3 5))")
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
	fpPairs, err := fpSelfCheckPairs(*theory, *fpOp, *fpFormat)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
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
			if fpPairs != nil {
				break
			}
			a := ask
			if th == "fp" {
				a = fpAsk(engine, ask)
			}
			rep, err := smtgen.SelfCheck(ctx, th, *n, int64(seed.Value), a)
			if err != nil {
				return fs.Fail(domain.ExitFailure, "%s %s: %v", o.Name, th, err)
			}
			printSelfCheck(stdout, o.Name, rep)
			if rep.Disagreed > 0 {
				code = 1
			}
		}
		if c := fpSelfCheck(ctx, fpPairs, *n, int64(seed.Value), o.Name, fpAsk(engine, ask), stdout, stderr); c > code {
			code = c
		}
	}
	return code
}

// fpPair is one operation and format of the floating-point self-check.
type fpPair struct {
	op     string
	format *smtgen.Sort
}

// fpSelfCheckPairs returns the operation × format pairs that --fp-op and --fp-format select
// (nil when --fp-op is not given).
func fpSelfCheckPairs(theory, op, format string) ([]fpPair, error) {
	if op == "" {
		if format != "" {
			return nil, fmt.Errorf("--fp-format needs --fp-op (an operation, or all)")
		}
		return nil, nil
	}
	if theory != "" && theory != "fp" {
		return nil, fmt.Errorf("--fp-op needs --theory fp, not %s", theory)
	}
	formats := smtgen.FPFormats
	if format != "" {
		f, err := smtgen.ParseFPFormat(format)
		if err != nil {
			return nil, err
		}
		formats = []*smtgen.Sort{f}
	}
	ops := []string{op}
	if op == "all" {
		ops = smtgen.FPOps
	}
	var pairs []fpPair
	for _, o := range ops {
		for _, f := range formats {
			pairs = append(pairs, fpPair{o, f})
		}
	}
	return pairs, nil
}

// fpAsk returns ask with the options a solver needs for every floating-point format: cvc5
// supports formats other than Float32 and Float64 only with its option fp-exp.
func fpAsk(engine string, ask func(ctx context.Context, script string) (string, error)) func(ctx context.Context, script string) (string, error) {
	if engine != "cvc5" {
		return ask
	}
	return func(ctx context.Context, script string) (string, error) {
		return ask(ctx, "(set-option :fp-exp true)\n"+script)
	}
}

// fpSelfCheck runs the self-check of each pair on one solver and prints one line per pair; it
// returns 1 when a pair has a disagreement, ExitFailure when the self-check fails.
func fpSelfCheck(ctx context.Context, pairs []fpPair, n int, seed int64, solver string,
	ask func(ctx context.Context, script string) (string, error), stdout, stderr io.Writer) int {
	code := 0
	for _, p := range pairs {
		rep, err := smtgen.SelfCheckFP(ctx, p.op, p.format, n, seed, ask)
		if err != nil {
			fmt.Fprintf(stderr, "polyfuzz smt selfcheck: %s %s: %v\n", solver, smtgen.FPOpFormatName(p.op, p.format), err)
			return domain.ExitFailure
		}
		printSelfCheck(stdout, solver, rep)
		if rep.Disagreed > 0 {
			code = 1
		}
	}
	return code
}

// printSelfCheck prints a self-check report's line, its disagreements and up to three of its
// solver errors.
func printSelfCheck(w io.Writer, solver string, rep *smtgen.SelfCheckReport) {
	fmt.Fprintf(w, "%s: %s\n", solver, rep)
	for _, d := range rep.Examples {
		fmt.Fprintf(w, "  %s\n    ours %s, solver %s\n", d.Term, d.Ours, d.Solver)
	}
	for _, e := range rep.ErrorExamples[:min(3, len(rep.ErrorExamples))] {
		fmt.Fprintf(w, "  error: %s\n", e)
	}
}
