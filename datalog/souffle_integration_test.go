package datalog_test

import (
	"errors"
	"os/exec"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/datalog"
	"github.com/polyfuzz/polyfuzz/targets/souffle"
)

// souffleUnsupported names the feature Soufflé's dialect reports for the enginePrograms it
// cannot express.
var souffleUnsupported = map[string]string{
	"symbols with quotes and backslashes": "symbol-tab",
	"NUL in a symbol":                     "symbol-nul",
	"symbol constraints":                  "symbol-order",
	"symbol order":                        "symbol-tab",
	"int64 extremes":                      "number-range",
	"int32 extremes":                      "number-range",
	"relation names":                      "relation-name",
}

func init() {
	for i, c := range enginePrograms {
		if f := souffleUnsupported[c.name]; f != "" {
			if c.unsupported == nil {
				enginePrograms[i].unsupported = map[string]string{}
			}
			enginePrograms[i].unsupported["souffle"] = f
		}
	}
}

// needSouffle skips t when souffle is not on PATH, also in CI: no package source provides it.
func needSouffle(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("souffle"); err != nil {
		t.Skip("souffle is not on PATH; Debian does not package it: install it from https://souffle-lang.github.io/install to run this test")
	}
}

// TestSouffleFixtures checks, without Soufflé, that its dialect translates the engine programs
// it can express and reports the expected feature for the others.
func TestSouffleFixtures(t *testing.T) {
	for _, c := range append(enginePrograms, muzPrograms...) {
		p, err := datalog.Parse(c.name, c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = datalog.Souffle{}.Translate(p)
		var u *datalog.Unsupported
		switch want := c.unsupported["souffle"]; {
		case errors.As(err, &u) && u.Feature == want:
		case err == nil && want == "":
		default:
			t.Errorf("%s: %v, want unsupported %q", c.name, err, want)
		}
	}
}

func newSouffle(t *testing.T, timeout time.Duration) *datalog.Engine {
	t.Helper()
	needSouffle(t)
	tg, err := souffle.New(souffle.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tg.Close() })
	return &datalog.Engine{Inner: tg, Dialect: datalog.Souffle{}}
}

func TestSoufflePrograms(t *testing.T) {
	e := newSouffle(t, time.Minute)
	checkEnginePrograms(t, e)
	checkIsolation(t, e)
}

func TestSouffleTimeout(t *testing.T) {
	checkTimeout(t, newSouffle(t, 200*time.Millisecond))
}

func TestSouffleScript(t *testing.T) {
	needSouffle(t)
	checkScript(t, datalog.Souffle{}, "4\t3")
}
