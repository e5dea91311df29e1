package smtgen

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// Seed is one seed script made ready for fuzzing: parsed, sort-checked, its assertions with lets
// expanded, and (when a reference solver gave one that the evaluator certified) a model.
type Seed struct {
	// Name is the file's path relative to the seed folder (or its base name).
	Name string
	// Hash is the first 16 hex digits of the SHA-1 of the file's text.
	Hash  string
	Logic string
	// Script is the parsed file and Env its declarations.
	Script *Script
	Env    *Env
	// Decls are the commands an instance repeats before its assertions: declare-sort, define-sort,
	// declare-fun, declare-const, define-fun, in their order in the file.
	Decls []*Command
	// Asserts are every assertion and check-sat-assuming assumption of the file (in any push
	// scope), with lets, define-funs and named
	// terms expanded and annotations removed (a fragment that repeats a :named term would name it
	// twice).
	Asserts []*Term
}

// RefFunc returns a seed's reference model, certified by [Seed.Certify] (nil when there is none),
// and whether it is a model of the negated conjunction (the seed was unsat). The command layer
// implements it with a reference solver; it is called at most once per seed and pool.
type RefFunc func(s *Seed) (m *Model, negated bool)

// SkipError says why a seed file cannot be used; Reason is a short category for counting
// ("syntax", "floating-point", "no-assertions", ...).
type SkipError struct {
	File   string
	Reason string
	Detail string
}

// Error prints "file: reason: detail" on one line.
func (e *SkipError) Error() string {
	d := strings.ReplaceAll(e.Detail, "\n", " ")
	if len(d) > 200 {
		d = d[:200] + "..."
	}
	return e.File + ": " + e.Reason + ": " + d
}

// declCommands are the commands an instance copies from its seed.
var declCommands = map[string]bool{"declare-sort": true, "define-sort": true, "declare-fun": true,
	"declare-const": true, "define-fun": true, "define-fun-rec": true}

// NewSeed parses and checks one seed script and returns its first usable part (see [NewSeeds]);
// a script with none gives the *SkipError of its first part.
func NewSeed(name, text string) (*Seed, error) {
	seeds, skips := NewSeeds(name, text)
	if len(seeds) > 0 {
		return seeds[0], nil
	}
	return nil, skips[0]
}

// NewSeeds parses one seed script and makes a seed of each of its parts: (reset) forgets
// everything, so the commands before the first reset, between two resets and after the last are
// independent scripts ([SplitResets]). The first part is named name, the k-th (k > 1) name#k. A
// part that cannot be used gives a *SkipError, except that a part without assertions is left out
// silently when another part has some; a script that does not parse gives one skip. Every seed has
// the Hash of the whole text.
func NewSeeds(name, text string) (seeds []*Seed, skips []*SkipError) {
	h := sha1.Sum([]byte(text))
	hash := hex.EncodeToString(h[:8])
	sc, err := ParseScript(text)
	if err != nil {
		return nil, []*SkipError{{File: name, Reason: "syntax", Detail: err.Error()}}
	}
	parts := SplitResets(sc)
	for i, part := range parts {
		pname := name
		if i > 0 {
			pname = fmt.Sprintf("%s#%d", name, i+1)
		}
		s, err := newSeed(pname, hash, part)
		switch {
		case err == nil:
			seeds = append(seeds, s)
		case err.Reason == "no-assertions" && len(parts) > 1:
		default:
			skips = append(skips, err)
		}
	}
	if len(seeds) == 0 && len(skips) == 0 {
		skips = []*SkipError{{File: name, Reason: "no-assertions", Detail: "the script asserts nothing"}}
	}
	return seeds, skips
}

// SplitResets cuts sc at its (reset) commands into the independent scripts they separate, in
// order, without the resets; a script without (reset) gives itself.
func SplitResets(sc *Script) []*Script {
	var parts []*Script
	cur := &Script{}
	for _, c := range sc.Commands {
		if c.Name == "reset" {
			parts = append(parts, cur)
			cur = &Script{}
			continue
		}
		cur.Commands = append(cur.Commands, c)
	}
	if len(parts) == 0 {
		return []*Script{sc}
	}
	return append(parts, cur)
}

