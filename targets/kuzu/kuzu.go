// Package kuzu runs Kùzu, the embedded graph database of the PyPI package kuzu, as a graph
// target: one long-lived Python process per target (package rowserver) that keeps one in-memory
// database (kuzu.Database(":memory:"), one thread) and one connection. A crash of the process
// (a segmentation fault inside Kùzu, or the binding failing) is a fuzz.StatusCrash; the next
// Exec or Reset starts a new process.
//
// The package comes from the project's Python environment (scripts/requirements.txt pins
// kuzu==0.11.3); without it Open fails with an error that names the fix,
// `source scripts/python.sh && python_env`.
//
// # The graph's setup
//
// Kùzu needs a schema: a node belongs to exactly one node table, every table has typed columns,
// and a relationship table names the pairs of node tables it joins. Graph cases create their
// graph with openCypher statements shared by every engine of a campaign (cyphergen's
// Graph.Statements): `CREATE (:L1 {id: 0, k2: 5})` per node and `MATCH (a {id: 0}), (b {id: 7})
// CREATE (a)-[:T2 {id: 128}]->(b)` per relationship. The target does not send them as they are
// (Kùzu has no table L1 yet, and cannot create a relationship between endpoints it matched across
// several tables); it answers each with no rows and collects the graph. When the first other
// statement arrives it creates the schema the graph needs and loads the graph, in one program:
//
//   - a node table per label, `CREATE NODE TABLE L1(id INT64, k0 STRING, ..., PRIMARY KEY(id))`;
//   - a relationship table per type, FROM and TO each pair of labels its relationships join;
//   - in every table a column for every property key of the setup, of the key's type (INT64,
//     DOUBLE, STRING or BOOLEAN), so that a key an element lacks reads as null, as in Neo4j;
//   - the nodes, then the relationships with their endpoints matched by label and id.
//
// A node with no label or several labels, without an id, or a key with values of two types is
// an engine error of the setup statement (Code "schema"), and every later statement until Reset
// answers an error (Code "setup"), since it would run on another graph: the kuzu profile of
// cyphergen makes generation give each node exactly one label. A failed load is the error (Code "setup") of the
// statement that triggered it and of every later one until Reset. Statements of other forms go
// to Kùzu as they are, after the graph collected so far is loaded.
//
// # Values and errors
//
// Rows are cypherval values printed with Val.Canon: a node's label is its table's name and its
// properties are its non-null columns; a relationship's type is its table's name; Kùzu's INT128
// (the type of sum over integers) is an integer when it fits. Engine errors carry Kùzu's
// exception class in lower case as Code ("binder", "parser", "catalog", "runtime", "overflow",
// "conversion", ...). A statement over Options.Timeout is interrupted by Kùzu (the connection's
// query timeout) and is a fuzz.StatusTimeout; a process that does not stop within rowserver's
// grace period is killed.
//
// This package imports only fuzz, cypherval, targets/rowserver (and what it imports) and the
// standard library.
package kuzu

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/cypherval"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/rowserver"
)

//go:embed server.py
var serverSource string

// Fix says how to get the kuzu module into the project's Python environment.
const Fix = "source scripts/python.sh && python_env (or python3 -m pip install kuzu==0.11.3)"

// Codes of the target's own errors.
const (
	// CodeSchema is a setup statement whose graph Kùzu cannot hold (labels, id, types).
	CodeSchema = "schema"
	// CodeSetup is a failed load of the collected graph.
	CodeSetup = "setup"
)

// grace is how long past its timeout a statement may run before the process is killed.
const grace = 2 * time.Second

// bufferPool bounds the memory of one database (Kùzu's default is most of the machine's).
const bufferPool = 512 << 20

// Options configure a target.
type Options struct {
	// Python is the interpreter with the kuzu module; empty means the project's
	// (rowserver.Python).
	Python string
	// Timeout bounds one statement; 0 means no limit.
	Timeout time.Duration
}

// Target is Kùzu in a Python process. It is a fuzz.Target used by one goroutine.
type Target struct {
	s       *rowserver.Server
	timeout time.Duration
	g       *graph // the setup collected since the last load
	loaded  *graph // the graph loaded, nil before the first load
	broken  string // the error answered until Reset: a failed load, a lost process
}

