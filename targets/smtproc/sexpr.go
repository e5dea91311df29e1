package smtproc

import (
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/sexpr"
)

// isPairs reports whether n is a non-empty list of two-element lists, the shape of a get-value
// (or get-assignment) answer.
func isPairs(n *sexpr.Node) bool {
	if !n.IsList() || len(n.List) == 0 {
		return false
	}
	for i := range n.List {
		if !n.List[i].IsList() || len(n.List[i].List) != 2 {
			return false
		}
	}
	return true
}

// errorMessage returns the message of an (error ...) response.
func errorMessage(n *sexpr.Node) string {
	if len(n.List) < 2 {
		return "error"
	}
	parts := make([]string, 0, len(n.List)-1)
	for i := 1; i < len(n.List); i++ {
		parts = append(parts, sexpr.Unquote(n.List[i].String()))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// parseOutput turns a statement's output into a result, as described in the package doc.
func parseOutput(out []byte) *fuzz.Result {
	res := &fuzz.Result{Status: fuzz.StatusOK}
	unsupported := false
	nodes := sexpr.ParseLenient(string(out))
	for i := range nodes {
		n := &nodes[i]
		switch {
		case !n.IsList():
			res.Rows = append(res.Rows, []string{n.Text})
			if n.Text == "unsupported" {
				unsupported = true
			}
		case n.Head() == "error":
			if res.Status != fuzz.StatusEngineError {
				res.Status, res.Code, res.Err = fuzz.StatusEngineError, "error", errorMessage(n)
			}
		case isPairs(n):
			for i := range n.List {
				p := &n.List[i]
				res.Rows = append(res.Rows, []string{p.List[0].String(), p.List[1].String()})
			}
		default:
			res.Rows = append(res.Rows, []string{n.String()})
		}
	}
	if unsupported && res.Status == fuzz.StatusOK {
		res.Code = "unsupported"
	}
	return res
}

// hasError reports whether out holds an (error ...) response.
func hasError(out []byte) bool {
	nodes := sexpr.ParseLenient(string(out))
	for i := range nodes {
		if nodes[i].Head() == "error" {
			return true
		}
	}
	return false
}

// versionOf returns the string of a (:version "x") answer in out, or "".
func versionOf(out []byte) string {
	nodes := sexpr.ParseLenient(string(out))
	for i := range nodes {
		n := &nodes[i]
		if n.Head() == ":version" && len(n.List) > 1 && !n.List[1].IsList() {
			return sexpr.Unquote(n.List[1].Text)
		}
	}
	return ""
}

// balanced reports whether every list, string and quoted symbol of stmt is closed, so that the
// solver reads the sync marker after it as a command of its own. A stray ')' is the solver's
// error to report, not a protocol hazard.
func balanced(stmt string) bool {
	var s sexpr.Scanner
	s.Reset(stmt)
	depth := 0
	for {
		t, err := s.Next()
		switch {
		case err != nil:
			return false
		case t.Kind == sexpr.EOF:
			return depth == 0
		case t.Kind == sexpr.Open:
			depth++
		case t.Kind == sexpr.Close && depth > 0:
			depth--
		}
	}
}
