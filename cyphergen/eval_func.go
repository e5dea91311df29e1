package cyphergen

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// function is a scalar function: its arity range and its body, called with evaluated arguments.
type function struct {
	min, max int
	f        func(args []cypherval.Val) (cypherval.Val, error)
}

// functions are the scalar functions the evaluator models, by lowercase name.
var functions map[string]function

func init() {
	functions = map[string]function{
		"toupper":    {1, 1, strFunc(strings.ToUpper)},
		"tolower":    {1, 1, strFunc(strings.ToLower)},
		"trim":       {1, 1, strFunc(func(s string) string { return strings.Trim(s, javaSpace) })},
		"ltrim":      {1, 1, strFunc(func(s string) string { return strings.TrimLeft(s, javaSpace) })},
		"rtrim":      {1, 1, strFunc(func(s string) string { return strings.TrimRight(s, javaSpace) })},
		"reverse":    {1, 1, fnReverse},
		"size":       {1, 1, fnSize},
		"substring":  {2, 3, fnSubstring},
		"left":       {2, 2, fnLeft},
		"right":      {2, 2, fnRight},
		"replace":    {3, 3, fnReplace},
		"split":      {2, 2, fnSplit},
		"tostring":   {1, 1, fnToString},
		"tointeger":  {1, 1, fnToInteger},
		"tofloat":    {1, 1, fnToFloat},
		"toboolean":  {1, 1, fnToBoolean},
		"abs":        {1, 1, fnAbs},
		"sign":       {1, 1, fnSign},
		"coalesce":   {1, math.MaxInt, fnCoalesce},
		"head":       {1, 1, listFunc(func(l []cypherval.Val) cypherval.Val { return elemAt(l, 0) })},
		"last":       {1, 1, listFunc(func(l []cypherval.Val) cypherval.Val { return elemAt(l, len(l)-1) })},
		"tail":       {1, 1, listFunc(fnTail)},
		"range":      {2, 3, fnRange},
		"labels":     {1, 1, fnLabels},
		"type":       {1, 1, fnType},
		"keys":       {1, 1, fnKeys},
		"properties": {1, 1, fnProperties},
	}
	for name, f := range readFunctions {
		functions[name] = f
	}
}

// javaSpace holds the ASCII characters Java's Character.isWhitespace accepts.
const javaSpace = " \t\n\v\f\r\x1c\x1d\x1e\x1f"