var _ fuzz.Target = (*Target)(nil)

// Open starts the server. A missing interpreter or kuzu module is an error that names the fix.
func Open(o Options) (*Target, error) {
	ms := int64(0)
	timeout := time.Duration(0)
	if o.Timeout > 0 {
		ms = max(o.Timeout.Milliseconds(), 1)
		timeout = o.Timeout + grace
	}
	src := fmt.Sprintf("TIMEOUT_MS = %d\nBUFFER_BYTES = %d\n", ms, bufferPool) + serverSource
	s, err := rowserver.StartPython(rowserver.PythonServer{Name: "kuzu", Module: "kuzu",
		Source: src, Python: o.Python, Timeout: timeout, Fix: Fix})
	if err != nil {
		return nil, err
	}
	return &Target{s: s, timeout: o.Timeout, g: newGraph()}, nil
}

// Name returns "kuzu".
func (t *Target) Name() string { return "kuzu" }

// Version returns the kuzu package's version ("0.11.3").
func (t *Target) Version() string { return t.s.Version() }

// Starts counts the Python processes started.
func (t *Target) Starts() int { return t.s.Starts }

// Reset forgets the collected graph and replaces the database by a new, empty one, starting a
// new process when none runs.
func (t *Target) Reset(ctx context.Context) error {
	t.g, t.loaded, t.broken = newGraph(), nil, ""
	return t.s.ResetWith(ctx, rowserver.ResetProgram)
}

// Exec collects a setup statement, or loads the graph collected so far and runs stmt. A setup
// statement after the load creates its element at once (in the tables the load made: a new
// label or type needs a new setup).
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.broken != "" {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeSetup, Err: t.broken}, nil
	}
	g := t.g
	if t.loaded != nil {
		g = t.loaded
	}
	nodes, rels := len(g.nodes), len(g.rels)
	switch err := g.add(stmt); {
	case err == nil:
		if t.loaded != nil && len(g.nodes) > nodes {
			return t.run(ctx, g.createNode(g.nodes[nodes]))
		}
		if t.loaded != nil && len(g.rels) > rels {
			return t.run(ctx, g.createRel(g.rels[rels]))
		}
		return &fuzz.Result{Status: fuzz.StatusOK}, nil
	case !errors.Is(err, errNotSetup):
		// The graph lacks this element from now on: later statements would run on another graph.
		msg := "kuzu: " + err.Error()
		t.broken = "the setup has a statement Kùzu cannot hold (" + msg + ")"
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: CodeSchema, Err: msg}, nil
	}
	if t.loaded == nil {
		if res, err := t.load(ctx); res != nil || err != nil {
			return res, err
		}
	}
	return t.run(ctx, stmt)
}

// load creates the schema of the collected graph and loads it; it returns a result only when
// the load failed.
func (t *Target) load(ctx context.Context) (*fuzz.Result, error) {
	g := t.g
	t.loaded = g
	script := g.script()
	if len(script) == 0 {
		return nil, nil
	}
	res, err := t.s.ExecRows(ctx, strings.Join(script, ";\n"), func(v string) string { return v })
	if err != nil {
		return nil, err
	}
	if res.Status == fuzz.StatusOK {
		return nil, nil
	}
	if res.Status == fuzz.StatusEngineError && res.Code == "timeout" {
		res.Status = fuzz.StatusTimeout
	}
	t.broken = fmt.Sprintf("loading the graph failed: %s %s", res.Code, res.Err)
	if res.Status == fuzz.StatusEngineError {
		res.Code = CodeSetup
		res.Err = t.broken
	}
	return res, nil
}

