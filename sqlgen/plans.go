package sqlgen

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Query plans: the planner switches of a dialect (knobs) and the plan hints written into a
// query's text, which the differential-query-plans layout (fuzz.DQP) runs a query under; the
// EXPLAIN form the cardinality-estimation (fuzz.CERT) and query-plan (fuzz.QPG) layouts carry;
// and the reader of its answer.

// knob is one planner switch: the statement on forces other plans, off undoes it. Knobs of one
// key set the same variable. A knob marked setup is also one of the settings a setup may run.
type knob struct {
	key, on, off string
	setup        bool
	name         string // the knob's name in findings ("" for key)
}

// settingKnobs returns the on statements of the knobs a setup may run, in order.
func settingKnobs(ks []knob) []string {
	var out []string
	for _, k := range ks {
		if k.setup {
			out = append(out, k.on)
		}
	}
	return out
}

// pgKnob is a PostgreSQL planner switch set off (or to v) and reset.
func pgKnob(name, v string, setup bool) knob {
	return knob{key: name, on: "SET " + name + " = " + v, off: "RESET " + name, setup: setup}
}

// PostgreSQL's JIT. pgJITOn turns it on as a setup setting (the target's sessions start with jit =
// off) and pgJIT for every query (jit_above_cost at zero), both without inlining and LLVM's
// optimization: their thresholds are costs that a disabled plan type (enable_nestloop = off adds
// 1e10) exceeds at once, and they then cost seconds per statement, a hang to the campaign.
// pgJITOff and pgJITOffAll put the target's session defaults back. A setup that turned JIT on has it
// off again after the pgJIT variant, for the rest of its cases: a change of speed, not of answers.
const (
	pgJITNoOpt  = "set_config('jit_inline_above_cost', '-1', false), set_config('jit_optimize_above_cost', '-1', false)"
	pgJITOpt    = "set_config('jit_inline_above_cost', '500000', false), set_config('jit_optimize_above_cost', '500000', false)"
	pgJITOn     = "SELECT set_config('jit', 'on', false), " + pgJITNoOpt
	pgJITOff    = "SELECT set_config('jit', 'off', false), " + pgJITOpt
	pgJIT       = "SELECT set_config('jit', 'on', false), set_config('jit_above_cost', '0', false), " + pgJITNoOpt
	pgJITOffAll = "SELECT set_config('jit', 'off', false), set_config('jit_above_cost', '100000', false), " + pgJITOpt
)

// pgKnobs are PostgreSQL 15's planner switches; the first thirteen are setup settings too (the
// target's sessions start with jit = off). force_parallel_mode = on is left out: starting the
// parallel workers took 0.4 s per query here, a hundred times the query.
var pgKnobs = []knob{
	pgKnob("enable_seqscan", "off", true), pgKnob("enable_indexscan", "off", true), pgKnob("enable_bitmapscan", "off", true),
	pgKnob("enable_hashjoin", "off", true), pgKnob("enable_mergejoin", "off", true), pgKnob("enable_nestloop", "off", true),
	pgKnob("enable_hashagg", "off", true), pgKnob("enable_sort", "off", true), pgKnob("enable_material", "off", true),
	pgKnob("enable_indexonlyscan", "off", true), pgKnob("random_page_cost", "0.1", true), pgKnob("cpu_tuple_cost", "1", true),
	{key: "jit", on: pgJITOn, off: pgJITOff, setup: true},
	pgKnob("enable_memoize", "off", false), pgKnob("enable_incremental_sort", "off", false),
	pgKnob("enable_gathermerge", "off", false), pgKnob("enable_parallel_hash", "off", false),
	pgKnob("enable_tidscan", "off", false),
	pgKnob("from_collapse_limit", "1", false), pgKnob("join_collapse_limit", "1", false),
	pgKnob("geqo_threshold", "2", false), pgKnob("cursor_tuple_fraction", "0.01", false),
	{key: "jit-costs", name: "jit", on: pgJIT, off: pgJITOffAll},
}

// mariaKnob is a MariaDB optimizer_switch flag set to v and back to its default.
func mariaKnob(flag, v string, setup bool) knob {
	return knob{key: flag, on: "SET SESSION optimizer_switch = '" + flag + "=" + v + "'",
		off: "SET SESSION optimizer_switch = '" + flag + "=default'", setup: setup}
}