func evalCall(e *Call, row map[string]cypherval.Val) (cypherval.Val, error) {
	name := strings.ToLower(e.Name)
	if Aggregates[name] {
		return cypherval.NullVal, semantic("aggregate " + e.Name + " outside a projection")
	}
	fn, ok := functions[name]
	if !ok {
		return cypherval.NullVal, unsupported("function " + e.Name)
	}
	if e.Star || e.Distinct {
		return cypherval.NullVal, semantic("* or DISTINCT in " + e.Name)
	}
	if len(e.Args) < fn.min || len(e.Args) > fn.max {
		return cypherval.NullVal, semantic("wrong number of arguments to " + e.Name)
	}
	args := make([]cypherval.Val, len(e.Args))
	for i, a := range e.Args {
		v, err := eval(a, row)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	return fn.f(args)
}

// strFunc lifts a function of an ASCII string; other text is "unsupported", since Java's case
// mappings and whitespace differ from Go's beyond ASCII.
func strFunc(f func(string) string) func([]cypherval.Val) (cypherval.Val, error) {
	return func(args []cypherval.Val) (cypherval.Val, error) {
		s, null, err := asciiArg(args[0])
		if null || err != nil {
			return cypherval.NullVal, err
		}
		return cypherval.StringVal(f(s)), nil
	}
}

// asciiArg returns a string argument; null reports null, a non-string is a type error and a
// non-ASCII string "unsupported".
func asciiArg(v cypherval.Val) (s string, null bool, err error) {
	switch v.Kind {
	case cypherval.Null:
		return "", true, nil
	case cypherval.String:
		if !isASCII(v.S) {
			return "", false, unsupported("non-ASCII string argument")
		}
		return v.S, false, nil
	}
	return "", false, typeErr("expected a string, got " + v.Kind.String())
}

// listFunc lifts a function of a list; null gives null, other types a type error.
func listFunc(f func([]cypherval.Val) cypherval.Val) func([]cypherval.Val) (cypherval.Val, error) {
	return func(args []cypherval.Val) (cypherval.Val, error) {
		switch args[0].Kind {
		case cypherval.Null:
			return cypherval.NullVal, nil
		case cypherval.List:
			return f(args[0].L), nil
		}
		return cypherval.NullVal, typeErr("expected a list, got " + args[0].Kind.String())
	}
}

func elemAt(l []cypherval.Val, i int) cypherval.Val {
	if i < 0 || i >= len(l) {
		return cypherval.NullVal
	}
	return l[i]
}

func fnTail(l []cypherval.Val) cypherval.Val {
	if len(l) == 0 {
		return cypherval.ListVal()
	}
	return cypherval.ListVal(slices.Clone(l[1:])...)
}

func fnReverse(args []cypherval.Val) (cypherval.Val, error) {
	if args[0].Kind == cypherval.List {
		l := slices.Clone(args[0].L)
		slices.Reverse(l)
		return cypherval.ListVal(l...), nil
	}
	return strFunc(func(s string) string {
		b := []byte(s)
		slices.Reverse(b)
		return string(b)
	})(args)
}

func fnSize(args []cypherval.Val) (cypherval.Val, error) {
	if args[0].Kind == cypherval.List {
		return cypherval.IntVal(int64(len(args[0].L))), nil
	}
	s, null, err := asciiArg(args[0])
	if null || err != nil {
		return cypherval.NullVal, err
	}
	return cypherval.IntVal(int64(len(s))), nil
}

// intArg returns a non-negative integer argument; null or another type is "unsupported" (the
// engines' messages differ), a negative value an "argument" error.
func intArg(v cypherval.Val, what string) (int64, error) {
	if v.Kind != cypherval.Int {
		return 0, unsupported(what + " of type " + v.Kind.String())
	}
	if v.I < 0 {
		return 0, evalErr(CodeArgument, what+" is negative")
	}
	return v.I, nil
}

// substr returns s[start:start+n] clipped to s.
func substr(s string, start, n int64) string {
	l := int64(len(s))
	start = min(start, l)
	return s[start:min(l, start+min(n, l))]
}

func fnSubstring(args []cypherval.Val) (cypherval.Val, error) {
	s, null, err := asciiArg(args[0])
	if err != nil || null {
		return cypherval.NullVal, err
	}
	start, err := intArg(args[1], "substring start")
	if err != nil {
		return cypherval.NullVal, err
	}
	n := int64(len(s))
	if len(args) == 3 {
		if n, err = intArg(args[2], "substring length"); err != nil {
			return cypherval.NullVal, err
		}
	}
	return cypherval.StringVal(substr(s, start, n)), nil
}

func fnLeft(args []cypherval.Val) (cypherval.Val, error) {
	s, null, err := asciiArg(args[0])
	if err != nil || null {
		return cypherval.NullVal, err
	}
	n, err := intArg(args[1], "left length")
	if err != nil {
		return cypherval.NullVal, err
	}
	return cypherval.StringVal(substr(s, 0, n)), nil
}

func fnRight(args []cypherval.Val) (cypherval.Val, error) {
	s, null, err := asciiArg(args[0])
	if err != nil || null {
		return cypherval.NullVal, err
	}
	n, err := intArg(args[1], "right length")
	if err != nil {
		return cypherval.NullVal, err
	}
	l := int64(len(s))
	return cypherval.StringVal(s[l-min(n, l):]), nil
}

// stringArgs returns the string arguments; ok is false when one is null.
func stringArgs(args []cypherval.Val) (ss []string, ok bool, err error) {
	ss = make([]string, len(args))
	for i, a := range args {
		switch a.Kind {
		case cypherval.Null:
			ok = false
			return nil, false, nil
		case cypherval.String:
			ss[i] = a.S
		default:
			return nil, false, typeErr("expected a string, got " + a.Kind.String())
		}
	}
	return ss, true, nil
}

func fnReplace(args []cypherval.Val) (cypherval.Val, error) {
	ss, ok, err := stringArgs(args)
	if !ok || err != nil {
		return cypherval.NullVal, err
	}
	if ss[1] == "" && !isASCII(ss[0]) {
		return cypherval.NullVal, unsupported("replace of the empty string in non-ASCII text")
	}
	return cypherval.StringVal(strings.ReplaceAll(ss[0], ss[1], ss[2])), nil
}

func fnSplit(args []cypherval.Val) (cypherval.Val, error) {
	ss, ok, err := stringArgs(args)
	if !ok || err != nil {
		return cypherval.NullVal, err
	}
	if ss[1] == "" {
		return cypherval.NullVal, unsupported("split on the empty string")
	}
	parts := strings.Split(ss[0], ss[1])
	l := make([]cypherval.Val, len(parts))
	for i, p := range parts {
		l[i] = cypherval.StringVal(p)
	}
	return cypherval.ListVal(l...), nil
}

func formatInt(i int64) string { return strconv.FormatInt(i, 10) }

func fnToString(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null, cypherval.String:
		return v, nil
	case cypherval.Int:
		return cypherval.StringVal(formatInt(v.I)), nil
	case cypherval.Bool:
		return cypherval.StringVal(strconv.FormatBool(v.B)), nil
	}
	return cypherval.NullVal, unsupported("toString of " + v.Kind.String())
}