// newSeed checks sc, one part of a seed file (no (reset) in it).
func newSeed(name, hash string, sc *Script) (*Seed, *SkipError) {
	s := &Seed{Name: name, Hash: hash, Script: sc, Logic: sc.Logic()}
	skip := func(reason, detail string) *SkipError { return &SkipError{File: name, Reason: reason, Detail: detail} }
	// A name declared again after a pop has the same declaration (Check makes sure): an instance
	// repeats it once.
	declared := map[string]bool{}
	for _, c := range sc.Commands {
		switch {
		case c.Name == "declare-datatypes" || c.Name == "declare-datatype" || c.Name == "define-funs-rec":
			// Kept as text (Raw); the checker reads it.
			if !declared["\x00"+c.Raw] {
				s.Decls = append(s.Decls, c)
			}
			declared["\x00"+c.Raw] = true
		case c.Name == "assert" && (c.Raw != "" || len(c.Terms) != 1):
			return nil, skip("unsupported-syntax", "(assert "+clip(c.Raw, 80)+")")
		case declCommands[c.Name] && c.Raw != "":
			return nil, skip("unsupported-syntax", "("+c.Name+" "+clip(c.Raw, 80)+")")
		case declCommands[c.Name]:
			if !declared[c.Symbol] {
				s.Decls = append(s.Decls, c)
			}
			declared[c.Symbol] = true
		}
	}
	env, err := Check(sc)
	if err != nil {
		var u *UnsupportedError
		if errors.As(err, &u) {
			return nil, skip(u.Reason, u.Detail)
		}
		return nil, skip("sort-error", err.Error())
	}
	s.Env = env
	s.Logic = widenLogic(s.Logic, env)
	for _, c := range sc.Commands {
		// The assumptions of check-sat-assuming are formulas over the same symbols: fragments too.
		if c.Name == "assert" || c.Name == "check-sat-assuming" {
			for _, t := range c.Terms {
				s.Asserts = append(s.Asserts, normalizeAssert(env.ExpandDefs(t)))
			}
		}
	}
	if len(s.Asserts) == 0 {
		return nil, skip("no-assertions", "the script asserts nothing")
	}
	return s, nil
}

// LoadSeeds reads every .smt2 file under root in fsys (recursively, in name order; root may also
// name one file) and makes the seeds of each with [NewSeeds]. Files and parts that cannot be used
// are returned as skips, one *SkipError each; an error means root itself cannot be read.
func LoadSeeds(fsys fs.FS, root string) (seeds []*Seed, skips []*SkipError, err error) {
	files, err := smt2Files(fsys, root, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("read seeds: %w", err)
	}
	if len(files) == 0 {
		if root == "." {
			return nil, nil, errors.New("read seeds: no .smt2 files in the folder or its subfolders")
		}
		return nil, nil, fmt.Errorf("read seeds: no .smt2 files under %s", root)
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, nil, fmt.Errorf("read seeds: %w", err)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(f, root), "/")
		if name == "" {
			name = path.Base(f)
		}
		ss, sk := NewSeeds(name, string(b))
		seeds, skips = append(seeds, ss...), append(skips, sk...)
	}
	return seeds, skips, nil
}

// maxLinkDepth bounds how many symbolic links to folders one path of a seed walk follows, so that a
// link cycle ends.
const maxLinkDepth = 8

