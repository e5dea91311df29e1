package kuzu

import (
	"fmt"
	"slices"
	"strings"
)

// A graph's setup in the generated forms
//
//	CREATE (:L1 {id: 0, k2: 5})
//	MATCH (a {id: 0}), (b {id: 7}) CREATE (a)-[:T2 {id: 128}]->(b)
//	MATCH (a {id: 0}) CREATE (a)-[:T2 {id: 129}]->(a)
//
// is collected into a graph, whose schema Kùzu needs before it takes any element: one node table
// per label, with the primary key id; one relationship table per type, FROM and TO every pair of
// node tables its relationships join; and in every table a column for every property key met
// in the setup, of the key's type, so that reading a key a node does not have gives null as in
// Neo4j instead of a binder error.

// setupNode is a node to create: its one label and its properties (literal text by key).
type setupNode struct {
	label string
	id    string // the literal of its id
	props []prop
}

// setupRel is a relationship to create between nodes given by their id literals.
type setupRel struct {
	typ      string
	from, to string
	props    []prop
}

type prop struct{ key, lit string }

// colType is a column's Kùzu type.
type colType string

const (
	tInt    colType = "INT64"
	tDouble colType = "DOUBLE"
	tString colType = "STRING"
	tBool   colType = "BOOLEAN"
)

// graph is the setup collected so far.
type graph struct {
	nodes  []setupNode
	rels   []setupRel
	labels map[string]string // node id literal → label
	keys   map[string]colType
	order  []string // keys in the order met
}

func newGraph() *graph {
	return &graph{labels: map[string]string{}, keys: map[string]colType{}}
}

// errNotSetup says that a statement is not of the setup forms.
var errNotSetup = fmt.Errorf("not a setup statement")

// add records one setup statement. It returns errNotSetup for a statement of another form, and
// an error that says why for a setup statement Kùzu cannot hold.
func (g *graph) add(stmt string) error {
	toks, ok := lex(stmt)
	if !ok || len(toks) == 0 {
		return errNotSetup
	}
	p := &tparser{toks: toks}
	switch {
	case p.kw("CREATE"):
		n, err := p.node()
		if err != nil || !p.done() {
			return errNotSetup
		}
		return g.addNode(n)
	case p.kw("MATCH"):
		return g.addRel(p)
	}
	return errNotSetup
}

func (g *graph) addNode(n pnode) error {
	if n.v != "" {
		return errNotSetup
	}
	if len(n.labels) != 1 {
		return fmt.Errorf("a node needs exactly one label in Kùzu (its node table); this one has %d: generate "+
			"the graph with one label per node (the kuzu profile does)", len(n.labels))
	}
	sn := setupNode{label: n.labels[0]}
	for _, pr := range n.props {
		if pr.key == "id" {
			sn.id = pr.lit
		}
	}
	if sn.id == "" {
		return fmt.Errorf("a node needs an integer id property in Kùzu (its node table's primary key)")
	}
	if _, dup := g.labels[sn.id]; dup {
		return fmt.Errorf("two nodes with id %s: Kùzu's primary key must be unique", sn.id)
	}
	if err := g.typeProps(n.props); err != nil {
		return err
	}
	sn.props = n.props
	g.labels[sn.id] = sn.label
	g.nodes = append(g.nodes, sn)
	return nil
}

