package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
)

// rebuilt is what replaying or reducing a stored finding needs, in any domain.
type rebuilt struct {
	rec     *campaign.Record
	orig    *fuzz.Case
	setup   *domain.Setup
	oracle  fuzz.Oracle
	targets []fuzz.Target
}

// rebuild loads the finding in dir and rebuilds, from its record, the generator, oracle and
// engines that produced it, and opens them. noFault leaves the planted fault out.
func rebuild(ctx context.Context, dir string, noFault, plain bool) (*rebuilt, int, error) {
	return rebuildWith(ctx, dir, plain, func(_ *domain.Domain, s *domain.Settings) error {
		if noFault && len(s.Engines) > 0 {
			s.Engines[0].Fault = ""
		}
		return nil
	})
}

// rebuildWith is rebuild with the stored settings changed by adjust before the engines open
// (other engines, another fault).
func rebuildWith(ctx context.Context, dir string, plain bool, adjust func(*domain.Domain, *domain.Settings) error) (*rebuilt, int, error) {
	rec, orig, _, err := campaign.LoadFinding(dir)
	if err != nil {
		return nil, domain.ExitUsage, err
	}
	d, err := findDomain(rec.Domain)
	if err != nil {
		return nil, domain.ExitFailure, fmt.Errorf("finding of %w", err)
	}
	s, err := d.Decode(rec.Options, rec.Gen)
	if err != nil {
		return nil, domain.ExitFailure, err
	}
	s.Replay, s.Plain = true, plain
	if err := adjust(d, s); err != nil {
		return nil, domain.ExitUsage, err
	}
	if !contains(s.Oracles, rec.Oracle) {
		s.Oracles = append(s.Oracles, rec.Oracle)
	}
	st, err := d.Setup(ctx, s, nil)
	if err != nil {
		return nil, domain.ExitFailure, err
	}
	o, err := st.Oracle(rec.Oracle)
	if err != nil {
		return nil, domain.ExitFailure, err
	}
	ts, err := st.Open(ctx, replayWorker(d))
	if err != nil {
		return nil, domain.ExitFailure, err
	}
	return &rebuilt{rec: rec, orig: orig, setup: st, oracle: o, targets: ts}, 0, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

const replaySynopsis = `usage: polyfuzz replay [flags] DIR

Re-runs the finding stored in DIR (a directory under OUT/findings/), of any domain: regenerates its
case from the seed and checks that it equals the stored case, then runs the original and the
reduced case on a fresh engine and checks that the oracle reports the same finding. Exits 0 when it
reproduces, 1 when it does not.`

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("replay", replaySynopsis, stdout, stderr)
	noFault := fs.Bool("no-fault", false, "replay without the fault the finding was planted with")
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return fs.Fail(domain.ExitUsage, "want one argument, a finding directory (OUT/findings/HASH)")
	}
	dir := fs.Arg(0)
	rb, code, err := rebuild(ctx, dir, *noFault, false)
	if err != nil {
		return fs.Fail(code, "%v", err)
	}
	defer domain.CloseAll(rb.targets)
	rec := rb.rec
	res, err := campaign.Replay(ctx, dir, rb.setup.Gen, rb.oracle, rb.targets)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "finding: %s\n  kind %s, oracle %s, seed %d, on %s\n", rec.Title, rec.Kind, rec.Oracle,
		rec.Seed, domain.Versions(rb.targets))
	if rec.Fault != "" && !*noFault {
		fmt.Fprintf(stdout, "  planted fault %s: not an engine bug (--no-fault replays without it)\n", rec.Fault)
	}
	if res.RegenChecked {
		how := "identical to the stored case"
		if !res.Regenerated {
			how = "DIFFERS from the stored case (generator changed since)"
		}
		fmt.Fprintf(stdout, "  case regenerated from seed: %s\n", how)
	}
	want := rec.OracleTitle()
	fmt.Fprintf(stdout, "  original case: %s\n", replayed(res.Original, want))
	if res.HasReduced {
		fmt.Fprintf(stdout, "  reduced case:  %s\n", replayed(res.Reduced, want))
	}
	if res.Finding != nil {
		fmt.Fprintf(stdout, "  expected: %s\n  actual:   %s\n", res.Finding.Expected, res.Finding.Actual)
	}
	if !res.Reproduced() {
		fmt.Fprintln(stdout, "does not reproduce")
		return domain.ExitFailure
	}
	fmt.Fprintln(stdout, "reproduces")
	return domain.ExitOK
}

