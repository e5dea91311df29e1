package campaign

import (
	"encoding/json"
	"time"
)

// Sample is one line of stats.jsonl: the campaign's totals at one moment.
type Sample struct {
	Time    time.Time `json:"time"`
	Elapsed float64   `json:"elapsed_s"`
	// Tests is how many cases ran; Checks how many oracle checks were made (a case may make several:
	// fuzz.Verdict.Checks); Statements how many
	// statements were sent to targets, and Valid how many of them the engine answered without error.
	Tests      int64 `json:"tests"`
	Checks     int64 `json:"checks"`
	Statements int64 `json:"statements"`
	Valid      int64 `json:"valid"`
	// ChecksPerSec and TestsPerSec are rates over the interval since the previous sample.
	ChecksPerSec float64 `json:"checks_per_s"`
	TestsPerSec  float64 `json:"tests_per_s"`
	// Skips counts skipped checks by reason.
	Skips map[string]int64 `json:"skips,omitempty"`
	// Notes counts the oracles' observations by name (fuzz.Verdict.Notes).
	Notes map[string]int64 `json:"notes,omitempty"`
	// Canaries counts the cases that reached each planted bug's feature (by the bug's id) and
	// that triggered it (id+"!"); see fuzz.Result.Canaries.
	Canaries map[string]int64 `json:"canaries,omitempty"`
	// Findings counts unique findings by kind; Hits counts every finding hit, duplicates included.
	Findings map[string]int64 `json:"findings,omitempty"`
	Hits     int64            `json:"hits"`
	// TargetSeconds is the time workers spent inside target calls; WorkerSeconds their wall time.
	TargetSeconds float64 `json:"target_s"`
	WorkerSeconds float64 `json:"worker_s"`
	// Efficiency is TargetSeconds / WorkerSeconds.
	Efficiency float64 `json:"efficiency"`
}

// UniqueFindings returns the total of s.Findings.
func (s *Sample) UniqueFindings() int64 {
	var n int64
	for _, v := range s.Findings {
		n += v
	}
	return n
}

// Info is campaign.json: what ran, on what, and the totals at the end.
type Info struct {
	Format string `json:"format"` // "polyfuzz campaign v1"
	// Polyfuzz is the version of polyfuzz that ran the campaign.
	Polyfuzz string `json:"polyfuzz,omitempty"`
	// Fault is the fault spec planted in the first engine, "" for none.
	Fault   string          `json:"fault,omitempty"`
	Command string          `json:"command"` // the command line, without secrets
	Domain  string          `json:"domain"`
	Seed    uint64          `json:"seed"`    // the campaign seed: case i uses hash(seed, i)
	Options json.RawMessage `json:"options"` // the engine settings
	Targets []TargetInfo    `json:"targets"` // the engines and their versions
	Oracles []string        `json:"oracles"`
	Workers int             `json:"workers"`
	// Budget is the time limit in seconds and TestLimit the limit on tests; 0: none.
	Budget    float64   `json:"budget_s,omitempty"`
	TestLimit int64     `json:"test_limit,omitempty"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end,omitempty"` // zero while it runs, or if it was killed
	// Stop says why the campaign ended: "budget", "tests", "findings", "interrupted", "error".
	Stop   string  `json:"stop,omitempty"`
	Totals *Sample `json:"totals,omitempty"` // the totals at the end; nil before
}

// TargetInfo names one engine and its version.
type TargetInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}
