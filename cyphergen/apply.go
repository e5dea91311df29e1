package cyphergen

import (
	"fmt"
	"math"
	"slices"

	"github.com/polyfuzz/polyfuzz/cypherval"
)

// Apply runs one setup statement on g, in the forms [Graph.Statements] prints and a little more:
//
//	CREATE (:L1:L2 {id: 0, k1: 'x'}), (n:L3)
//	MATCH (a {id: 0}), (b:L1 {id: 7}) CREATE (a)-[:T2 {id: 128, k3: true}]->(b)
//	MATCH (a {id: 0}) CREATE (a)<-[:T2]-(a)
//
// MATCH binds node patterns (no relationships) to the nodes that have their labels and equal
// property values; CREATE then runs once for every combination of bindings, none if some
// pattern matches nothing. CREATE patterns may be paths; a node whose variable is bound is
// reused, any other node is appended (ID = len(g.Nodes)). A created relationship has one type
// and a direction; its ID is its integer "id" property when it has one, else len(g.Nodes) plus
// its index in g.Rels. Property values are literals, kept in the order written; null means
// absent. g.Schema is left as it is.
//
// Any other statement is an error naming what is unsupported; a statement in error leaves g
// unchanged.
func (g *Graph) Apply(stmt string) error {
	match, create, err := parseSetup(stmt)
	if err != nil {
		return err
	}
	s, err := compileSetup(match, create)
	if err != nil {
		return err
	}
	for _, env := range g.bind(s.match) {
		for _, path := range s.create {
			g.createPath(path, env)
		}
	}
	return nil
}

// parseSetup reads [MATCH patterns] CREATE patterns [;].
func parseSetup(text string) (match, create []Pattern, err error) {
	p := &parser{src: text}
	defer p.catch(&err)
	p.lex()
	if p.acceptKw("MATCH") {
		match = p.patterns()
		if p.isKw("WHERE") {
			p.fail(p.tok(), "unsupported: WHERE in a setup statement")
		}
	}
	if !p.acceptKw("CREATE") {
		t := p.tok()
		p.fail(t, "unsupported: %s in a setup statement (expected CREATE or MATCH ... CREATE)", p.describe(t))
	}
	create = p.patterns()
	p.end("after CREATE")
	return match, create, nil
}

// nodeSpec is a node pattern of a setup statement, with its property values.
type nodeSpec struct {
	Var    string
	Labels []string
	Props  Props // in a MATCH, a null value (zero Value) is kept and matches nothing
}

// relSpec is a relationship to create, from the node before it to the node after it when Out.
type relSpec struct {
	Type  string
	Out   bool
	Props Props
}

// pathSpec is a path to create; nodes whose Var a MATCH or an earlier node bound are reused.
type pathSpec struct {
	nodes []nodeSpec
	rels  []relSpec
}

type setup struct {
	match  []nodeSpec
	create []pathSpec
}

// compileSetup checks the patterns of a setup statement and evaluates their property values.
func compileSetup(match, create []Pattern) (*setup, error) {
	s := &setup{}
	bound := map[string]bool{}
	for _, pat := range match {
		if len(pat.Rels) > 0 {
			return nil, fmt.Errorf("unsupported: relationship pattern in the MATCH of a setup statement: %s", pat)
		}
		n, err := compileNode(pat.Nodes[0], true)
		if err != nil {
			return nil, err
		}
		if n.Var != "" {
			bound[n.Var] = true
		}
		s.match = append(s.match, n)
	}
	for _, pat := range create {
		var path pathSpec
		for i, np := range pat.Nodes {
			n, err := compileNode(np, false)
			if err != nil {
				return nil, err
			}
			if bound[n.Var] && (len(n.Labels) > 0 || len(n.Props) > 0) {
				return nil, fmt.Errorf("variable %s is already bound; CREATE cannot add labels or properties to it", Ident(n.Var))
			}
			if n.Var != "" {
				bound[n.Var] = true
			}
			path.nodes = append(path.nodes, n)
			if i == len(pat.Rels) {
				break
			}
			r, err := compileRel(pat.Rels[i], bound)
			if err != nil {
				return nil, err
			}
			path.rels = append(path.rels, r)
		}
		s.create = append(s.create, path)
	}
	return s, nil
}

func compileNode(np NodePat, keepNull bool) (nodeSpec, error) {
	ps, err := propValues(np.Props, keepNull)
	return nodeSpec{Var: np.Var, Labels: np.Labels, Props: ps}, err
}

func compileRel(rp RelPat, bound map[string]bool) (relSpec, error) {
	switch {
	case len(rp.Types) != 1:
		return relSpec{}, fmt.Errorf("a created relationship needs exactly one type, not %d", len(rp.Types))
	case rp.Dir == Both:
		return relSpec{}, fmt.Errorf("a created relationship needs a direction (-> or <-)")
	case bound[rp.Var]:
		return relSpec{}, fmt.Errorf("variable %s is already bound", Ident(rp.Var))
	}
	if rp.Var != "" {
		bound[rp.Var] = true
	}
	ps, err := propValues(rp.Props, false)
	return relSpec{Type: rp.Types[0], Out: rp.Dir == Out, Props: ps}, err
}