// mysqlKnobs are MariaDB 10.11's optimizer_switch flags (MySQL knows a few; it rejects the others
// with error 1231, an expected error) and its join cache level; the first eight are setup settings.
var mysqlKnobs = []knob{
	mariaKnob("index_merge", "off", true), mariaKnob("index_condition_pushdown", "off", true),
	mariaKnob("condition_pushdown_from_having", "off", true), mariaKnob("condition_pushdown_for_derived", "off", true),
	mariaKnob("derived_merge", "off", true), mariaKnob("table_elimination", "off", true),
	mariaKnob("rowid_filter", "off", true), mariaKnob("semijoin", "off", true),
	mariaKnob("index_merge_union", "off", false), mariaKnob("index_merge_sort_union", "off", false),
	mariaKnob("index_merge_intersection", "off", false), mariaKnob("index_merge_sort_intersection", "on", false),
	mariaKnob("derived_with_keys", "off", false), mariaKnob("firstmatch", "off", false),
	mariaKnob("loosescan", "off", false), mariaKnob("materialization", "off", false),
	mariaKnob("in_to_exists", "off", false), mariaKnob("subquery_cache", "off", false),
	mariaKnob("mrr", "on", false), mariaKnob("outer_join_with_cache", "off", false),
	mariaKnob("semijoin_with_cache", "off", false), mariaKnob("join_cache_incremental", "off", false),
	mariaKnob("join_cache_hashed", "off", false), mariaKnob("join_cache_bka", "off", false),
	mariaKnob("optimize_join_buffer_size", "off", false), mariaKnob("extended_keys", "off", false),
	mariaKnob("exists_to_in", "off", false), mariaKnob("orderby_uses_equalities", "off", false),
	mariaKnob("split_materialized", "off", false), mariaKnob("condition_pushdown_for_subquery", "off", false),
	mariaKnob("not_null_range_scan", "on", false), mariaKnob("hash_join_cardinality", "on", false),
	{key: "join_cache_level", on: "SET SESSION join_cache_level = 8", off: "SET SESSION join_cache_level = DEFAULT"},
}

// duckKnob disables one DuckDB optimizer; all of them share the variable disabled_optimizers.
func duckKnob(name string, setup bool) knob {
	return knob{key: "disabled_optimizers", on: "SET disabled_optimizers = '" + name + "'",
		off: "RESET disabled_optimizers", setup: setup, name: "disabled_optimizers=" + name}
}

// duckdbKnobs are DuckDB 1.x's optimizers (duckdb_optimizers()) that change plans of the queries
// polyfuzz writes; the first five are setup settings.
var duckdbKnobs = []knob{
	duckKnob("filter_pushdown", true), duckKnob("join_order", true), duckKnob("statistics_propagation", true),
	duckKnob("expression_rewriter", true),
	{key: "optimizer", on: "PRAGMA disable_optimizer", off: "PRAGMA enable_optimizer", setup: true},
	duckKnob("filter_pullup", false), duckKnob("in_clause", false), duckKnob("deliminator", false),
	duckKnob("unused_columns", false), duckKnob("common_subexpressions", false), duckKnob("column_lifetime", false),
	duckKnob("build_side_probe_side", false), duckKnob("compressed_materialization", false),
	duckKnob("reorder_filter", false), duckKnob("join_filter_pushdown", false), duckKnob("empty_result_pullup", false),
	duckKnob("late_materialization", false), duckKnob("join_elimination", false), duckKnob("row_group_pruner", false),
	{key: "threads", on: "SET threads = 1", off: "RESET threads"},
}

// sqliteKnobs are SQLite's planner pragmas; the setup runs both of their statements.
var sqliteKnobs = []knob{
	{key: "automatic_index", on: "PRAGMA automatic_index = OFF", off: "PRAGMA automatic_index = ON"},
	{key: "reverse_unordered_selects", on: "PRAGMA reverse_unordered_selects = ON", off: "PRAGMA reverse_unordered_selects = OFF"},
}

// knobPragmas returns the on and off statements of each knob, in order.
func knobPragmas(ks []knob) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.on, k.off)
	}
	return out
}

// Plan hints: rewrites of a query's text that force another plan and keep its answer.
const (
	hintNotIndexed = "not-indexed"   // SQLite: every table NOT INDEXED
	hintCrossJoin  = "cross-join"    // SQLite: inner joins as CROSS JOIN, which fixes the join order
	hintLikely     = "likely"        // SQLite: WHERE likely(p), a different selectivity guess
	hintUnlikely   = "unlikely"      // SQLite: WHERE unlikely(p)
	hintStraight   = "straight-join" // MySQL, MariaDB: SELECT STRAIGHT_JOIN, the join order as written
)

// knobState returns, for each knob key of d, the last statement of stmts that set it.
func knobState(d *dialect, stmts []string) map[string]string {
	st := map[string]string{}
	for _, s := range stmts {
		for _, k := range d.knobs {
			if s == k.on || s == k.off {
				st[k.key] = s
			}
		}
	}
	return st
}

