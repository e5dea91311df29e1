package main

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/fault"
)

// TestDQEAndEETFire plants three faults in each engine that DQE and EET support and checks that
// each oracle reports its own: the UPDATE of DQE touches one row too few (the tracking read after
// it drops a row), the rewritten EET query answers one value differently, and the table after
// the rewritten EET DELETE or UPDATE lacks a row. Each finding is a wrong result, hit several
// times, reduced, and replays. An engine without rolled-back DML (DataFusion, ClickHouse) runs
// EET alone, whose cases carry its query only (dqe is refused there).
func TestDQEAndEETFire(t *testing.T) {
	plants := fault.EncodePlants([]fault.Plant{
		{Kind: "drop-row", Match: `WHERE mark = 1$`},                // dqe.updated
		{Kind: "change-value", Match: `^SELECT \(CASE .* WHERE `},   // eet.trans
		{Kind: "drop-row", Match: `^SELECT \(CASE[^;]* FROM t\d+$`}, // eetdml.tpost
	})
	seed := fmt.Sprint(testenv.Seed(t))
	for _, tc := range []struct {
		name      string
		tests     int
		queryOnly bool // EET's query only: the engine rolls back no DML
	}{{"sqlite", 300, false}, {"duckdb", 200, false}, {"postgres", 200, false}, {"mariadb", 300, false},
		{"mysql", 300, false}, {"turso", 300, false}, {"datafusion", 150, true}, {"clickhouse", 150, true}} {
		t.Run(tc.name, func(t *testing.T) {
			arg := engineArg(t, tc.name)
			out := t.TempDir()
			oracles := "dqe,eet"
			if tc.queryOnly {
				oracles = "eet" // dqe is refused there
			}
			stdout := runCampaign(t, tc.tests, "sql", "--dbms", arg, "--seed", seed, "-j", "1", "--quiet",
				"--oracle", oracles, "--out", out, "--fault", plants, "--reduce-time", "40s")
			recs := records(t, out)
			wants := []string{
				`^eet: ` + tc.name + `: transformed query returns other rows$`,
				`^dqe: ` + tc.name + `: update touches fewer rows than select$`,
				`^eet: ` + tc.name + `: transformed (update|delete) leaves another table$`,
			}
			if tc.queryOnly {
				wants = wants[:1]
			}
			for _, want := range wants {
				re := regexp.MustCompile(want)
				var rec *campaign.Record
				for title, r := range recs {
					if re.MatchString(title) && (rec == nil || r.Hits > rec.Hits) {
						rec = r
					}
				}
				if rec == nil {
					t.Errorf("no finding %s on %s:\n%s", want, tc.name, stdout)
					continue
				}
				_, red := checkFired(t, out, rec, "wrong-result")
				if len(red.Setup) > 8 {
					t.Errorf("%s: reduced case has %d setup statements, want a handful", rec.Title, len(red.Setup))
				}
			}
		})
	}
}
