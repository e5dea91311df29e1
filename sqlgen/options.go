package sqlgen

import (
	"slices"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/genopts"
)

// Oracle names accepted in [Options.Oracles].
const (
	OracleNoREC       = "norec"
	OracleTLPWhere    = "tlp-where"
	OracleTLPHaving   = "tlp-having"
	OracleTLPDistinct = "tlp-distinct"
	OracleTLPGroupBy  = "tlp-groupby"
	OracleTLPAgg      = "tlp-agg"
	OraclePQS         = "pqs"
	OracleDQE         = "dqe"
	OracleEET         = "eet"
	OracleDQP         = "dqp"
	OracleCERT        = "cert"
	OracleQPG         = "qpg"
	OracleCODD        = "codd"
)

// oracleNames lists the valid oracles in their canonical order.
var oracleNames = []string{OracleNoREC, OracleTLPWhere, OracleTLPHaving, OracleTLPDistinct, OracleTLPGroupBy, OracleTLPAgg,
	OraclePQS, OracleDQE, OracleEET, OracleDQP, OracleCERT, OracleQPG, OracleCODD}

// dialectChoices lists the valid dialects, sorted.
var dialectChoices = dialectNames()

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
	DefaultChecks       = 4
)

// Options configure a [Generator]. A zero field means its default; for the counts where zero is
// meaningful (MaxIndexes, MaxViews, MaxInserts) a negative value means none.
type Options struct {
	// Dialect is the SQL dialect: "sqlite" (the default), "postgres", "mysql" (MySQL and MariaDB),
	// "duckdb", or "common", the subset all four engines read alike (for the cross-engine
	// differential).
	Dialect string
	// Oracles selects the query layouts each case carries, from "norec", "tlp-where",
	// "tlp-having", "tlp-distinct", "tlp-groupby", "tlp-agg", "dqe" and "eet" (default: norec and
	// tlp-where). With dqe, every table of a setup gets the tracking column [TrackColumn]. The
	// staged oracles "pqs" and "codd" add a first query whose answer [Generator.Derive] builds
	// the rest from; a case of staged oracles alone carries nothing else.
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
	// QPG turns on query plan guidance (qpg.go): every case carries its query's plan (the "qpg"
	// layout), and the generator, told the plans by the campaign (fuzz.Guided), mutates the
	// database of a setup whose queries stop showing new plans. A guided campaign's cases depend
	// on the plans the engine chose before, not on the seed alone.
	QPG bool
	// Checks is how many predicates over one FROM clause a case checks with the norec,
	// tlp-where and pqs oracles (default 4, at most 16): NoREC's optimized queries, one each, and
	// one unoptimized query that sums them all; TLP-WHERE's one original query and each
	// predicate's three partitions; PQS's one pivot and a containment query per rectified
	// predicate. The queries of check k > 0 carry the roles of fuzz.CheckRole. Options text
	// without "checks=" means 1, the cases made before the option existed.
	Checks int
	// Engine names the build of the engine the cases are written for, as [Probe] finds it: its
	// release and optional features, "3.40.1+json+math" (SQLite; DuckDB: "1.1.3"). The generator
	// leaves out what that build lacks. Empty (the default): the dialect's newest release with
	// its default features.
	Engine string
}

// DefaultOptions returns the options a zero Options stands for, every default spelled out.
// [ParseOptions] starts from them.
func DefaultOptions() Options { return Options{}.withDefaults() }

// withDefaults returns o with its zero fields set to their defaults (negative counts stay: none)
// and the oracles in canonical order without duplicates.
func (o Options) withDefaults() Options {
	def := func(v, d int) int {
		if v == 0 {
			return d
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
				n.Oracles = append(n.Oracles, name) // invalid; kept so that validate names it
			}
		}
	}
	n.QueriesPerDB = def(o.QueriesPerDB, DefaultQueriesPerDB)
	n.MaxTables = def(o.MaxTables, DefaultMaxTables)
	n.MaxColumns = def(o.MaxColumns, DefaultMaxColumns)
	n.MaxInserts = def(o.MaxInserts, DefaultMaxInserts)
	n.MaxDepth = def(o.MaxDepth, DefaultMaxDepth)
	n.MaxIndexes = def(o.MaxIndexes, DefaultMaxIndexes)
	n.MaxViews = def(o.MaxViews, DefaultMaxViews)
	n.MaxFrom = def(o.MaxFrom, DefaultMaxFrom)
	n.Checks = def(o.Checks, DefaultChecks)
	return n
}

// normalized returns o with defaults applied and negative counts (none) set to zero: the form
// the generator reads. Unlike o, it does not mean the same when passed to [New] again.
func (o Options) normalized() Options {
	n := o.withDefaults()
	n.MaxInserts = max(n.MaxInserts, 0)
	n.MaxIndexes = max(n.MaxIndexes, 0)
	n.MaxViews = max(n.MaxViews, 0)
	return n
}

// form describes the fields of options with defaults applied for genopts, which prints, parses
// and checks them.
func (o *Options) form() genopts.Form {
	return genopts.Form{Prefix: "sqlgen: options", Name: "sqlgen", Fields: []genopts.Field{
		genopts.Choice("dialect", "dialect", &o.Dialect, dialectChoices),
		genopts.List("oracles", "oracle", &o.Oracles, oracleNames, func(s string) string { return s }),
		genopts.Int("queries", &o.QueriesPerDB, 1, 1<<fuzz.SetupBits),
		genopts.Int("tables", &o.MaxTables, 1, 16),
		genopts.Int("columns", &o.MaxColumns, 1, 32),
		genopts.IntOrNone("inserts", &o.MaxInserts, 10000),
		genopts.Int("depth", &o.MaxDepth, 1, 12),
		genopts.IntOrNone("indexes", &o.MaxIndexes, 64),
		genopts.IntOrNone("views", &o.MaxViews, 16),
		genopts.Int("from", &o.MaxFrom, 1, 8),
		genopts.Bool("distinct-views", &o.DistinctViews),
		genopts.Flag("qpg", &o.QPG),
		genopts.IntOmit("checks", &o.Checks, 1, 16, 1),
		genopts.Word("engine", &o.Engine, func(s string) error { return checkEngine(o.Dialect, s) }),
	}}
}

// validate reports the first option, defaults applied, that is out of its bounds or not among
// the choices.
func (o Options) validate() error {
	n := o.withDefaults()
	return n.form().Check()
}

// String returns the options in canonical one-line form, defaults applied, for example
// "sqlgen{dialect=sqlite oracles=norec,tlp-where queries=100 tables=3 ...}". [ParseOptions]
// reads it back.
func (o Options) String() string {
	n := o.withDefaults()
	return n.form().String()
}

// ParseOptions reads options in the form [Options.String] writes. Keys may be left out (they take
// their defaults) but not repeated or unknown; a count written 0 is none (-1). The result has
// every default spelled out, and ParseOptions(o.String()) gives options whose String is
// o.String().
func ParseOptions(s string) (Options, error) {
	o, err := genopts.Parse(s, DefaultOptions(), (*Options).form)
	if err != nil {
		return o, err
	}
	return o.withDefaults(), nil
}
