package genopts

import (
	"errors"
	"strings"
	"testing"
)

type toy struct {
	r     Range
	n     int
	items []string
}

func (t *toy) form() Form {
	return Form{Prefix: "toy: options", Name: "toy", ListKey: "items",
		Fields:  []Field{{Key: "r", Range: &t.r, Min: 0, Max: 10}, {Key: "n", Int: &t.n, Min: 1, Max: 5}},
		List:    func() []string { return t.items },
		Choices: []string{"a", "x", "y", "z"},
		SetList: func(items []string) error {
			for _, it := range items {
				if it == "bad" {
					return errors.New("toy: options: bad item")
				}
			}
			t.items = items
			return nil
		}}
}

func TestForm(t *testing.T) {
	tests := []struct {
		text, want, err string // want: the options printed back after parsing; err: a parse or check error
	}{
		{"toy{}", "toy{r=1..2 n=3 items=a}", ""},
		{"toy{r=0..10 n=5 items=x,y}", "toy{r=0..10 n=5 items=x,y}", ""},
		{" toy{n=1} ", "toy{r=1..2 n=1 items=a}", ""},
		{"toy{r=3}", "", `toy: options: r="3": want MIN..MAX`},
		{"toy{n=x}", "", `toy: options: n="x": want an integer`},
		{"toy{n}", "", `toy: options: "n" is not key=value`},
		{"toy{n=1 n=2}", "", `toy: options: key "n" repeated; give it once`},
		{"toy{m=1}", "", `toy: options: unknown key "m"`},
		{"toy{items=bad}", "", "toy: options: bad item"},
		{"other{n=1}", "", `toy: options "other{n=1}": want toy{key=value ...}`},
		{"toy{r=5..4}", "", "toy: options: r=5..4: write r=MIN..MAX with MIN <= MAX"},
		{"toy{r=0..11}", "", "toy: options: r=0..11 out of range; keep it within 0..10"},
		{"toy{n=6}", "", "toy: options: n=6 out of range; keep it within 1..5"},
		{"toy{items=}", "", "toy: options: items is empty; name at least one of a, x, y, z"},
		{"toy{items=x,w}", "", "toy: options: items: unknown item w; use a, x, y, z"},
		{"toy{items=x,y,x}", "", "toy: options: items: x listed twice; name it once"},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			o := &toy{r: Range{Min: 1, Max: 2}, n: 3, items: []string{"a"}}
			f := o.form()
			err := f.Parse(tc.text)
			if err == nil {
				err = f.Check()
			}
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case f.String() != tc.want:
				t.Fatalf("printed %q, want %q", f.String(), tc.want)
			}
		})
	}
}
