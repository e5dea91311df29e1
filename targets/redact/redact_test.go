package redact

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://polyfuzz:polyfuzz-secret@127.0.0.1:55432/polyfuzz", "postgres://polyfuzz:***@127.0.0.1:55432/polyfuzz"},
		{"dial mysql://u:p@ss@host:1/db failed", "dial mysql://u:***@host:1/db failed"},
		{"mariadb://u@host/db", "mariadb://u@host/db"},
		{"root:hunter2@tcp(127.0.0.1:3306)/x", "root:***@tcp(127.0.0.1:3306)/x"},
		{"root:hun@ter2@tcp(127.0.0.1:3306)/x", "root:***@tcp(127.0.0.1:3306)/x"},
		{"--dbms mysql=root:pw:x@unix(/run/mysqld.sock)/db", "--dbms mysql=root:***@unix(/run/mysqld.sock)/db"},
		{"root:hunter2@/x", "root:***@/x"},
		{"dsn root:hunter2@/x?parseTime=true", "dsn root:***@/x?parseTime=true"},
		{"host=h password=hunter2 user=u", "host=h password=*** user=u"},
		{"host=h password='a b\\' c' user=u", "host=h password=*** user=u"},
		{"?sslmode=disable&password=hunter2&x=1", "?sslmode=disable&password=***&x=1"},
		{"PWD = hunter2", "PWD = ***"},
		{"redis://:hunter2@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"},
		{"bolt://neo4j:hunter2@127.0.0.1:7687", "bolt://neo4j:***@127.0.0.1:7687"},
		{"no secrets here: 1:2@3", "no secrets here: 1:2@3"},
		{"see a:b@/c", "see a:***@/c"},
		{"postgres://u:pw@/db", "postgres://u:***@/db"},
		{"root:@/x", "root:***@/x"},
	}
	for _, tc := range tests {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPassword(t *testing.T) {
	tests := []struct{ in, password, want string }{
		{"auth failed for s3cr/t and s3cr%2Ft", "s3cr/t", "auth failed for *** and ***"},
		{"WRONGPASS for hunter2", "hunter2", "WRONGPASS for ***"},
		{"a pw in a word: password", "pw", "a pw in a word: password"}, // too short to replace
		{"x=1 y=2", "", "x=1 y=2"},
		{"mysql://u:p%40ss!@h/db and p@ss! again", "p@ss!", "mysql://u:***@h/db and *** again"},
	}
	for _, tc := range tests {
		if got := Password(tc.in, tc.password); got != tc.want || tc.password != "" && len(tc.password) >= 4 && strings.Contains(got, tc.password) {
			t.Errorf("Password(%q, %q) = %q, want %q", tc.in, tc.password, got, tc.want)
		}
	}
}