// dqpVariant picks a plan variant for a case whose setup leaves the knobs as knobs says: a hint,
// or a knob (its key is the variant's name) with the statement to run before the query and the
// one that puts the setup's value back after it. A knob the setup already switched on is switched
// off for the variant.
func (g *Generator) dqpVariant(r *rng, knobs map[string]string) (name, set, reset string) {
	i := r.intn(len(g.d.knobs) + len(g.d.hints))
	if i >= len(g.d.knobs) {
		return g.d.hints[i-len(g.d.knobs)], "", ""
	}
	k := g.d.knobs[i]
	cur, had := knobs[k.key]
	set, reset = k.on, k.off
	if had {
		reset = cur
		if cur == k.on {
			set = k.off
		}
	}
	return cond(k.name == "", k.key, k.name), set, reset
}

// selectWhere writes SELECT * FROM from WHERE pred.
func selectWhere(w func(string) (int, error), p pieces, from string) {
	w("SELECT * FROM ")
	w(from)
	w(" WHERE ")
	w(p.pred)
}

// renderPlans returns the text of a query of the DQP, CERT or QPG layout, or "" for another role.
func (d *dialect) renderPlans(role string, p pieces) string {
	var b strings.Builder
	w := b.WriteString
	switch role {
	case RoleDQPBase:
		selectWhere(w, p, p.from)
	case RoleDQPPlan:
		switch p.plan {
		case hintNotIndexed:
			selectWhere(w, p, notIndexed(p.from))
		case hintCrossJoin:
			selectWhere(w, p, crossJoins(p.from))
		case hintLikely, hintUnlikely:
			w("SELECT * FROM ")
			w(p.from)
			w(" WHERE ")
			w(p.plan)
			w("(")
			w(p.pred)
			w(")")
		case hintStraight:
			w("SELECT STRAIGHT_JOIN * FROM ")
			w(p.from)
			w(" WHERE ")
			w(p.pred)
		default:
			selectWhere(w, p, p.from)
		}
	case RoleCERTOrig:
		w(d.explain)
		selectWhere(w, p, p.from)
	case RoleCERTMut:
		w(d.explain)
		switch p.mut {
		case mutAnd, mutOr:
			w("SELECT * FROM ")
			w(p.from)
			w(" WHERE (")
			w(p.pred)
			w(cond(p.mut == mutAnd, ") AND (", ") OR ("))
			w(p.pred2)
			w(")")
		case mutLimit:
			selectWhere(w, p, p.from)
			w(" LIMIT ")
			w(p.limit)
		case mutInner:
			selectWhere(w, p, innerJoin(p.from))
		case mutNoWhere:
			w("SELECT * FROM ")
			w(p.from)
		default:
			return ""
		}
	case RoleQPGPlan:
		w(d.explain)
		selectWhere(w, p, p.from)
	default:
		return ""
	}
	return b.String()
}

// CERT mutations of a query: each returns a subset (restrict) or a superset (relax) of its rows.
const (
	mutAnd     = "and"      // restrict: WHERE (p) AND (q)
	mutLimit   = "limit"    // restrict: LIMIT n
	mutInner   = "inner"    // restrict: the first LEFT JOIN made an inner JOIN
	mutOr      = "or"       // relax: WHERE (p) OR (q)
	mutNoWhere = "no-where" // relax: no WHERE clause
)

// CERT directions (Params "certdir").
const (
	CERTRestrict = "restrict"
	CERTRelax    = "relax"
)

// certMutation picks a mutation of the case's query and returns it with its direction.
func (g *Generator) certMutation(r *rng, from string) (mut, dir string) {
	muts := []string{mutAnd, mutAnd, mutLimit, mutInner, mutOr, mutOr, mutNoWhere}
	mut = pick(r, muts)
	if mut == mutInner && innerJoin(from) == from {
		mut = mutAnd
	}
	if mut == mutOr || mut == mutNoWhere {
		return mut, CERTRelax
	}
	return mut, CERTRestrict
}

// editFrom returns a FROM clause with each of its relations edited by f (the first has op ""),
// or from itself when it is not one the generator prints.
func editFrom(from string, f func(it *fromItem)) string {
	items, ok := parseFrom(from)
	if !ok {
		return from
	}
	for i := range items {
		f(&items[i])
	}
	return printFrom(items)
}

