// Package genopts reads and writes a generator's options in the one-line text form campaigns
// store, NAME{key=value ...}: integer ranges MIN..MAX, integers, and one comma-separated list.
// Generators describe their fields; genopts prints, parses and bounds-checks them.
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

// Field is one option: its key, where its value lives (Range or Int) and its bounds.
type Field struct {
	Key      string
	Range    *Range
	Int      *int
	Min, Max int
}

// Form is a generator's options as text: Name{fields... list=a,b}. Errors start with Prefix.
type Form struct {
	Prefix string // e.g. "datalog: options"
	Name   string // e.g. "queryfuzz"
	Fields []Field
	// ListKey names the list-valued option; List prints its items and SetList reads them.
	ListKey string
	List    func() []string
	SetList func(items []string) error
	// Choices are the items the list may hold; Check wants at least one, each once.
	Choices []string
}

// String prints the options in canonical form: the fields in order, then the list.
func (f Form) String() string {
	var b strings.Builder
	b.WriteString(f.Name + "{")
	for i, fl := range f.Fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		if fl.Range != nil {
			b.WriteString(fl.Key + "=" + fl.Range.String())
		} else {
			b.WriteString(fl.Key + "=" + strconv.Itoa(*fl.Int))
		}
	}
	b.WriteString(" " + f.ListKey + "=" + strings.Join(f.List(), ","))
	b.WriteByte('}')
	return b.String()
}

// Parse reads s into the fields; keys left out keep their values. Unknown and repeated keys and
// malformed values are errors. It does not check bounds: see Check.
func (f Form) Parse(s string) error {
	body, ok := strings.CutPrefix(strings.TrimSpace(s), f.Name+"{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return fmt.Errorf("%s %q: want %s{key=value ...}", f.Prefix, s, f.Name)
	}
	seen := map[string]bool{}
fields:
	for _, kv := range strings.Fields(body) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%s: %q is not key=value", f.Prefix, kv)
		}
		if seen[k] {
			return fmt.Errorf("%s: key %q repeated; give it once", f.Prefix, k)
		}
		seen[k] = true
		if k == f.ListKey {
			var items []string // "key=" is the empty list
			if v != "" {
				items = strings.Split(v, ",")
			}
			if err := f.SetList(items); err != nil {
				return err
			}
			continue
		}
		for _, fl := range f.Fields {
			if fl.Key != k {
				continue
			}
			if fl.Range != nil {
				lo, hi, ok := strings.Cut(v, "..")
				a, err1 := strconv.Atoi(lo)
				b, err2 := strconv.Atoi(hi)
				if !ok || err1 != nil || err2 != nil {
					return fmt.Errorf("%s: %s=%q: want MIN..MAX", f.Prefix, k, v)
				}
				*fl.Range = Range{a, b}
			} else {
				n, err := strconv.Atoi(v)
				if err != nil {
					return fmt.Errorf("%s: %s=%q: want an integer", f.Prefix, k, v)
				}
				*fl.Int = n
			}
			continue fields
		}
		return fmt.Errorf("%s: unknown key %q", f.Prefix, k)
	}
	return nil
}

func (f Form) checkList() error {
	if f.List == nil {
		return nil
	}
	items := f.List()
	choices := strings.Join(f.Choices, ", ")
	if len(items) == 0 {
		return fmt.Errorf("%s: %s is empty; name at least one of %s", f.Prefix, f.ListKey, choices)
	}
	for i, it := range items {
		if !slices.Contains(f.Choices, it) {
			return fmt.Errorf("%s: %s: unknown item %s; use %s", f.Prefix, f.ListKey, it, choices)
		}
		if slices.Contains(items[:i], it) {
			return fmt.Errorf("%s: %s: %s listed twice; name it once", f.Prefix, f.ListKey, it)
		}
	}
	return nil
}

// Check reports the first field out of its bounds, a range whose Min exceeds its Max, or a list
// that is empty, repeats an item or holds one not among Choices.
func (f Form) Check() error {
	if err := f.checkList(); err != nil {
		return err
	}
	for _, fl := range f.Fields {
		if r := fl.Range; r != nil {
			if r.Min > r.Max {
				return fmt.Errorf("%s: %s=%s: write %s=MIN..MAX with MIN <= MAX", f.Prefix, fl.Key, r, fl.Key)
			}
			if r.Min < fl.Min || r.Max > fl.Max {
				return fmt.Errorf("%s: %s=%s out of range; keep it within %d..%d", f.Prefix, fl.Key, r, fl.Min, fl.Max)
			}
		} else if *fl.Int < fl.Min || *fl.Int > fl.Max {
			return fmt.Errorf("%s: %s=%d out of range; keep it within %d..%d", f.Prefix, fl.Key, *fl.Int, fl.Min, fl.Max)
		}
	}
	return nil
}