// run sends one statement and decodes its rows.
func (t *Target) run(ctx context.Context, stmt string) (*fuzz.Result, error) {
	var bad error
	res, err := t.s.ExecRows(ctx, stmt, func(v string) string {
		c, err := canonical(v)
		if err != nil && bad == nil {
			bad = err
		}
		return c
	})
	if err != nil || res == nil {
		return res, err
	}
	if bad != nil {
		return &fuzz.Result{Status: fuzz.StatusEngineError, Code: fuzz.CodeUnexpectedAnswer,
			Err: "kuzu answered a value polyfuzz cannot read: " + bad.Error()}, nil
	}
	switch {
	case res.Status == fuzz.StatusEngineError && res.Code == "timeout":
		return &fuzz.Result{Status: fuzz.StatusTimeout, Err: fmt.Sprintf("kuzu: statement ran over %s", t.timeout)}, nil
	case res.Status == fuzz.StatusTimeout:
		res.Err = fmt.Sprintf("kuzu: statement ran over %s and was not interrupted", t.timeout)
	}
	if res.Status == fuzz.StatusCrash || res.Status == fuzz.StatusTimeout {
		// The process is gone, and with it the graph: the next one starts empty.
		t.broken = "kuzu's process ended (" + res.Status.String() + ") and its graph with it; reset to load it again"
	}
	return res, nil
}

// Close stops the process.
func (t *Target) Close() error { return t.s.Close() }

// canonical turns a value as the server writes it ("j:" and JSON) into its canonical text.
func canonical(v string) (string, error) {
	j, ok := strings.CutPrefix(v, "j:")
	if !ok {
		return v, fmt.Errorf("untagged value %q", v)
	}
	d := json.NewDecoder(strings.NewReader(j))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return v, err
	}
	val, err := decode(x)
	if err != nil {
		return v, err
	}
	return val.Canon(), nil
}

// decode turns the server's JSON form of a value into a cypherval value.
func decode(x any) (cypherval.Val, error) {
	switch x := x.(type) {
	case nil:
		return cypherval.NullVal, nil
	case bool:
		return cypherval.BoolVal(x), nil
	case string:
		return cypherval.StringVal(x), nil
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return cypherval.IntVal(i), nil
		}
		f, err := strconv.ParseFloat(string(x), 64) // an INT128 past int64
		if err != nil {
			return cypherval.Val{}, err
		}
		return cypherval.FloatVal(f), nil
	case []any:
		l := make([]cypherval.Val, len(x))
		for i, e := range x {
			var err error
			if l[i], err = decode(e); err != nil {
				return cypherval.Val{}, err
			}
		}
		return cypherval.ListVal(l...), nil
	case map[string]any:
		return decodeTagged(x)
	}
	return cypherval.Val{}, fmt.Errorf("unexpected JSON %v", x)
}

// decodeTagged decodes the tagged objects: floats, maps, nodes, relationships, paths, others.
func decodeTagged(x map[string]any) (cypherval.Val, error) {
	props := func() (map[string]cypherval.Val, error) {
		p, _ := x["p"].(map[string]any)
		m := make(map[string]cypherval.Val, len(p))
		for k, e := range p {
			v, err := decode(e)
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return m, nil
	}
	switch {
	case x["f"] != nil:
		s, _ := x["f"].(string)
		switch s {
		case "nan":
			return cypherval.FloatVal(math.NaN()), nil
		case "inf":
			return cypherval.FloatVal(math.Inf(1)), nil
		case "-inf":
			return cypherval.FloatVal(math.Inf(-1)), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		return cypherval.FloatVal(f), err
	case x["m"] != nil:
		m, _ := x["m"].(map[string]any)
		out := make(map[string]cypherval.Val, len(m))
		for k, e := range m {
			v, err := decode(e)
			if err != nil {
				return cypherval.Val{}, err
			}
			out[k] = v
		}
		return cypherval.Val{Kind: cypherval.Map, M: out}, nil
	case x["n"] != nil || x["r"] != nil:
		kind, name := cypherval.Node, x["n"]
		if name == nil {
			kind, name = cypherval.Rel, x["r"]
		}
		label, _ := name.(string)
		m, err := props()
		return cypherval.Val{Kind: kind, Labels: []string{label}, M: m}, err
	case x["path"] != nil:
		elems, _ := x["path"].([]any)
		p := cypherval.Val{Kind: cypherval.Path, L: make([]cypherval.Val, len(elems))}
		for i, e := range elems {
			var err error
			if p.L[i], err = decode(e); err != nil {
				return cypherval.Val{}, err
			}
		}
		return p, nil
	case x["t"] != nil:
		s, _ := x["t"].(string)
		return cypherval.StringVal(s), nil
	}
	return cypherval.Val{}, fmt.Errorf("unexpected JSON %v", x)
}
