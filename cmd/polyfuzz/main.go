// Command polyfuzz finds wrong answers in the engines other software trusts. See README.md.
//
// The commands are written once for every domain of the domain table (domains); each domain is
// described in its package under domain/.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/domain/dldom"
	"github.com/polyfuzz/polyfuzz/domain/graphdom"
	"github.com/polyfuzz/polyfuzz/domain/smtdom"
	"github.com/polyfuzz/polyfuzz/domain/sqldom"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
)

// version is the polyfuzz version.
const version = "0.2.0"

// domains is the domain table: one row per domain, each described in its own package.
var domains = []*domain.Domain{sqldom.Domain, smtdom.Domain, graphdom.Domain, dldom.Domain}

// command is one of polyfuzz's commands that work for every domain.
type command struct {
	name, args, usage string
	run               func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands are the commands written once for every domain.
var commands = []command{
	{"compare", "[flags]", "compare oracle styles with the same budget, engines and seeds", cmdCompare},
	{"bench", "[flags]", "run oracle styles against the benchmark of known bugs: trials, detection times, statistics", cmdBench},
	{"replay", "[flags] DIR", "re-run a stored finding from its seed and check it still fails", cmdReplay},
	{"reduce", "[flags] DIR", "reduce a stored finding again", cmdReduce},
	{"report", "OUT", "rewrite OUT/report.html from OUT's files", cmdReport},
	{"version", "", "print the version, and the engines found here with theirs", cmdVersion},
}

func main() {
	if isolated.IsChild() {
		domain.ServeChild(domains)
		return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usage is polyfuzz's synopsis, made from the domain table and the commands.
func usage() string {
	var b strings.Builder
	b.WriteString("polyfuzz finds wrong answers in SMT solvers, database engines, graph databases and Datalog engines.\n\nusage:\n")
	line := func(cmd, what string) { fmt.Fprintf(&b, "  %-30s %s\n", "polyfuzz "+cmd, what) }
	for _, d := range domains {
		line(d.Name+" [flags]", d.Summary)
		for _, c := range d.Commands {
			line(d.Name+" "+c.Name+" ...", c.Usage)
		}
	}
	for _, c := range commands {
		line(strings.TrimSpace(c.name+" "+c.args), c.usage)
	}
	line("help COMMAND", "explain a command and every flag (as polyfuzz COMMAND --help)")
	b.WriteString("\nExit status: 0 done (a replay reproduced), 1 could not run (or did not reproduce), 2 bad\n" +
		"usage, 3 new findings with --fail-on-finding, 130 interrupted (findings and report are written).\n" +
		"Run 'polyfuzz COMMAND --help' for the flags of a command; 'polyfuzz --version' prints the version.\n")
	return b.String()
}

// run executes one command line and returns the process exit code (domain.Exit*).
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return domain.ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 {
			fmt.Fprint(stdout, usage())
			return domain.ExitOK
		}
		return run(append(rest, "--help"), stdout, stderr)
	case "-v", "--version", "-version":
		return cmdVersion(ctx, nil, stdout, stderr)
	}
	for _, d := range domains {
		if d.Name != name {
			continue
		}
		if len(rest) > 0 {
			for _, c := range d.Commands {
				if c.Name == rest[0] {
					return c.Run(ctx, rest[1:], stdout, stderr)
				}
			}
		}
		return cmdFuzz(ctx, d, rest, stdout, stderr)
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(ctx, rest, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "polyfuzz: unknown command %q (see polyfuzz help)\n", name)
	return domain.ExitUsage
}

// findDomain returns the domain of that name.
func findDomain(name string) (*domain.Domain, error) {
	var names []string
	for _, d := range domains {
		if d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	return nil, fmt.Errorf("unknown domain %q (known: %s)", name, strings.Join(names, ", "))
}

const versionSynopsis = `usage: polyfuzz version

Prints polyfuzz's version, then every engine of every domain that can be opened here, with its
version: embedded engines, solvers and engines on the PATH, and servers whose DSN or URL is set in
their environment variable.`

func cmdVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("version", versionSynopsis, stdout, stderr)
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	fmt.Fprintf(stdout, "polyfuzz %s\n", version)
	for _, d := range domains {
		for _, e := range d.Engines {
			s := domain.Spec{Engine: e.Name, Timeout: 10 * time.Second, Worker: replayWorker(d)}
			if e.Hidden || e.Env != "" && os.Getenv(e.Env) == "" {
				continue // a server is listed only when its DSN is set
			}
			s.DSN = os.Getenv(e.Env)
			if t, err := d.Open(ctx, s); err == nil {
				fmt.Fprintf(stdout, "  %-8s %s %s\n", d.Name, t.Name(), t.Version())
				t.Close()
			}
		}
	}
	return domain.ExitOK
}

// replayWorker is the worker number replay and reduce open a domain's engines for: apart from the
// numbers a campaign's workers use, unless the domain says otherwise.
func replayWorker(d *domain.Domain) int {
	if d.ReplayWorker != nil {
		return d.ReplayWorker()
	}
	return 900 + os.Getpid()%100
}