func replayed(got, want string) string {
	switch got {
	case want:
		return "reproduces"
	case "":
		return "no finding"
	}
	return "different finding: " + got
}

const reduceSynopsis = `usage: polyfuzz reduce [flags] DIR

Reduces the finding stored in DIR again, from its original case, on a fresh engine; the reduced
case is replayed before it replaces DIR/reduced.* and DIR/repro.sh. The campaign output directory
must not be in use by a running campaign.`

func cmdReduce(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("reduce", reduceSynopsis, stdout, stderr)
	limit := fs.Duration("reduce-time", 5*time.Minute, "time limit for the reduction")
	plain := fs.Bool("plain", false, "reduce with ddmin alone, without a domain's guidance (Datalog: the reference engine's proof trees)")
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return fs.Fail(domain.ExitUsage, "want one argument, a finding directory (OUT/findings/HASH)")
	}
	if *limit <= 0 {
		return fs.Fail(domain.ExitUsage, "--reduce-time must be positive (got %s)", *limit)
	}
	dir := filepath.Clean(fs.Arg(0))
	if filepath.Base(filepath.Dir(dir)) != "findings" {
		return fs.Fail(domain.ExitUsage, "the finding directory must sit in OUT/findings/ (got %s)", dir)
	}
	store, err := campaign.OpenStore(filepath.Dir(filepath.Dir(dir)), domain.CommandLine(append([]string{"reduce"}, args...)))
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	defer store.Close()
	rb, code, err := rebuild(ctx, dir, false, *plain)
	if err != nil {
		return fs.Fail(code, "%v", err)
	}
	defer domain.CloseAll(rb.targets)
	red, err := campaign.ReduceFinding(ctx, store, dir, rb.oracle, rb.targets, rb.setup.Reducer, rb.setup.Format, *limit)
	if err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "reduced %s from %d statements (%d bytes) to %d (%d bytes); replayed\n  %s\n", rb.rec.Title,
		len(rb.orig.Setup)+len(rb.orig.Queries), caseBytes(rb.orig), len(red.Setup)+len(red.Queries), caseBytes(red),
		filepath.Join(dir, "reduced"+rb.setup.Format.Ext()))
	if rb.setup.ReduceReport != nil {
		fmt.Fprintf(stdout, "  %s\n", rb.setup.ReduceReport())
	}
	return domain.ExitOK
}

// caseBytes is the length of a case's statements.
func caseBytes(c *fuzz.Case) int {
	n := 0
	for _, st := range c.Setup {
		n += len(st)
	}
	for _, q := range c.Queries {
		n += len(q.Text)
	}
	return n
}

const reportSynopsis = `usage: polyfuzz report OUT

Rewrites OUT/report.html from campaign.json, stats.jsonl and findings/, of any domain. It may run
while a campaign writes to OUT.`

func cmdReport(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := domain.NewFlags("report", reportSynopsis, stdout, stderr)
	if code := fs.Parse(args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return fs.Fail(domain.ExitUsage, "want one argument, the campaign's output directory")
	}
	dir := fs.Arg(0)
	if _, err := os.Stat(filepath.Join(dir, "campaign.json")); err != nil {
		return fs.Fail(domain.ExitUsage, "%s is not a campaign output directory (no campaign.json)", dir)
	}
	if err := campaign.WriteReport(dir); err != nil {
		return fs.Fail(domain.ExitFailure, "%v", err)
	}
	fmt.Fprintln(stdout, filepath.Join(dir, "report.html"))
	return domain.ExitOK
}
