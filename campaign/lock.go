package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// LockFile is the name of the file in an output directory whose exclusive flock marks the
// process writing into it. The kernel releases the lock when that process ends, however it ends,
// so a killed campaign leaves no stale lock behind.
const LockFile = ".polyfuzz.lock"

// holder is what the lock file says about the process that holds it.
type holder struct {
	PID     int       `json:"pid"`
	Start   time.Time `json:"start"`
	Command string    `json:"command,omitempty"`
}

// lockDir takes the exclusive lock of the output directory dir for this process and writes
// command (already free of secrets) into it. It fails, naming the holder, when another process
// holds it.
func lockDir(dir, command string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot write to output directory %s: %w (choose another --out)", dir, unwrapPath(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is in use by another polyfuzz process (%s); wait for it or choose another --out",
				dir, readHolder(f))
		}
		return nil, fmt.Errorf("lock output directory %s: %w (choose an --out on a local file system)", dir, err)
	}
	if err := writeHolder(f, holder{PID: os.Getpid(), Start: time.Now().UTC().Truncate(time.Second), Command: command}); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot write to output directory %s: %w (choose another --out)", dir, unwrapPath(err))
	}
	return f, nil
}

// writeHolder replaces the lock file's content with h.
func writeHolder(f *os.File, h holder) error {
	b, err := jsonLine(h)
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(b, 0)
	return err
}

// readHolder describes the holder of the lock file f: "pid 1234, started 2026-11-26T10:00:00Z:
// polyfuzz sql --budget 1m".
func readHolder(f *os.File) string {
	b, err := os.ReadFile(f.Name())
	var h holder
	if err != nil || json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return "pid unknown: it is starting"
	}
	s := fmt.Sprintf("pid %d, started %s", h.PID, h.Start.Format(time.RFC3339))
	if h.Command != "" {
		s += ": " + h.Command
	}
	return s
}
