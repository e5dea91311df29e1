package smtgen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// solverCommands are the command lines of the solvers the self-check compares with.
var solverCommands = map[string][]string{
	"z3":   {"z3", "-in"},
	"cvc5": {"cvc5", "--lang", "smt2", "--incremental"},
}

// execAsk returns an ask function that runs the solver once per script, the script on stdin.
func execAsk(argv []string) func(ctx context.Context, script string) (string, error) {
	return func(ctx context.Context, script string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin = strings.NewReader(script)
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = &out
		err := cmd.Run()
		if err != nil && out.Len() == 0 {
			return "", fmt.Errorf("%s: %w", argv[0], err)
		}
		return out.String(), nil
	}
}

func TestSelfCheckExplore(t *testing.T) {
	if os.Getenv("SELFCHECK_EXPLORE") == "" {
		t.Skip()
	}
	n := 2000
	for _, solver := range []string{"z3", "cvc5"} {
		for _, th := range Theories {
			rep, err := SelfCheck(context.Background(), th, n, 1, execAsk(solverCommands[solver]))
			if err != nil {
				t.Errorf("%s %s: %v", solver, th, err)
				continue
			}
			t.Logf("%s %s", solver, rep)
			for _, e := range rep.Examples {
				t.Logf("  %s\n     ours %s\n   solver %s", e.Term, e.Ours, e.Solver)
			}
			for _, e := range rep.ErrorExamples {
				t.Logf("  error: %s", e)
			}
		}
	}
}
