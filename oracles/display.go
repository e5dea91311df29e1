package oracles

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Display prints canonical values (see fuzz/values.go) in an engine's own notation for the
// expected and actual lines of a finding, so that they can be pasted into a bug report. The zero
// Display prints values with [ShowValue] and a row as "(v, v, ...)". A domain sets its own
// functions (SQL literals, Cypher values, Datalog facts) where it wires the oracles.
//
// Whatever the functions return, a value longer than [MaxShown] characters is cut in the middle.
type Display struct {
	// Value prints one canonical value; nil means ShowValue.
	Value func(v string) string
	// Row prints one row of canonical values; nil means "(" + the values, each printed by Value
	// and cut to MaxShown characters, joined by ", " + ")".
	Row func(row []string) string
}

// MaxShown is the longest value, in characters, that Display prints whole; a longer one is cut
// in the middle (a node's labels and id and its last properties stay). A row printed by
// Display.Row is cut at MaxShown times 4.
const MaxShown = 60

// value prints v.
func (d Display) value(v string) string {
	show := d.Value
	if show == nil {
		show = ShowValue
	}
	return Elide(show(v), MaxShown)
}

// row prints r.
func (d Display) row(r []string) string {
	if d.Row != nil {
		return Elide(d.Row(r), 4*MaxShown)
	}
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = d.value(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// maxRowsShown is how many rows a finding's line shows before it gives the count.
const maxRowsShown = 3

// rows prints up to maxRowsShown row keys (values joined by "\x1f", as Bag keys are) and, when
// there are more, how many there are in all.
func (d Display) rows(keys []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i == maxRowsShown {
			fmt.Fprintf(&b, " ... (%d in all)", len(keys))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(d.row(strings.Split(k, "\x1f")))
	}
	return b.String()
}

// ShowValue prints a canonical value without polyfuzz's type tag, in the notation most engines
// read: NULL, 3, -1.5, 1.0 for the float 1, text in single quotes (a quote in it doubled), X'00ff'
// for bytes, TRUE and FALSE. Values with a prefix it does not know are returned as they are.
func ShowValue(v string) string {
	if v == fuzz.Null {
		return "NULL"
	}
	tag, body, ok := strings.Cut(v, ":")
	if !ok || len(tag) != 1 {
		return v
	}
	switch tag {
	case "i", "d":
		return body
	case "r":
		return FloatText(body)
	case "t":
		return "'" + strings.ReplaceAll(body, "'", "''") + "'"
	case "b":
		return "X'" + body + "'"
	case "B":
		return strings.ToUpper(body)
	}
	return v
}

// FloatText prints the body of a canonical float so that it reads as a float: a whole number
// gets ".0" ("1" becomes "1.0"), "+Inf" becomes "Inf"; other forms are kept.
func FloatText(body string) string {
	switch body {
	case "+Inf":
		return "Inf"
	case "NaN", "-Inf":
		return body
	}
	if strings.ContainsAny(body, ".eEn") {
		return body
	}
	return body + ".0"
}

// Elide cuts s to at most max characters by replacing its middle with "…"; shorter text is
// returned as it is.
func Elide(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max || max < 5 {
		return s
	}
	r := []rune(s)
	keep := max - 1
	head := (keep + 1) / 2
	tail := keep - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
