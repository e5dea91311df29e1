// Package smtbridge runs SMT solvers whose PyPI wheels carry a Python module but no executable
// (cvc5's, Bitwuzla's and Boolector's) as warm processes that speak SMT-LIB on stdin and stdout like the solver's own
// executable, so that targets/smtproc drives them unchanged: one answer per command, errors as
// (error "...") without exiting, (reset) and (echo) as the standard says.
package smtbridge

import (
	_ "embed" // the bridge programs
	"fmt"
)

//go:embed common.py
var common string

//go:embed cvc5bridge.py
var cvc5Bridge string

//go:embed bitwuzlabridge.py
var bitwuzlaBridge string

//go:embed boolectorbridge.py
var boolectorBridge string

// CVC5 returns the command line of a cvc5 bridge run by python with the cvc5 module found in dir
// (an installed cvc5 wheel).
func CVC5(python, dir string) []string { return command(python, dir, cvc5Bridge) }

// Bitwuzla returns the command line of a Bitwuzla bridge run by python with the bitwuzla module
// found in dir (an installed bitwuzla wheel).
func Bitwuzla(python, dir string) []string { return command(python, dir, bitwuzlaBridge) }

// Boolector returns the command line of a Boolector bridge run by python with the pyboolector
// module found in dir (an installed pyboolector wheel).
func Boolector(python, dir string) []string { return command(python, dir, boolectorBridge) }

// command runs program, after the code every bridge shares, by python with dir first on its
// module path.
func command(python, dir, program string) []string {
	return []string{python, "-c", fmt.Sprintf("import sys\nsys.path.insert(0, %q)\n", dir) + common + program}
}
