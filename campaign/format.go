package campaign

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Format prints cases in a domain's own language for people and for the engine's own CLI.
type Format interface {
	Ext() string                                              // ".sql", ".smt2", ...
	CaseText(c *fuzz.Case, roles []string) []byte             // nil roles: all queries
	Repro(c *fuzz.Case, roles []string, header string) []byte // a bash script
}

// writeRepro writes dir/repro.sh for case c of finding r.
func (s *Store) writeRepro(dir string, r *Record, c *fuzz.Case, f Format) error {
	header := fmt.Sprintf("%s\nkind: %s, oracle: %s, seed: %d\nexpected: %s\nactual: %s\nreplay: %s",
		r.Title, r.Kind, r.Oracle, r.Seed, r.Expected, r.Actual, r.Replay)
	b := f.Repro(c, r.Roles, header)
	if err := writeAtomic(dir, "repro.sh", b); err != nil {
		return err
	}
	return os.Chmod(filepath.Join(dir, "repro.sh"), 0o755)
}
