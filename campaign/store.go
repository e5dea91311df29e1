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
	"strings"
	"sync"
	"sync/atomic"
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

// PlantedMark starts the title of every finding of a campaign with a planted fault
// (Config.Fault), so that it is never taken for, nor counted with, a bug of the engine.
const PlantedMark = "[planted fault] "

// Record is finding.json: everything needed to understand and replay one finding.
type Record struct {
	Format string `json:"format"` // RecordFormat
	// Title is the oracle's title, behind PlantedMark when the finding came from a planted
	// fault; it is the dedup key.
	Title   string       `json:"title"`
	Kind    fuzz.Kind    `json:"kind"`    // what went wrong: wrong result, crash, ...
	Oracle  string       `json:"oracle"`  // the oracle that saw it
	Domain  string       `json:"domain"`  // sql, smt, graph, datalog
	Targets []TargetInfo `json:"targets"` // the campaign's engines and versions
	Gen     string       `json:"gen"`     // the generator options that made the case
	Seed    uint64       `json:"seed"`    // the seed of the stored (original) case
	// Expected and Actual are what the oracle expected and saw on the stored case: the reduced
	// case once there is one, the original case before.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
	// OriginalExpected and OriginalActual are the oracle's Expected and Actual on the original
	// case once a reduced case took their place; "" until then.
	OriginalExpected string   `json:"original_expected,omitempty"`
	OriginalActual   string   `json:"original_actual,omitempty"`
	Roles            []string `json:"roles,omitempty"` // the queries the finding is about; nil: all
	// Options are the campaign's engine settings that rebuild its targets (engines, fault,
	// isolation), as the domain encodes them.
	Options     json.RawMessage `json:"options,omitempty"`
	Status      string          `json:"status"`                // one of the Status constants
	Reliability string          `json:"reliability,omitempty"` // "3/3": re-runs that reproduced it
	FirstSeen   time.Time       `json:"first_seen"`
	LastSeen    time.Time       `json:"last_seen"`
	Hits        int64           `json:"hits"` // cases that gave this title, in every campaign on OUT
	// Examples are the seeds of the first few cases that hit this finding.
	Examples []uint64 `json:"examples"`
	// Statements counts setup statements plus queries, before and after reduction.
	Statements        int    `json:"statements"`
	ReducedStatements int    `json:"reduced_statements,omitempty"`
	Replay            string `json:"replay"`         // the command line that replays it
	Note              string `json:"note,omitempty"` // why it was not reduced, if it was not
	// Fault is the fault spec planted in the first engine (targets/fault) when the finding came
	// from a planted fault, not from the engine itself; "" for a real finding.
	Fault string `json:"fault,omitempty"`
	// Polyfuzz is the version of polyfuzz that stored the finding.
	Polyfuzz string `json:"polyfuzz,omitempty"`

	// Hash is the name of the finding's directory.
	Hash string `json:"-"`
}

// OracleTitle returns the title the oracle gives the finding: Title without PlantedMark.
func (r *Record) OracleTitle() string { return strings.TrimPrefix(r.Title, PlantedMark) }

// Store keeps findings on disk under DIR/findings/<hash of title>/, deduplicated by title. A
// finding's directory appears complete or not at all, and is replaced whole when its example or
// reduced case changes; finding.json alone is rewritten in place (atomically) as hits come in.
// Nothing is ever deleted. The store holds DIR's lock from OpenStore to Close. It is safe for
// concurrent use.
type Store struct {
	Dir string // the output directory, OUT

	mu       sync.Mutex // guards the records, dirty and warnings
	byTitle  map[string]*Record
	dirty    map[string]bool // titles whose hits changed since finding.json was written
	warnings []string
	// pending are the titles of findings an earlier campaign left unconfirmed, or confirmed but
	// not reduced, because it was killed; see claim.
	pending map[string]bool

	// io serialises writes to finding directories, so that finding.json is never written into a
	// directory that is being replaced.
	io   sync.Mutex
	tmpN atomic.Int64 // numbers temporary names
	lock *os.File
}

const maxExamples = 5

