//go:build !z3lib

package smtdom

import (
	"context"
	"errors"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

// Z3lib is the engine name of Z3 in process (targets/z3lib).
const Z3lib = "z3lib"

const z3libBuilt = false

var errNoZ3lib = errors.New("solver z3lib is not in this build: build polyfuzz with go build -tags z3lib ./cmd/polyfuzz (needs libz3-dev)")

func z3libOptions() (smtproc.Options, error) { return smtproc.Options{}, errNoZ3lib }

func openZ3lib(context.Context, domain.Spec) (fuzz.Target, error) { return nil, errNoZ3lib }
