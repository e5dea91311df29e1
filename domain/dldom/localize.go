package dldom

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/datalog/localize"
	"github.com/polyfuzz/polyfuzz/domain"
)

const localizeSynopsis = `usage: polyfuzz datalog localize PROGRAM.dl --before OLD.facts --after NEW.facts
           --unwanted 'rel(a, b)' [--unwanted ...] [--wanted 'rel(c, d)' ...] [--ddmin]

Explains an input update that broke a program's output, on the reference engine (provenance-guided
fault localization and rollback suggestions, Zhao et al.). The update turns the facts of OLD.facts
into those of NEW.facts (facts in the canonical syntax, one per line, symbols in double quotes, as
in programs); the program's own facts hold before and after. Unwanted tuples must not be derived
(the update makes them appear), wanted ones must be (the update makes them disappear); on the
command line a bare name is a symbol. Prints a fault localization (changes of the update that,
applied alone to the old facts, reproduce every fault), a rollback suggestion (changes whose removal
from the update repairs every fault), the incremental proof trees that justify them, and the
statistics; --ddmin adds the delta-debugging baseline. Both answers are checked by an evaluation
from scratch; an answer that fails the check is exit status 1.`

// localizeCommand is 'polyfuzz datalog localize'.
func localizeCommand(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("datalog localize", localizeSynopsis, stdout, stderr)
	before := fs.String("before", "", "the facts file before the update (required)")
	after := fs.String("after", "", "the facts file after the update (required)")
	var unwanted, wanted domain.Repeated
	fs.Var(&unwanted, "unwanted", "a tuple that must not be derived, e.g. 'alias(a, b)' (repeatable)")
	fs.Var(&wanted, "wanted", "a tuple that must be derived, e.g. 'vpt(x, o)' (repeatable)")
	dd := fs.Bool("ddmin", false, "also run delta debugging over the update and print its answers and figures")
	var files []string
	for rest := args; ; {
		if code := fs.Parse(rest); code >= 0 {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(files) != 1:
		return fs.Fail(domain.ExitUsage, "want one argument, the program file (canonical syntax), got %d", len(files))
	case *before == "" || *after == "":
		return fs.Fail(domain.ExitUsage, "--before and --after name the facts files before and after the update; give both")
	case len(unwanted) == 0 && len(wanted) == 0:
		return fs.Fail(domain.ExitUsage, "no intended output: give at least one --unwanted or --wanted tuple")
	}
	src, err := os.ReadFile(files[0])
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	p, err := datalog.Parse(files[0], string(src))
	if err == nil {
		_, err = p.Strata()
	}
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	prob := localize.Problem{Program: p}
	for _, f := range []struct {
		name string
		into *[]datalog.Tuple
	}{{*before, &prob.Before}, {*after, &prob.After}} {
		text, err := os.ReadFile(f.name)
		if err != nil {
			return fs.Fail(domain.ExitUsage, "%v", err)
		}
		if *f.into, err = localize.ParseFacts(p, f.name, string(text)); err != nil {
			return fs.Fail(domain.ExitUsage, "%v", err)
		}
	}
	for _, l := range []struct {
		texts []string
		into  *[]datalog.Tuple
	}{{unwanted, &prob.Unwanted}, {wanted, &prob.Wanted}} {
		for _, s := range l.texts {
			t, err := localize.ParseTuple(p, s)
			if err != nil {
				return fs.Fail(domain.ExitUsage, "%v", err)
			}
			*l.into = append(*l.into, t)
		}
	}
	lz, err := localize.New(prob)
	if err != nil {
		return fs.Fail(domain.ExitUsage, "%v", err)
	}
	update := lz.Update()
	fmt.Fprintf(stdout, "update (%d changes):\n", len(update))
	for _, c := range update {
		fmt.Fprintf(stdout, "  %s\n", c)
	}
	appear, missing := lz.Faults()
	fmt.Fprintln(stdout, "faults:")
	for _, t := range appear {
		fmt.Fprintf(stdout, "  unwanted %s is derived after the update\n", t)
	}
	for _, t := range missing {
		fmt.Fprintf(stdout, "  wanted %s is no longer derived after the update\n", t)
	}
	code := domain.ExitOK
	type answer struct {
		title, meaning string
		run            func() (*localize.Result, error)
		proofs         bool
	}
	answers := []answer{
		{"fault localization", "applied alone to the old facts, these changes reproduce every fault", lz.Localize, true},
		{"rollback suggestion", "removed from the update, these changes repair every fault", lz.Rollback, true},
	}
	if *dd {
		answers = append(answers,
			answer{"delta debugging, localization", "ddmin over the update, evaluated from scratch", lz.DDLocalize, false},
			answer{"delta debugging, rollback", "ddmin over the update, evaluated from scratch", lz.DDRollback, false})
	}
	for _, a := range answers {
		res, err := a.run()
		if err != nil {
			return fs.Fail(domain.ExitFailure, "%s: %v", a.title, err)
		}
		check := "verified by an evaluation from scratch"
		if !res.Verified {
			check, code = "NOT verified: an evaluation from scratch disagrees", domain.ExitFailure
		}
		if res.Negation {
			check += "; through negated atoms, not guaranteed minimal"
		}
		fmt.Fprintf(stdout, "\n%s (%s): %d changes, %s\n", a.title, a.meaning, len(res.Changes), check)
		for _, c := range res.Changes {
			fmt.Fprintf(stdout, "  %s\n", c)
		}
		if a.proofs {
			fmt.Fprintln(stdout, "  proof trees:")
			for _, t := range res.Trees {
				t.Format(stdout, "    ")
			}
		}
		fmt.Fprintf(stdout, "  statistics: %s\n", res.Stats)
	}
	return code
}