// OpenStore opens (creating if needed) the output directory dir for writing. It takes dir's lock,
// failing with a line that names the holder when another process has it; command describes this
// process to such a second opener (give it free of secrets). It then clears what a killed
// process left behind (temporary files, half-built finding directories), sets aside corrupt
// finding directories into dir/findings-corrupt/ (Warnings says which), and loads the findings,
// so that a new campaign counts hits on them instead of duplicating them. Close releases the lock.
func OpenStore(dir, command string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "findings"), 0o755); err != nil {
		return nil, fmt.Errorf("cannot write to output directory %s: %w (choose another --out)", dir, unwrapPath(err))
	}
	lock, err := lockDir(dir, command)
	if err != nil {
		return nil, err
	}
	s := &Store{Dir: dir, byTitle: map[string]*Record{}, dirty: map[string]bool{}, pending: map[string]bool{}, lock: lock}
	if err := s.load(); err != nil {
		lock.Close()
		return nil, err
	}
	return s, nil
}

// NewStore is OpenStore(dir, ""): the lock names this process's pid and start time, and Run adds
// the campaign's command line.
func NewStore(dir string) (*Store, error) { return OpenStore(dir, "") }

// load clears leftovers of killed processes and reads the findings, setting corrupt ones aside.
func (s *Store) load() error {
	findings := filepath.Join(s.Dir, "findings")
	if err := removeTemps(s.Dir); err != nil {
		return fmt.Errorf("clear temporary files in %s: %w", s.Dir, err)
	}
	if err := recoverFindings(findings); err != nil {
		return fmt.Errorf("clear half-written findings in %s: %w", findings, err)
	}
	ents, err := os.ReadDir(findings)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(findings, e.Name())
		if err := removeTemps(dir); err != nil {
			return fmt.Errorf("clear temporary files in %s: %w", dir, err)
		}
		r, err := checkFinding(dir)
		if err != nil {
			if err := s.setAside(e.Name(), err); err != nil {
				return err
			}
			continue
		}
		if _, dup := s.byTitle[r.Title]; !dup {
			s.byTitle[r.Title] = r
			if r.Status == StatusUnconfirmed || (r.Status == StatusConfirmed || r.Status == StatusFlaky) && r.Note == "" {
				s.pending[r.Title] = true
			}
		}
	}
	return nil
}

// checkFinding reads the record of the finding directory dir and checks the directory holds what
// it claims: the original case, and the reduced case when its status is reduced.
func checkFinding(dir string) (*Record, error) {
	r, err := readRecord(dir)
	if err != nil {
		return nil, err
	}
	need := []string{"case.json"}
	if r.Status == StatusReduced {
		need = append(need, "reduced.json")
	}
	for _, name := range need {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("status %s but no %s", r.Status, name)
		}
	}
	return r, nil
}

// setAside moves the corrupt finding directory findings/name to findings-corrupt/ and adds a
// warning that says so.
func (s *Store) setAside(name string, why error) error {
	dest := filepath.Join(s.Dir, "findings-corrupt", fmt.Sprintf("%s-%d", name, time.Now().Unix()))
	src := filepath.Join(s.Dir, "findings", name)
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return fmt.Errorf("set aside corrupt finding %s: %w (move it out of %s)", src, err, filepath.Dir(src))
	}
	if err := os.Rename(src, dest); err != nil {
		return fmt.Errorf("set aside corrupt finding %s: %w (move it out of %s)", src, err, filepath.Dir(src))
	}
	s.warnings = append(s.warnings, fmt.Sprintf("corrupt finding %s (%v) moved to %s; it is no longer counted",
		src, why, dest))
	return nil
}

// claim reports whether r is a finding an earlier campaign left unfinished (killed before it
// was confirmed, or, when reduce is set, reduced) and takes it for the caller, who is to confirm
// and reduce it on a new example: one caller gets it.
func (s *Store) claim(r *Record, reduce bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pending[r.Title] || r.Status != StatusUnconfirmed && !reduce {
		return false
	}
	delete(s.pending, r.Title)
	return true
}

// Warnings returns one line for each corrupt finding directory OpenStore set aside.
func (s *Store) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.warnings...)
}

// hold records command in the lock file, for whoever finds the output directory in use.
func (s *Store) hold(command string) error {
	if command == "" || s.lock == nil {
		return nil
	}
	var h holder
	if b, err := os.ReadFile(s.lock.Name()); err == nil {
		json.Unmarshal(b, &h)
	}
	h.PID, h.Command = os.Getpid(), command
	return writeHolder(s.lock, h)
}

