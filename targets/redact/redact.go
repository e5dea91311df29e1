// Package redact removes passwords from any text polyfuzz shows: messages, errors, reports and
// the options it prints. Every target that takes a DSN or URL with a password (the SQL servers,
// Bolt, FalkorDB) and the command line use it, so that there is one list of the forms a password
// takes. It imports only the standard library.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces a password in redacted text.
const Mask = "***"

var (
	// scheme://user:pass@ — greedy up to the last @ of the token, so a password holding '@' goes too.
	reURLPass = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):\S*@`)
	// go-sql-driver's user:pass@tcp(host:port)/db form (also tcp4, tcp6, unix), greedy up to the
	// last @ before the network, so a password holding '@' goes too.
	reMySQLPass = regexp.MustCompile(`([^\s:/@(]*):\S*@(tcp|tcp4|tcp6|unix)\(`)
	// go-sql-driver's user:pass@/db form, without a network (the driver's default address).
	// (The password does not start with '/', which would be a URL's //.)
	reMySQLNoNet = regexp.MustCompile(`(^|\s)([^\s:/@(]*):([^/\s]\S*)?@/`)
	// password=..., passwd=..., pwd=... in key-value DSNs and URL query strings.
	reKVPass = regexp.MustCompile(`(?i)\b(password|passwd|pwd|sslpassword)(\s*=\s*)('(?:[^'\\]|\\.)*'|"[^"]*"|[^\s&;,)]+)`)
)

// Text removes the passwords of the forms it knows from s: URL DSNs (scheme://user:PASS@host),
// go-sql-driver DSNs (user:PASS@tcp(host:port)/db, user:PASS@/db) and key-value forms
// (password=PASS, also quoted), each replaced by Mask.
func Text(s string) string {
	s = reURLPass.ReplaceAllString(s, "${1}:"+Mask+"@")
	s = reMySQLPass.ReplaceAllString(s, "${1}:"+Mask+"@${2}(")
	s = reMySQLNoNet.ReplaceAllString(s, "${1}${2}:"+Mask+"@/")
	s = reKVPass.ReplaceAllString(s, "${1}${2}"+Mask)
	return s
}

// Password removes the forms Text knows and also password itself wherever it appears, as
// written and URL-escaped, when it is long enough (4 bytes) not to be an ordinary part of words.
func Password(s, password string) string {
	s = Text(s)
	if len(password) < 4 {
		return s
	}
	s = strings.ReplaceAll(s, password, Mask)
	if e := url.QueryEscape(password); e != password {
		s = strings.ReplaceAll(s, e, Mask)
	}
	if e := url.PathEscape(password); e != password {
		s = strings.ReplaceAll(s, e, Mask)
	}
	return s
}
