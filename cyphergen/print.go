package cyphergen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Statements returns Cypher statements that create g on an empty graph: one
// `CREATE (:L1:L3 {id: 0, k2: 5})` per node, then one
// `MATCH (a {id: 0}), (b {id: 7}) CREATE (a)-[:T2 {id: 128}]->(b)` per relationship (a self-loop
// matches a single node). Endpoints are matched by their id property (by their ID when they have
// none), so a graph whose node IDs are not their id values, such as a reduced one rebuilt by
// [Graph.Apply], prints the same relationships.
//
// This is GDsmith's form with CREATE instead of its MERGE (ids are unique, so both make one
// relationship, and CREATE says so). Neo4j, Memgraph and FalkorDB/RedisGraph all accept it:
// each statement is a single query (FalkorDB's GRAPH.QUERY and a Bolt RUN take one statement,
// not a ';'-separated script), uses only core openCypher (CREATE, MATCH with an inline property
// map, label lists on anonymous nodes), and stays small. One giant CREATE with node variables
// would need a single round trip, but its size grows with the graph, a failure cannot be blamed
// on one element, and a reducer can drop single statements of this form. Matching by id scans
// the nodes (there is no index), which is cheap for GDsmith's graph sizes.
func (g *Graph) Statements() []string {
	out := make([]string, 0, len(g.Nodes)+len(g.Rels))
	for _, n := range g.Nodes {
		var b strings.Builder
		b.WriteString("CREATE (")
		for _, l := range n.Labels {
			b.WriteString(":" + Ident(l))
		}
		if len(n.Labels) > 0 {
			b.WriteByte(' ')
		}
		writeProps(&b, n.Props)
		b.WriteByte(')')
		out = append(out, b.String())
	}
	ids := make(map[int]string, len(g.Nodes))
	for _, n := range g.Nodes {
		ids[n.ID] = strconv.Itoa(n.ID)
		if v, ok := n.Props.Get("id"); ok {
			ids[n.ID] = Literal(v)
		}
	}
	for _, r := range g.Rels {
		var b strings.Builder
		to := "b"
		if r.From == r.To {
			to = "a"
			fmt.Fprintf(&b, "MATCH (a {id: %s})", ids[r.From])
		} else {
			fmt.Fprintf(&b, "MATCH (a {id: %s}), (b {id: %s})", ids[r.From], ids[r.To])
		}
		b.WriteString(" CREATE (a)-[:" + Ident(r.Type) + " ")
		writeProps(&b, r.Props)
		b.WriteString("]->(" + to + ")")
		out = append(out, b.String())
	}
	return out
}

// String returns [Graph.Statements] as a script, each statement ended by ";\n".
func (g *Graph) String() string {
	var b strings.Builder
	for _, s := range g.Statements() {
		b.WriteString(s + ";\n")
	}
	return b.String()
}

// writeProps writes a property map such as {id: 3, k1: 'x'}.
func writeProps(b *strings.Builder, ps Props) {
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Ident(p.Key) + ": " + Literal(p.Val))
	}
	b.WriteByte('}')
}

// Ident returns name as a Cypher identifier: as is when it is a plain identifier
// ([A-Za-z_][A-Za-z0-9_]*), otherwise in backquotes with backquotes doubled.
func Ident(name string) string {
	plain := name != ""
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			plain = false
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// Literal returns v as a Cypher literal that every engine reads back as v:
//   - integers in decimal; the least int64, whose magnitude has no literal, as
//     (-9223372036854775807 - 1);
//   - floats in the shortest form that parses back to the same float64, without exponent for
//     magnitudes in [1e-4, 1e21), with a '.' (so that 3.0 stays a float) and no '+' in the
//     exponent (openCypher's exponent takes an optional '-' only), for example 0.5, -3.0,
//     123456.75, 1.5e-7, 2.0e21; NaN and the
//     infinities, which have no literal, as (0.0/0.0), (1.0/0.0) and (-1.0/0.0);
//   - strings in single quotes with \\, \', \n, \r, \t, \b, \f and \uXXXX for other control
//     characters; invalid UTF-8 is replaced by U+FFFD, as Cypher strings are Unicode;
//   - booleans as true and false.
func Literal(v Value) string {
	switch v.Type {
	case Integer:
		if v.Int == math.MinInt64 {
			return "(-9223372036854775807 - 1)"
		}
		return strconv.FormatInt(v.Int, 10)
	case Float:
		return floatLiteral(v.Float)
	case String:
		return stringLiteral(v.Str)
	case Boolean:
		return strconv.FormatBool(v.Bool)
	}
	return "null"
}

func floatLiteral(f float64) string {
	switch {
	case math.IsNaN(f):
		return "(0.0/0.0)"
	case math.IsInf(f, 1):
		return "(1.0/0.0)"
	case math.IsInf(f, -1):
		return "(-1.0/0.0)"
	}
	if a := math.Abs(f); a == 0 || 1e-4 <= a && a < 1e21 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp) // drops the '+' and leading zeros
	return mant + "e" + strconv.Itoa(e)
}

func stringLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, c := range strings.ToValidUTF8(s, "\uFFFD") {
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, c)
			} else {
				b.WriteRune(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}
