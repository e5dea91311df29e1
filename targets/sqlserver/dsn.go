// Package sqlserver holds what the client-server SQL targets (postgres, mysql and mariadb) share:
// URL DSNs and their parsing, one-line connect errors (unreachable server, refused login, a server
// of another engine), a protocol probe that tells a PostgreSQL server from a MySQL/MariaDB one,
// helpers for the namespaces polyfuzz owns on a shared server and for the locks that claim them
// (Claim), and the timings they share (Backstop, RecoveryWait, ReclaimWait). Passwords are removed
// from what it shows by package redact, unreachable servers told by package unreachable; it
// imports nothing else of the module.
package sqlserver

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/targets/redact"
)

// ConnectTimeout bounds each attempt to connect and log in.
const ConnectTimeout = 5 * time.Second

// Backstop is how long past a statement's timeout a target waits before it gives up on the
// server, which should have stopped the statement itself.
const Backstop = 2 * time.Second

// RecoveryWait bounds how long a target's Reset waits for a server that is restarting or
// recovering after a crash.
const RecoveryWait = 60 * time.Second

// DefaultDatabase is the database a DSN without one names.
const DefaultDatabase = "polyfuzz"

// Engines this package knows, as --dbms names them.
const (
	Postgres = "postgres"
	MySQL    = "mysql"
	MariaDB  = "mariadb"
)

// DSN is a parsed server DSN: SCHEME://USER:PASS@HOST:PORT/DB?PARAMS.
type DSN struct {
	// Engine is the engine the DSN was given for ("postgres", "mysql" or "mariadb").
	Engine string
	// Scheme is the URL scheme as given ("postgres", "postgresql", "mysql" or "mariadb").
	Scheme string
	// User is the login name; it is required.
	User string
	// Password is the login password, URL-decoded; never print it (see DSN.Redact).
	Password string
	// Host is the server's host name or address, 127.0.0.1 if the DSN names none.
	Host string
	// Port is the server's TCP port, the engine's standard one if the DSN names none.
	Port int
	// Database is the database polyfuzz works in (or next to, for MySQL); DefaultDatabase if the
	// DSN names none.
	Database string
	// Params are the URL's query parameters, passed to the driver.
	Params map[string]string
}

var schemes = map[string][]string{
	Postgres: {"postgres", "postgresql"},
	MySQL:    {"mysql", "mariadb"},
	MariaDB:  {"mariadb", "mysql"},
}

var defaultPorts = map[string]int{Postgres: 5432, MySQL: 3306, MariaDB: 3306}

// Example returns the DSN form expected for an engine, e.g. "postgres://USER:PASS@HOST:PORT/DB".
func Example(engine string) string {
	s := engine
	if ss, ok := schemes[engine]; ok {
		s = ss[0]
	}
	return s + "://USER:PASS@HOST:PORT/DB"
}

// FlagHint names the command-line setting that chooses an engine's DSN ("--dbms postgres=DSN").
func FlagHint(engine string) string { return "--dbms " + engine + "=DSN" }

// ParseDSN parses a URL DSN for engine ("postgres", "mysql" or "mariadb"). postgres takes the
// postgres:// and postgresql:// schemes; mysql and mariadb take mysql:// and mariadb:// (the two
// speak one protocol). A DSN of another scheme is an error that names the fix. The host defaults
// to 127.0.0.1, the port to the engine's standard one and the database to DefaultDatabase; a user
// is required. Error messages never hold the password.
func ParseDSN(engine, dsn string) (*DSN, error) {
	want, ok := schemes[engine]
	if !ok {
		return nil, fmt.Errorf("unknown SQL server engine %q (want postgres, mysql or mariadb)", engine)
	}
	fix := "give " + Example(engine)
	scheme, _, found := strings.Cut(dsn, "://")
	if !found {
		return nil, fmt.Errorf("--dbms %s got a DSN that is not a URL (%s); %s", engine, redact.Text(dsn), fix)
	}
	scheme = strings.ToLower(scheme)
	if !contains(want, scheme) {
		return nil, fmt.Errorf("--dbms %s got a %s:// DSN; %s", engine, scheme, fix)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("--dbms %s got a DSN that does not parse (%s); %s", engine, redact.Text(dsn), fix)
	}
	d := &DSN{Engine: engine, Scheme: scheme, Host: u.Hostname(), Database: strings.TrimPrefix(u.Path, "/"),
		Params: map[string]string{}}
	if u.User != nil {
		d.User = u.User.Username()
		d.Password, _ = u.User.Password()
	}
	if d.User == "" {
		return nil, fmt.Errorf("--dbms %s got a DSN without a user (%s); %s", engine, redact.Text(dsn), fix)
	}
	if d.Host == "" {
		d.Host = "127.0.0.1"
	}
	d.Port = defaultPorts[engine]
	if p := u.Port(); p != "" {
		d.Port, err = strconv.Atoi(p)
		if err != nil || d.Port <= 0 || d.Port > 65535 {
			return nil, fmt.Errorf("--dbms %s got a DSN with port %q; %s", engine, p, fix)
		}
	}
	if d.Database == "" {
		d.Database = DefaultDatabase
	}
	if strings.Contains(d.Database, "/") {
		return nil, fmt.Errorf("--dbms %s got a DSN with database %q; %s", engine, d.Database, fix)
	}
	for k, vs := range u.Query() {
		if len(vs) > 0 {
			d.Params[k] = vs[len(vs)-1]
		}
	}
	return d, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Addr returns HOST:PORT.
func (d *DSN) Addr() string { return net.JoinHostPort(d.Host, strconv.Itoa(d.Port)) }

// URL returns the DSN as a URL, password included: for drivers only, never for messages.
func (d *DSN) URL() string {
	u := url.URL{Scheme: d.Scheme, User: url.UserPassword(d.User, d.Password), Host: d.Addr(), Path: "/" + d.Database}
	if len(d.Params) > 0 {
		q := url.Values{}
		for k, v := range d.Params {
			q.Set(k, v)
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// String returns the DSN with its password masked.
func (d *DSN) String() string { return d.Redact(d.URL()) }

// Redact removes passwords from s: the forms package redact knows, and this DSN's password
// wherever it appears (see redact.Password).
func (d *DSN) Redact(s string) string { return redact.Password(s, d.Password) }

// ObjectList prints up to max object descriptions ("table public.accounts") for a message, sorted,
// with how many more there are.
func ObjectList(objs []string, max int) string {
	objs = append([]string(nil), objs...)
	sort.Strings(objs)
	if max <= 0 || len(objs) <= max {
		return strings.Join(objs, ", ")
	}
	return strings.Join(objs[:max], ", ") + fmt.Sprintf(" and %d more", len(objs)-max)
}

// OwnerComment marks a schema or database polyfuzz created; polyfuzz drops only what carries it
// or what it created in the same session.
const OwnerComment = "created by polyfuzz"

// WorkerName returns the name of worker's own namespace next to base: base_w<worker>.
func WorkerName(base string, worker int) string { return base + "_w" + strconv.Itoa(worker) }

var reIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// CheckIdent reports an error unless name is a plain identifier (letters, digits, underscores, not
// starting with a digit, at most max bytes), so that it can be spliced into SQL without quoting.
func CheckIdent(engine, what, name string, max int) error {
	if !reIdent.MatchString(name) || len(name) > max {
		return fmt.Errorf("%s %s name %q is not a plain identifier of at most %d letters, digits and underscores; "+
			"fix %s", engine, what, name, max, FlagHint(engine))
	}
	return nil
}