// addRel reads the rest of MATCH (a {id: X})[, (b {id: Y})] CREATE (a)-[:T {...}]->(b).
func (g *graph) addRel(p *tparser) error {
	ids := map[string]string{}
	for {
		n, err := p.node()
		if err != nil || n.v == "" || len(n.props) != 1 || n.props[0].key != "id" {
			return errNotSetup
		}
		ids[n.v] = n.props[0].lit
		if !p.sym(",") {
			break
		}
	}
	if !p.kw("CREATE") {
		return errNotSetup
	}
	a, err := p.node()
	if err != nil || a.v == "" || len(a.labels)+len(a.props) > 0 {
		return errNotSetup
	}
	in := p.sym("<")
	if !p.sym("-") || !p.sym("[") {
		return errNotSetup
	}
	r, err := p.body("]")
	if err != nil || r.v != "" || len(r.labels) != 1 || !p.sym("-") {
		return errNotSetup
	}
	out := p.sym(">")
	b, err := p.node()
	if err != nil || b.v == "" || len(b.labels)+len(b.props) > 0 || !p.done() || in == out {
		return errNotSetup
	}
	from, ok1 := ids[a.v]
	to, ok2 := ids[b.v]
	if !ok1 || !ok2 {
		return errNotSetup
	}
	if in {
		from, to = to, from
	}
	if err := g.typeProps(r.props); err != nil {
		return err
	}
	_, ok1 = g.labels[from]
	_, ok2 = g.labels[to]
	if !ok1 || !ok2 {
		return nil // the MATCH matches nothing: nothing is created
	}
	g.rels = append(g.rels, setupRel{typ: r.labels[0], from: from, to: to, props: r.props})
	return nil
}

// typeProps records the types of props' keys; a key of two types is an error.
func (g *graph) typeProps(props []prop) error {
	for _, pr := range props {
		t := litType(pr.lit)
		if t == "" {
			continue // null: no property
		}
		old, ok := g.keys[pr.key]
		if !ok {
			g.keys[pr.key] = t
			g.order = append(g.order, pr.key)
			continue
		}
		if old != t {
			return fmt.Errorf("property %s is %s and %s: Kùzu's columns have one type", pr.key, old, t)
		}
	}
	return nil
}

// litType returns the type of a literal, "" for null.
func litType(lit string) colType {
	switch {
	case lit == "null":
		return ""
	case lit == "true" || lit == "false":
		return tBool
	case strings.HasPrefix(lit, "'") || strings.HasPrefix(lit, `"`):
		return tString
	case strings.ContainsAny(lit, ".eE") || strings.Contains(lit, "Inf") || strings.Contains(lit, "NaN"):
		return tDouble
	}
	return tInt
}

// script returns the Kùzu statements that create the tables and load the graph.
func (g *graph) script() []string {
	var labels []string
	for _, n := range g.nodes {
		if !slices.Contains(labels, n.label) {
			labels = append(labels, n.label)
		}
	}
	type pair struct{ from, to string }
	pairs := map[string][]pair{}
	var types []string
	for _, r := range g.rels {
		if _, ok := pairs[r.typ]; !ok {
			types = append(types, r.typ)
		}
		pr := pair{g.labels[r.from], g.labels[r.to]}
		if !slices.Contains(pairs[r.typ], pr) {
			pairs[r.typ] = append(pairs[r.typ], pr)
		}
	}
	cols := func(skipID bool) string {
		var b strings.Builder
		for _, k := range g.order {
			if skipID && k == "id" {
				continue
			}
			fmt.Fprintf(&b, ", %s %s", quote(k), g.keys[k])
		}
		return b.String()
	}
	var out []string
	for _, l := range labels {
		out = append(out, fmt.Sprintf("CREATE NODE TABLE %s(id %s%s, PRIMARY KEY(id))", quote(l), g.idType(), cols(true)))
	}
	for _, t := range types {
		var b strings.Builder
		for i, p := range pairs[t] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "FROM %s TO %s", quote(p.from), quote(p.to))
		}
		out = append(out, fmt.Sprintf("CREATE REL TABLE %s(%s%s)", quote(t), b.String(), cols(false)))
	}
	for _, n := range g.nodes {
		out = append(out, g.createNode(n))
	}
	for _, r := range g.rels {
		out = append(out, g.createRel(r))
	}
	return out
}

// idType is the type of the id column: the type of the id key (integer for generated graphs).
func (g *graph) idType() colType {
	if t, ok := g.keys["id"]; ok {
		return t
	}
	return tInt
}

func (g *graph) createNode(n setupNode) string {
	return "CREATE (:" + quote(n.label) + " " + propMap(n.props) + ")"
}

func (g *graph) createRel(r setupRel) string {
	return fmt.Sprintf("MATCH (a:%s {id: %s}), (b:%s {id: %s}) CREATE (a)-[:%s %s]->(b)",
		quote(g.labels[r.from]), r.from, quote(g.labels[r.to]), r.to, quote(r.typ), propMap(r.props))
}