// Close writes the hits not yet on disk and releases the output directory's lock.
func (s *Store) Close() error {
	err := s.Flush()
	s.mu.Lock()
	lock := s.lock
	s.lock = nil
	s.mu.Unlock()
	if lock != nil {
		if cerr := lock.Close(); err == nil {
			err = cerr
		}
	}
	return err
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
	Targets []TargetInfo    // the campaign's engines
	Options json.RawMessage // the engine settings that rebuild the targets
	Format  Format          // prints cases; nil: only JSON
	// Replay is the command line that replays a finding directory (given as its argument).
	Replay func(dir string) string
	// Fault is the fault spec planted in the first engine, "" for none; it marks the title.
	Fault string
	// Polyfuzz is polyfuzz's version.
	Polyfuzz string
}

// Add records a hit of f. A new title gets its directory, complete on disk before Add returns; a
// known title gets its hit counter raised (written by the next Flush). isNew says which.
func (s *Store) Add(f *fuzz.Finding, m Meta) (rec *Record, isNew bool, err error) {
	title := f.Title
	if m.Fault != "" {
		title = PlantedMark + title
	}
	now := time.Now().UTC()
	s.mu.Lock()
	if r, ok := s.byTitle[title]; ok {
		s.hit(r, f, now)
		s.mu.Unlock()
		return r, false, nil
	}
	s.mu.Unlock()

	s.io.Lock() // before the record is visible, so that no Save writes into a missing directory
	defer s.io.Unlock()
	s.mu.Lock()
	if r, ok := s.byTitle[title]; ok { // another worker stored it meanwhile
		s.hit(r, f, now)
		s.mu.Unlock()
		return r, false, nil
	}
	c := f.Case
	r := &Record{
		Format: RecordFormat, Title: title, Kind: f.Kind, Oracle: f.Oracle, Domain: c.Domain,
		Targets: m.Targets, Gen: c.Gen, Seed: c.Seed, Expected: f.Expected, Actual: f.Actual,
		Roles: f.Roles, Options: m.Options, Status: StatusUnconfirmed, FirstSeen: now, LastSeen: now,
		Hits: 1, Examples: []uint64{c.Seed}, Statements: len(c.Setup) + len(c.Queries),
		Fault: m.Fault, Polyfuzz: m.Polyfuzz, Hash: Hash(title),
	}
	if m.Replay != nil {
		r.Replay = m.Replay(s.findingDir(r.Hash))
	}
	s.byTitle[title] = r
	s.mu.Unlock()
	if err := s.writeDir(r, false, func(tmp string) error { return s.writeExample(tmp, r, f, m) }); err != nil {
		s.mu.Lock()
		delete(s.byTitle, title)
		s.mu.Unlock()
		return nil, false, err
	}
	return r, true, nil
}

// hit counts a new hit of r by f; s.mu is held.
func (s *Store) hit(r *Record, f *fuzz.Finding, now time.Time) {
	r.Hits++
	r.LastSeen = now
	if len(r.Examples) < maxExamples && f.Case != nil {
		r.Examples = append(r.Examples, f.Case.Seed)
	}
	s.dirty[r.Title] = true
}

func (s *Store) findingDir(hash string) string { return filepath.Join(s.Dir, "findings", hash) }

// writeExample writes f's case, runs and reproducer into dir.
func (s *Store) writeExample(dir string, r *Record, f *fuzz.Finding, m Meta) error {
	c := f.Case
	if err := writeJSON(dir, "case.json", c); err != nil {
		return err
	}
	if err := writeJSON(dir, "runs.json", f.Runs); err != nil {
		return err
	}
	if m.Format != nil {
		if err := WriteAtomic(dir, "case"+m.Format.Ext(), m.Format.CaseText(c, f.Roles)); err != nil {
			return err
		}
		if err := s.writeRepro(dir, r, c, m.Format); err != nil {
			return err
		}
	}
	return nil
}

// writeDir writes r's directory afresh under a temporary name: the files of its current
// directory when keep is set, then those fill writes, then finding.json; and then swaps it into
// place. The caller holds s.io.
func (s *Store) writeDir(r *Record, keep bool, fill func(tmp string) error) error {
	final := s.findingDir(r.Hash)
	tmp := s.tempName(tmpPrefix, r.Hash)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	err := func() error {
		if keep {
			if err := copyFiles(final, tmp); err != nil {
				return err
			}
		}
		if err := fill(tmp); err != nil {
			return err
		}
		if err := s.writeRecord(tmp, r); err != nil {
			return err
		}
		if err := syncDir(tmp); err != nil {
			return err
		}
		return s.swapDir(tmp, final, r.Hash)
	}()
	if err != nil {
		os.RemoveAll(tmp)
	}
	return err
}

