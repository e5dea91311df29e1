package datalog

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

const muzSource = `.decl e(x: number, y: number)
.decl s(a: symbol, n: number)
.decl z()
.decl out(a: symbol)
.input e
.output z
.output out
e(-3, 2). e(2, 9).
s("b", 2). s("a", 9).
z() :- s(_, _), !e(_, 9).
out(A) :- s(A, N), !e(N, _), A < "b", N != 7.
`

const muzGolden = `(set-option :fp.engine datalog)
(define-sort $N () (_ BitVec 2))
(define-sort $S () (_ BitVec 1))
(declare-rel e ($N $N))
(declare-rel s ($S $N))
(declare-rel z ())
(declare-rel out ($S))
(declare-rel $neg0 ())
(declare-rel $neg1 ($N))
(declare-var $n0 $N)
(declare-var $n1 $N)
(declare-var $s0 $S)
(rule (e #b00 #b01))
(rule (e #b01 #b11))
(rule (s #b1 #b01))
(rule (s #b0 #b11))
(rule (=> (e $n1 #b11) $neg0))
(rule (=> (and (s $s0 $n0) (not $neg0)) z))
(rule (=> (e $n0 $n1) ($neg1 $n0)))
(rule (=> (and (s $s0 $n0) (not ($neg1 $n0)) (bvult $s0 #b1) (not (= $n0 #b10))) (out $s0)))
(query z :print-answer true)
(query out :print-answer true)
`

func TestMuZTranslate(t *testing.T) {
	p, err := Parse("muz.dl", muzSource)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := MuZ{}.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Text != muzGolden {
		t.Errorf("translation:\n%s\nwant:\n%s", tr.Text, muzGolden)
	}
	files, cmd, err := MuZ{}.Script(p, "p0")
	if err != nil || files["p0.smt2"] != muzGolden || cmd != "z3 p0.smt2" {
		t.Errorf("Script = %v, %q, %v", files, cmd, err)
	}
	tests := []struct {
		typ       Type
		raw, want string
		err       string
	}{
		{Number, "#b00", "i:-3", ""},
		{Number, "#x3", "i:9", ""},
		{Number, "(_ bv2 2)", "i:7", ""},
		{Symbol, "#b1", "t:b", ""},
		{Symbol, "#b10", "", "past the program's 2 symbol constants"},
		{Number, "#b100", "", "past the program's 4 number constants"},
		{Number, "3", "", "not a bit-vector literal"},
		{Number, "#b2", "", "not a bit-vector literal"},
		{Number, "(_ bv 2)", "", "not a bit-vector literal"},
	}
	for _, tc := range tests {
		got, err := tr.Decode(tc.typ, tc.raw)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Decode(%s, %q) error = %v, want %q", tc.typ, tc.raw, err, tc.err)
			}
		} else if err != nil || got != tc.want {
			t.Errorf("Decode(%s, %q) = %q, %v; want %q", tc.typ, tc.raw, got, err, tc.want)
		}
	}
}

func TestMuZUnsupported(t *testing.T) {
	for _, name := range []string{"let", "forall", "exists", "lambda", "as", "match"} {
		p, err := Parse("r.dl", ".decl "+name+"(x: number)\n.output "+name+"\n"+name+"(1).\n")
		if err != nil {
			t.Fatal(err)
		}
		_, err = MuZ{}.Translate(p)
		var u *Unsupported
		if !errors.As(err, &u) || u.Feature != "relation-name" || u.Engine != "muz" {
			t.Errorf("relation %s: %v, want Unsupported relation-name", name, err)
		}
	}
}

// TestMuZDomain checks that indexes keep the canonical order of constants and that widths fit.
func TestMuZDomain(t *testing.T) {
	r := rand.New(rand.NewPCG(testenv.Seed(t), 1))
	for range 200 {
		var nums []Term
		var syms []Term
		for range 1 + r.IntN(40) {
			switch r.IntN(4) {
			case 0:
				nums = append(nums, N([]int64{math.MinInt64, math.MaxInt64, 0, -1}[r.IntN(4)]))
			case 1:
				nums = append(nums, N(r.Int64N(21)-10))
			default:
				b := make([]byte, r.IntN(3))
				for i := range b {
					b[i] = []byte{0, 'a', 'b', 0x7f, 0x80, 0xff}[r.IntN(6)]
				}
				syms = append(syms, S(string(b)))
			}
		}
		p := &Program{Relations: []Relation{{Name: "n", Attrs: []Attr{{"x", Number}}}, {Name: "s", Attrs: []Attr{{"x", Symbol}}}}}
		for _, c := range nums {
			p.Rules = append(p.Rules, Rule{Head: Atom{Rel: "n", Args: []Term{c}}})
		}
		for _, c := range syms {
			p.Rules = append(p.Rules, Rule{Head: Atom{Rel: "s", Args: []Term{c}}})
		}
		d := newDomain(p)
		for _, cs := range [][]Term{nums, syms} {
			for _, a := range cs {
				for _, b := range cs {
					if want := compareConst(a, b); compareInts(d.index(a), d.index(b)) != want {
						t.Fatalf("constants %v, %v have indexes %d, %d", a, b, d.index(a), d.index(b))
					}
				}
				typ := constType(a)
				if d.index(a) >= 1<<d.width(typ) || len(d.literal(a)) != 2+d.width(typ) {
					t.Fatalf("constant %v: index %d, width %d, literal %s", a, d.index(a), d.width(typ), d.literal(a))
				}
				if got, err := d.decode(typ, d.literal(a)); err != nil || got != Canonical(a) {
					t.Fatalf("decode(literal(%v)) = %q, %v", a, got, err)
				}
			}
		}
	}
	for _, tc := range []struct{ n, width int }{{0, 1}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {256, 8}, {257, 9}} {
		d := &domain{nums: make([]int64, tc.n)}
		if d.width(Number) != tc.width {
			t.Errorf("%d constants: width %d, want %d", tc.n, d.width(Number), tc.width)
		}
	}
}

func compareConst(a, b Term) int {
	if a.Kind == Sym {
		return strings.Compare(a.Sym, b.Sym)
	}
	return compareInts(a.Num, b.Num)
}

func compareInts[T int | int64](a, b T) int {
	return slices.Compare([]T{a}, []T{b})
}