// smt2Files lists the .smt2 files under root, following symbolic links to folders (a seed folder
// made of links to benchmark folders) up to maxLinkDepth deep.
func smt2Files(fsys fs.FS, root string, depth int) ([]string, error) {
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 && depth < maxLinkDepth {
			if st, err := fs.Stat(fsys, p); err == nil && st.IsDir() {
				sub, err := smt2Files(fsys, p, depth+1)
				files = append(files, sub...)
				return err
			}
		}
		if !d.IsDir() && strings.HasSuffix(p, ".smt2") {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// ModelQuery returns the script that asks a reference solver for a model of the seed's assertions
// (negated: of the negation of their conjunction), ending in check-sat and a get-value of the
// declared constants and of every partial application (see [PartialApps]). It also returns the
// terms of the get-value, in order.
func (s *Seed) ModelQuery(negated bool) (string, []*Term) {
	asserts := s.Asserts
	if negated {
		asserts = []*Term{notTerm(andTerm(s.Asserts...))}
	}
	cmds := make([]string, 0, len(asserts)+2)
	for _, a := range asserts {
		cmds = append(cmds, "(assert "+a.String()+")")
	}
	cmds = append(cmds, "(check-sat)")
	terms := valueTerms(s.Env, asserts)
	if len(terms) > 0 {
		cmds = append(cmds, strings.TrimSuffix(getValue(terms), "\n"))
	}
	return instanceText(s, cmds) + "\n", terms
}

// Certify checks a reference model against the seed: every assertion (negated: the negated
// conjunction) must not be false under m. Undecided assertions are allowed (their fragments are
// simply not used); a false one means the reference solver's model is wrong.
func (s *Seed) Certify(m *Model, negated bool) error {
	asserts := s.Asserts
	if negated {
		asserts = []*Term{notTerm(andTerm(s.Asserts...))}
	}
	for i, a := range asserts {
		if v, ok := m.Truth(a); ok && !v {
			return fmt.Errorf("assertion %d of %s is false under the reference model", i+1, s.Name)
		}
	}
	return nil
}

// valueTerms returns the terms whose values make a model: the declared constants of env, then the
// partial applications of ts, innermost first.
func valueTerms(env *Env, ts []*Term) []*Term {
	var out []*Term
	for _, name := range env.Order {
		d := env.Decls[name]
		if d == nil || len(d.ArgSorts) > 0 {
			continue
		}
		out = append(out, &Term{Kind: KindApp, Name: name, Sort: d.Ret})
	}
	return append(out, PartialApps(ts)...)
}

// getValue prints (get-value (t1 t2 ...)) and a newline.
func getValue(ts []*Term) string {
	var b strings.Builder
	b.WriteString("(get-value (")
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.String())
	}
	b.WriteString("))\n")
	return b.String()
}