var (
	intText   = regexp.MustCompile(`^-?[0-9]+$`)
	floatText = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
)

// notNumberText reports whether s surely does not parse as a Java double: no digit and no
// spelling of NaN or Infinity.
func notNumberText(s string) bool {
	return !strings.ContainsAny(s, "0123456789") && !strings.Contains(s, "NaN") && !strings.Contains(s, "Infinity")
}

func fnToInteger(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null, cypherval.Int:
		return v, nil
	case cypherval.Bool:
		if v.B {
			return cypherval.IntVal(1), nil
		}
		return cypherval.IntVal(0), nil
	case cypherval.Float:
		return truncFloat(v.F)
	case cypherval.String:
		if intText.MatchString(v.S) {
			if i, err := strconv.ParseInt(v.S, 10, 64); err == nil {
				return cypherval.IntVal(i), nil
			}
		} else if notNumberText(v.S) {
			return cypherval.NullVal, nil
		}
		return cypherval.NullVal, unsupported("toInteger of the string " + strconv.Quote(v.S))
	}
	return cypherval.NullVal, unsupported("toInteger of " + v.Kind.String())
}

func truncFloat(f float64) (cypherval.Val, error) {
	if math.IsNaN(f) || f >= 0x1p63 || f < -0x1p63 {
		return cypherval.NullVal, unsupported("toInteger of a float out of range")
	}
	return cypherval.IntVal(int64(f)), nil
}

func fnToFloat(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null, cypherval.Float:
		return v, nil
	case cypherval.Int:
		return cypherval.FloatVal(float64(v.I)), nil
	case cypherval.String:
		if floatText.MatchString(v.S) {
			if f, err := strconv.ParseFloat(v.S, 64); err == nil {
				return cypherval.FloatVal(f), nil
			}
		} else if notNumberText(v.S) {
			return cypherval.NullVal, nil
		}
		return cypherval.NullVal, unsupported("toFloat of the string " + strconv.Quote(v.S))
	}
	return cypherval.NullVal, unsupported("toFloat of " + v.Kind.String())
}

func fnToBoolean(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null, cypherval.Bool:
		return v, nil
	case cypherval.String:
		switch strings.ToLower(v.S) {
		case "true":
			return cypherval.BoolVal(true), nil
		case "false":
			return cypherval.BoolVal(false), nil
		}
		switch strings.ToLower(strings.Trim(v.S, javaSpace)) {
		case "true", "false":
			return cypherval.NullVal, unsupported("toBoolean of a padded string")
		}
		return cypherval.NullVal, nil
	}
	return cypherval.NullVal, unsupported("toBoolean of " + v.Kind.String())
}

