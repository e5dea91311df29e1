// Package testenv holds what tests share: NeedEngine skips a test whose engine is missing, except
// in CI (CI=true), where the test script must have installed it and a missing engine fails;
// NeedDSN does the same for a database server's DSN in the environment; Seed gives the pinned test
// seed, which POLYFUZZ_SEED overrides.
package testenv

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// DefaultSeed is the seed tests use unless POLYFUZZ_SEED says otherwise.
const DefaultSeed = 20261123

// InCI reports whether the tests run in CI, where every engine must be present.
func InCI() bool { return os.Getenv("CI") == "true" }

// NeedEngine skips t (or fails it in CI) unless the named command is on PATH.
func NeedEngine(t testing.TB, command string) {
	t.Helper()
	if _, err := exec.LookPath(command); err != nil {
		if InCI() {
			t.Fatalf("engine %s is missing in CI: the test script (scripts/test.sh) should have installed it", command)
		}
		t.Skipf("engine %s is not installed; run scripts/test.sh to install it", command)
	}
}

// NeedDSN returns the DSN in the environment variable env (e.g. POLYFUZZ_POSTGRES_DSN). When it is
// not set it skips t, or fails it in CI, where scripts/test.sh starts the servers and sets it.
func NeedDSN(t testing.TB, env string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		server := dsnServers[env]
		if server == "" {
			server = "the server"
		}
		if InCI() {
			t.Fatalf("%s is not set in CI: the test script (scripts/test.sh) should have started %s and set it", env, server)
		}
		t.Skipf("%s is not set; run scripts/test.sh, which starts %s (or source scripts/sqlservers.sh and run sqlservers_start)",
			env, server)
	}
	return dsn
}

// dsnServers names the server each DSN variable points at, for NeedDSN's messages.
var dsnServers = map[string]string{
	"POLYFUZZ_POSTGRES_DSN": "PostgreSQL",
	"POLYFUZZ_MARIADB_DSN":  "MariaDB",
	"POLYFUZZ_MYSQL_DSN":    "MariaDB (standing in for MySQL)",
}

// Seed returns the test seed and logs it, so that a failure can be replayed.
func Seed(t testing.TB) uint64 {
	t.Helper()
	seed := uint64(DefaultSeed)
	if s := os.Getenv("POLYFUZZ_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("POLYFUZZ_SEED=%q is not a number", s)
		}
		seed = v
	}
	t.Logf("seed %d (set POLYFUZZ_SEED to change it)", seed)
	return seed
}

// EnvExclusive is set by scripts/test.sh for its last step, which runs the tests that crash a
// shared server, alone.
const EnvExclusive = "POLYFUZZ_EXCLUSIVE"

// Exclusive skips t unless the tests run alone (EnvExclusive=1): t crashes a server that the
// tests of other packages, running in parallel, use. scripts/test.sh runs such tests in a step of
// their own after all the others, with `-run` naming them.
func Exclusive(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvExclusive) != "1" {
		t.Skipf("crashes a shared server: runs alone, in the last step of scripts/test.sh (set %s=1 to run it)", EnvExclusive)
	}
}

// NeedPythonModule skips t, or fails it in CI, unless the interpreter python can import module:
// the project's Python engines come from scripts/python.sh, which the test script runs.
func NeedPythonModule(t testing.TB, python, module string) {
	t.Helper()
	if err := exec.Command(python, "-c", "import "+module).Run(); err != nil {
		if InCI() {
			t.Fatalf("the Python module %s is missing for %s in CI (%v): scripts/test.sh should have made the project's .venv (python_env)", module, python, err)
		}
		t.Skipf("the Python module %s is missing for %s (%v); run source scripts/python.sh && python_env", module, python, err)
	}
}

// Missing skips t, or fails it in CI, because something the test needs is missing; msg says
// what and how to get it.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if InCI() {
		t.Fatalf("missing in CI (the test script, scripts/test.sh, should provide it): %s", msg)
	}
	t.Skip(msg)
}
