package smtgen

import (
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestNewSeedsScripts(t *testing.T) {
	for _, c := range []struct {
		name, src string
		seeds     []string // "NAME LOGIC ASSERTS DECLS" of each seed
		skips     []string // "FILE: REASON" of each skip
	}{
		{"reset", "(set-logic QF_LRA)(declare-const x Real)(assert (= x (- 2.5)))(check-sat)(reset)" +
			"(set-logic QF_LIA)(declare-const x Int)(assert (= x 2))(check-sat)",
			[]string{"f QF_LRA 1 1", "f#2 QF_LIA 1 1"}, nil},
		{"reset, a part without assertions left out", "(declare-const x Int)(reset)(declare-const x Bool)(assert x)(reset)",
			[]string{"f#2  1 1"}, nil},
		{"reset, a bad part skipped", "(declare-const x Int)(assert (= x 1))(reset)(declare-const f (Seq Int))(assert true)",
			[]string{"f  1 1"}, []string{"f#2: sequences"}},
		{"reset, nothing asserted", "(declare-const x Int)(reset)(declare-const x Int)",
			nil, []string{"f: no-assertions"}},
		{"exit", "(declare-const x Int)(assert (> x 0))(exit)(assert (garbage",
			[]string{"f  1 1"}, nil},
		{"push and pop with counts", "(declare-const x Int)(push 2)(declare-const y Int)(assert (> y x))" +
			"(pop 2)(declare-const y Int)(assert (< y x))",
			[]string{"f  2 2"}, nil},
		{"redeclared after pop with another sort", "(push 1)(declare-const y Int)(assert (> y 0))(pop 1)(declare-const y Bool)(assert y)",
			nil, []string{"f: redeclared-symbol"}},
		{"reset-assertions", "(declare-const x Int)(assert (> x 0))(reset-assertions)(declare-const x Int)(assert (< x 0))",
			[]string{"f  2 1"}, nil},
		{"global declarations", "(set-option :global-declarations true)(push 1)(declare-const x Int)(pop 1)" +
			"(reset-assertions)(assert (< x 0))",
			[]string{"f  1 1"}, nil},
		{"redeclared in the same scope", "(declare-const x Int)(declare-const x Int)(assert (> x 0))",
			nil, []string{"f: sort-error"}},
		{"codatatypes", "(declare-codatatypes ((L 0)) (((nil))))(assert true)", nil, []string{"f: codatatypes"}},
		{"recursion", "(define-fun-rec f ((x Int)) Int (f x))(assert (= (f 1) 1))", []string{"f  1 1"}, nil},
		{"syntax", "(assert (", nil, []string{"f: syntax"}},
	} {
		seeds, skips := NewSeeds("f", c.src)
		var got, gotSkips []string
		for _, s := range seeds {
			got = append(got, strings.Join([]string{s.Name, s.Logic, strconv.Itoa(len(s.Asserts)), strconv.Itoa(len(s.Decls))}, " "))
		}
		for _, s := range skips {
			gotSkips = append(gotSkips, s.File+": "+s.Reason)
		}
		if strings.Join(got, "|") != strings.Join(c.seeds, "|") || strings.Join(gotSkips, "|") != strings.Join(c.skips, "|") {
			t.Errorf("%s: seeds %q skips %q (%v), want %q and %q", c.name, got, gotSkips, skips, c.seeds, c.skips)
		}
		s, err := NewSeed("f", c.src)
		if (len(c.seeds) > 0) != (err == nil) || (err == nil && s.Name != seeds[0].Name) {
			t.Errorf("%s: NewSeed gives %v, %v", c.name, s, err)
		}
	}
}

// TestLoadSeedsCorpus loads the shared corpus, when present, and logs the seeds and the skips by
// reason; every file must give a seed or a skip.
func TestLoadSeedsCorpus(t *testing.T) {
	const dir = "../../shared/corpus/smt"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus at " + dir + " (the project's shared corpus); nothing to count")
	}
	fsys := os.DirFS(dir)
	seeds, skips, err := LoadSeeds(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	smt2, _ := fs.Glob(fsys, "*/*.smt2")
	files := map[string]bool{}
	for _, s := range seeds {
		files[strings.SplitN(s.Name, "#", 2)[0]] = true
	}
	for _, s := range skips {
		files[strings.SplitN(s.File, "#", 2)[0]] = true
	}
	by := map[string]int{}
	for _, s := range skips {
		by[s.Reason]++
	}
	var rs []string
	for r, n := range by {
		rs = append(rs, r+" "+strconv.Itoa(n))
	}
	sort.Strings(rs)
	if len(files) != len(smt2) {
		t.Errorf("%d files gave a seed or a skip, want all %d", len(files), len(smt2))
	}
	t.Logf("%d seeds, %d skips (%s), %d files", len(seeds), len(skips), strings.Join(rs, ", "), len(files))
}

// TestNewSeedsNormalize checks what the reader drops from assertions: annotations, and and or of
// one argument, which only some solvers accept.
func TestNewSeedsNormalize(t *testing.T) {
	for _, tc := range []struct{ assert, want string }{
		{"(! (> x 0) :named a)", "(> x 0)"},
		{"(or (and (> x 0)))", "(> x 0)"},
		{"(not (or (> x 0)))", "(not (> x 0))"},
		{"(and (> x 0) (or (< x 3)))", "(and (> x 0) (< x 3))"},
	} {
		seeds, skips := NewSeeds("f", "(declare-const x Int)(assert "+tc.assert+")")
		if len(skips) > 0 || len(seeds) != 1 {
			t.Fatalf("%s: %v", tc.assert, skips)
		}
		if got := seeds[0].Asserts[0].String(); got != tc.want {
			t.Errorf("%s: read as %s, want %s", tc.assert, got, tc.want)
		}
	}
}

// TestLoadSeedsFollowsLinks reads a seed folder made of a link to another folder, and stops at a
// link cycle.
func TestLoadSeedsFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	bench, seeds := dir+"/bench", dir+"/seeds"
	for _, d := range []string{bench, seeds} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(bench+"/a.smt2", []byte("(declare-const x Int)(assert (> x 0))"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{seeds + "/QF_LIA": bench, bench + "/loop": seeds} {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	got, _, err := LoadSeeds(os.DirFS(seeds), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].Name != "QF_LIA/a.smt2" {
		t.Fatalf("seeds through a link: %d, first %v; want QF_LIA/a.smt2 first", len(got), got)
	}
}