// propValues evaluates a pattern's property map; null values are dropped unless keepNull.
func propValues(ps []PropEq, keepNull bool) (Props, error) {
	var out Props
	for i, pe := range ps {
		if slices.ContainsFunc(ps[:i], func(q PropEq) bool { return q.Key == pe.Key }) {
			return nil, fmt.Errorf("property %s given twice", Ident(pe.Key))
		}
		v, err := constValue(pe.Val)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", Ident(pe.Key), err)
		}
		if v.Type != 0 || keepNull {
			out = append(out, Prop{pe.Key, v})
		}
	}
	return out, nil
}

// constValue evaluates a literal property value: a literal, a negated one, or the sum or
// difference of two integers (the least int64 is written (-9223372036854775807 - 1)). Null is
// the zero Value.
func constValue(e Expr) (Value, error) {
	switch e := e.(type) {
	case *Lit:
		switch e.Val.Kind {
		case cypherval.Null:
			return Value{}, nil
		case cypherval.Bool:
			return BoolValue(e.Val.B), nil
		case cypherval.Int:
			return IntValue(e.Val.I), nil
		case cypherval.Float:
			return FloatValue(e.Val.F), nil
		case cypherval.String:
			return StringValue(e.Val.S), nil
		}
	case *Unary:
		x, err := constValue(e.X)
		switch {
		case err != nil || e.Op != "-":
		case x.Type == Integer && x.Int != math.MinInt64:
			return IntValue(-x.Int), nil
		case x.Type == Float:
			return FloatValue(-x.Float), nil
		}
	case *Binary:
		l, errL := constValue(e.L)
		r, errR := constValue(e.R)
		if errL == nil && errR == nil && l.Type == Integer && r.Type == Integer {
			switch sum := l.Int + r.Int; {
			case e.Op == "+" && (sum > l.Int) == (r.Int > 0):
				return IntValue(sum), nil
			case e.Op == "-" && (l.Int-r.Int < l.Int) == (r.Int > 0):
				return IntValue(l.Int - r.Int), nil
			}
		}
	}
	return Value{}, fmt.Errorf("unsupported: property value %s (use a literal)", Print(e))
}

// bind returns every binding of the MATCH node patterns to g's nodes: one empty binding when
// there are none, no binding when some pattern matches nothing.
func (g *Graph) bind(match []nodeSpec) []map[string]int {
	envs := []map[string]int{{}}
	for _, n := range match {
		var next []map[string]int
		for _, env := range envs {
			for id := range g.Nodes {
				if prev, ok := env[n.Var]; ok && prev != id || !g.Nodes[id].matches(n) {
					continue
				}
				e := cloneEnv(env)
				if n.Var != "" {
					e[n.Var] = id
				}
				next = append(next, e)
			}
		}
		envs = next
	}
	return envs
}

func cloneEnv(env map[string]int) map[string]int {
	e := make(map[string]int, len(env)+1)
	for k, v := range env {
		e[k] = v
	}
	return e
}

// matches reports whether the node has every label and property value of n.
func (nd *Node) matches(n nodeSpec) bool {
	for _, l := range n.Labels {
		if !slices.Contains(nd.Labels, l) {
			return false
		}
	}
	for _, p := range n.Props {
		if v, ok := nd.Props.Get(p.Key); !ok || !sameValue(v, p.Val) {
			return false
		}
	}
	return true
}

// sameValue reports whether a = b in Cypher: integers and floats compare as numbers, null
// equals nothing.
func sameValue(a, b Value) bool {
	switch {
	case a.Type == Integer && b.Type == Float:
		return float64(a.Int) == b.Float
	case a.Type == Float && b.Type == Integer:
		return a.Float == float64(b.Int)
	case a.Type != b.Type:
		return false
	}
	switch a.Type {
	case Integer:
		return a.Int == b.Int
	case Float:
		return a.Float == b.Float
	case String:
		return a.Str == b.Str
	case Boolean:
		return a.Bool == b.Bool
	}
	return false
}

// createPath creates the path's new nodes and its relationships under binding env, binding the
// new nodes' variables in env.
func (g *Graph) createPath(path pathSpec, env map[string]int) {
	ids := make([]int, len(path.nodes))
	for i, n := range path.nodes {
		if id, ok := env[n.Var]; ok {
			ids[i] = id
			continue
		}
		ids[i] = len(g.Nodes)
		g.Nodes = append(g.Nodes, Node{ID: ids[i], Labels: slices.Clone(n.Labels), Props: slices.Clone(n.Props)})
		if n.Var != "" {
			env[n.Var] = ids[i]
		}
	}
	for i, r := range path.rels {
		from, to := ids[i], ids[i+1]
		if !r.Out {
			from, to = to, from
		}
		id := len(g.Nodes) + len(g.Rels)
		if v, ok := r.Props.Get("id"); ok && v.Type == Integer {
			id = int(v.Int)
		}
		g.Rels = append(g.Rels, Rel{ID: id, Type: r.Type, From: from, To: to, Props: slices.Clone(r.Props)})
	}
}
