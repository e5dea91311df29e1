package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/fault"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

// targetSpec says how to open one engine; it travels to an isolated child as JSON and is stored
// with findings so that replay opens the same target.
type targetSpec struct {
	DBMS    string        `json:"dbms"`
	Fault   string        `json:"fault,omitempty"`
	Timeout time.Duration `json:"timeout"`
	Isolate bool          `json:"isolate"`
}

// options returns the spec as campaign options.
func (s targetSpec) options() map[string]string {
	m := map[string]string{"dbms": s.DBMS, "timeout": s.Timeout.String(), "isolate": fmt.Sprint(s.Isolate)}
	if s.Fault != "" {
		m["fault"] = s.Fault
	}
	return m
}

func specFromOptions(m map[string]string) (targetSpec, error) {
	s := targetSpec{DBMS: m["dbms"], Fault: m["fault"], Isolate: m["isolate"] != "false"}
	if t := m["timeout"]; t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			return s, fmt.Errorf("bad timeout %q in finding: %w", t, err)
		}
		s.Timeout = d
	}
	return s, nil
}

// engine is one entry of the registry of SQL engines.
type engine struct {
	dialect string
	// inProcess engines can run in an isolated child; open opens one in this process.
	inProcess bool
	open      func(s targetSpec) (fuzz.Target, error)
}

// engines is the one registry of SQL engines polyfuzz can test.
var engines = map[string]engine{
	"sqlite": {dialect: "sqlite", inProcess: true, open: func(s targetSpec) (fuzz.Target, error) {
		return sqlite.Open(sqlite.Options{Timeout: s.Timeout})
	}},
}

// sqlOracles maps each SQL oracle's name to its constructor.
var sqlOracles = map[string]func(expect oracles.Expect) fuzz.Oracle{
	"norec":     func(oracles.Expect) fuzz.Oracle { return oracles.NoREC{} },
	"tlp-where": func(oracles.Expect) fuzz.Oracle { return oracles.TLP{} },
	"error":     func(e oracles.Expect) fuzz.Oracle { return oracles.Errors{Expect: e} },
}

func names[V any](m map[string]V) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// openLocal opens a target in this process, with its fault if any.
func openLocal(s targetSpec) (fuzz.Target, error) {
	e, ok := engines[s.DBMS]
	if !ok {
		return nil, fmt.Errorf("unknown --dbms %q (known: %s)", s.DBMS, names(engines))
	}
	t, err := e.open(s)
	if err != nil || s.Fault == "" {
		return t, err
	}
	f, err := fault.Parse(s.Fault)
	if err != nil {
		t.Close()
		return nil, err
	}
	return fault.Wrap(t, f), nil
}

// openTarget opens a target, in an isolated child when the spec asks for it and the engine
// runs in process.
func openTarget(ctx context.Context, s targetSpec) (fuzz.Target, error) {
	e, ok := engines[s.DBMS]
	if !ok {
		return nil, fmt.Errorf("unknown --dbms %q (known: %s)", s.DBMS, names(engines))
	}
	if s.Fault != "" {
		if _, err := fault.Parse(s.Fault); err != nil {
			return nil, err
		}
	}
	if s.Isolate && e.inProcess {
		b, _ := json.Marshal(s)
		timeout := s.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		return isolated.Open(ctx, isolated.Options{Spec: string(b), Timeout: timeout})
	}
	return openLocal(s)
}

// serveChild is the main of an isolated child.
func serveChild() {
	isolated.Serve(func(spec string) (fuzz.Target, error) {
		var s targetSpec
		if err := json.Unmarshal([]byte(spec), &s); err != nil {
			return nil, fmt.Errorf("bad isolated target spec %q: %w", spec, err)
		}
		s.Timeout = 0 // the parent kills a child whose batch runs over the timeout
		return openLocal(s)
	})
}

// sqlSetup is everything a SQL campaign, replay or reduction needs, built from options.
type sqlSetup struct {
	gen     *sqlgen.Generator
	oracles []fuzz.Oracle
	spec    targetSpec
	format  campaign.Format
}

func newSQLSetup(genOpts sqlgen.Options, oracleNames []string, spec targetSpec) (*sqlSetup, error) {
	e, ok := engines[spec.DBMS]
	if !ok {
		return nil, fmt.Errorf("unknown --dbms %q (known: %s)", spec.DBMS, names(engines))
	}
	genOpts.Dialect = e.dialect
	for _, n := range oracleNames {
		if _, ok := sqlOracles[n]; !ok {
			return nil, fmt.Errorf("unknown --oracle %q (known: %s)", n, names(sqlOracles))
		}
	}
	gen, err := sqlgen.New(genOpts)
	if err != nil {
		return nil, err
	}
	expect, err := sqlgen.Expected(e.dialect)
	if err != nil {
		return nil, err
	}
	s := &sqlSetup{gen: gen, spec: spec, format: sqlgen.Format{Dialect: e.dialect}}
	if !slices.Contains(oracleNames, "error") {
		oracleNames = append(oracleNames, "error")
	}
	for _, n := range oracleNames {
		s.oracles = append(s.oracles, sqlOracles[n](expect))
	}
	return s, nil
}

func (s *sqlSetup) oracle(name string) (fuzz.Oracle, error) {
	for _, o := range s.oracles {
		if o.Name() == name {
			return o, nil
		}
	}
	return nil, fmt.Errorf("unknown oracle %q", name)
}

// rebuilt is what replaying or reducing a stored finding needs, whatever its domain.
type rebuilt struct {
	gen     fuzz.Generator // nil when the case cannot be regenerated here
	oracle  fuzz.Oracle
	open    func(ctx context.Context) ([]fuzz.Target, error)
	reducer fuzz.Reducer
	format  campaign.Format
}

// rebuild reconstructs from a stored finding's record what produced it.
func rebuild(ctx context.Context, rec *campaign.Record) (*rebuilt, error) {
	switch rec.Domain {
	case "sql":
		return rebuildSQL(rec)
	case "smt":
		return rebuildSMT(ctx, rec)
	}
	return nil, fmt.Errorf("finding of domain %q: this polyfuzz replays sql and smt findings", rec.Domain)
}

// rebuildSQL rebuilds what produced a stored SQL finding.
func rebuildSQL(rec *campaign.Record) (*rebuilt, error) {
	opts, err := sqlgen.ParseOptions(rec.Gen)
	if err != nil {
		return nil, fmt.Errorf("finding's generator options: %w", err)
	}
	spec, err := specFromOptions(rec.Options)
	if err != nil {
		return nil, err
	}
	s, err := newSQLSetup(opts, []string{rec.Oracle}, spec)
	if err != nil {
		return nil, err
	}
	o, err := s.oracle(rec.Oracle)
	if err != nil {
		return nil, err
	}
	open := func(ctx context.Context) ([]fuzz.Target, error) {
		t, err := openTarget(ctx, spec)
		if err != nil {
			return nil, err
		}
		return []fuzz.Target{t}, nil
	}
	return &rebuilt{gen: s.gen, oracle: o, open: open, reducer: sqlgen.NewReducer(), format: s.format}, nil
}
