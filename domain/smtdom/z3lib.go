//go:build z3lib

package smtdom

import (
	"context"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
	"github.com/polyfuzz/polyfuzz/targets/z3lib"
)

// Z3lib is the engine name of Z3 in process (targets/z3lib).
const Z3lib = z3lib.Name

const z3libBuilt = true

// z3libOptions returns the command line of z3lib's process twin, the z3 that links the same
// libz3, for the repro.sh of its findings.
func z3libOptions() (smtproc.Options, error) {
	o, err := smtproc.Preset("z3")
	o.Name = Z3lib
	return o, err
}

func openZ3lib(_ context.Context, s domain.Spec) (fuzz.Target, error) {
	return z3lib.New(z3lib.Options{Timeout: s.Timeout})
}
