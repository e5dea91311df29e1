package graphtest_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/polyfuzz/polyfuzz/internal/graphtest"
	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/targets/bolt"
	"github.com/polyfuzz/polyfuzz/targets/falkordb"
)

// TestSameRows checks that Neo4j and FalkorDB answer every Values query with identical canonical
// rows (each also checks its expected rows).
func TestSameRows(t *testing.T) {
	neo := sqltest.Open(t, func(ctx context.Context) (*bolt.Target, error) {
		return bolt.Open(ctx, bolt.Options{URL: graphtest.NeedNeo4j(t)})
	})
	falkor := sqltest.Open(t, func(ctx context.Context) (*falkordb.Target, error) {
		return falkordb.Open(ctx, falkordb.Options{URL: graphtest.NeedFalkorDB(t), Worker: 200})
	})
	a, b := graphtest.CheckValues(t, neo), graphtest.CheckValues(t, falkor)
	for i, v := range graphtest.Values {
		if a[i] == nil || b[i] == nil {
			continue // the subtest failed
		}
		if len(a[i].Rows)+len(b[i].Rows) > 0 && !reflect.DeepEqual(a[i].Rows, b[i].Rows) {
			t.Errorf("%s: neo4j %q, falkordb %q", v.Query, a[i].Rows, b[i].Rows)
		}
	}
}
