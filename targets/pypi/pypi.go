// Package pypi installs pinned versions of PyPI packages, each in a folder of its own, so that
// several releases of one engine (z3-solver 4.8.7.0 beside 4.8.9.0) can be tested side by side.
// A version is installed with `pip install --no-deps --target DIR PACKAGE==VERSION` into
// $POLYFUZZ_PYPI_CACHE/PACKAGE-VERSION (default ~/.cache/polyfuzz/pypi, or under XDG_CACHE_HOME).
package pypi

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// complete marks a folder whose installation finished.
const complete = ".polyfuzz-installed"

// Root returns the folder the versions are installed under.
func Root() string {
	if d := os.Getenv("POLYFUZZ_PYPI_CACHE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "polyfuzz", "pypi")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "polyfuzz-pypi")
	}
	return filepath.Join(home, ".cache", "polyfuzz", "pypi")
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// check rejects a package or version that cannot name a folder or a pip requirement.
func check(pkg, version string) error {
	if !namePattern.MatchString(pkg) || !namePattern.MatchString(version) {
		return fmt.Errorf("pypi: bad package %q or version %q: want names of letters, digits, '.', '_' and '-'", pkg, version)
	}
	return nil
}

// Dir returns the folder version of pkg is (or would be) installed in.
func Dir(pkg, version string) string {
	return filepath.Join(Root(), strings.ToLower(pkg)+"-"+version)
}

// Installed reports whether version of pkg is installed.
func Installed(pkg, version string) bool {
	_, err := os.Stat(filepath.Join(Dir(pkg, version), complete))
	return err == nil
}

// Path returns the file rel inside the installed version of pkg (bin/z3, say), or an error that
// names the command that installs it.
func Path(pkg, version, rel string) (string, error) {
	if err := check(pkg, version); err != nil {
		return "", err
	}
	if !Installed(pkg, version) {
		return "", fmt.Errorf("%s==%s is not installed: run polyfuzz bench install %s==%s (it installs into %s)",
			pkg, version, pkg, version, Dir(pkg, version))
	}
	p := filepath.Join(Dir(pkg, version), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s==%s has no %s (%v): this release does not ship it", pkg, version, rel, err)
	}
	return p, nil
}

// EnvPython names the environment variable with the Python interpreter of the project's virtual
// environment (scripts/python.sh sets it).
const EnvPython = "POLYFUZZ_PYTHON"

// Python returns the project's Python interpreter, which pip and the Python row servers run on:
// $POLYFUZZ_PYTHON, else python3.
func Python() string {
	if p := os.Getenv(EnvPython); p != "" {
		return p
	}
	return "python3"
}

// Install installs version of pkg into Dir(pkg, version) unless it is there, and returns the
// folder. It installs the package alone (--no-deps): engines' wheels carry what they run.
func Install(ctx context.Context, pkg, version string) (string, error) {
	if err := check(pkg, version); err != nil {
		return "", err
	}
	dir := Dir(pkg, version)
	if Installed(pkg, version) {
		return dir, nil
	}
	if err := os.MkdirAll(Root(), 0o755); err != nil {
		return "", fmt.Errorf("pypi: %w", err)
	}
	tmp, err := os.MkdirTemp(Root(), ".installing-")
	if err != nil {
		return "", fmt.Errorf("pypi: %w", err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, Python(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
		"--no-deps", "--no-compile", "--target", tmp, pkg+"=="+version)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("pip install %s==%s: %v: %s", pkg, version, err, lastLines(string(out), 3))
	}
	if err := os.WriteFile(filepath.Join(tmp, complete), []byte(pkg+"=="+version+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("pypi: %w", err)
	}
	os.RemoveAll(dir) // a partial installation of an earlier attempt
	if err := os.Rename(tmp, dir); err != nil {
		if Installed(pkg, version) {
			return dir, nil // another process installed it meanwhile
		}
		return "", fmt.Errorf("pypi: %w", err)
	}
	return dir, nil
}

// ParseRequirement splits "pkg==version".
func ParseRequirement(s string) (pkg, version string, err error) {
	pkg, version, ok := strings.Cut(s, "==")
	if !ok {
		return "", "", fmt.Errorf("pypi: bad requirement %q: want PACKAGE==VERSION", s)
	}
	if err := check(pkg, version); err != nil {
		return "", "", err
	}
	return pkg, version, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
