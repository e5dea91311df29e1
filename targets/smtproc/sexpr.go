package smtproc

import (
	"fmt"
	"strconv"
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

// stmtShape is what a statement's text says about its answers.
type stmtShape struct {
	// balanced says that every list, string and quoted symbol is closed, so that the solver
	// reads the sync marker after it as a command of its own. A stray ')' is the solver's error
	// to report, not a protocol hazard.
	balanced bool
	// checks counts the top-level check-sat, check-sat-assuming and check-sat-using commands,
	// each of which must be answered sat, unsat or unknown.
	checks int
}

// shapeOf reads stmt's shape.
func shapeOf(stmt string) stmtShape {
	var s sexpr.Scanner
	s.Reset(stmt)
	var sh stmtShape
	depth, head := 0, false
	for {
		t, err := s.Next()
		switch {
		case err != nil:
			return sh
		case t.Kind == sexpr.EOF:
			sh.balanced = depth == 0
			return sh
		case t.Kind == sexpr.Open:
			head = depth == 0
			depth++
			continue
		case t.Kind == sexpr.Close && depth > 0:
			depth--
		case head && t.Kind == sexpr.Atom:
			switch stmt[t.Pos:t.End] {
			case "check-sat", "check-sat-assuming", "check-sat-using":
				sh.checks++
			}
		}
		head = false
	}
}

// checkAnswers makes res an engine error with Code fuzz.CodeUnexpectedAnswer when it holds fewer
// sat, unsat or unknown answers than the statement has check-sat commands and nothing else
// explains that (an (error ...), an unsupported): the solver answered something else, such as
// "banana", or nothing at all.
func checkAnswers(res *fuzz.Result, checks int) {
	if checks == 0 || res.Status != fuzz.StatusOK || res.Code == "unsupported" {
		return
	}
	answers, other := 0, ""
	for _, row := range res.Rows {
		switch {
		case len(row) != 1:
		case row[0] == "sat" || row[0] == "unsat" || row[0] == "unknown":
			answers++
		case other == "":
			other = row[0]
		}
	}
	if answers >= checks {
		return
	}
	got := "nothing"
	if other != "" {
		got = strconv.Quote(clip([]byte(other), 100))
	}
	res.Status, res.Code = fuzz.StatusEngineError, fuzz.CodeUnexpectedAnswer
	res.Err = fmt.Sprintf("unexpected answer: %s where check-sat %d of %d wants sat, unsat or unknown", got, answers+1, checks)
}
