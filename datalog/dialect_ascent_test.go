package datalog

import (
	"strings"
	"testing"
)

func TestAscentTranslate(t *testing.T) {
	const head = "#![allow(warnings)]\nuse ascent::ascent;\nuse std::io::Write;\n\ntype Sym = &'static [u8];\n\nascent! {\n"
	checkTranslate(t, Ascent{}, []translateTest{
		{"all constructs", dialectProg, head + `    relation r0_edge(i64, i64);
    relation r1_path(i64, i64);
    relation r2_blocked(i64);
    relation r3_name(i64, Sym);
    relation r4_Z_0();
    relation r5_none(Sym);
    r1_path(v_x, v_z) <-- if 1 < 2, !r5_none(&b"q"[..]), r1_path(v_x, v_y), r0_edge(v_y, v_z), if *v_x != *v_z, !r2_blocked(v_z);
    r3_name(1, &b"a'\x22\x5c b\x09\xc3\xa9"[..]);
    r0_edge(1, -2147483648);
    r0_edge(2147483647, 2);
    r2_blocked(v_n) <-- if &b"a"[..] < &b"b"[..], r3_name(v_n, v_s), if *v_s >= &b"a"[..], if *v_n < -3, if *v_s == *v_s, if *v_s <= &b"z"[..], if *v_s > &b""[..], if *v_n >= 0, !r0_edge(v_n, _);
    r1_path(v_x, v_y) <-- r0_edge(v_x, v_y);
    r4_Z_0() <-- r1_path(1, _);
}

fn main() {
    let mut p = AscentProgram::default();
    p.run();
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    for t in p.r1_path.iter() {
        w.write_all(b"path").unwrap();
        num(&mut w, t.0);
        num(&mut w, t.1);
        w.write_all(b"\n").unwrap();
    }
    for t in p.r4_Z_0.iter() {
        w.write_all(b"Z_0").unwrap();
        w.write_all(b"\n").unwrap();
    }
    w.flush().unwrap();
}
` + ascentPrinters},
		{"repeated symbol variables", `.decl s(x: symbol, y: symbol, z: symbol)
.decl n(x: number, y: number)
.decl t(x: symbol)
t(x) :- s(x, x, x), n(y, y), s(y2, x, y2), !s(x, x, x).
`, head + `    relation r0_s(Sym, Sym, Sym);
    relation r1_n(i64, i64);
    relation r2_t(Sym);
    r2_t(v_x) <-- r0_s(v_x, v_1, v_2), if *v_x == *v_1, if *v_x == *v_2, !r0_s(v_x, v_x, v_x), r1_n(v_y, v_y), r0_s(v_y2, v_x, v_3), if *v_y2 == *v_3;
}

fn main() {
    let mut p = AscentProgram::default();
    p.run();
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    w.flush().unwrap();
}
` + ascentPrinters},
	})
}

func TestDecodeAscent(t *testing.T) {
	tests := []struct {
		typ       Type
		raw, want string
		err       bool
	}{
		{Number, "-9223372036854775808", "i:-9223372036854775808", false},
		{Number, "9223372036854775808", "", true},
		{Number, `"1"`, "", true},
		{Symbol, `""`, "t:", false},
		{Symbol, `"a b~"`, "t:a b~", false},
		{Symbol, `"\x22\x5c\x00\x09\xff"`, "t:\"\\\x00\t\xff", false},
		{Symbol, `"\xFF"`, "t:\xff", false},
		{Symbol, `a`, "", true},
		{Symbol, `"`, "", true},
		{Symbol, `"\x4"`, "", true},
		{Symbol, `"\n"`, "", true},
		{Symbol, `"\xzz"`, "", true},
		{Symbol, "\"a\tb\"", "", true},
		{Symbol, `"a"b"`, "", true},
	}
	for _, tt := range tests {
		got, err := decodeAscent(tt.typ, tt.raw)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("decodeAscent(%v, %q) = %q, %v; want %q, error %v", tt.typ, tt.raw, got, err, tt.want, tt.err)
		}
	}
}

// TestAscentSymbolRoundTrip checks that every byte, written by writeAscentTerm as Rust's byte
// string escapes and printed by the translation's sym (\xNN for the same bytes), decodes to
// itself.
func TestAscentSymbolRoundTrip(t *testing.T) {
	var all strings.Builder
	for c := range 256 {
		all.WriteByte(byte(c))
	}
	var lit strings.Builder
	writeAscentTerm(&lit, S(all.String()))
	raw := `"` + strings.TrimSuffix(strings.TrimPrefix(lit.String(), `&b"`), `"[..]`) + `"`
	got, err := decodeAscent(Symbol, raw)
	if err != nil || got != Canonical(S(all.String())) {
		t.Errorf("decodeAscent(%q) = %q, %v", raw, got, err)
	}
}

func TestAscentScriptFiles(t *testing.T) {
	p, err := Parse("p.dl", ".decl e(x: number)\n.output e\ne(1).\n")
	if err != nil {
		t.Fatal(err)
	}
	files, cmd, err := Ascent{}.Script(p, "p0")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := Ascent{}.Translate(p)
	if files["p0.rs"] != tr.Text || !strings.Contains(files["p0.Cargo.toml"], `path = "../p0.rs"`) || len(files) != 2 {
		t.Errorf("Script files = %q", files)
	}
	if want := "mkdir -p p0-cargo && cp p0.Cargo.toml p0-cargo/Cargo.toml && cargo run --quiet --manifest-path p0-cargo/Cargo.toml"; cmd != want {
		t.Errorf("Script command = %q, want %q", cmd, want)
	}
}
