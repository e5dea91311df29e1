package smtgen

import "strings"

// Sort is an SMT-LIB sort: a name, numeric indices (the width of (_ BitVec 8), the exponent and
// significand of (_ FloatingPoint 8 24)) and sort arguments ((Array Int Bool), user sorts of
// declare-sort with arity).
type Sort struct {
	Name  string
	Index []int
	Args  []*Sort
	// DT is the declaration of a datatype sort, set by the sort checker (nil for other sorts and
	// for sorts read without a script); [Sort.Equal] ignores it.
	DT *Datatype
}

// Predefined sorts shared by every script; the checker and the evaluator compare sorts with
// [Sort.Equal], never by pointer.
var (
	BoolSort   = &Sort{Name: "Bool"}
	IntSort    = &Sort{Name: "Int"}
	RealSort   = &Sort{Name: "Real"}
	StringSort = &Sort{Name: "String"}
	RegLanSort = &Sort{Name: "RegLan"}
)

// BitVecSort returns (_ BitVec w).
func BitVecSort(w int) *Sort { return &Sort{Name: "BitVec", Index: []int{w}} }

// ArraySort returns (Array i e).
func ArraySort(i, e *Sort) *Sort { return &Sort{Name: "Array", Args: []*Sort{i, e}} }

// Width returns the width of a bit-vector sort, 0 for any other sort.
func (s *Sort) Width() int {
	if s == nil || s.Name != "BitVec" || len(s.Index) != 1 {
		return 0
	}
	return s.Index[0]
}

// Equal reports whether s and t are the same sort.
func (s *Sort) Equal(t *Sort) bool {
	if s == t {
		return true
	}
	if s == nil || t == nil || s.Name != t.Name || len(s.Index) != len(t.Index) || len(s.Args) != len(t.Args) {
		return false
	}
	for i := range s.Index {
		if s.Index[i] != t.Index[i] {
			return false
		}
	}
	for i := range s.Args {
		if !s.Args[i].Equal(t.Args[i]) {
			return false
		}
	}
	return true
}

// String prints s in SMT-LIB syntax.
func (s *Sort) String() string {
	var b strings.Builder
	WriteSort(&b, s)
	return b.String()
}

// TermKind says what a [Term] node is.
type TermKind uint8

// Term kinds. The zero value is invalid.
const (
	KindInvalid TermKind = iota
	KindNumeral          // Lit holds the digits: 42
	KindDecimal          // Lit holds the text: 4.20
	KindHex              // Lit holds the digits after #x
	KindBinary           // Lit holds the digits after #b
	KindString           // Lit holds the decoded string (SMT-LIB "" escapes undone, \u{..} kept as text)
	KindApp              // Name applied to Args (no Args: a constant, variable or nullary function)
	KindLet              // Binds (Name, Term) in Args[0]
	KindForall           // Binds (Name, Sort) in Args[0]
	KindExists           // Binds (Name, Sort) in Args[0]
	KindAnnot            // (! Args[0] Attrs...)
	KindMatch            // (match Args[0] ((Binds[i].Term Args[i+1])...)): see [Term]
)

// Term is one SMT-LIB term. Terms are trees that may share subterms (a DAG after let expansion);
// code that rewrites terms builds new nodes rather than changing shared ones.
type Term struct {
	Kind TermKind
	// Name is the function or symbol of an application (an indexed identifier (_ extract 7 0) has
	// Name "extract" and Index [7 0]; (_ bv5 8) is the application of "bv5" with Index [8]; the
	// tester (_ is C) has Name "is" and Lit "C"). A match has one case per Binds entry: the
	// pattern Binds[i].Term (a constructor applied to variables, a nullary constructor or a
	// variable) and the body Args[i+1].
	Name  string
	Index []int
	// As is the sort of a qualified identifier (as const (Array Int Int)), nil if unqualified.
	As    *Sort
	Lit   string
	Args  []*Term
	Binds []Binding
	Attrs []Attr
	// Sort is filled in by the sort checker.
	Sort *Sort
}

// Binding is a let binding (Term set) or a sorted variable of a quantifier or a definition (Sort set).
type Binding struct {
	Name string
	Sort *Sort
	Term *Term
}

// Attr is an attribute such as :named n or :pattern (...); Value is its SMT-LIB text ("" when absent).
type Attr struct {
	Key   string
	Value string
}

// Command is one SMT-LIB command of a script. Which fields are set depends on Name:
//
//	set-logic L                    Symbol=L
//	set-option :k v, set-info :k v Attr={k, v}
//	declare-sort s n               Symbol=s, Arity=n
//	define-sort s (ps) S           Symbol=s, Params=ps (as Binding names), Sort=S
//	declare-const x S              Symbol=x, Sort=S
//	declare-fun f (Ss) S           Symbol=f, ArgSorts=Ss, Sort=S
//	define-fun f ((x S)...) S t    Symbol=f, Params, Sort, Terms=[t] (also define-fun-rec)
//	declare-datatypes              Raw holds the command's text after the name
//	assert t                       Terms=[t]
//	check-sat                      (nothing)
//	check-sat-assuming (ts)        Terms=ts
//	check-sat-using tactic         Raw=tactic text
//	push n, pop n                  Arity=n
//	get-value (ts)                 Terms=ts
//	other commands                 Raw holds the text after the name
type Command struct {
	Name     string
	Symbol   string
	Attr     Attr
	Arity    int
	Sort     *Sort
	ArgSorts []*Sort
	Params   []Binding
	Terms    []*Term
	Raw      string
}

// Script is a whole SMT-LIB script, commands in order.
type Script struct {
	Commands []*Command
}

// Logic returns the argument of the script's set-logic, or "".
func (s *Script) Logic() string {
	for _, c := range s.Commands {
		if c.Name == "set-logic" {
			return c.Symbol
		}
	}
	return ""
}

// quoteSymbol returns s as an SMT-LIB symbol, in |bars| when it is not a simple symbol (or looks
// like a number to a lenient reader: z3 reads the symbol -2 as a negative numeral).
func quoteSymbol(s string) string {
	if isSimpleSym(s) {
		return s
	}
	return "|" + s + "|"
}

// reserved lists SMT-LIB's reserved words, which need bars to be used as symbols.
var reserved = map[string]bool{
	"BINARY": true, "DECIMAL": true, "HEXADECIMAL": true, "NUMERAL": true, "STRING": true, "_": true,
	"!": true, "as": true, "let": true, "exists": true, "forall": true, "match": true, "par": true,
}
