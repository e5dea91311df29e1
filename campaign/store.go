package campaign

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// RecordFormat is the format line of finding.json.
const RecordFormat = "polyfuzz finding v1"

// Finding statuses.
const (
	StatusUnconfirmed  = "unconfirmed"  // stored, not yet re-run
	StatusConfirmed    = "confirmed"    // every re-run reproduced it
	StatusFlaky        = "flaky"        // some re-runs reproduced it
	StatusUnreproduced = "unreproduced" // no re-run reproduced it
	StatusReduced      = "reduced"      // confirmed, reduced, and the reduced case replayed
)

// Record is finding.json: everything needed to understand and replay one finding.
type Record struct {
	Format   string       `json:"format"`
	Title    string       `json:"title"`
	Kind     fuzz.Kind    `json:"kind"`
	Oracle   string       `json:"oracle"`
	Domain   string       `json:"domain"`
	Targets  []TargetInfo `json:"targets"`
	Gen      string       `json:"gen"`
	Seed     uint64       `json:"seed"`
	Expected string       `json:"expected"`
	Actual   string       `json:"actual"`
	Roles    []string     `json:"roles,omitempty"`
	// Options are the campaign's engine settings that rebuild its targets (engines, fault,
	// isolation), as the domain encodes them.
	Options     json.RawMessage `json:"options,omitempty"`
	Status      string          `json:"status"`
	Reliability string          `json:"reliability,omitempty"` // "3/3": re-runs that reproduced it
	FirstSeen   time.Time       `json:"first_seen"`
	LastSeen    time.Time       `json:"last_seen"`
	Hits        int64           `json:"hits"`
	// Examples are the seeds of the first few cases that hit this finding.
	Examples []uint64 `json:"examples"`
	// Statements counts setup statements plus queries, before and after reduction.
	Statements        int    `json:"statements"`
	ReducedStatements int    `json:"reduced_statements,omitempty"`
	Replay            string `json:"replay"`
	Note              string `json:"note,omitempty"`
	// Fault is the fault spec planted in the first engine (targets/fault) when the finding came
	// from a planted fault, not from the engine itself; "" for a real finding.
	Fault string `json:"fault,omitempty"`
	// Polyfuzz is the version of polyfuzz that stored the finding.
	Polyfuzz string `json:"polyfuzz,omitempty"`

	// Hash is the name of the finding's directory.
	Hash string `json:"-"`
}

// Store keeps findings on disk under DIR/findings/<hash of title>/, deduplicated by title. Writes
// are atomic; nothing is ever deleted. It is safe for concurrent use.
type Store struct {
	Dir string

	mu      sync.Mutex
	byTitle map[string]*Record
	dirty   map[string]bool
}

const maxExamples = 5

// NewStore opens (creating if needed) the output directory dir and loads the findings already
// in it, so that a new campaign counts hits on them instead of duplicating them.
func NewStore(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "findings"), 0o755); err != nil {
		return nil, fmt.Errorf("cannot write to output directory %s: %w (choose another --out)", dir, unwrapPath(err))
	}
	if err := writeAtomic(dir, ".polyfuzz-write-test", nil); err != nil {
		return nil, fmt.Errorf("cannot write to output directory %s: %w (choose another --out)", dir, unwrapPath(err))
	}
	os.Remove(filepath.Join(dir, ".polyfuzz-write-test"))
	s := &Store{Dir: dir, byTitle: map[string]*Record{}, dirty: map[string]bool{}}
	recs, err := readRecords(filepath.Join(dir, "findings"))
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		s.byTitle[r.Title] = r
	}
	return s, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Hash returns the directory name of a finding title: 16 hex digits of its SHA-1.
func Hash(title string) string {
	h := sha1.Sum([]byte(title))
	return hex.EncodeToString(h[:8])
}

// Meta is what the runner knows about a finding beyond the oracle's report.
type Meta struct {
	Targets []TargetInfo
	Options json.RawMessage
	Format  Format
	// Replay is the command line that replays a finding directory (given as its argument).
	Replay func(dir string) string
}

// Add records a hit of f. A new title gets its directory, written before Add returns; a known
// title gets its hit counter raised (flushed by Flush). isNew says which.
func (s *Store) Add(f *fuzz.Finding, m Meta) (rec *Record, isNew bool, err error) {
	now := time.Now().UTC()
	s.mu.Lock()
	if r, ok := s.byTitle[f.Title]; ok {
		r.Hits++
		r.LastSeen = now
		if len(r.Examples) < maxExamples && f.Case != nil {
			r.Examples = append(r.Examples, f.Case.Seed)
		}
		s.dirty[r.Title] = true
		s.mu.Unlock()
		return r, false, nil
	}
	c := f.Case
	r := &Record{
		Format: RecordFormat, Title: f.Title, Kind: f.Kind, Oracle: f.Oracle, Domain: c.Domain,
		Targets: m.Targets, Gen: c.Gen, Seed: c.Seed, Expected: f.Expected, Actual: f.Actual,
		Roles: f.Roles, Options: m.Options, Status: StatusUnconfirmed, FirstSeen: now, LastSeen: now,
		Hits: 1, Examples: []uint64{c.Seed}, Statements: len(c.Setup) + len(c.Queries),
		Hash: Hash(f.Title),
	}
	dir := filepath.Join(s.Dir, "findings", r.Hash)
	if m.Replay != nil {
		r.Replay = m.Replay(dir)
	}
	s.byTitle[r.Title] = r
	s.mu.Unlock()
	return r, true, s.writeExample(r, f, m)
}

