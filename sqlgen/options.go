package sqlgen

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Oracle names accepted in [Options.Oracles].
const (
	OracleNoREC       = "norec"
	OracleTLPWhere    = "tlp-where"
	OracleTLPHaving   = "tlp-having"
	OracleTLPDistinct = "tlp-distinct"
	OracleTLPGroupBy  = "tlp-groupby"
	OracleTLPAgg      = "tlp-agg"
)

// oracleNames lists the valid oracles in their canonical order.
var oracleNames = []string{OracleNoREC, OracleTLPWhere, OracleTLPHaving, OracleTLPDistinct, OracleTLPGroupBy, OracleTLPAgg}

// defaultOracles are the layouts a case carries when Options.Oracles is empty.
var defaultOracles = []string{OracleNoREC, OracleTLPWhere}

// Defaults applied to zero-valued [Options] fields.
const (
	DefaultDialect      = "sqlite"
	DefaultQueriesPerDB = 100
	DefaultMaxTables    = 3
	DefaultMaxColumns   = 4
	DefaultMaxInserts   = 20
	DefaultMaxDepth     = 3
	DefaultMaxIndexes   = 4
	DefaultMaxViews     = 2
	DefaultMaxFrom      = 3
)

// Options configure a [Generator]. A zero field means its default; for the counts where zero is
// meaningful (MaxIndexes, MaxViews, MaxInserts) a negative value means none.
type Options struct {
	// Dialect is the SQL dialect: "sqlite" (the default), "postgres", "mysql" (MySQL and MariaDB),
	// "duckdb", or "common", the subset all four engines read alike (for the cross-engine
	// differential).
	Dialect string
	// Oracles selects the query layouts each case carries, from "norec", "tlp-where",
	// "tlp-having", "tlp-distinct", "tlp-groupby" and "tlp-agg" (default: norec and tlp-where).
	Oracles []string
	// QueriesPerDB is how many consecutive cases share one setup (default 100, at most 65536).
	QueriesPerDB int
	// MaxTables bounds the tables of a setup (default 3).
	MaxTables int
	// MaxColumns bounds the columns of a table (default 4).
	MaxColumns int
	// MaxInserts bounds the INSERT statements of a setup (default 20).
	MaxInserts int
	// MaxDepth bounds the depth of generated expressions (default 3).
	MaxDepth int
	// MaxIndexes bounds the CREATE INDEX statements of a setup (default 4).
	MaxIndexes int
	// MaxViews bounds the views of a setup (default 2).
	MaxViews int
	// MaxFrom bounds the tables and views joined in a query's FROM clause (default 3); the
	// generator also keeps the product of their estimated row counts small.
	MaxFrom int
	// DistinctViews allows SELECT DISTINCT in views, a known source of false positives with
	// values that compare equal but print differently (0 and 0.0).
	DistinctViews bool
}

// normalized returns o with defaults applied, negative counts set to zero and the oracles in
// canonical order without duplicates.
func (o Options) normalized() Options {
	def := func(v, d int) int {
		if v == 0 {
			return d
		}
		return v
	}
	zero := func(v, d int) int {
		switch {
		case v == 0:
			return d
		case v < 0:
			return 0
		}
		return v
	}
	n := o
	if n.Dialect == "" {
		n.Dialect = DefaultDialect
	}
	if len(o.Oracles) == 0 {
		n.Oracles = append([]string(nil), defaultOracles...)
	} else {
		n.Oracles = nil
		for _, name := range oracleNames {
			if slices.Contains(o.Oracles, name) {
				n.Oracles = append(n.Oracles, name)
			}
		}
		for _, name := range o.Oracles {
			if !slices.Contains(n.Oracles, name) {
				n.Oracles = append(n.Oracles, name) // invalid; kept so validate names it
			}
		}
	}
	n.QueriesPerDB = def(o.QueriesPerDB, DefaultQueriesPerDB)
	n.MaxTables = def(o.MaxTables, DefaultMaxTables)
	n.MaxColumns = def(o.MaxColumns, DefaultMaxColumns)
	n.MaxInserts = zero(o.MaxInserts, DefaultMaxInserts)
	n.MaxDepth = def(o.MaxDepth, DefaultMaxDepth)
	n.MaxIndexes = zero(o.MaxIndexes, DefaultMaxIndexes)
	n.MaxViews = zero(o.MaxViews, DefaultMaxViews)
	n.MaxFrom = def(o.MaxFrom, DefaultMaxFrom)
	return n
}

