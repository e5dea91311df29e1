package pypi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPathsAndErrors(t *testing.T) {
	t.Setenv("POLYFUZZ_PYPI_CACHE", t.TempDir())
	if got, want := Dir("Z3-Solver", "4.8.7.0"), filepath.Join(Root(), "z3-solver-4.8.7.0"); got != want {
		t.Errorf("Dir = %s, want %s", got, want)
	}
	for _, tc := range []struct{ pkg, version, want string }{
		{"z3-solver", "4.8.7.0", "polyfuzz bench install z3-solver==4.8.7.0"},
		{"z3-solver", "../x", "bad package"},
		{"", "1", "bad package"},
	} {
		if _, err := Path(tc.pkg, tc.version, "bin/z3"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Path(%q, %q): %v, want an error with %q", tc.pkg, tc.version, err, tc.want)
		}
	}
	// A completed installation is found; a file it lacks is named.
	dir := Dir("pkg", "1.0")
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	os.WriteFile(filepath.Join(dir, "bin", "tool"), nil, 0o755)
	os.WriteFile(filepath.Join(dir, complete), nil, 0o644)
	if p, err := Path("pkg", "1.0", "bin/tool"); err != nil || p != filepath.Join(dir, "bin", "tool") {
		t.Errorf("Path = %q, %v", p, err)
	}
	if _, err := Path("pkg", "1.0", "bin/other"); err == nil || !strings.Contains(err.Error(), "has no bin/other") {
		t.Errorf("Path of a missing file: %v", err)
	}
	if d, err := Install(context.Background(), "pkg", "1.0"); err != nil || d != dir {
		t.Errorf("Install of an installed version = %q, %v; want %s without pip", d, err, dir)
	}
	for _, tc := range []struct{ in, pkg, version string }{{"a==1.2", "a", "1.2"}, {"a", "", ""}, {"a==", "", ""}} {
		p, v, err := ParseRequirement(tc.in)
		if (err == nil) != (tc.pkg != "") || p != tc.pkg || v != tc.version {
			t.Errorf("ParseRequirement(%q) = %q, %q, %v", tc.in, p, v, err)
		}
	}
}
