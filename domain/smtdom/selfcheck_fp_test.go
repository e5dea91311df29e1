package smtdom

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/smtgen"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
)

// TestSelfCheckFPZ3 runs the floating-point self-check of every operation on Float16 against
// z3 5.4.1, 200 terms each: no operation may disagree with the evaluator, and each must agree
// on most of its terms (z3 leaves fp.min and fp.max of opposite zeros unevaluated, which the
// self-check counts as undecided).
func TestSelfCheckFPZ3(t *testing.T) {
	w := Wheels["z3"]
	if !pypi.Installed(w.Package, w.Version("5.4.1")) {
		testenv.Missing(t, fmt.Sprintf("%s==%s is not installed: polyfuzz bench install %s==%s", w.Package,
			w.Version("5.4.1"), w.Package, w.Version("5.4.1")))
		return
	}
	const n = 200
	var out, errOut strings.Builder
	code := selfcheck(context.Background(), []string{"--solver", "z3@5.4.1", "--theory", "fp", "--fp-op", "all",
		"--fp-format", "Float16", "--terms", strconv.Itoa(n)}, &out, &errOut)
	if code != 0 {
		t.Errorf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	line := regexp.MustCompile(`^z3 \S+: (\S+) Float16: (\d+) terms, (\d+) agreed, (\d+) disagreed`)
	seen := 0
	for _, l := range strings.Split(out.String(), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		seen++
		agreed, _ := strconv.Atoi(m[3])
		if m[2] != strconv.Itoa(n) || m[4] != "0" || agreed < n*9/10 {
			t.Errorf("%s", l)
		}
	}
	if seen != len(smtgen.FPOps) {
		t.Errorf("%d result lines, want one per operation (%d):\n%s", seen, len(smtgen.FPOps), out.String())
	}
}

// TestSelfCheckFPFlags checks the refusals of --fp-op and --fp-format.
func TestSelfCheckFPFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fp-format", "Float16"}, "--fp-format needs --fp-op"},
		{[]string{"--theory", "ints", "--fp-op", "fp.add"}, "--fp-op needs --theory fp"},
		{[]string{"--theory", "fp", "--fp-op", "fp.add", "--fp-format", "Float7"}, "bad floating-point format"},
	} {
		var out, errOut strings.Builder
		if code := selfcheck(context.Background(), c.args, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", c.args, code, errOut.String(), c.want)
		}
	}
}
