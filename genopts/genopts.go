// Package genopts reads and writes a generator's options in the one-line text form campaigns
// store, NAME{key=value ...}: integer ranges MIN..MAX, integers, Booleans, one word of a fixed
// set, comma-separated lists of such words, and free words a generator checks itself. Generators
// describe their fields with [Span], [Flag], [Int], [IntOrNone], [Bool], [Choice], [List] and
// [Word]; genopts prints, parses and checks them, so that every generator's options read, print
// and fail alike.
package genopts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Range is an inclusive range of integers [Min, Max].
type Range struct {
	Min, Max int
}

// String returns "MIN..MAX".
func (r Range) String() string { return strconv.Itoa(r.Min) + ".." + strconv.Itoa(r.Max) }

// Field is one option of a [Form]: its key and where its value lives. Make one with [Span],
// [Int], [IntOrNone], [Bool], [Choice] or [List].
type Field struct {
	Key    string
	v      any  // *Range, *int, *bool, *choice, *word or listField
	lo, hi int  // the bounds of a Range or int
	none   bool // v is an IntOrNone
	// omitFalse leaves a false Boolean out of the text (a [Flag]).
	omitFalse bool
	// omitInt, when set, is the value of an [IntOmit] field that the text leaves out.
	omitInt *int
}

// choice is a [Choice] field; what names its value in errors.
type choice struct {
	p       *string
	what    string
	choices []string
}

// word is a [Word] field.
type word struct {
	p     *string
	check func(string) error
}

// listField is a [List] field, whatever its item type.
type listField interface {
	appendText(b []byte) []byte
	parse(key, v string) error
	check(key string) error
}

// Span is a field holding a Range, written MIN..MAX, whose ends must lie within lo..hi.
func Span(key string, p *Range, lo, hi int) Field {
	return Field{Key: key, v: p, lo: lo, hi: hi}
}

// Int is a field holding an integer within lo..hi.
func Int(key string, p *int, lo, hi int) Field {
	return Field{Key: key, v: p, lo: lo, hi: hi}
}

// IntOmit is an integer field within lo..hi that the text leaves out when it equals absent, and
// that a text without its key reads as absent (whatever the defaults it is parsed over): adding
// one to a generator leaves the options stored before it, and what they mean, unchanged.
func IntOmit(key string, p *int, lo, hi, absent int) Field {
	return Field{Key: key, v: p, lo: lo, hi: hi, omitInt: &absent}
}

// IntOrNone is a field holding a count within 0..hi in options where a zero field takes its
// default and a negative one means none: the text 0 is stored as -1, and a negative count is
// printed as 0.
func IntOrNone(key string, p *int, hi int) Field {
	return Field{Key: key, v: p, none: true, lo: 0, hi: hi}
}

// Bool is a field holding a Boolean, printed true or false (any form strconv.ParseBool takes
// is read).
func Bool(key string, p *bool) Field {
	return Field{Key: key, v: p}
}

// Flag is a Boolean field that the text holds only when it is true, so that adding one to a
// generator leaves the text of the options stored before it unchanged.
func Flag(key string, p *bool) Field {
	return Field{Key: key, v: p, omitFalse: true}
}

// Choice is a field holding one of choices; what names such a value in errors ("dialect").
func Choice(key, what string, p *string, choices []string) Field {
	return Field{Key: key, v: &choice{p: p, what: what, choices: choices}}
}

// List is a field holding a list of choices, at least one, each at most once, written as their
// names separated by commas; what names one item in errors ("oracle").
func List[T comparable](key, what string, p *[]T, choices []T, name func(T) string) Field {
	return Field{Key: key, v: &list[T]{p: p, what: what, choices: choices, name: name}}
}

// Word is a field holding one word without spaces or braces, which check accepts or explains
// (check may be nil). An empty word is its default: [Form.String] leaves the field out, so that
// adding a Word field to a generator's options leaves their text as it was.
func Word(key string, p *string, check func(string) error) Field {
	return Field{Key: key, v: &word{p: p, check: check}}
}

