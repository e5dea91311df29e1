package sqlserver

import (
	"context"
	"errors"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		engine, dsn string
		want        *DSN
		err         string
	}{
		{"postgres", "postgres://polyfuzz:polyfuzz-secret@127.0.0.1:55432/polyfuzz?sslmode=disable",
			&DSN{Engine: "postgres", Scheme: "postgres", User: "polyfuzz", Password: "polyfuzz-secret", Host: "127.0.0.1",
				Port: 55432, Database: "polyfuzz", Params: map[string]string{"sslmode": "disable"}}, ""},
		{"postgres", "postgresql://u:p%40ss@db.example/", &DSN{Engine: "postgres", Scheme: "postgresql", User: "u",
			Password: "p@ss", Host: "db.example", Port: 5432, Database: "polyfuzz", Params: map[string]string{}}, ""},
		{"mysql", "mysql://root@[::1]:3307/app", &DSN{Engine: "mysql", Scheme: "mysql", User: "root", Host: "::1",
			Port: 3307, Database: "app", Params: map[string]string{}}, ""},
		{"mysql", "mariadb://u:p@h/d", &DSN{Engine: "mysql", Scheme: "mariadb", User: "u", Password: "p", Host: "h",
			Port: 3306, Database: "d", Params: map[string]string{}}, ""},
		{"mariadb", "MARIADB://u:p@h:1/d", &DSN{Engine: "mariadb", Scheme: "mariadb", User: "u", Password: "p", Host: "h",
			Port: 1, Database: "d", Params: map[string]string{}}, ""},
		{"postgres", "mysql://u:secret1@h:3306/d", nil,
			"--dbms postgres got a mysql:// DSN; give postgres://USER:PASS@HOST:PORT/DB"},
		{"mysql", "postgres://u:secret1@h/d", nil, "--dbms mysql got a postgres:// DSN; give mysql://USER:PASS@HOST:PORT/DB"},
		{"postgres", "host=h user=u password=secret1", nil,
			"--dbms postgres got a DSN that is not a URL (host=h user=u password=***); give postgres://USER:PASS@HOST:PORT/DB"},
		{"mysql", "u:secret1@tcp(h:3306)/d", nil,
			"--dbms mysql got a DSN that is not a URL (u:***@tcp(h:3306)/d); give mysql://USER:PASS@HOST:PORT/DB"},
		{"postgres", "postgres://h:5432/d", nil, "--dbms postgres got a DSN without a user (postgres://h:5432/d); give postgres://USER:PASS@HOST:PORT/DB"},
		{"postgres", "postgres://u:secret1@h:99999/d", nil, `--dbms postgres got a DSN with port "99999"; give postgres://USER:PASS@HOST:PORT/DB`},
		{"postgres", "postgres://u:secret1@h:x/d", nil, `--dbms postgres got a DSN that does not parse (postgres://u:***@h:x/d); give postgres://USER:PASS@HOST:PORT/DB`},
		{"sqlite", "sqlite://x", nil, `unknown SQL server engine "sqlite" (want postgres, mysql or mariadb)`},
	}
	for _, tc := range tests {
		got, err := ParseDSN(tc.engine, tc.dsn)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseDSN(%s, %q) error = %v, want %q", tc.engine, tc.dsn, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseDSN(%s, %q) = %+v, %v, want %+v", tc.engine, tc.dsn, got, err, tc.want)
		}
	}
}

