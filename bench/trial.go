package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/polyfuzz/polyfuzz/campaign"
)

// Plan is what a benchmark run compares: every style against every group of bugs, Trials times,
// each trial a campaign of Budget seconds. Trial t of every style and group uses seed Seed+t.
type Plan struct {
	Command string   `json:"command"`
	Domain  string   `json:"domain"`
	Styles  []string `json:"styles"`
	// Defines are the campaign flags of styles defined by --define (name -> flags).
	Defines map[string]string `json:"defines,omitempty"`
	Bugs    []string          `json:"bugs"`
	// Groups are the bugs that share one campaign: the planted bugs of one engine run together
	// (all planted, as Magma does), real bugs with the buggy engine they share; Apart puts each
	// bug in a campaign of its own.
	Groups map[string][]string `json:"groups"`
	Apart  bool                `json:"apart,omitempty"`
	Trials int                 `json:"trials"`
	Budget float64             `json:"budget_s"`
	// Tests bounds each trial's cases (0: the budget only).
	Tests int64  `json:"tests,omitempty"`
	Seed  uint64 `json:"seed"`
}

// Groups returns the campaign groups of bugs: bugs with the same buggy engine and options share a
// campaign unless apart. Group names are the first bug's id, or the engine spec.
func Groups(bugs []Bug, apart bool) map[string][]string {
	out := map[string][]string{}
	for _, b := range bugs {
		key := b.ID
		if !apart {
			key = b.Buggy
			if len(b.Options) > 0 {
				key += " " + strings.Join(b.Options, " ")
			}
		}
		out[key] = append(out[key], b.ID)
	}
	return out
}

// GroupNames returns the plan's group names, sorted.
func (p *Plan) GroupNames() []string {
	var out []string
	for g := range p.Groups {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// Trial is one campaign of a plan.
type Trial struct {
	Style string `json:"style"`
	Group string `json:"group"`
	Index int    `json:"trial"`
	Seed  uint64 `json:"seed"`
}

// Key identifies the trial in a journal.
func (t Trial) Key() string { return fmt.Sprintf("%s\x00%s\x00%d", t.Style, t.Group, t.Index) }

// Trials lists the plan's trials in the order they run: trial by trial, so that an interrupted
// run has the same number of trials of every style.
func (p *Plan) List() []Trial {
	var out []Trial
	for i := range p.Trials {
		for _, g := range p.GroupNames() {
			for _, s := range p.Styles {
				out = append(out, Trial{Style: s, Group: g, Index: i, Seed: p.Seed + uint64(i)})
			}
		}
	}
	return out
}

// Result is what one trial measured.
type Result struct {
	Trial
	// Bugs are the bugs the trial's campaign held.
	Bugs []string `json:"bugs"`
	// Detected maps a detected bug to its time to detection in seconds.
	Detected map[string]float64 `json:"detected,omitempty"`
	// Canaries counts the cases that reached (id) and triggered (id!) each planted bug.
	Canaries map[string]int64 `json:"canaries,omitempty"`
	Tests    int64            `json:"tests"`
	Checks   int64            `json:"checks"`
	Seconds  float64          `json:"seconds"`
	// ValidRate is the share of statements the engine answered without error; SkipRate the
	// share of oracle checks skipped (the error oracle's skips, timeouts, not counted).
	ValidRate float64 `json:"valid_rate"`
	SkipRate  float64 `json:"skip_rate"`
	// Findings are the titles of the unique findings; Unexplained those no bug of the trial
	// explains (another bug of the engine, or a false alarm to look at).
	Findings    []string `json:"findings,omitempty"`
	Unexplained []string `json:"unexplained,omitempty"`
	// Skips counts skipped checks by oracle and reason; FirstFinding is the time to the first
	// finding of any kind in seconds (-1: none).
	Skips        map[string]int64 `json:"skips,omitempty"`
	FirstFinding float64          `json:"first_finding_s"`
	// Error says why the trial could not run ("" when it ran).
	Error string `json:"error,omitempty"`
}

// ChecksPerSec is the trial's throughput.
func (r *Result) ChecksPerSec() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Checks) / r.Seconds
}

// Journal is a benchmark run's folder: plan.json and trials.jsonl, one line per finished trial,
// appended as trials finish, so that a run resumes where it stopped.
type Journal struct {
	Dir     string
	Plan    Plan
	Results []Result
	f       *os.File
}

// OpenJournal opens (or creates) the journal in dir for plan. An existing journal of another plan
// is an error: resuming must not mix runs.
func OpenJournal(dir string, plan Plan) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot write to output directory %s: %w", dir, err)
	}
	j := &Journal{Dir: dir, Plan: plan}
	planPath := filepath.Join(dir, "plan.json")
	if b, err := os.ReadFile(planPath); err == nil {
		var old Plan
		if err := json.Unmarshal(b, &old); err != nil {
			return nil, fmt.Errorf("%s: %w", planPath, err)
		}
		old.Command, plan.Command = "", ""
		a, _ := json.Marshal(old)
		b, _ := json.Marshal(plan)
		if string(a) != string(b) {
			return nil, fmt.Errorf("%s holds a benchmark run with other styles, bugs, trials, budget or seed: resume it with the same flags, or give another --out", dir)
		}
		results, err := readResults(filepath.Join(dir, "trials.jsonl"))
		if err != nil {
			return nil, err
		}
		j.Results = results
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	} else {
		b, _ := json.MarshalIndent(j.Plan, "", "  ")
		if err := campaign.WriteAtomic(dir, "plan.json", append(b, '\n')); err != nil {
			return nil, err
		}
	}
	path := filepath.Join(dir, "trials.jsonl")
	if err := cutPartialLine(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	j.f = f
	return j, nil
}

// cutPartialLine drops a last line that a crash cut short, so that the next result starts a line
// of its own.
func cutPartialLine(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || len(b) == 0 || b[len(b)-1] == '\n' {
		return nil
	}
	if err != nil {
		return err
	}
	return os.Truncate(path, int64(strings.LastIndexByte(string(b), '\n')+1))
}

// readResults reads trials.jsonl; a last line cut short by a crash is dropped.
func readResults(path string) ([]Result, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r Result
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Style != "" {
			out = record(out, r)
		}
	}
	return out, sc.Err()
}

// record puts r into results, replacing an earlier result of the same trial (a failed trial run
// again).
func record(results []Result, r Result) []Result {
	if i := slices.IndexFunc(results, func(o Result) bool { return o.Key() == r.Key() }); i >= 0 {
		results[i] = r
		return results
	}
	return append(results, r)
}

// Done reports whether trial t has run; a trial that failed (Error) runs again on resume.
func (j *Journal) Done(t Trial) bool {
	for _, r := range j.Results {
		if r.Key() == t.Key() {
			return r.Error == ""
		}
	}
	return false
}

// Append records a finished trial.
func (j *Journal) Append(r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	if err := j.f.Sync(); err != nil {
		return err
	}
	j.Results = record(j.Results, r)
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }

// ReadJournal reads the plan and results of the benchmark run in dir without opening it for
// writing.
func ReadJournal(dir string) (Plan, []Result, error) {
	var plan Plan
	b, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err != nil {
		return plan, nil, fmt.Errorf("%s is not the output of polyfuzz bench (no plan.json): %w", dir, err)
	}
	if err := json.Unmarshal(b, &plan); err != nil {
		return plan, nil, fmt.Errorf("%s/plan.json: %w", dir, err)
	}
	results, err := readResults(filepath.Join(dir, "trials.jsonl"))
	return plan, results, err
}
