package genopts

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// toy has a field of every kind; item is a list element type other than string.
type item int

var itemNames = []string{"a", "x", "y", "z"}

func (it item) String() string { return itemNames[it] }

type toy struct {
	r     Range
	n     int
	none  int // zero: its default; negative: none
	b     bool
	word  string
	items []item
	free  string // empty: left out when printed
	k     int    // 1: left out when printed, and when the text leaves it out
}

func defaultToy() toy {
	return toy{r: Range{Min: 1, Max: 2}, n: 3, none: 4, word: "p", items: []item{0}, k: 4}
}

func (t *toy) form() Form {
	return Form{Prefix: "toy: options", Name: "toy", Fields: []Field{
		Span("r", &t.r, 0, 10),
		Int("n", &t.n, 1, 5),
		IntOrNone("none", &t.none, 9),
		Bool("b", &t.b),
		Choice("word", "word", &t.word, []string{"p", "q"}),
		List("items", "item", &t.items, []item{0, 1, 2, 3}, item.String),
		Word("free", &t.free, func(s string) error {
			if strings.HasPrefix(s, "-") {
				return errors.New("want no leading -")
			}
			return nil
		}),
		IntOmit("k", &t.k, 1, 8, 1),
	}}
}

func TestForm(t *testing.T) {
	tests := []struct {
		text, want, err string // want: the options printed back after parsing; err: a parse or check error
	}{
		{"toy{}", "toy{r=1..2 n=3 none=4 b=false word=p items=a}", ""},
		{"toy{r=0..10 n=5 none=9 b=true word=q items=x,y}", "toy{r=0..10 n=5 none=9 b=true word=q items=x,y}", ""},
		{" toy{n=1} ", "toy{r=1..2 n=1 none=4 b=false word=p items=a}", ""},
		{"toy{items=z,a none=0 b=1}", "toy{r=1..2 n=3 none=0 b=true word=p items=z,a}", ""},
		{"toy{r=3}", "", `toy: options: r="3": want MIN..MAX`},
		{"toy{r=a..3}", "", `toy: options: r="a..3": want MIN..MAX`},
		{"toy{n=x}", "", `toy: options: n="x": want an integer`},
		{"toy{none=x}", "", `toy: options: none="x": want an integer`},
		{"toy{b=maybe}", "", `toy: options: b="maybe": want true or false`},
		{"toy{n}", "", `toy: options: "n" is not key=value; write n=VALUE`},
		{"toy{n=1 n=2}", "", `toy: options: key "n" repeated; give it once`},
		{"toy{m=1}", "", `toy: options: unknown key "m"; the keys are r, n, none, b, word, items, free, k`},
		{"other{n=1}", "", `toy: options "other{n=1}": want toy{key=value ...}`},
		{"toy{n=1", "", `toy: options "toy{n=1": want toy{key=value ...}`},
		{"toy{r=5..4}", "", "toy: options: r=5..4: write r=MIN..MAX with MIN <= MAX"},
		{"toy{r=0..11}", "", "toy: options: r=0..11 out of range; keep it within 0..10"},
		{"toy{n=6}", "", "toy: options: n=6 out of range; keep it within 1..5"},
		{"toy{none=-1}", "", "toy: options: none=-1 out of range; keep it within 0..9"},
		{"toy{none=10}", "", "toy: options: none=10 out of range; keep it within 0..9"},
		{"toy{word=r}", "", `toy: options: word: unknown word "r"; use p, q`},
		{"toy{items=}", "", "toy: options: items is empty; name at least one of a, x, y, z"},
		{"toy{items=x,w}", "", `toy: options: items: unknown item "w"; use a, x, y, z`},
		{"toy{items=x,y,x}", "", "toy: options: items: x listed twice; name it once"},
		{"toy{free=3.40+m}", "toy{r=1..2 n=3 none=4 b=false word=p items=a free=3.40+m}", ""},
		{"toy{free=}", "toy{r=1..2 n=3 none=4 b=false word=p items=a}", ""},
		{"toy{free=-x}", "", "toy: options: free=-x: want no leading -"},
		{"toy{k=4}", "toy{r=1..2 n=3 none=4 b=false word=p items=a k=4}", ""},
		{"toy{k=1}", "toy{r=1..2 n=3 none=4 b=false word=p items=a}", ""},
		{"toy{k=9}", "", "toy: options: k=9 out of range; keep it within 1..8"},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			o, err := Parse(tc.text, defaultToy(), (*toy).form)
			switch {
			case tc.err != "":
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case o.form().String() != tc.want:
				t.Fatalf("printed %q, want %q", o.form().String(), tc.want)
			}
		})
	}
}

// TestRoundTrip checks that parsing what a form prints gives the same values back.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		o    toy
	}{
		{"defaults", defaultToy()},
		{"bounds", toy{r: Range{Min: 0, Max: 10}, n: 5, none: 9, b: true, word: "q", items: []item{3, 2, 1, 0}, k: 8}},
		{"none", toy{r: Range{Min: 5, Max: 5}, n: 1, none: -1, word: "p", items: []item{2}, k: 1}},
		{"free word", toy{r: Range{Min: 5, Max: 5}, n: 1, none: 1, word: "p", items: []item{2}, free: "a+b", k: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.o.form().String()
			got, err := Parse(s, toy{}, (*toy).form)
			if err != nil {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			if !reflect.DeepEqual(got, tc.o) {
				t.Errorf("Parse(%q) = %+v, want %+v", s, got, tc.o)
			}
		})
	}
}

// TestCheck checks options built in code, not parsed: a negative IntOrNone is none, and values a
// text could not hold are still reported.
func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		edit func(*toy)
		err  string
	}{
		{"defaults", func(*toy) {}, ""},
		{"none negative", func(o *toy) { o.none = -5 }, ""},
		{"repeated item", func(o *toy) { o.items = []item{1, 3, 0, 2, 0} }, "items: a listed twice"},
		{"empty list", func(o *toy) { o.items = nil }, "items is empty"},
		{"empty word", func(o *toy) { o.word = "" }, `word: unknown word ""; use p, q`},
		{"first bad field", func(o *toy) { o.n, o.word = 0, "" }, "n=0 out of range"},
		{"word with a space", func(o *toy) { o.free = "a b" }, `free="a b": write one word`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := defaultToy()
			tc.edit(&o)
			err := o.form().Check()
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("Check() = %v, want %q", err, tc.err)
			}
		})
	}
}

// BenchmarkForm measures what generators do with their options per case or per setup: check
// them and print them.
func BenchmarkForm(b *testing.B) {
	o := defaultToy()
	b.ReportAllocs()
	for b.Loop() {
		f := o.form()
		if f.Check() != nil || f.String() == "" {
			b.Fatal("bad toy options")
		}
	}
}
