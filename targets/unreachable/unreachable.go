// Package unreachable tells a failure to reach a server at all (refused, timed out while
// dialling, unknown host, no route) from the other failures of a connect, and says why in a few
// words, for the targets that connect to a server: the SQL servers, Bolt and FalkorDB. It imports
// only the standard library.
package unreachable

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"time"
)

// Reason tells whether err is a failure to reach a server at all and returns a short reason:
// "connection refused", "no route to host", "no such host NAME", or "no answer within TIMEOUT"
// for a dial that timed out (timeout is the dial's limit, for the message).
func Reason(err error, timeout time.Duration) (reason string, ok bool) {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "no such host " + dnsErr.Name, true
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return "", false
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "no route to host", true
	case op.Timeout(), errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", timeout), true
	}
	return strings.Join(strings.Fields(op.Err.Error()), " "), true
}
