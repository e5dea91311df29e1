package smtproc

import "github.com/polyfuzz/polyfuzz/fuzz"

// Answer turns the output a solver printed for stmt into the result [Target.Exec] returns for
// it (the package doc's rows, errors and crash patterns), for targets that run SMT-LIB scripts
// another way (in process), so that every oracle treats them alike. An unbalanced stmt, which
// a Target does not send, is answered as a Target answers it; callers check [Sendable] first.
func Answer(stmt string, out []byte) *fuzz.Result {
	sh := shapeOf(stmt)
	if !sh.balanced {
		r := unbalancedResult
		return &r
	}
	if crash := crashText(out, 300); crash != "" {
		return &fuzz.Result{Status: fuzz.StatusCrash, Err: crash}
	}
	r := parseOutput(out)
	checkAnswers(r, sh.checks)
	return r
}

// Sendable reports whether every list, string and |quoted symbol| of stmt is closed: a Target
// answers a statement that is not with StatusEngineError and Code "unbalanced" (see [Answer]).
func Sendable(stmt string) bool { return shapeOf(stmt).balanced }