func TestDSNStrings(t *testing.T) {
	d, err := ParseDSN("postgres", "postgres://polyfuzz:s3cr%2Ft@127.0.0.1:55432/db")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ got, want string }{
		{d.Addr(), "127.0.0.1:55432"},
		{d.String(), "postgres://polyfuzz:***@127.0.0.1:55432/db"},
		{d.URL(), "postgres://polyfuzz:s3cr%2Ft@127.0.0.1:55432/db"},
		{d.Redact("auth failed for s3cr/t and s3cr%2Ft"), "auth failed for *** and ***"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestConnectFailures(t *testing.T) {
	d := &DSN{Engine: "postgres", User: "polyfuzz", Password: "sekrit-pw", Host: "127.0.0.1", Port: 1}
	tests := []struct {
		got  error
		want string
	}{
		{d.Unreachable("connection refused"),
			"cannot reach postgres at 127.0.0.1:1: connection refused; is the server running? start it or fix --dbms postgres=DSN"},
		{d.AuthFailed(""), `postgres at 127.0.0.1:1 refused user "polyfuzz": wrong password or no such user`},
		{d.AuthFailed("password sekrit-pw is wrong"), `postgres at 127.0.0.1:1 refused user "polyfuzz": password *** is wrong`},
		{d.WrongProtocol(ProtocolMySQL), "127.0.0.1:1 does not speak the postgres protocol (is it a MySQL/MariaDB server?)"},
		{(&DSN{Engine: "mariadb", Host: "h", Port: 2}).WrongProtocol(ProtocolPostgres),
			"h:2 does not speak the mariadb protocol (is it a PostgreSQL server?)"},
	}
	for _, tc := range tests {
		if tc.got.Error() != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// fakeServer accepts one connection and plays a server that greets with greeting (if any) and
// answers anything the client sends with reply.
func fakeServer(t *testing.T, greeting, reply []byte) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if greeting != nil {
			c.Write(greeting)
		}
		buf := make([]byte, 64)
		if n, _ := c.Read(buf); n > 0 && reply != nil {
			c.Write(reply)
		}
		c.Read(buf)
	}()
	return l.Addr().String()
}

func TestProbe(t *testing.T) {
	mysqlGreeting := append([]byte{10, 0, 0, 0, 10}, "5.5.5-10.11.19-MariaDB"...)
	tests := []struct {
		name            string
		greeting, reply []byte
		want            Protocol
	}{
		{"mysql", mysqlGreeting, nil, ProtocolMySQL},
		{"mysql error packet", []byte{5, 0, 0, 0, 0xff, 1, 2}, nil, ProtocolMySQL},
		{"postgres", nil, []byte{'N'}, ProtocolPostgres},
		{"silent", nil, nil, ProtocolUnknown},
		{"http", []byte("HTTP/1.1 400 Bad Request\r\n"), nil, ProtocolUnknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr := fakeServer(t, tc.greeting, tc.reply)
			start := time.Now()
			if got := Probe(context.Background(), addr); got != tc.want {
				t.Errorf("Probe = %v, want %v", got, tc.want)
			}
			if d := time.Since(start); d > 2*GreetingWait+time.Second {
				t.Errorf("Probe took %s", d)
			}
		})
	}
}

func TestObjectList(t *testing.T) {
	tests := []struct {
		objs []string
		max  int
		want string
	}{
		{[]string{"table public.b", "table public.a"}, 5, "table public.a, table public.b"},
		{[]string{"c", "b", "a", "d"}, 2, "a, b and 2 more"},
		{nil, 5, ""},
	}
	for _, tc := range tests {
		if got := ObjectList(tc.objs, tc.max); got != tc.want {
			t.Errorf("ObjectList(%v, %d) = %q, want %q", tc.objs, tc.max, got, tc.want)
		}
	}
}

func TestCheckIdent(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"polyfuzz_w0", true},
		{"_x9", true},
		{"9x", false},
		{"a-b", false},
		{"a`; DROP DATABASE x; --", false},
		{strings.Repeat("a", 65), false},
	}
	for _, tc := range tests {
		if err := CheckIdent("mysql", "database", tc.name, 64); (err == nil) != tc.ok {
			t.Errorf("CheckIdent(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
	if WorkerName("polyfuzz", 3) != "polyfuzz_w3" {
		t.Error(WorkerName("polyfuzz", 3))
	}
}

// TestAuthFailedKeepsOwnWords checks that redaction touches only the engine's words: a password
// that is a word of polyfuzz's own message does not mangle it, and one the engine quotes is masked.
func TestAuthFailedKeepsOwnWords(t *testing.T) {
	d, err := ParseDSN("postgres", "postgres://u:wrong@127.0.0.1:5432/db")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ detail, want string }{
		{"", `postgres at 127.0.0.1:5432 refused user "u": wrong password or no such user`},
		{"password wrong rejected", `postgres at 127.0.0.1:5432 refused user "u": password *** rejected`},
	}
	for _, tc := range tests {
		if got := d.AuthFailed(tc.detail).Error(); got != tc.want {
			t.Errorf("AuthFailed(%q) = %q, want %q", tc.detail, got, tc.want)
		}
	}
}

func TestCandidate(t *testing.T) {
	tests := []struct {
		k    int
		want string
	}{
		{1, "polyfuzz_w3"},
		{2, "polyfuzz_w3_2"},
		{17, "polyfuzz_w3_17"},
	}
	for _, tc := range tests {
		if got := Candidate("polyfuzz_w3", tc.k); got != tc.want {
			t.Errorf("Candidate(polyfuzz_w3, %d) = %q, want %q", tc.k, got, tc.want)
		}
	}
}

func TestClaim(t *testing.T) {
	d := &DSN{Engine: "postgres", Host: "127.0.0.1", Port: 5432}
	refused := errors.New("refused")
	tests := []struct {
		name  string
		taken map[string]bool // names another session holds
		all   bool            // another session holds every name
		fail  string          // the name whose try fails
		want  string
		err   string
	}{
		{"free", nil, false, "", "s_w1", ""},
		{"first taken", map[string]bool{"s_w1": true}, false, "", "s_w1_2", ""},
		{"two taken", map[string]bool{"s_w1": true, "s_w1_2": true}, false, "", "s_w1_3", ""},
		{"failure", map[string]bool{"s_w1": true}, false, "s_w1_2", "", "refused"},
		{"all taken", nil, true, "", "", "postgres at 127.0.0.1:5432: the schemas s_w1 to s_w1_100 are all in use by other polyfuzz sessions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tried []string
			got, err := d.Claim("schema", "s_w1", func(name string) (bool, error) {
				tried = append(tried, name)
				if name == tc.fail {
					return false, refused
				}
				return !tc.all && !tc.taken[name], nil
			})
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("Claim = %q, %v, want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Claim = %q, %v, want %q", got, err, tc.want)
			}
			if len(tried) != len(tc.taken)+1 {
				t.Errorf("Claim tried %v", tried)
			}
		})
	}
}

func TestWaitLock(t *testing.T) {
	failed := errors.New("failed")
	tests := []struct {
		name  string
		free  int // the try that takes the lock; 0 for none
		err   error
		wait  time.Duration
		want  bool
		tries int // the least number of tries
	}{
		{"at once", 1, nil, time.Second, true, 1},
		{"once the old session ends", 3, nil, time.Second, true, 3},
		{"taken", 0, nil, 100 * time.Millisecond, false, 2},
		{"no wait", 0, nil, 0, false, 1},
		{"error", 0, failed, time.Second, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			got, err := waitLock(context.Background(), tc.wait, func(context.Context) (bool, error) {
				n++
				return n == tc.free, tc.err
			})
			if got != tc.want || !errors.Is(err, tc.err) || n < tc.tries || tc.err != nil && n != 1 {
				t.Fatalf("waitLock = %v, %v after %d tries, want %v, %v after %d", got, err, n, tc.want, tc.err, tc.tries)
			}
		})
	}
}
