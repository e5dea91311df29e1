package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/cyphergen"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/oracles"
	"github.com/polyfuzz/polyfuzz/targets/falkordb"
)

func main() {
	ctx := context.Background()
	fk, err := falkordb.Open(ctx, falkordb.Options{URL: os.Getenv("FK"), Timeout: 10 * time.Second, Worker: 7})
	if err != nil {
		panic(err)
	}
	ref := cyphergen.NewReference()
	gen := cyphergen.NewGenerator(cyphergen.DefaultOptions(), cyphergen.Avoid([]string{"falkordb"}), true, true)
	o := oracles.Known{Oracle: oracles.Rows{Prefixes: []string{"graph.", "tlp."}, AnsweredOnly: true, Reference: "ref"}, Explain: cyphergen.Explain}
	counts := map[string]int{}
	var setup []string
	for i := 0; i < 1200; i++ {
		seed := fuzz.CaseSeed(99, uint64(i), 100)
		c, _ := gen.Generate(seed)
		if i%100 == 0 {
			fk.Reset(ctx)
			ref.Reset(ctx)
			setup = c.Setup
			for _, s := range setup {
				fk.Exec(ctx, s)
				ref.Exec(ctx, s)
			}
		}
		var runs []fuzz.Run
		for _, t := range []fuzz.Target{fk, ref} {
			r := fuzz.Run{Target: t.Name()}
			for _, q := range c.Queries {
				res, _ := t.Exec(ctx, q.Text)
				r.Results = append(r.Results, res)
			}
			runs = append(runs, r)
		}
		v := o.Check(c, runs)
		if v.Finding == nil {
			counts["skip:"+v.Skip]++
			continue
		}
		txt, _ := c.Query(v.Finding.Roles[0])
		q, _ := cyphergen.ParseQuery(txt)
		fs := cyphergen.Features(q)
		key := []string{}
		for _, f := range fs {
			if strings.HasPrefix(f, "agg") || f == "fn:tointeger" || f == "fn:round" || f == "fn:tostring" || f == "undirected" {
				key = append(key, f)
			}
		}
		counts["finding:"+strings.Join(key, ",")]++
		if len(key) == 0 || strings.Join(key, ",") == "undirected" || strings.Join(key, ",") == "fn:tostring" {
			pruned := c.Clone()
			pruned.Queries = []fuzz.Query{{Role: v.Finding.Roles[0], Text: txt}}
			os.WriteFile(fmt.Sprintf("/tmp/za/%d.cypher", i), cyphergen.Format{}.CaseText(pruned, nil), 0o644)
		}
		if counts["finding:"+strings.Join(key, ",")] <= 2 {
			fmt.Println("==", strings.Join(key, ","), "|", txt)
			fmt.Println("   ", v.Finding.Actual[:min(300, len(v.Finding.Actual))])
		}
	}
	var ks []string
	for k := range counts {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		fmt.Println(counts[k], k)
	}
}