// notIndexed returns a SQLite FROM clause with every table (not view) NOT INDEXED.
func notIndexed(from string) string {
	return editFrom(from, func(it *fromItem) {
		if strings.HasPrefix(it.name, "t") {
			it.name += " NOT INDEXED"
		}
	})
}

// crossJoins returns a SQLite FROM clause with its inner joins (comma, JOIN, INNER JOIN) written
// CROSS JOIN, which SQLite runs in the order written; an ON condition stays.
func crossJoins(from string) string {
	return editFrom(from, func(it *fromItem) {
		switch it.op {
		case ",", "JOIN", "INNER JOIN":
			it.op = "CROSS JOIN"
		}
	})
}

// innerJoin returns from with its first LEFT [OUTER] JOIN made an inner JOIN (from itself when it
// has none).
func innerJoin(from string) string {
	done := false
	return editFrom(from, func(it *fromItem) {
		if !done && (it.op == "LEFT JOIN" || it.op == "LEFT OUTER JOIN") {
			it.op, done = "JOIN", true
		}
	})
}

// HasEstimates reports whether the plans of a dialect's engines carry row estimates (SQLite's
// do not), which the cert oracle needs.
func HasEstimates(dialect string) bool {
	d, ok := dialects[dialect]
	return ok && d.readPlan != nil && !d.noEstimates
}

// Plan is an engine's plan of a query as its EXPLAIN prints it.
type Plan struct {
	// Ops are the plan's operators, top down (in PostgreSQL "Hash Join", "Seq Scan on t0"; in
	// MySQL and MariaDB a table's select type, name and access type).
	Ops []string
	// Rows is the top operator's estimated row count, when HasRows (SQLite estimates none).
	Rows    float64
	HasRows bool
	// Sig is the plan's signature for query plan guidance: its operators with what they read
	// (indexes, access types), without estimates, costs and the numbers in names (t0 and t1,
	// i0 and qpg7 are alike), so that a new index name alone makes no new plan.
	Sig string
}

// ReadPlan reads the answer r to one of the EXPLAIN statements of the fuzz.CERT and fuzz.QPG
// layouts of a dialect's cases; ok is false when r is no plan this package can read.
func ReadPlan(dialect string, r *fuzz.Result) (p Plan, ok bool) {
	d, found := dialects[dialect]
	if !found || d.readPlan == nil || r == nil || r.Failed() || len(r.Rows) == 0 {
		return Plan{}, false
	}
	return d.readPlan(r)
}

// signature returns the parts of a plan joined by ";", without digits.
func signature(parts []string) string {
	s := strings.Join(parts, ";")
	return strings.Map(func(c rune) rune {
		if c >= '0' && c <= '9' {
			return -1
		}
		return c
	}, s)
}

// plain returns a canonical value without its type tag ("t:abc" gives "abc"), NULL as "".
func plain(v string) string {
	if v == fuzz.Null {
		return ""
	}
	if len(v) > 2 && v[1] == ':' {
		return v[2:]
	}
	return strings.TrimPrefix(v, v[:min(2, len(v))])
}

// readSQLitePlan reads EXPLAIN QUERY PLAN: rows (id, parent, notused, detail), no estimates.
func readSQLitePlan(r *fuzz.Result) (Plan, bool) {
	var p Plan
	for _, row := range r.Rows {
		if len(row) < 4 {
			return Plan{}, false
		}
		p.Ops = append(p.Ops, plain(row[3]))
	}
	p.Sig = signature(p.Ops)
	return p, true
}

// readPostgresPlan reads EXPLAIN's text: one row per line, an operator line holding "(cost=...
// rows=N width=W)", the first line being the top operator.
func readPostgresPlan(r *fuzz.Result) (Plan, bool) {
	var p Plan
	for i, row := range r.Rows {
		if len(row) != 1 {
			return Plan{}, false
		}
		line := strings.TrimSpace(plain(row[0]))
		line = strings.TrimPrefix(line, "->  ")
		k := strings.Index(line, "  (cost=")
		if k < 0 {
			continue // a detail line: Filter, Index Cond, Sort Key, ...
		}
		p.Ops = append(p.Ops, line[:k])
		if i == 0 {
			est := line[k:]
			if j := strings.Index(est, " rows="); j >= 0 {
				est = est[j+len(" rows="):]
				if e := strings.IndexByte(est, ' '); e >= 0 {
					if n, err := strconv.ParseFloat(est[:e], 64); err == nil {
						p.Rows, p.HasRows = n, true
					}
				}
			}
		}
	}
	if len(p.Ops) == 0 {
		return Plan{}, false
	}
	p.Sig = signature(p.Ops)
	return p, true
}

