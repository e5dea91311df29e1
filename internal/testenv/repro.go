package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// RunRepro writes a finding's reproducer script to a file, runs it with bash and the extra
// environment, and returns its exit status and output.
func RunRepro(t testing.TB, script []byte, env ...string) (int, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "repro.sh")
	if err := os.WriteFile(path, script, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", path)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	}
	t.Fatalf("running the reproducer: %v\n%s", err, out)
	return -1, ""
}

var binary struct {
	once          sync.Once
	path, failure string
}

// PolyfuzzBinary returns a polyfuzz binary for reproducers that run polyfuzz's own commands:
// $POLYFUZZ, or one built from this module once per test binary. A module that does not build
// skips t (fails it in CI).
func PolyfuzzBinary(t testing.TB) string {
	t.Helper()
	binary.once.Do(func() {
		if p := os.Getenv("POLYFUZZ"); p != "" {
			binary.path = p
			return
		}
		dir, err := os.MkdirTemp("", "polyfuzz-repro-test")
		if err != nil {
			binary.failure = err.Error()
			return
		}
		binary.path = filepath.Join(dir, "polyfuzz")
		if out, err := exec.Command("go", "build", "-o", binary.path, "github.com/polyfuzz/polyfuzz/cmd/polyfuzz").CombinedOutput(); err != nil {
			binary.failure = fmt.Sprintf("go build: %v\n%s", err, out)
		}
	})
	if binary.failure != "" {
		if InCI() {
			t.Fatalf("no polyfuzz binary: %s", binary.failure)
		}
		t.Skipf("no polyfuzz binary: %s", binary.failure)
	}
	return binary.path
}