// ModelFromValues builds a model from a solver's get-value answer: rows[i] = [term text, value
// text] answers terms[i] (as [Seed.ModelQuery] or an instance's model query asked them).
func ModelFromValues(env *Env, terms []*Term, rows [][]string) (*Model, error) {
	if len(rows) != len(terms) {
		return nil, fmt.Errorf("get-value answered %d values for %d terms", len(rows), len(terms))
	}
	m := &Model{Consts: map[string]Value{}, Funcs: map[string]*FuncTable{}, Env: env}
	for i, t := range terms {
		if len(rows[i]) != 2 {
			return nil, fmt.Errorf("get-value answer %d: want (term value), got %q", i+1, rows[i])
		}
		vt, err := ParseTerm(rows[i][1])
		if err != nil {
			return nil, fmt.Errorf("value of %s: %w", t, err)
		}
		v, err := m.ParseValue(vt, t.Sort)
		if err != nil {
			return nil, fmt.Errorf("value of %s: %w", t, err)
		}
		if len(t.Args) == 0 && t.Kind == KindApp {
			m.Consts[t.Name] = v
			continue
		}
		if err := m.Pin(t, v); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func andTerm(ts ...*Term) *Term {
	if len(ts) == 1 {
		return ts[0]
	}
	return &Term{Kind: KindApp, Name: "and", Args: ts, Sort: BoolSort}
}

func notTerm(t *Term) *Term {
	return &Term{Kind: KindApp, Name: "not", Args: []*Term{t}, Sort: BoolSort}
}

// normalizeAssert returns t without (! ...) annotations and with and and or of one argument
// replaced by the argument (SMT-LIB gives them two or more; z3 and cvc5 accept one, Bitwuzla
// does not, and cvc5's regression files use it), sharing what it does not change.
func normalizeAssert(t *Term) *Term {
	return rewrite(t, func(t *Term) *Term {
		for t.Kind == KindAnnot || t.Kind == KindApp && len(t.Args) == 1 && (t.Name == "and" || t.Name == "or") {
			t = t.Args[0]
		}
		return t
	})
}

// rewrite returns root with every node n replaced by pre(n) and the arguments of what pre
// returns rewritten in turn; it copies only the nodes on paths to a change, so unchanged
// subterms stay shared.
func rewrite(root *Term, pre func(*Term) *Term) *Term {
	memo := map[*Term]*Term{}
	var walk func(t *Term) *Term
	walk = func(t *Term) *Term {
		if r, ok := memo[t]; ok {
			return r
		}
		res := pre(t)
		orig := res
		for i, a := range orig.Args {
			if w := walk(a); w != a {
				if res == orig {
					cp := *orig
					cp.Args = append([]*Term(nil), orig.Args...)
					res = &cp
				}
				res.Args[i] = w
			}
		}
		memo[t] = res
		return res
	}
	return walk(root)
}

// widenLogic returns logic, or ALL when env declares symbols of a sort that logic's theories do
// not have (cvc5's regression files do, some on purpose, and cvc5 accepts them; z3 and Bitwuzla
// reject the declarations).
func widenLogic(logic string, env *Env) string {
	for _, d := range env.Decls {
		for _, s := range append([]*Sort{d.Ret}, d.ArgSorts...) {
			if !logicHasSort(logic, s, false) {
				return "ALL"
			}
		}
	}
	return logic
}

// logicHas reports whether the SMT-LIB logic (ALL or a name such as QF_AUFLIA) has the theory th:
// BV, FP, S (strings), A (arrays), Int or Real. Core and uninterpreted functions are in every logic.
func logicHas(logic, th string) bool {
	if logic == "" || logic == "ALL" {
		return true
	}
	l := strings.TrimPrefix(logic, "QF_")
	has := func(parts ...string) bool {
		return slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(l, p) })
	}
	switch th {
	case "BV", "FP":
		return has(th)
	case "S":
		return has("S")
	case "A":
		return strings.HasPrefix(l, "A")
	case "Int": // strings logics have Int for lengths and indices
		return has("IA", "IDL", "IRA", "S")
	case "Real":
		return has("RA", "RDL")
	}
	return true
}

// logicHasSort reports whether the logic has the theory of s and of the sorts inside it. Terms
// (bvInFP) may have bit-vector sorts in a floating-point logic without bit-vectors, as arguments
// of fp and to_fp; declarations may not (Bitwuzla rejects them).
func logicHasSort(logic string, s *Sort, bvInFP bool) bool {
	if s == nil {
		return true
	}
	if s.Name == "BitVec" && bvInFP && logicHas(logic, "FP") {
		return true
	}
	th := map[string]string{"BitVec": "BV", "FloatingPoint": "FP", "RoundingMode": "FP", "String": "S",
		"RegLan": "S", "Array": "A", "Int": "Int", "Real": "Real"}[s.Name]
	if th != "" && !logicHas(logic, th) {
		return false
	}
	for _, a := range s.Args {
		if !logicHasSort(logic, a, bvInFP) {
			return false
		}
	}
	return true
}

// logicHasTerms reports whether the logic has the theories of every subterm of ts: their sorts,
// and bit-vector operators, which need the bit-vector theory even where bit-vector sorts appear
// without it (in QF_FP, as arguments of fp).
func logicHasTerms(logic string, ts []*Term) bool {
	ok := true
	for _, t := range ts {
		walkTerms(t, func(u *Term) {
			if !logicHasSort(logic, u.Sort, true) || u.Kind == KindApp && bvOperator(u.Name) && !logicHas(logic, "BV") {
				ok = false
			}
		})
	}
	return ok
}

// bvOperator reports whether name is an operator of the bit-vector theory (not a literal).
func bvOperator(name string) bool {
	switch name {
	case "concat", "extract", "repeat", "zero_extend", "sign_extend", "rotate_left", "rotate_right",
		"bv2nat", "int2bv", "nat2bv":
		return true
	}
	return strings.HasPrefix(name, "bv") && !isBVLitName(name) && chkBuiltin(name)
}
