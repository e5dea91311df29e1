package cyphergen

import (
	"fmt"
	"math"
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

// Options configure the GDsmith graph generator ([GenerateSchema], [Generate]).
// [DefaultOptions] gives GDsmith's published parameters; fields marked as a deviation are
// polyfuzz's additions.
type Options struct {
	// Labels is the number of node labels L0, L1, ... (GDsmith: 5..7).
	Labels Range
	// RelTypes is the number of relationship types T0, T1, ... (GDsmith: 5..7).
	RelTypes Range
	// Keys is the number of property keys of each label and relationship type; keys are named
	// k0, k1, ... and unique across the schema (GDsmith: 5..7).
	Keys Range
	// PropTypes are the types property keys are drawn from, uniformly (GDsmith: integer, string,
	// boolean). Float is a deviation, off by default: GDsmith keeps floats out of its data to
	// avoid engines' differences in float printing.
	PropTypes []Type
	// Nodes is the number of nodes (GDsmith's --max-node-num: 128).
	Nodes int
	// Rels is the number of relationships in percent of Nodes, drawn uniformly within the range
	// (GDsmith: [Nodes/2, 2*Nodes), here 50..199).
	Rels Range
	// MaxLabels bounds the labels of one node (GDsmith's --label-num: 3). A node gets k labels
	// with probability 2^(k-1)/2^MaxLabels for k >= 1 (fewer labels are likelier) and none with
	// probability 1/2^MaxLabels; GDsmith fixes that exponent at 3.
	MaxLabels int
	// Presence is the percentage of a node's or relationship's keys that get a value
	// (GDsmith: 95).
	Presence int
	// Pool is the number of values drawn once per key, from which every element's value of
	// that key is picked, so that equalities hit (GDsmith: 20).
	Pool int
	// Ints is the range of integer values, and of float values when PropTypes has Float
	// (GDsmith: 32-bit integers).
	Ints Range
	// StrLen is the length of string values, alphanumeric characters and spaces. Deviation:
	// GDsmith uses SQLancer's random strings (default 0..8).
	StrLen Range
}

// DefaultOptions returns GDsmith's default graph parameters and polyfuzz's defaults for its
// additions.
func DefaultOptions() Options {
	return Options{
		Labels:    Range{5, 7},
		RelTypes:  Range{5, 7},
		Keys:      Range{5, 7},
		PropTypes: []Type{Integer, String, Boolean},
		Nodes:     128,
		Rels:      Range{50, 199},
		MaxLabels: 3,
		Presence:  95,
		Pool:      20,
		Ints:      Range{math.MinInt32, math.MaxInt32},
		StrLen:    Range{0, 8},
	}
}

// optRange is a range-valued option with its key and bounds.
type optRange struct {
	key      string
	p        *Range
	min, max int
}

// optInt is an integer-valued option with its key and bounds.
type optInt struct {
	key      string
	p        *int
	min, max int
}

func (o *Options) ranges() []optRange {
	return []optRange{
		{"labels", &o.Labels, 1, 64},
		{"reltypes", &o.RelTypes, 1, 64},
		{"keys", &o.Keys, 0, 64},
		{"rels", &o.Rels, 0, 1000},
		{"ints", &o.Ints, -1 << 62, 1 << 62}, // the span of the range fits a uint64
		{"strlen", &o.StrLen, 0, 256},
	}
}

func (o *Options) ints() []optInt {
	return []optInt{
		{"nodes", &o.Nodes, 1, 100000},
		{"max-labels", &o.MaxLabels, 0, 8},
		{"presence", &o.Presence, 0, 100},
		{"pool", &o.Pool, 1, 1000},
	}
}

// Validate reports the first option out of its bounds.
func (o Options) Validate() error {
	for _, f := range o.ranges() {
		r := *f.p
		if r.Min > r.Max {
			return fmt.Errorf("cyphergen: options: %s=%s: write %s=MIN..MAX with MIN <= MAX", f.key, r, f.key)
		}
		if r.Min < f.min || r.Max > f.max {
			return fmt.Errorf("cyphergen: options: %s=%s out of range; keep it within %d..%d", f.key, r, f.min, f.max)
		}
	}
	for _, f := range o.ints() {
		if *f.p < f.min || *f.p > f.max {
			return fmt.Errorf("cyphergen: options: %s=%d out of range; keep it within %d..%d", f.key, *f.p, f.min, f.max)
		}
	}
	if len(o.PropTypes) == 0 {
		return fmt.Errorf("cyphergen: options: no property types; name at least one of integer, float, string, boolean")
	}
	for i, t := range o.PropTypes {
		if t < Integer || t > Boolean {
			return fmt.Errorf("cyphergen: options: unknown property type %s; use integer, float, string or boolean", t)
		}
		if slices.Contains(o.PropTypes[:i], t) {
			return fmt.Errorf("cyphergen: options: property type %s listed twice; name it once", t)
		}
	}
	return nil
}

// String returns the options in canonical one-line form, for example "gdsmith{labels=5..7
// reltypes=5..7 ... proptypes=integer,string,boolean}". [ParseOptions] reads it back.
func (o Options) String() string {
	var b strings.Builder
	b.WriteString("gdsmith{")
	for i, f := range o.ranges() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.key + "=" + f.p.String())
	}
	for _, f := range o.ints() {
		b.WriteString(" " + f.key + "=" + strconv.Itoa(*f.p))
	}
	b.WriteString(" proptypes=")
	for i, t := range o.PropTypes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(t.String())
	}
	b.WriteByte('}')
	return b.String()
}

// ParseOptions reads options in the form [Options.String] writes. Keys left out take their
// defaults; unknown and repeated keys are errors, and so are options that [Options.Validate]
// rejects.
func ParseOptions(s string) (Options, error) {
	o := DefaultOptions()
	body, ok := strings.CutPrefix(strings.TrimSpace(s), "gdsmith{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return o, fmt.Errorf("cyphergen: options %q: want gdsmith{key=value ...}", s)
	}
	seen := map[string]bool{}
fields:
	for _, kv := range strings.Fields(body) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("cyphergen: options: %q is not key=value", kv)
		}
		if seen[k] {
			return o, fmt.Errorf("cyphergen: options: key %q repeated; give it once", k)
		}
		seen[k] = true
		if k == "proptypes" {
			o.PropTypes = nil
			for _, name := range strings.Split(v, ",") {
				t, ok := parseType(name)
				if !ok {
					return o, fmt.Errorf("cyphergen: options: unknown property type %q; use integer, float, string or boolean", name)
				}
				o.PropTypes = append(o.PropTypes, t)
			}
			continue
		}
		for _, f := range o.ranges() {
			if f.key == k {
				lo, hi, ok := strings.Cut(v, "..")
				a, err1 := strconv.Atoi(lo)
				b, err2 := strconv.Atoi(hi)
				if !ok || err1 != nil || err2 != nil {
					return o, fmt.Errorf("cyphergen: options: %s=%q: want MIN..MAX", k, v)
				}
				*f.p = Range{a, b}
				continue fields
			}
		}
		for _, f := range o.ints() {
			if f.key == k {
				n, err := strconv.Atoi(v)
				if err != nil {
					return o, fmt.Errorf("cyphergen: options: %s=%q: want an integer", k, v)
				}
				*f.p = n
				continue fields
			}
		}
		return o, fmt.Errorf("cyphergen: options: unknown key %q", k)
	}
	return o, o.Validate()
}
