package campaign

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Format prints cases in a domain's own language for people and for the engine's own CLI.
type Format interface {
	// Ext is the extension of case text: ".sql", ".smt2", ...
	Ext() string
	// CaseText prints the case; nil roles means all queries.
	CaseText(c *fuzz.Case, roles []string) []byte
	// Repro returns repro.sh, a bash script that runs the case with the engines' own clients,
	// prints the versions it ran, and judges its own output: it exits 0 when the finding
	// described by info reproduces, 1 when it does not, 2 when it cannot tell (see
	// fuzz.ReproInfo).
	Repro(c *fuzz.Case, info fuzz.ReproInfo) []byte
}

// writeRepro writes dir/repro.sh for case c of finding r.
func (s *Store) writeRepro(dir string, r *Record, c *fuzz.Case, f Format) error {
	b := f.Repro(c, reproInfo(r))
	if err := WriteAtomic(dir, "repro.sh", b); err != nil {
		return err
	}
	return os.Chmod(filepath.Join(dir, "repro.sh"), 0o755)
}

// reproInfo returns what a reproducer of r needs to know.
func reproInfo(r *Record) fuzz.ReproInfo {
	var header strings.Builder
	fmt.Fprintf(&header, "%s\nkind: %s, oracle: %s, seed: %d\n", r.Title, r.Kind, r.Oracle, r.Seed)
	if len(r.Targets) > 0 {
		header.WriteString("engines:")
		for _, t := range r.Targets {
			fmt.Fprintf(&header, " %s %s;", t.Name, t.Version)
		}
		header.WriteString("\n")
	}
	if f := RecordFault(r); f != "" {
		fmt.Fprintf(&header, "planted fault: %s (not an engine bug)\n", f)
	}
	fmt.Fprintf(&header, "expected: %s\nactual: %s\n", oneLine(r.Expected), oneLine(r.Actual))
	if r.OriginalExpected != "" {
		fmt.Fprintf(&header, "on the original case: expected %s; actual %s\n", oneLine(r.OriginalExpected), oneLine(r.OriginalActual))
	}
	if r.Polyfuzz != "" {
		fmt.Fprintf(&header, "polyfuzz: %s\n", r.Polyfuzz)
	}
	fmt.Fprintf(&header, "replay: %s", r.Replay)
	in := fuzz.ReproInfo{
		Header: header.String(), Roles: r.Roles, Kind: r.Kind, Oracle: r.Oracle,
		Expected: r.Expected, Actual: r.Actual, Fault: RecordFault(r), Timeout: recordTimeout(r),
	}
	for _, t := range r.Targets {
		in.Targets = append(in.Targets, fuzz.ReproTarget{Name: t.Name, Version: t.Version})
	}
	if b := blamed(r); b != "" {
		in.Blamed = strings.Split(b, ",")
	}
	return in
}

// oneLine keeps the first line of s, so that a header line stays one comment line.
func oneLine(s string) string {
	first, _, cut := strings.Cut(s, "\n")
	if cut {
		return first + " ..."
	}
	return first
}

// recordTimeout reads the statement timeout from r's options: a duration text ("2s") or a
// number of nanoseconds (a time.Duration in JSON); zero when there is none.
func recordTimeout(r *Record) time.Duration {
	var opts map[string]any
	if json.Unmarshal(r.Options, &opts) != nil {
		return 0
	}
	switch t := opts["timeout"].(type) {
	case string:
		d, _ := time.ParseDuration(t)
		return d
	case float64:
		return time.Duration(t)
	}
	return 0
}