// writeExample writes f's case, runs and reproducer into r's directory, then r itself.
func (s *Store) writeExample(r *Record, f *fuzz.Finding, m Meta) error {
	dir := filepath.Join(s.Dir, "findings", r.Hash)
	c := f.Case
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeJSON(dir, "case.json", c); err != nil {
		return err
	}
	if err := writeJSON(dir, "runs.json", f.Runs); err != nil {
		return err
	}
	if m.Format != nil {
		if err := writeAtomic(dir, "case"+m.Format.Ext(), m.Format.CaseText(c, f.Roles)); err != nil {
			return err
		}
		if err := s.writeRepro(dir, r, c, m.Format); err != nil {
			return err
		}
	}
	return s.Save(r)
}

// Unreproduced reports whether r is stored as unreproduced, that is, its example did not
// reproduce when it was confirmed.
func (s *Store) Unreproduced(r *Record) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.Status == StatusUnreproduced
}

// Replace makes f the example of r, an unreproduced finding with the same title, and marks r
// unconfirmed again. A crash of a server shared by several workers is first seen by whichever
// statement was running; the statement that crashed it comes later and reproduces.
func (s *Store) Replace(r *Record, f *fuzz.Finding, m Meta) error {
	c := f.Case
	s.mu.Lock()
	r.Gen, r.Seed, r.Expected, r.Actual, r.Roles = c.Gen, c.Seed, f.Expected, f.Actual, f.Roles
	r.Statements, r.Status, r.Reliability, r.Note = len(c.Setup)+len(c.Queries), StatusUnconfirmed, "", ""
	s.mu.Unlock()
	return s.writeExample(r, f, m)
}

// Save writes r's finding.json.
func (s *Store) Save(r *Record) error {
	s.mu.Lock()
	b, err := json.MarshalIndent(r, "", "  ")
	delete(s.dirty, r.Title)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(s.Dir, "findings", r.Hash), "finding.json", append(b, '\n'))
}

// SetReduced stores the reduced case of r (already replayed) and rewrites repro.sh to use it.
func (s *Store) SetReduced(r *Record, c *fuzz.Case, f Format) error {
	dir := filepath.Join(s.Dir, "findings", r.Hash)
	if err := writeJSON(dir, "reduced.json", c); err != nil {
		return err
	}
	s.mu.Lock()
	r.Status = StatusReduced
	r.ReducedStatements = len(c.Setup) + len(c.Queries)
	s.mu.Unlock()
	if f != nil {
		if err := writeAtomic(dir, "reduced"+f.Ext(), f.CaseText(c, nil)); err != nil {
			return err
		}
		if err := s.writeRepro(dir, r, c, f); err != nil {
			return err
		}
	}
	return s.Save(r)
}

// Update changes r under the store's lock and saves it.
func (s *Store) Update(r *Record, fn func(r *Record)) error {
	s.mu.Lock()
	fn(r)
	s.mu.Unlock()
	return s.Save(r)
}

// Flush writes every record whose hits changed since it was last saved.
func (s *Store) Flush() error {
	s.mu.Lock()
	var recs []*Record
	for t := range s.dirty {
		recs = append(recs, s.byTitle[t])
	}
	s.mu.Unlock()
	var first error
	for _, r := range recs {
		if err := s.Save(r); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Records returns the store's findings, oldest first.
func (s *Store) Records() []*Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Record, 0, len(s.byTitle))
	for _, r := range s.byTitle {
		out = append(out, r)
	}
	sortRecords(out)
	return out
}

func sortRecords(out []*Record) {
	sort.Slice(out, func(i, j int) bool {
		if !out[i].FirstSeen.Equal(out[j].FirstSeen) {
			return out[i].FirstSeen.Before(out[j].FirstSeen)
		}
		return out[i].Hash < out[j].Hash
	})
}

// LoadFinding reads a finding directory: its record, its original case and, if it was reduced,
// its reduced case (nil otherwise). It explains what is wrong with a directory that is not one.
func LoadFinding(dir string) (rec *Record, orig, reduced *fuzz.Case, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "finding.json"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil, fmt.Errorf("%s is not a finding directory: it has no finding.json "+
				"(give a directory under OUT/findings/)", dir)
		}
		return nil, nil, nil, err
	}
	rec = &Record{}
	if err := json.Unmarshal(b, rec); err != nil || rec.Format != RecordFormat {
		return nil, nil, nil, fmt.Errorf("%s/finding.json is not a polyfuzz finding (format %q, %v)", dir, rec.Format, err)
	}
	rec.Hash = filepath.Base(filepath.Clean(dir))
	orig = &fuzz.Case{}
	if err := readJSON(filepath.Join(dir, "case.json"), orig); err != nil {
		return nil, nil, nil, fmt.Errorf("finding %s: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "reduced.json")); err == nil {
		reduced = &fuzz.Case{}
		if err := readJSON(filepath.Join(dir, "reduced.json"), reduced); err != nil {
			return nil, nil, nil, fmt.Errorf("finding %s: %w", dir, err)
		}
	}
	return rec, orig, reduced, nil
}

// readRecords loads dir/*/finding.json, oldest first; directories without one are skipped.
func readRecords(dir string) ([]*Record, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "finding.json"))
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, p := range paths {
		r := &Record{}
		if err := readJSON(p, r); err != nil {
			return nil, err
		}
		r.Hash = filepath.Base(filepath.Dir(p))
		out = append(out, r)
	}
	sortRecords(out)
	return out, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeJSON(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(dir, name, append(b, '\n'))
}
