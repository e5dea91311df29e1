// Package genopts reads and writes a generator's options in the one-line text form campaigns
// store, NAME{key=value ...}: integer ranges MIN..MAX, integers, Booleans, one word of a fixed
// set, and comma-separated lists of such words. Generators describe their fields with [Span],
// [Int], [IntOrNone], [Bool], [Choice] and [List]; genopts prints, parses and checks them, so
// that every generator's options read, print and fail alike.
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

// Field is one option of a [Form]: its key and how its value is printed, read and checked. Make
// one with [Span], [Int], [IntOrNone], [Bool], [Choice] or [List].
type Field struct {
	Key   string
	print func() string
	parse func(v string) error // v is the text after "key="
	check func() error
}

// Span is a field holding a Range, written MIN..MAX, whose ends must lie within lo..hi.
func Span(key string, p *Range, lo, hi int) Field {
	return Field{Key: key,
		print: func() string { return p.String() },
		parse: func(v string) error {
			a, b, ok := strings.Cut(v, "..")
			m, err1 := strconv.Atoi(a)
			n, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil {
				return fmt.Errorf("%s=%q: want MIN..MAX", key, v)
			}
			*p = Range{m, n}
			return nil
		},
		check: func() error {
			switch {
			case p.Min > p.Max:
				return fmt.Errorf("%s=%s: write %s=MIN..MAX with MIN <= MAX", key, p, key)
			case p.Min < lo || p.Max > hi:
				return fmt.Errorf("%s=%s out of range; keep it within %d..%d", key, p, lo, hi)
			}
			return nil
		}}
}

// Int is a field holding an integer within lo..hi.
func Int(key string, p *int, lo, hi int) Field {
	return Field{Key: key,
		print: func() string { return strconv.Itoa(*p) },
		parse: func(v string) error { return parseInt(key, v, p) },
		check: func() error { return checkInt(key, *p, lo, hi) }}
}

// IntOrNone is a field holding a count within 0..hi in options where a zero field takes its
// default and a negative one means none: the text 0 is stored as -1, and a negative count is
// printed as 0.
func IntOrNone(key string, p *int, hi int) Field {
	return Field{Key: key,
		print: func() string { return strconv.Itoa(max(*p, 0)) },
		parse: func(v string) error {
			var n int
			if err := parseInt(key, v, &n); err != nil {
				return err
			}
			if err := checkInt(key, n, 0, hi); err != nil {
				return err
			}
			if n == 0 {
				n = -1
			}
			*p = n
			return nil
		},
		check: func() error { return checkInt(key, max(*p, 0), 0, hi) }}
}

func parseInt(key, v string, p *int) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("%s=%q: want an integer", key, v)
	}
	*p = n
	return nil
}

func checkInt(key string, n, lo, hi int) error {
	if n < lo || n > hi {
		return fmt.Errorf("%s=%d out of range; keep it within %d..%d", key, n, lo, hi)
	}
	return nil
}

// Bool is a field holding a Boolean, printed true or false (any form strconv.ParseBool takes
// is read).
func Bool(key string, p *bool) Field {
	return Field{Key: key,
		print: func() string { return strconv.FormatBool(*p) },
		parse: func(v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s=%q: want true or false", key, v)
			}
			*p = b
			return nil
		},
		check: func() error { return nil }}
}

// Choice is a field holding one of choices; what names such a value in errors ("dialect").
func Choice(key, what string, p *string, choices []string) Field {
	return Field{Key: key,
		print: func() string { return *p },
		parse: func(v string) error { *p = v; return nil },
		check: func() error {
			if !slices.Contains(choices, *p) {
				return fmt.Errorf("%s: unknown %s %q; use %s", key, what, *p, strings.Join(choices, ", "))
			}
			return nil
		}}
}

// List is a field holding a list of choices, at least one, each at most once, written as their
// names separated by commas; what names one item in errors ("oracle").
func List[T comparable](key, what string, p *[]T, choices []T, name func(T) string) Field {
	names := make([]string, len(choices))
	for i, c := range choices {
		names[i] = name(c)
	}
	use := strings.Join(names, ", ")
	return Field{Key: key,
		print: func() string {
			var b strings.Builder
			for i, it := range *p {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(name(it))
			}
			return b.String()
		},
		parse: func(v string) error {
			var items []T // "key=" is the empty list, which check rejects
			if v != "" {
				for s := range strings.SplitSeq(v, ",") {
					i := slices.Index(names, s)
					if i < 0 {
						return fmt.Errorf("%s: unknown %s %q; use %s", key, what, s, use)
					}
					items = append(items, choices[i])
				}
			}
			*p = items
			return nil
		},
		check: func() error {
			items := *p
			if len(items) == 0 {
				return fmt.Errorf("%s is empty; name at least one of %s", key, use)
			}
			for i, it := range items {
				if !slices.Contains(choices, it) {
					return fmt.Errorf("%s: unknown %s %q; use %s", key, what, name(it), use)
				}
				if slices.Contains(items[:i], it) {
					return fmt.Errorf("%s: %s listed twice; name it once", key, name(it))
				}
			}
			return nil
		}}
}

// Form is a generator's options as text: Name{key=value ...}, the fields in order. Errors start
// with Prefix.
type Form struct {
	Prefix string // e.g. "datalog: options"
	Name   string // e.g. "queryfuzz"
	Fields []Field
}

// String prints the options in canonical form: every field, in order.
func (f Form) String() string {
	var b strings.Builder
	b.WriteString(f.Name)
	b.WriteByte('{')
	for i, fl := range f.Fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fl.Key)
		b.WriteByte('=')
		b.WriteString(fl.print())
	}
	b.WriteByte('}')
	return b.String()
}

// Parse reads s into the fields; keys left out keep their values. Unknown and repeated keys and
// malformed values are errors. It does not check bounds and choices: see Check.
func (f Form) Parse(s string) error {
	body, ok := strings.CutPrefix(strings.TrimSpace(s), f.Name+"{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return fmt.Errorf("%s %q: want %s{key=value ...}", f.Prefix, s, f.Name)
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
	for _, fl := range f.Fields {
		if err := fl.check(); err != nil {
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
