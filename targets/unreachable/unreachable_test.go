package unreachable

import (
	"context"
	"errors"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestReason(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, refused := net.Dial("tcp", addr)
	dial := func(err error) error { return &net.OpError{Op: "dial", Net: "tcp", Err: err} }
	tests := []struct {
		name   string
		err    error
		reason string
		ok     bool
	}{
		{"refused", refused, "connection refused", true},
		{"no route", dial(os.NewSyscallError("connect", syscall.EHOSTUNREACH)), "no route to host", true},
		{"timeout", dial(os.ErrDeadlineExceeded), "no answer within 5s", true},
		{"unknown host", &net.DNSError{Name: "nohost.invalid", Err: "no such host"}, "no such host nohost.invalid", true},
		{"other dial error", dial(errors.New("socket:\ntoo many files")), "socket: too many files", true},
		{"read error", &net.OpError{Op: "read", Err: syscall.ECONNRESET}, "", false},
		{"cancelled", context.Canceled, "", false},
	}
	for _, tc := range tests {
		if reason, ok := Reason(tc.err, 5*time.Second); reason != tc.reason || ok != tc.ok {
			t.Errorf("%s: Reason(%v) = %q, %v; want %q, %v", tc.name, tc.err, reason, ok, tc.reason, tc.ok)
		}
	}
}