// appendText appends the field's value as text.
func (fl *Field) appendText(b []byte) []byte {
	switch p := fl.v.(type) {
	case *Range:
		b = strconv.AppendInt(b, int64(p.Min), 10)
		b = append(b, ".."...)
		return strconv.AppendInt(b, int64(p.Max), 10)
	case *int:
		if fl.none {
			return strconv.AppendInt(b, int64(max(*p, 0)), 10)
		}
		return strconv.AppendInt(b, int64(*p), 10)
	case *bool:
		return strconv.AppendBool(b, *p)
	case *choice:
		return append(b, *p.p...)
	case *word:
		return append(b, *p.p...)
	case listField:
		return p.appendText(b)
	}
	panic("genopts: a Field not made by its constructors")
}

// parse reads v, the text after "key=", into the field. Errors leave out the form's prefix.
func (fl *Field) parse(v string) error {
	key := fl.Key
	switch p := fl.v.(type) {
	case *Range:
		a, b, ok := strings.Cut(v, "..")
		m, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("%s=%q: want MIN..MAX", key, v)
		}
		*p = Range{m, n}
	case *int:
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%s=%q: want an integer", key, v)
		}
		if fl.none {
			if err := checkInt(key, n, fl.lo, fl.hi); err != nil {
				return err
			}
			if n == 0 {
				n = -1
			}
		}
		*p = n
	case *bool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%s=%q: want true or false", key, v)
		}
		*p = b
	case *choice:
		*p.p = v
	case *word:
		*p.p = v
	case listField:
		return p.parse(key, v)
	}
	return nil
}

// check reports a value out of its bounds or not among its choices. Errors leave out the form's
// prefix.
func (fl *Field) check() error {
	key := fl.Key
	switch p := fl.v.(type) {
	case *Range:
		switch r := *p; {
		case r.Min > r.Max:
			return fmt.Errorf("%s=%s: write %s=MIN..MAX with MIN <= MAX", key, r, key)
		case r.Min < fl.lo || r.Max > fl.hi:
			return fmt.Errorf("%s=%s out of range; keep it within %d..%d", key, r, fl.lo, fl.hi)
		}
	case *int:
		n := *p
		if fl.none {
			n = max(n, 0)
		}
		return checkInt(key, n, fl.lo, fl.hi)
	case *choice:
		if !slices.Contains(p.choices, *p.p) {
			return fmt.Errorf("%s: unknown %s %q; use %s", key, p.what, *p.p, strings.Join(p.choices, ", "))
		}
	case *word:
		switch {
		case strings.ContainsAny(*p.p, " \t\n{}"):
			return fmt.Errorf("%s=%q: write one word without spaces or braces", key, *p.p)
		case *p.p != "" && p.check != nil:
			if err := p.check(*p.p); err != nil {
				return fmt.Errorf("%s=%s: %w", key, *p.p, err)
			}
		}
	case listField:
		return p.check(key)
	}
	return nil
}

func checkInt(key string, n, lo, hi int) error {
	if n < lo || n > hi {
		return fmt.Errorf("%s=%d out of range; keep it within %d..%d", key, n, lo, hi)
	}
	return nil
}

// list is a [List] field of items of type T.
type list[T comparable] struct {
	p       *[]T
	what    string
	choices []T
	name    func(T) string
}

func (l *list[T]) appendText(b []byte) []byte {
	for i, it := range *l.p {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, l.name(it)...)
	}
	return b
}

// use lists the names of the choices, for errors.
func (l *list[T]) use() string {
	names := make([]string, len(l.choices))
	for i, c := range l.choices {
		names[i] = l.name(c)
	}
	return strings.Join(names, ", ")
}

func (l *list[T]) parse(key, v string) error {
	var items []T // "key=" is the empty list, which check rejects
	if v != "" {
	items:
		for s := range strings.SplitSeq(v, ",") {
			for _, c := range l.choices {
				if l.name(c) == s {
					items = append(items, c)
					continue items
				}
			}
			return fmt.Errorf("%s: unknown %s %q; use %s", key, l.what, s, l.use())
		}
	}
	*l.p = items
	return nil
}

