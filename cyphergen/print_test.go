package cyphergen

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/testenv"
)

func TestLiteral(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{IntValue(0), "0"},
		{IntValue(-42), "-42"},
		{IntValue(math.MaxInt64), "9223372036854775807"},
		{IntValue(math.MinInt64), "(-9223372036854775807 - 1)"},
		{FloatValue(0), "0.0"},
		{FloatValue(math.Copysign(0, -1)), "-0.0"},
		{FloatValue(-3), "-3.0"},
		{FloatValue(0.1), "0.1"},
		{FloatValue(123456.75), "123456.75"},
		{FloatValue(1e-4), "0.0001"},
		{FloatValue(1.5e-7), "1.5e-7"},
		{FloatValue(-2e21), "-2.0e21"},
		{FloatValue(5e-324), "5.0e-324"},
		{FloatValue(math.NaN()), "(0.0/0.0)"},
		{FloatValue(math.Inf(1)), "(1.0/0.0)"},
		{FloatValue(math.Inf(-1)), "(-1.0/0.0)"},
		{StringValue(""), "''"},
		{StringValue("ab c"), "'ab c'"},
		{StringValue(`it's "x"`), `'it\'s "x"'`},
		{StringValue(`a\b`), `'a\\b'`},
		{StringValue("l1\nl2\r\t\b\f"), `'l1\nl2\r\t\b\f'`},
		{StringValue("\x00\x1f\x7f"), `'\u0000\u001F\u007F'`},
		{StringValue("é€"), "'é€'"},
		{StringValue("a\xffb"), "'a\uFFFDb'"},
		{BoolValue(true), "true"},
		{BoolValue(false), "false"},
	} {
		if got := Literal(tc.v); got != tc.want {
			t.Errorf("Literal(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

// TestFloatRoundTrip checks that float literals read back exactly and always look like floats.
func TestFloatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(testenv.Seed(t), 1))
	for range 20000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if r.IntN(2) == 0 { // also moderate magnitudes, printed without exponent
			f = math.Ldexp(f, -math.Ilogb(f)+r.IntN(140)-70)
		}
		s := Literal(FloatValue(f))
		mant, _, _ := strings.Cut(s, "e")
		if !strings.Contains(mant, ".") || strings.Contains(s, "+") {
			t.Fatalf("Literal(%v) = %s, want a '.' in the mantissa and no '+'", f, s)
		}
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(back) != math.Float64bits(f) {
			t.Fatalf("Literal(%v) = %s reads back as %v, %v", f, s, back, err)
		}
	}
}

// TestStringRoundTrip reads string literals back with Cypher's escape rules.
func TestStringRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(testenv.Seed(t), 2))
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		s := string(b)
		lit := Literal(StringValue(s))
		back, err := unquote(lit)
		if err != nil || back != strings.ToValidUTF8(s, "\uFFFD") {
			t.Fatalf("Literal(%q) = %s reads back as %q, %v", s, lit, back, err)
		}
	}
}

// unquote reads a single-quoted Cypher string literal.
func unquote(lit string) (string, error) {
	body, ok := strings.CutPrefix(lit, "'")
	if body, ok = strings.CutSuffix(body, "'"); !ok {
		return "", strconv.ErrSyntax
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\'' {
			return "", strconv.ErrSyntax // unescaped quote ends the literal early
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(body) {
			return "", strconv.ErrSyntax
		}
		switch body[i] {
		case '\\', '\'', '"':
			b.WriteByte(body[i])
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+4 >= len(body) {
				return "", strconv.ErrSyntax
			}
			n, err := strconv.ParseUint(body[i+1:i+5], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			return "", strconv.ErrSyntax
		}
	}
	return b.String(), nil
}

func TestStatements(t *testing.T) {
	g := &Graph{
		Nodes: []Node{
			{ID: 0, Props: Props{{"id", IntValue(0)}}},
			{ID: 1, Labels: []string{"L0", "L2"}, Props: Props{{"id", IntValue(1)}, {"k0", StringValue("a'b")}, {"k3", FloatValue(-1)}}},
		},
		Rels: []Rel{
			{ID: 2, Type: "T1", From: 1, To: 0, Props: Props{{"id", IntValue(2)}, {"k9", BoolValue(true)}}},
			{ID: 3, Type: "odd type", From: 1, To: 1, Props: Props{{"id", IntValue(3)}, {"my key", IntValue(-7)}}},
		},
	}
	want := `CREATE ({id: 0});
CREATE (:L0:L2 {id: 1, k0: 'a\'b', k3: -1.0});
MATCH (a {id: 1}), (b {id: 0}) CREATE (a)-[:T1 {id: 2, k9: true}]->(b);
MATCH (a {id: 1}) CREATE (a)-[:` + "`odd type`" + ` {id: 3, ` + "`my key`" + `: -7}]->(a);
`
	if got := g.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	for in, want := range map[string]string{"k1": "k1", "_x9": "_x9", "9a": "`9a`", "": "``", "a`b": "`a``b`", "é": "`é`"} {
		if got := Ident(in); got != want {
			t.Errorf("Ident(%q) = %s, want %s", in, got, want)
		}
	}
}