// readMySQLPlan reads EXPLAIN's table (id, select_type, table, type, possible_keys, key, key_len,
// ref, rows, Extra): the estimate is the first row's rows, as CERT reads MySQL's.
func readMySQLPlan(r *fuzz.Result) (Plan, bool) {
	col := map[string]int{}
	for i, c := range r.Columns {
		col[c] = i
	}
	st, okS := col["select_type"]
	tb, okT := col["table"]
	ty, okY := col["type"]
	rw, okR := col["rows"]
	if !okS || !okT || !okY || !okR {
		return Plan{}, false
	}
	var p Plan
	var sig []string
	for i, row := range r.Rows {
		if len(row) != len(r.Columns) {
			return Plan{}, false
		}
		op := plain(row[st]) + " " + plain(row[tb]) + " " + plain(row[ty])
		p.Ops = append(p.Ops, op)
		s := op
		if k, ok := col["key"]; ok {
			s += " " + plain(row[k])
		}
		if k, ok := col["Extra"]; ok {
			s += " " + plain(row[k])
		}
		sig = append(sig, s)
		if i == 0 {
			if n, err := strconv.ParseFloat(plain(row[rw]), 64); err == nil {
				p.Rows, p.HasRows = n, true
			}
		}
	}
	p.Sig = signature(sig)
	return p, true
}

// duckNode is one operator of DuckDB's EXPLAIN (FORMAT json).
type duckNode struct {
	Name     string         `json:"name"`
	Children []duckNode     `json:"children"`
	Extra    map[string]any `json:"extra_info"`
}

// readDuckDBPlan reads EXPLAIN (FORMAT json): one row (explain_key, explain_value), the value a
// JSON list holding the top operator, whose "Estimated Cardinality" is the estimate.
func readDuckDBPlan(r *fuzz.Result) (Plan, bool) {
	if len(r.Rows[0]) != 2 {
		return Plan{}, false
	}
	var roots []duckNode
	if err := json.Unmarshal([]byte(plain(r.Rows[0][1])), &roots); err != nil || len(roots) == 0 {
		return Plan{}, false
	}
	var p Plan
	var sig []string
	var walk func(n *duckNode)
	walk = func(n *duckNode) {
		p.Ops = append(p.Ops, n.Name)
		s := n.Name
		for _, k := range []string{"Table", "Join Type", "Type"} {
			if v, ok := n.Extra[k].(string); ok {
				s += " " + v
			}
		}
		sig = append(sig, s)
		for i := range n.Children {
			walk(&n.Children[i])
		}
	}
	walk(&roots[0])
	if v, ok := roots[0].Extra["Estimated Cardinality"].(string); ok {
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			p.Rows, p.HasRows = n, true
		}
	}
	p.Sig = signature(sig)
	return p, true
}

// planQueries adds the queries of the DQP, CERT and QPG layouts the generator writes to c, after
// every other layout's (so that those stay as they were without them), over setup knob state
// knobs.
func (g *Generator) planQueries(r *rng, c *fuzz.Case, p *pieces, scope []string, types []sqlType, knobs map[string]string) {
	add := func(role, text string) {
		if text == "" {
			text = g.d.render(role, *p)
		}
		c.Queries = append(c.Queries, fuzz.Query{Role: role, Text: text})
	}
	if g.dqp {
		name, set, reset := g.dqpVariant(r, knobs)
		p.plan = name
		if set == "" && g.d.render(RoleDQPPlan, *p) == g.d.render(RoleDQPBase, *p) {
			p.plan = g.d.hints[0] // the hint does not apply to this FROM clause
			for _, h := range g.d.hints {
				if h == hintLikely {
					p.plan = h
				}
			}
		}
		add(RoleDQPBase, "")
		if set != "" {
			add(RoleDQPSet, set)
		}
		add(RoleDQPPlan, "")
		if reset != "" {
			add(RoleDQPReset, reset)
		}
		c.Params[ParamPlan] = p.plan
	}
	if g.cert {
		var dir string
		p.mut, dir = g.certMutation(r, p.from)
		switch p.mut {
		case mutAnd, mutOr:
			var b strings.Builder
			g.predInto(r, &b, scope, types, g.o.MaxDepth)
			p.pred2 = b.String()
			c.Params[ParamPred2] = p.pred2
		case mutLimit:
			p.limit = strconv.Itoa(1 + r.intn(10))
			c.Params[ParamLimit] = p.limit
		}
		add(RoleCERTOrig, "")
		add(RoleCERTMut, "")
		c.Params[ParamMut], c.Params[ParamCERTDir] = p.mut, dir
	}
	if g.plans {
		add(RoleQPGPlan, "")
	}
}
