package postgres

import (
	"context"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/polyfuzz/polyfuzz/internal/sqltest"
)

// BenchmarkProtocols compares ways of sending one statement, to back the choice of the simple
// protocol through pgconn: a fuzzer's statements are nearly all distinct, so a statement cache
// only adds a prepare round trip.
func BenchmarkProtocols(b *testing.B) {
	tg := open(b, Options{Worker: 111})
	sqltest.MustExec(b, tg, "CREATE TABLE t0(c0 INT, c1 TEXT)", "INSERT INTO t0 SELECT g, 'v' || g FROM generate_series(1, 10) g")
	ctx := context.Background()
	// Distinct statements, as a fuzzer sends them.
	stmt := func(i int) string {
		return "SELECT c0, c1 FROM t0 WHERE c0 > " + "5" + " AND " + strconv.Itoa(i) + " = " + strconv.Itoa(i)
	}
	drain := func(b *testing.B, rows pgx.Rows) {
		n := 0
		for rows.Next() {
			_ = rows.RawValues()
			n++
		}
		if rows.Err() != nil || n != 5 {
			b.Fatal(rows.Err(), n)
		}
	}
	b.Run("target-pgconn-simple", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if r, err := tg.Exec(ctx, stmt(i)); err != nil || len(r.Rows) != 5 {
				b.Fatal(err, r)
			}
		}
	})
	for _, m := range []struct {
		name string
		mode pgx.QueryExecMode
	}{
		{"pgx-simple", pgx.QueryExecModeSimpleProtocol},
		{"pgx-exec-extended", pgx.QueryExecModeExec},
	} {
		b.Run(m.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rows, err := tg.conn.Query(ctx, stmt(i), m.mode)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, rows)
			}
		})
	}
	b.Run("pgx-default-statement-cache", func(b *testing.B) {
		c, err := pgx.Connect(ctx, tg.cfg.ConnString())
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "SET search_path = "+tg.Schema(), pgx.QueryExecModeSimpleProtocol); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			rows, err := c.Query(ctx, stmt(i))
			if err != nil {
				b.Fatal(err)
			}
			drain(b, rows)
		}
	})
}