// writeRecord writes r as dir/finding.json.
func (s *Store) writeRecord(dir string, r *Record) error {
	s.mu.Lock()
	b, err := json.MarshalIndent(r, "", "  ")
	delete(s.dirty, r.Title)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return WriteAtomic(dir, "finding.json", append(b, '\n'))
}

// Unreproduced reports whether r is stored as unreproduced, that is, its example did not
// reproduce when it was confirmed.
func (s *Store) Unreproduced(r *Record) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.Status == StatusUnreproduced
}

// Replace makes f the example of r, an unreproduced finding with the same title, and marks r
// unconfirmed again; r's directory is replaced whole. A crash of a server shared by several
// workers is first seen by whichever statement was running; the statement that crashed it comes
// later and reproduces.
func (s *Store) Replace(r *Record, f *fuzz.Finding, m Meta) error {
	c := f.Case
	s.io.Lock()
	defer s.io.Unlock()
	s.mu.Lock()
	r.Gen, r.Seed, r.Expected, r.Actual, r.Roles = c.Gen, c.Seed, f.Expected, f.Actual, f.Roles
	r.OriginalExpected, r.OriginalActual, r.ReducedStatements = "", "", 0
	r.Statements, r.Status, r.Reliability, r.Note = len(c.Setup)+len(c.Queries), StatusUnconfirmed, "", ""
	s.mu.Unlock()
	return s.writeDir(r, false, func(tmp string) error { return s.writeExample(tmp, r, f, m) })
}

// Save writes r's finding.json.
func (s *Store) Save(r *Record) error {
	s.io.Lock()
	defer s.io.Unlock()
	return s.writeRecord(s.findingDir(r.Hash), r)
}

// SetReduced stores red, the oracle's finding on the reduced case of r (already replayed): the
// reduced case, a repro.sh that runs it, and red's Expected and Actual in r, whose original ones
// move to OriginalExpected and OriginalActual. r's directory is replaced whole.
func (s *Store) SetReduced(r *Record, red *fuzz.Finding, f Format) error {
	c := red.Case
	s.io.Lock()
	defer s.io.Unlock()
	s.mu.Lock()
	if r.Status != StatusReduced { // the first reduction: keep what the original case showed
		r.OriginalExpected, r.OriginalActual = r.Expected, r.Actual
	}
	r.Expected, r.Actual = red.Expected, red.Actual
	r.Status = StatusReduced
	r.ReducedStatements = len(c.Setup) + len(c.Queries)
	s.mu.Unlock()
	return s.writeDir(r, true, func(tmp string) error {
		if err := writeJSON(tmp, "reduced.json", c); err != nil {
			return err
		}
		if f == nil {
			return nil
		}
		if err := WriteAtomic(tmp, "reduced"+f.Ext(), f.CaseText(c, nil)); err != nil {
			return err
		}
		return s.writeRepro(tmp, r, c, f)
	})
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

// readRecord reads dir/finding.json, checking its format line.
func readRecord(dir string) (*Record, error) {
	b, err := os.ReadFile(filepath.Join(dir, "finding.json"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no finding.json")
		}
		return nil, err
	}
	r := &Record{}
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("finding.json: %w", err)
	}
	if r.Format != RecordFormat {
		return nil, fmt.Errorf("finding.json has format %q, not %q", r.Format, RecordFormat)
	}
	r.Hash = filepath.Base(filepath.Clean(dir))
	return r, nil
}

// LoadFinding reads a finding directory: its record, its original case and, if it was reduced,
// its reduced case (nil otherwise). It explains what is wrong with a directory that is not one.
func LoadFinding(dir string) (rec *Record, orig, reduced *fuzz.Case, err error) {
	if _, err := os.Stat(filepath.Join(dir, "finding.json")); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, fmt.Errorf("%s is not a finding directory: it has no finding.json "+
			"(give a directory under OUT/findings/)", dir)
	}
	if rec, err = readRecord(dir); err != nil {
		return nil, nil, nil, fmt.Errorf("%s is not a polyfuzz finding: %w", dir, err)
	}
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

// readRecords loads dir/*/finding.json, oldest first. Temporary directories and directories
// whose finding.json cannot be read (the next store to open sets them aside) are skipped.
func readRecords(dir string) ([]*Record, error) {
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []*Record
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if r, err := readRecord(filepath.Join(dir, e.Name())); err == nil {
			out = append(out, r)
		}
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
	return WriteAtomic(dir, name, append(b, '\n'))
}
