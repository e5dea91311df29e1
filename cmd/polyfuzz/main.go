// Command polyfuzz finds wrong answers in the engines other software trusts. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/polyfuzz/polyfuzz/targets/isolated"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

const usage = `polyfuzz finds wrong answers in SMT solvers, database engines, graph databases and Datalog engines.

usage:
  polyfuzz sql [flags]          fuzz SQL engines: SQLite (default), DuckDB, PostgreSQL, MariaDB, MySQL
  polyfuzz smt [flags]          fuzz SMT solvers with satisfiable-by-construction instances (STORM)
  polyfuzz smt selfcheck        compare polyfuzz's SMT evaluator with the solvers on random terms
  polyfuzz graph [flags]        fuzz graph databases (GDsmith): Neo4j, FalkorDB, Memgraph, the reference
  polyfuzz graph run FILE       run a case script (case.cypher) on one graph engine
  polyfuzz datalog [flags]      fuzz Datalog engines: the reference, μZ, SWI-Prolog, clingo, Soufflé, SQL
  polyfuzz compare [flags]      compare oracle styles with the same budget, engines and seeds
  polyfuzz replay [flags] DIR   re-run a stored finding from its seed and check it still fails
  polyfuzz reduce [flags] DIR   reduce a stored finding again
  polyfuzz report OUT           rewrite OUT/report.html from OUT's files
  polyfuzz version              print the version, the engines it links and the solvers and engines found

Run 'polyfuzz COMMAND --help' for the flags of a command.
`

// version is the polyfuzz version.
const version = "0.1.0"

func main() {
	if isolated.IsChild() {
		serveChild()
		return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit code: 0 success, 1 a failure
// to run, 2 bad usage, 3 new findings with --fail-on-finding.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "sql":
		return cmdSQL(ctx, rest, stdout, stderr)
	case "smt":
		return cmdSMT(ctx, rest, stdout, stderr)
	case "datalog":
		return cmdDatalog(ctx, rest, stdout, stderr)
	case "graph":
		return cmdGraph(ctx, rest, stdout, stderr)
	case "compare":
		return cmdCompare(ctx, rest, stdout, stderr)
	case "replay":
		return cmdReplay(ctx, rest, stdout, stderr)
	case "reduce":
		return cmdReduce(ctx, rest, stdout, stderr)
	case "report":
		err = cmdReport(rest, stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "polyfuzz %s\n", version)
		for _, n := range strings.Split(names(engines), ", ") {
			s := targetSpec{DBMS: n, Worker: replayWorker}
			if e := engines[n]; e.env != "" { // a server: only when its DSN is set
				if s.DSN = os.Getenv(e.env); s.DSN == "" {
					continue
				}
			}
			if t, err := openLocal(ctx, s); err == nil {
				fmt.Fprintf(stdout, "  %s %s\n", t.Name(), t.Version())
				t.Close()
			}
		}
		for _, n := range strings.Split(names(dlEngines), ", ") { // the Datalog engines installed here
			if dlEngines[n].dialect == nil {
				continue // the reference, and the SQL engines listed above
			}
			if t, err := openDatalog(ctx, engineSpec{Engine: n, Timeout: 10 * time.Second}); err == nil {
				fmt.Fprintf(stdout, "  %s %s (Datalog)\n", t.Name(), t.Version())
				t.Close()
			}
		}
		for _, n := range smtproc.Presets() { // the solvers installed here
			if o, err := smtproc.Preset(n); err == nil {
				if t, err := smtproc.New(o); err == nil {
					fmt.Fprintf(stdout, "  %s %s\n", t.Name(), t.Version())
					t.Close()
				}
			}
		}
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "polyfuzz: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "polyfuzz %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

// newFlags returns a flag set whose --help prints the command's synopsis and every flag.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nflags:\n", synopsis)
		fs.VisitAll(func(f *flag.Flag) {
			typ, help := flag.UnquoteUsage(f)
			dash := "--"
			if len(f.Name) == 1 {
				dash = "-"
			}
			fmt.Fprintf(stderr, "  %s%s %s\n      %s", dash, f.Name, typ, help)
			if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "false" && f.DefValue != "[]" {
				fmt.Fprintf(stderr, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(stderr)
		})
	}
	return fs
}

// parse parses flags; it returns -1 to go on, or an exit code.
func parse(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", "usage: polyfuzz report OUT\n\nRewrites OUT/report.html from campaign.json, stats.jsonl and findings/.", stderr)
	if code := parse(fs, args); code >= 0 {
		if code == 0 {
			return nil
		}
		return errors.New("bad flags")
	}
	if fs.NArg() != 1 {
		return errors.New("want one argument: the campaign's output directory")
	}
	dir := fs.Arg(0)
	if _, err := os.Stat(filepath.Join(dir, "campaign.json")); err != nil {
		return fmt.Errorf("%s is not a campaign output directory (no campaign.json)", dir)
	}
	if err := writeReport(dir); err != nil {
		return err
	}
	fmt.Fprintln(stdout, filepath.Join(dir, "report.html"))
	return nil
}