// validate checks normalized options.
func (o Options) validate() error {
	if _, ok := dialects[o.Dialect]; !ok {
		return fmt.Errorf("sqlgen: unknown dialect %q (valid: %s)", o.Dialect, strings.Join(dialectNames(), ", "))
	}
	for _, name := range o.Oracles {
		if !slices.Contains(oracleNames, name) {
			return fmt.Errorf("sqlgen: unknown oracle %q (valid: %s)", name, strings.Join(oracleNames, ", "))
		}
	}
	bounds := []struct {
		name   string
		v, max int
	}{
		{"queries", o.QueriesPerDB, 1 << fuzz.SetupBits},
		{"tables", o.MaxTables, 16},
		{"columns", o.MaxColumns, 32},
		{"inserts", o.MaxInserts, 10000},
		{"depth", o.MaxDepth, 12},
		{"indexes", o.MaxIndexes, 64},
		{"views", o.MaxViews, 16},
		{"from", o.MaxFrom, 8},
	}
	for _, b := range bounds {
		if b.v < 0 || b.v > b.max {
			return fmt.Errorf("sqlgen: %s=%d out of range [1, %d]", b.name, b.v, b.max)
		}
	}
	return nil
}

// String returns the options in canonical one-line form, defaults applied, for example
// "sqlgen{dialect=sqlite oracles=norec,tlp-where queries=100 tables=3 ...}". [ParseOptions]
// reads it back.
func (o Options) String() string {
	n := o.normalized()
	var b strings.Builder
	b.WriteString("sqlgen{dialect=")
	b.WriteString(n.Dialect)
	b.WriteString(" oracles=")
	b.WriteString(strings.Join(n.Oracles, ","))
	for _, f := range n.intFields() {
		b.WriteByte(' ')
		b.WriteString(f.key)
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(*f.p))
	}
	b.WriteString(" distinct-views=")
	b.WriteString(strconv.FormatBool(n.DistinctViews))
	b.WriteByte('}')
	return b.String()
}

type intField struct {
	key       string
	p         *int
	zeroValid bool // zero is a meaningful value (stored as -1)
}

func (o *Options) intFields() []intField {
	return []intField{
		{"queries", &o.QueriesPerDB, false},
		{"tables", &o.MaxTables, false},
		{"columns", &o.MaxColumns, false},
		{"inserts", &o.MaxInserts, true},
		{"depth", &o.MaxDepth, false},
		{"indexes", &o.MaxIndexes, true},
		{"views", &o.MaxViews, true},
		{"from", &o.MaxFrom, false},
	}
}

// ParseOptions reads options in the form [Options.String] writes. Keys may be left out (they take
// their defaults) but not repeated or unknown. ParseOptions(o.String()) gives options whose String
// is o.String().
func ParseOptions(s string) (Options, error) {
	var o Options
	body, ok := strings.CutPrefix(strings.TrimSpace(s), "sqlgen{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return o, fmt.Errorf("sqlgen: options %q: want sqlgen{key=value ...}", s)
	}
	seen := map[string]bool{}
	for _, kv := range strings.Fields(body) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("sqlgen: options: %q is not key=value", kv)
		}
		if seen[k] {
			return o, fmt.Errorf("sqlgen: options: key %q repeated", k)
		}
		seen[k] = true
		switch k {
		case "dialect":
			o.Dialect = v
			continue
		case "oracles":
			if v == "" {
				return o, errors.New("sqlgen: options: empty oracle list")
			}
			o.Oracles = strings.Split(v, ",")
			continue
		case "distinct-views":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return o, fmt.Errorf("sqlgen: options: distinct-views=%q: want true or false", v)
			}
			o.DistinctViews = b
			continue
		}
		found := false
		for _, f := range o.intFields() {
			if f.key != k {
				continue
			}
			found = true
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n == 0 && !f.zeroValid {
				return o, fmt.Errorf("sqlgen: options: %s=%q: want a positive integer", k, v)
			}
			if n == 0 {
				n = -1
			}
			*f.p = n
		}
		if !found {
			return o, fmt.Errorf("sqlgen: options: unknown key %q", k)
		}
	}
	if err := o.normalized().validate(); err != nil {
		return o, err
	}
	return o, nil
}