func fnAbs(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null:
		return v, nil
	case cypherval.Int:
		if v.I == math.MinInt64 {
			return v, unsupported("abs of the least integer")
		}
		if v.I < 0 {
			return cypherval.IntVal(-v.I), nil
		}
		return v, nil
	case cypherval.Float:
		return cypherval.FloatVal(math.Abs(v.F)), nil
	}
	return cypherval.NullVal, typeErr("abs of " + v.Kind.String())
}

func fnSign(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null:
		return v, nil
	case cypherval.Int:
		return cypherval.IntVal(int64(cmp3(v.I, 0))), nil
	case cypherval.Float:
		if math.IsNaN(v.F) {
			return cypherval.NullVal, unsupported("sign of NaN")
		}
		return cypherval.IntVal(int64(cmp3(v.F, 0))), nil
	}
	return cypherval.NullVal, typeErr("sign of " + v.Kind.String())
}

func fnCoalesce(args []cypherval.Val) (cypherval.Val, error) {
	for _, a := range args {
		if !a.IsNull() {
			return a, nil
		}
	}
	return cypherval.NullVal, nil
}

// maxRange bounds the lists range builds.
const maxRange = 1 << 20

func fnRange(args []cypherval.Val) (cypherval.Val, error) {
	ns := []int64{0, 0, 1}
	for i, a := range args {
		if a.Kind != cypherval.Int {
			return cypherval.NullVal, unsupported("range argument of type " + a.Kind.String())
		}
		ns[i] = a.I
	}
	from, to, step := ns[0], ns[1], ns[2]
	if step == 0 {
		return cypherval.NullVal, evalErr(CodeArgument, "range step is zero")
	}
	var l []cypherval.Val
	for i := from; (step > 0 && i <= to) || (step < 0 && i >= to); i += step {
		if len(l) == maxRange {
			return cypherval.NullVal, unsupported("range too long")
		}
		l = append(l, cypherval.IntVal(i))
		if (step > 0 && i > math.MaxInt64-step) || (step < 0 && i < math.MinInt64-step) {
			break
		}
	}
	return cypherval.ListVal(l...), nil
}

func fnLabels(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null:
		return v, nil
	case cypherval.Node:
		ls := slices.Clone(v.Labels)
		slices.Sort(ls)
		return stringList(ls), nil
	}
	return cypherval.NullVal, typeErr("labels of " + v.Kind.String())
}

func stringList(ss []string) cypherval.Val {
	l := make([]cypherval.Val, len(ss))
	for i, s := range ss {
		l[i] = cypherval.StringVal(s)
	}
	return cypherval.ListVal(l...)
}

func fnType(args []cypherval.Val) (cypherval.Val, error) {
	v := args[0]
	switch v.Kind {
	case cypherval.Null:
		return v, nil
	case cypherval.Rel:
		if len(v.Labels) == 0 {
			return cypherval.NullVal, unsupported("relationship without a type")
		}
		return cypherval.StringVal(v.Labels[0]), nil
	}
	return cypherval.NullVal, typeErr("type of " + v.Kind.String())
}

// props returns the properties of a node or relationship, or a map's entries; ok is false for
// null.
func props(v cypherval.Val, fn string) (m map[string]cypherval.Val, ok bool, err error) {
	switch v.Kind {
	case cypherval.Null:
		return nil, false, nil
	case cypherval.Node, cypherval.Rel:
		m = make(map[string]cypherval.Val, len(v.M))
		for k, x := range v.M {
			if !x.IsNull() {
				m[k] = x
			}
		}
		return m, true, nil
	case cypherval.Map:
		return v.M, true, nil
	}
	return nil, false, typeErr(fn + " of " + v.Kind.String())
}

func fnKeys(args []cypherval.Val) (cypherval.Val, error) {
	m, ok, err := props(args[0], "keys")
	if !ok {
		return cypherval.NullVal, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return stringList(keys), nil
}

func fnProperties(args []cypherval.Val) (cypherval.Val, error) {
	m, ok, err := props(args[0], "properties")
	if !ok {
		return cypherval.NullVal, err
	}
	return cypherval.Val{Kind: cypherval.Map, M: m}, nil
}
