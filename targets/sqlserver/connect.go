package sqlserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/polyfuzz/polyfuzz/targets/unreachable"
)

// Protocol is the wire protocol a server speaks.
type Protocol int

// Protocols Probe tells apart.
const (
	ProtocolUnknown  Protocol = iota // no answer, or one Probe does not recognise
	ProtocolPostgres                 // PostgreSQL's frontend/backend protocol
	ProtocolMySQL                    // the MySQL/MariaDB client/server protocol
)

// String names the protocol.
func (p Protocol) String() string {
	switch p {
	case ProtocolPostgres:
		return "postgres"
	case ProtocolMySQL:
		return "mysql"
	}
	return "unknown"
}

// GreetingWait is how long Sniff waits for a MySQL server's greeting before it asks in PostgreSQL's
// protocol instead. A MySQL server greets at once; a PostgreSQL server waits for the client.
const GreetingWait = 1500 * time.Millisecond

// sslRequest is PostgreSQL's SSLRequest message: length 8, code 80877103. A PostgreSQL server
// answers it with one byte, 'S' or 'N'.
var sslRequest = []byte{0, 0, 0, 8, 4, 210, 22, 47}

// Sniff tells which protocol the server at the other end of a fresh connection speaks. It reads
// what the server sends first (a MySQL server greets the client, a PostgreSQL server sends nothing)
// for up to wait; when nothing comes it sends a PostgreSQL SSLRequest and reads the answer.
// greeting holds the bytes it read from a MySQL server, which the caller's driver still needs.
// Sniff clears the connection's deadline before it returns.
func Sniff(conn net.Conn, wait time.Duration) (p Protocol, greeting []byte) {
	defer conn.SetDeadline(time.Time{})
	buf := make([]byte, 4096)
	conn.SetReadDeadline(time.Now().Add(wait))
	n, err := conn.Read(buf)
	if n > 0 {
		buf = buf[:n]
		// A MySQL packet: 3-byte little-endian length, sequence number 0, then protocol version 10
		// for a greeting or 0xff for an error (too many connections, host blocked, ...).
		if n >= 5 && buf[3] == 0 && (buf[4] == 10 || buf[4] == 0xff) {
			return ProtocolMySQL, buf
		}
		return ProtocolUnknown, buf
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		return ProtocolUnknown, nil
	}
	conn.SetDeadline(time.Now().Add(wait))
	if _, err := conn.Write(sslRequest); err != nil {
		return ProtocolUnknown, nil
	}
	if n, _ := conn.Read(buf[:1]); n == 1 && (buf[0] == 'S' || buf[0] == 'N' || buf[0] == 'E') {
		return ProtocolPostgres, nil
	}
	return ProtocolUnknown, nil
}

// Probe connects to addr and tells which protocol the server speaks (see Sniff).
func Probe(ctx context.Context, addr string) Protocol {
	d := net.Dialer{Timeout: ConnectTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return ProtocolUnknown
	}
	defer conn.Close()
	p, _ := Sniff(conn, GreetingWait)
	return p
}

// protocolOf is the protocol an engine speaks.
func protocolOf(engine string) Protocol {
	if engine == Postgres {
		return ProtocolPostgres
	}
	return ProtocolMySQL
}

// WrongProtocolError says that the server at a DSN's address speaks another engine's protocol.
type WrongProtocolError struct {
	// Engine is the engine the DSN was given for.
	Engine string
	// Addr is the server's HOST:PORT.
	Addr string
	// Found is the protocol the server answered in.
	Found Protocol
}

// Error prints the one-line message.
func (e *WrongProtocolError) Error() string {
	guess := "it answered in a protocol polyfuzz does not know"
	switch e.Found {
	case ProtocolMySQL:
		guess = "is it a MySQL/MariaDB server?"
	case ProtocolPostgres:
		guess = "is it a PostgreSQL server?"
	}
	return fmt.Sprintf("%s does not speak the %s protocol (%s)", e.Addr, e.Engine, guess)
}

// ConnectFailure is a failed connect already put in one clear line; ConnectError passes it on as
// it is.
type ConnectFailure struct {
	// Msg is the whole message, passwords removed.
	Msg string
}

// Error returns the line.
func (e *ConnectFailure) Error() string { return e.Msg }

// Unreachable returns the one-line error for a server that cannot be reached; reason says why
// ("connection refused", "no answer within 5s").
func (d *DSN) Unreachable(reason string) error {
	return &ConnectFailure{fmt.Sprintf("cannot reach %s at %s: %s; is the server running? start it or fix %s",
		d.Engine, d.Addr(), reason, FlagHint(d.Engine))}
}

// AuthFailed returns the one-line error for a refused login; detail, when not empty, replaces the
// usual "wrong password or no such user".
func (d *DSN) AuthFailed(detail string) error {
	if detail == "" {
		detail = "wrong password or no such user"
	} else {
		detail = d.Redact(detail) // the engine's words may quote the password; ours never do
	}
	return &ConnectFailure{fmt.Sprintf("%s at %s refused user %q: %s", d.Engine, d.Addr(), d.User, detail)}
}

// WrongProtocol returns the one-line error for a server that speaks another protocol.
func (d *DSN) WrongProtocol(found Protocol) error {
	return &WrongProtocolError{Engine: d.Engine, Addr: d.Addr(), Found: found}
}

// Failed returns a one-line error for any other failure, redacted.
func (d *DSN) Failed(what string, err error) error {
	return &failure{fmt.Sprintf("%s at %s: %s: %s", d.Engine, d.Addr(), what, d.Redact(oneLine(err.Error()))), err}
}

// failure is a redacted one-line message that still unwraps to the driver's error, so that
// callers can tell a lost connection from other failures.
type failure struct {
	msg string
	err error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.err }

// ConnectError turns a failed connect into one clear line: an unreachable server, a refused login
// (auth reports whether err is one, with an optional detail), or a server that speaks another
// engine's protocol (found by probing the address); anything else keeps the driver's message,
// redacted.
func (d *DSN) ConnectError(ctx context.Context, err error, auth func(error) (detail string, ok bool)) error {
	var wp *WrongProtocolError
	if errors.As(err, &wp) {
		return wp
	}
	var cf *ConnectFailure
	if errors.As(err, &cf) {
		return cf
	}
	if reason, ok := unreachable.Reason(err, ConnectTimeout); ok {
		return d.Unreachable(reason)
	}
	if auth != nil {
		if detail, ok := auth(err); ok {
			return d.AuthFailed(detail)
		}
	}
	if p := Probe(ctx, d.Addr()); p != ProtocolUnknown && p != protocolOf(d.Engine) {
		return d.WrongProtocol(p)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return d.Failed("connect", fmt.Errorf("the server closed the connection: %w", err))
	}
	return d.Failed("connect", err)
}

func oneLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] == '\n' || b[j] == '\r' {
					b[j] = ' '
				}
			}
			return string(b)
		}
	}
	return s
}