func propMap(props []prop) string {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for _, p := range props {
		if p.lit == "null" {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(quote(p.key) + ": " + p.lit)
	}
	b.WriteByte('}')
	return b.String()
}

// quote writes a name as an identifier, in backquotes unless it is a plain one.
func quote(name string) string {
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return "`" + strings.ReplaceAll(name, "`", "``") + "`"
		}
	}
	return name
}

// tok is a token of a setup statement: a symbol, a name, or a literal's text.
type tok struct {
	kind byte // 's' symbol, 'n' name, 'l' literal
	text string
}

// lex splits a setup statement into tokens; ok is false on text it does not know.
func lex(s string) (toks []tok, ok bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == ';' && strings.TrimSpace(s[i+1:]) == "":
			i = len(s)
		case strings.IndexByte("(){}[],:<>-", c) >= 0:
			// A minus before a digit starts a number unless it follows a symbol of a pattern's arrow.
			if c == '-' && i+1 < len(s) && isDigit(s[i+1]) && len(toks) > 0 && toks[len(toks)-1].text == ":" {
				j := number(s, i+1)
				toks = append(toks, tok{'l', s[i:j]})
				i = j
				continue
			}
			toks = append(toks, tok{'s', s[i : i+1]})
			i++
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, false
			}
			toks = append(toks, tok{'l', s[i : j+1]})
			i = j + 1
		case isDigit(c):
			j := number(s, i)
			toks = append(toks, tok{'l', s[i:j]})
			i = j
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(s) && (s[j] == '_' || isDigit(s[j]) || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z') {
				j++
			}
			w := s[i:j]
			if lw := strings.ToLower(w); lw == "true" || lw == "false" || lw == "null" {
				toks = append(toks, tok{'l', lw})
			} else {
				toks = append(toks, tok{'n', w})
			}
			i = j
		case c == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return nil, false
			}
			toks = append(toks, tok{'n', s[i+1 : i+1+j]})
			i += j + 2
		default:
			return nil, false
		}
	}
	return toks, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number returns the end of the number that starts at i.
func number(s string, i int) int {
	for i < len(s) && (isDigit(s[i]) || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
		(s[i] == '-' || s[i] == '+') && (s[i-1] == 'e' || s[i-1] == 'E')) {
		i++
	}
	return i
}

// tparser reads tokens.
type tparser struct {
	toks []tok
	i    int
}

func (p *tparser) peek() tok {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return tok{}
}

func (p *tparser) kw(w string) bool {
	if t := p.peek(); t.kind == 'n' && strings.EqualFold(t.text, w) {
		p.i++
		return true
	}
	return false
}

func (p *tparser) sym(s string) bool {
	if t := p.peek(); t.kind == 's' && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *tparser) done() bool { return p.i == len(p.toks) }

// pnode is a node or relationship pattern's parts.
type pnode struct {
	v      string
	labels []string
	props  []prop
}

func (p *tparser) node() (pnode, error) {
	if !p.sym("(") {
		return pnode{}, errNotSetup
	}
	return p.body(")")
}

// body reads [var] [:Name]... [{key: literal, ...}] up to the closing symbol.
func (p *tparser) body(closing string) (pnode, error) {
	var n pnode
	if t := p.peek(); t.kind == 'n' {
		n.v = t.text
		p.i++
	}
	for p.sym(":") {
		t := p.peek()
		if t.kind != 'n' {
			return n, errNotSetup
		}
		n.labels = append(n.labels, t.text)
		p.i++
	}
	if p.sym("{") {
		for !p.sym("}") {
			if len(n.props) > 0 && !p.sym(",") {
				return n, errNotSetup
			}
			k := p.peek()
			if k.kind != 'n' {
				return n, errNotSetup
			}
			p.i++
			if !p.sym(":") {
				return n, errNotSetup
			}
			v := p.peek()
			if v.kind != 'l' {
				return n, errNotSetup
			}
			p.i++
			n.props = append(n.props, prop{k.text, v.text})
		}
	}
	if !p.sym(closing) {
		return n, errNotSetup
	}
	return n, nil
}