func (l *list[T]) check(key string) error {
	items := *l.p
	if len(items) == 0 {
		return fmt.Errorf("%s is empty; name at least one of %s", key, l.use())
	}
	for i, it := range items {
		if !slices.Contains(l.choices, it) {
			return fmt.Errorf("%s: unknown %s %q; use %s", key, l.what, l.name(it), l.use())
		}
		if slices.Contains(items[:i], it) {
			return fmt.Errorf("%s: %s listed twice; name it once", key, l.name(it))
		}
	}
	return nil
}

// Form is a generator's options as text: Name{key=value ...}, the fields in order. Errors start
// with Prefix.
type Form struct {
	Prefix string // e.g. "datalog: options"
	Name   string // e.g. "queryfuzz"
	Fields []Field
}

// String prints the options in canonical form: every field, in order, but empty [Word] fields.
func (f Form) String() string {
	b := make([]byte, 0, 256)
	b = append(b, f.Name...)
	b = append(b, '{')
	start := len(b)
	for i := range f.Fields {
		if w, ok := f.Fields[i].v.(*word); ok && *w.p == "" {
			continue
		}
		if p, ok := f.Fields[i].v.(*bool); ok && f.Fields[i].omitFalse && !*p {
			continue
		}
		if p, ok := f.Fields[i].v.(*int); ok && f.Fields[i].omitInt != nil && *p == *f.Fields[i].omitInt {
			continue
		}
		if len(b) > start {
			b = append(b, ' ')
		}
		b = append(b, f.Fields[i].Key...)
		b = append(b, '=')
		b = f.Fields[i].appendText(b)
	}
	b = append(b, '}')
	return string(b)
}

// Parse reads s into the fields; keys left out keep their values, but an [IntOmit] field left
// out reads as its absent value. Unknown and repeated keys and
// malformed values are errors. It does not check bounds and choices: see Check.
func (f Form) Parse(s string) error {
	body, ok := strings.CutPrefix(strings.TrimSpace(s), f.Name+"{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return fmt.Errorf("%s %q: want %s{key=value ...}", f.Prefix, s, f.Name)
	}
	for i := range f.Fields {
		if p, ok := f.Fields[i].v.(*int); ok && f.Fields[i].omitInt != nil {
			*p = *f.Fields[i].omitInt
		}
	}
	seen := map[string]bool{}
	for _, kv := range strings.Fields(body) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%s: %q is not key=value; write %s=VALUE", f.Prefix, kv, kv)
		}
		if seen[k] {
			return fmt.Errorf("%s: key %q repeated; give it once", f.Prefix, k)
		}
		seen[k] = true
		i := slices.IndexFunc(f.Fields, func(fl Field) bool { return fl.Key == k })
		if i < 0 {
			return fmt.Errorf("%s: unknown key %q; the keys are %s", f.Prefix, k, f.keys())
		}
		if err := f.Fields[i].parse(v); err != nil {
			return fmt.Errorf("%s: %w", f.Prefix, err)
		}
	}
	return nil
}

// keys lists the fields' keys, comma-separated.
func (f Form) keys() string {
	var b strings.Builder
	for i, fl := range f.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(fl.Key)
	}
	return b.String()
}

// Check reports the first field, in order, whose value is out of its bounds (a range whose Min
// exceeds its Max too), not among its choices, or a list that is empty or repeats an item.
func (f Form) Check() error {
	for i := range f.Fields {
		if err := f.Fields[i].check(); err != nil {
			return fmt.Errorf("%s: %w", f.Prefix, err)
		}
	}
	return nil
}

// Parse returns o with the keys of text read into it, checked: a generator's ParseOptions, when o
// holds its default options and form describes the fields of the options it points to.
func Parse[O any](text string, o O, form func(*O) Form) (O, error) {
	f := form(&o)
	if err := f.Parse(text); err != nil {
		return o, err
	}
	return o, f.Check()
}
