package main

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planted is a password that no output and no file may hold.
const planted = "Pl4nted-S3cret"

// TestSecrets runs every command with DSNs that hold a password, unreachable servers and failing
// ones included, given to every engine form (NAME=DSN, NAME@VERSION=DSN, NAME=lib:DSN, a DSN
// without NAME=), and checks that the password appears in no output and in no file written. With
// the test script's PostgreSQL (POLYFUZZ_POSTGRES_DSN, which holds its real password) a whole
// campaign with findings, replay, reduce, report, compare and version run too.
func TestSecrets(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.dl")
	os.WriteFile(prog, []byte(".decl e(a: number, b: number)\n.decl p(a: number, b: number)\ne(1, 2).\np(X, Y) :- e(X, Y).\n.output p\n"), 0o644)
	script := filepath.Join(dir, "case.cypher")
	os.WriteFile(script, []byte("CREATE (:L {k: 1})\n// ---- graph.q\nMATCH (n) RETURN n.k\n"), 0o644)
	pg := "postgres://polyfuzz:" + planted + "@127.0.0.1:1/db"
	out := func(name string) string { return filepath.Join(dir, name) }
	runs := [][]string{
		{"sql", "--dbms", "postgres=" + pg, "--tests", "1", "--out", out("a")},
		{"sql", "--dbms", "mariadb=polyfuzz:" + planted + "@tcp(127.0.0.1:1)/db", "--tests", "1", "--out", out("b")},
		{"sql", "--dbms", "mysql=mysql://polyfuzz:" + planted + "@127.0.0.1:1/db", "--tests", "1", "--out", out("c")},
		{"sql", "--dbms", "sqlite=" + pg, "--tests", "1", "--out", out("d")},
		{"sql", "--dbms", "postgres=host=127.0.0.1 port=1 user=polyfuzz password=" + planted, "--tests", "1", "--out", out("e")},
		{"sql", "--dbms", "turso=" + pg, "--tests", "1", "--out", out("n")},
		{"sql", "--dbms", "datafusion=" + pg, "--tests", "1", "--out", out("o")},
		{"sql", "--dbms", "clickhouse=" + pg, "--tests", "1", "--out", out("p")},
		{"sql", "--dbms", "duckdb@0.8.1=" + pg, "--tests", "1", "--out", out("q")},
		{"sql", "--dbms", "sqlite=lib:" + pg, "--tests", "1", "--out", out("r")},
		{"sql", "--dbms", "postgres=lib:" + pg, "--tests", "1", "--out", out("s")},
		{"sql", "--dbms", pg, "--tests", "1", "--out", out("t")},
		{"sql", "--dbms", "polyfuzz:" + planted + "@tcp(127.0.0.1:1)/db", "--tests", "1", "--out", out("u")},
		{"sql", "--dbms", "postgres=" + pg, "--oracle", "dqe,eet,dqp,cert", "--qpg", "--tests", "1", "--out", out("v")},
		{"datalog", "--engine", "postgres=" + pg, "--tests", "1", "--out", out("f")},
		{"datalog", "run", "--engine", "postgres=" + pg, prog},
		{"graph", "--engine", "neo4j=bolt://neo4j:" + planted + "@127.0.0.1:1", "--tests", "1", "--out", out("g")},
		{"graph", "--engine", "falkordb=redis://:" + planted + "@127.0.0.1:1", "--tests", "1", "--out", out("h")},
		{"graph", "run", "--engine", "falkordb=redis://u:" + planted + "@127.0.0.1:1", script},
		{"compare", "--domain", "sql", "--dbms", "postgres=" + pg, "--oracle", "norec", "--tests", "1", "--out", out("i")},
		{"compare", "--domain", "datalog", "--engine", "postgres=" + pg, "--oracle", "diff", "--tests", "1", "--out", out("j")},
	}
	real := os.Getenv("POLYFUZZ_POSTGRES_DSN")
	secrets := []string{planted}
	if real != "" {
		u, err := url.Parse(real)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
		wrong := *u
		wrong.User = url.UserPassword(u.User.Username(), planted)
		runs = append(runs,
			[]string{"sql", "--dbms", "postgres=" + wrong.String(), "--tests", "1", "--out", out("k")},
			[]string{"sql", "--dbms", "postgres=" + real, "--oracle", "norec", "--fault", "drop-row:WHERE", "--tests", "300",
				"-j", "1", "--max-findings", "1", "--confirm", "1", "--out", out("l")},
			[]string{"compare", "--domain", "sql", "--dbms", "postgres=" + real, "--oracle", "norec", "--tests", "100", "--repeat", "1",
				"--out", out("m")},
			[]string{"sql", "--dbms", "postgres=" + real, "--oracle", "dqe,eet,dqp,cert", "--qpg", "--tests", "100", "-j", "1",
				"--out", out("w")},
		)
	} else {
		t.Log("POLYFUZZ_POSTGRES_DSN is not set: only unreachable servers are tried (scripts/test.sh starts PostgreSQL)")
	}
	var outputs []string
	for _, args := range runs {
		code, stdout, stderr := polyfuzz(t, args...)
		t.Logf("%s: exit %d", strings.Join(args[:2], " "), code)
		outputs = append(outputs, stdout+stderr)
	}
	if real != "" {
		t.Setenv("POLYFUZZ_POSTGRES_DSN", real)
		findings, _ := filepath.Glob(filepath.Join(out("l"), "findings", "*"))
		if len(findings) == 0 {
			t.Error("the campaign on PostgreSQL stored no finding")
		}
		for _, f := range findings {
			for _, args := range [][]string{{"replay", f}, {"reduce", "--reduce-time", "20s", f}} {
				_, stdout, stderr := polyfuzz(t, args...)
				outputs = append(outputs, stdout+stderr)
			}
		}
		for _, args := range [][]string{{"report", out("l")}, {"version"}} {
			_, stdout, stderr := polyfuzz(t, args...)
			outputs = append(outputs, stdout+stderr)
		}
	}
	for i, o := range outputs {
		for _, s := range secrets {
			if strings.Contains(o, s) {
				t.Errorf("output %d holds a password:\n%s", i, o)
			}
		}
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == prog || path == script {
			return err
		}
		b, err := os.ReadFile(path)
		for _, s := range secrets {
			if err == nil && strings.Contains(string(b), s) {
				t.Errorf("%s holds a password", path)
			}
		}
		return nil
	})
}
