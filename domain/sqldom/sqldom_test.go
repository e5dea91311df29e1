package sqldom

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/polyfuzz/polyfuzz/domain"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/sqlgen"
	"github.com/polyfuzz/polyfuzz/targets/duckdb"
	"github.com/polyfuzz/polyfuzz/targets/duckdblib"
	"github.com/polyfuzz/polyfuzz/targets/duckdbpy"
	"github.com/polyfuzz/polyfuzz/targets/pypi"
	"github.com/polyfuzz/polyfuzz/targets/sqlite"
)

func TestCaseDialect(t *testing.T) {
	for _, tc := range []struct{ engines, want string }{
		{"sqlite", "sqlite"},
		{"turso", "turso"},
		{"duckdb", "duckdb"},
		{"sqlite,turso", "turso"},
		{"turso,sqlite", "turso"},
		{"turso,turso", "turso"},
		{"sqlite,sqlite", "common"},
		{"sqlite,turso,duckdb", "common"},
		{"postgres,turso", "common"},
		{"mariadb,mysql", "common"},
	} {
		if got := caseDialect(strings.Split(tc.engines, ",")); got != tc.want {
			t.Errorf("caseDialect(%s) = %q, want %q", tc.engines, got, tc.want)
		}
	}
}

// duckdbVersion returns the embedded DuckDB's version.
func duckdbVersion(t *testing.T) string {
	tg, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	return tg.Version()
}

// debianLib is Debian's SQLite library (libsqlite3-0; SQLite 3.40.1 on bookworm).
const debianLib = "/lib/x86_64-linux-gnu/libsqlite3.so.0"

// TestProbe checks that a campaign's generator is written for the build its engine is: the
// embedded SQLite (no math functions in go-sqlite3's build), Debian's 3.40.1 (math functions;
// JSON functions unsafe in views; AVG summed in doubles; REINDEX blind to TEMP tables), a planted fault misleading neither, the embedded DuckDB and a
// DuckDB wheel; and that a stored case's options are kept as they are.
func TestProbe(t *testing.T) {
	tests := []struct {
		name   string
		spec   domain.Spec
		replay bool
		gen    string // --gen or the stored generator options
		want   string // the generator's engine option
	}{
		{"embedded", domain.Spec{Engine: "sqlite"}, false, "", sqlite.Version() + "+json+schema-json+exact-avg+reindex-temp"},
		{"embedded with a fault", domain.Spec{Engine: "sqlite", Fault: "error:sqlite_version|json_valid|sin"}, false, "", sqlite.Version() + "+json+schema-json+exact-avg+reindex-temp"},
		{"debian", domain.Spec{Engine: "sqlite", Lib: debianLib}, false, "", "3.40.1+json+math"},
		{"given", domain.Spec{Engine: "sqlite", Lib: debianLib}, false, "sqlgen{engine=3.30.0}", "3.30.0"},
		{"stored", domain.Spec{Engine: "sqlite"}, true, "sqlgen{dialect=sqlite}", ""},
		{"duckdb embedded", domain.Spec{Engine: "duckdb"}, false, "", strings.TrimPrefix(duckdbVersion(t), "v")},
		{"duckdb wheel", domain.Spec{Engine: "duckdb", Version: "0.8.1"}, false, "", "0.8.1"},
		{"duckdb library", domain.Spec{Engine: "duckdb", Lib: duckdblib.TestLib()}, false, "", duckdblib.TestLibVersion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.spec.Version != "" && !pypi.Installed(duckdbpy.Package, tc.spec.Version) {
				testenv.Missing(t, "duckdb=="+tc.spec.Version+" is not installed: run polyfuzz bench install duckdb=="+tc.spec.Version)
			}
			if tc.spec.Lib != "" {
				if _, err := os.Stat(tc.spec.Lib); err != nil {
					testenv.Missing(t, tc.spec.Lib+" is missing: install the Debian package libsqlite3-0, run scripts/duckdblib.sh")
				}
			}
			s := &domain.Settings{Engines: []domain.Spec{tc.spec}, Oracles: []string{"norec"}, Gen: tc.gen, Replay: tc.replay}
			st, err := build(context.Background(), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := st.Gen.Generate(1)
			if err != nil {
				t.Fatal(err)
			}
			o, err := sqlgen.ParseOptions(c.Gen)
			if err != nil {
				t.Fatal(err)
			}
			if o.Engine != tc.want {
				t.Errorf("engine option %q, want %q (%s)", o.Engine, tc.want, c.Gen)
			}
		})
	}
}
