package mysql

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/internal/sqltest"
	"github.com/polyfuzz/polyfuzz/internal/testenv"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		name, dsn                  string
		user, pass, addr, db, want string // want: the error's start
		params                     map[string]string
	}{
		{name: "url", dsn: "mysql://u:p%40ss@db.example:3307/x?tls=false", user: "u", pass: "p@ss", addr: "db.example:3307",
			db: "x", params: map[string]string{"tls": "false"}},
		{name: "url defaults", dsn: "mariadb://u@127.0.0.1", user: "u", addr: "127.0.0.1:3306", db: "polyfuzz"},
		{name: "driver form", dsn: "u:p@ss:w@tcp(127.0.0.1:3307)/x?tls=false&parseTime=true", user: "u", pass: "p@ss:w",
			addr: "127.0.0.1:3307", db: "x", params: map[string]string{"tls": "false", "parseTime": "true"}},
		{name: "driver form, tcp6", dsn: "u:pw@tcp6([::1]:3307)/x", user: "u", pass: "pw", addr: "[::1]:3307", db: "x"},
		{name: "driver form, default port", dsn: "u:pw@tcp(db.example)/", user: "u", pass: "pw", addr: "db.example:3306",
			db: "polyfuzz"},
		{name: "driver form, no address", dsn: "u:pw@/x", user: "u", pass: "pw", addr: "127.0.0.1:3306", db: "x"},
		{name: "unix socket", dsn: "u:pw@unix(/run/mysqld/mysqld.sock)/x", want: "--dbms mysql got a DSN over unix"},
		{name: "no user", dsn: ":pw@tcp(h:1)/x", want: "--dbms mysql got a DSN without a user"},
		{name: "bad port", dsn: "u:pw@tcp(h:99999)/x", want: `--dbms mysql got a DSN with address "h:99999"`},
		{name: "neither form", dsn: "u:pw@h:1/x", want: "--dbms mysql got a DSN that is neither a URL nor USER:PASS@tcp(HOST:PORT)/DB"},
		{name: "other scheme", dsn: "postgres://u:pw@h/x", want: "--dbms mysql got a postgres:// DSN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseDSN(sqlserver.MySQL, tc.dsn)
			if tc.want != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
					t.Fatalf("parseDSN(%q) = %v, want an error starting %q", tc.dsn, err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.params == nil {
				tc.params = map[string]string{}
			}
			if d.User != tc.user || d.Password != tc.pass || d.Addr() != tc.addr || d.Database != tc.db || !maps.Equal(d.Params, tc.params) {
				t.Errorf("parseDSN(%q) = %s %q %q %s %s %v", tc.dsn, d.User, d.Password, d.Addr(), d.Database, d, d.Params)
			}
		})
	}
}

// TestPasswordNeverShown gives both DSN forms with a password and checks that it appears neither
// in the redacted DSN, nor in %v of the options, nor in the errors of a DSN that is refused or
// of a server that cannot be reached.
func TestPasswordNeverShown(t *testing.T) {
	const secret = "s3cr@t:pw!"
	tests := []struct {
		name, dsn string
	}{
		{"url", "mysql://polyfuzz:s3cr%40t%3Apw%21@127.0.0.1:1/db"},
		{"driver form", "polyfuzz:" + secret + "@tcp(127.0.0.1:1)/db"},
		{"driver form without an address", "polyfuzz:" + secret + "@/db"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := parseDSN(sqlserver.MySQL, tc.dsn)
			if err != nil || d.Password != secret {
				t.Fatalf("parseDSN: %v, password %q", err, d.Password)
			}
			opts := Options{DSN: tc.dsn, Worker: 3, Timeout: time.Second}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, openErr := Open(ctx, Options{DSN: strings.Replace(tc.dsn, "127.0.0.1:1", "127.0.0.1:2", 1)})
			bad := strings.Replace(tc.dsn, "/db", "/my-db", 1) // not a plain identifier
			_, badErr := Open(ctx, Options{DSN: bad})
			shown := map[string]string{
				"DSN.String":  d.String(),
				"DSN.Redact":  d.Redact("the server said: " + tc.dsn + " " + secret),
				"%v options":  fmt.Sprintf("%v", opts),
				"%+v options": fmt.Sprintf("%+v", &opts),
				"open error":  fmt.Sprint(openErr),
				"bad DSN":     fmt.Sprint(badErr),
			}
			for what, text := range shown {
				t.Log(what + ": " + text)
				if strings.Contains(text, secret) || strings.Contains(text, "s3cr%40t") {
					t.Errorf("%s shows the password: %s", what, text)
				}
			}
			if strings.Contains(tc.dsn, "127.0.0.1:1") && (openErr == nil || !strings.Contains(openErr.Error(), "cannot reach mysql")) {
				t.Errorf("Open of nothing: %v", openErr)
			}
			if badErr == nil || !strings.Contains(badErr.Error(), "is not a plain identifier") {
				t.Errorf("Open of a bad database name: %v", badErr)
			}
		})
	}
}

// TestDriverDSN opens the test server with go-sql-driver's DSN form.
func TestDriverDSN(t *testing.T) {
	d, err := sqlserver.ParseDSN(sqlserver.MariaDB, testenv.NeedDSN(t, dsnEnv))
	if err != nil {
		t.Fatal(err)
	}
	dsn := d.User + ":" + d.Password + "@tcp(" + d.Addr() + ")/" + d.Database
	tg := open(t, Options{DSN: dsn, Flavor: "mariadb", Worker: 209})
	sqltest.CheckExec(t, tg, []sqltest.ExecCase{{"select", "SELECT 1 AS x", sqltest.OK([]string{"x"}, []string{"i:1"})}})
}
