package sqlexec

import (
	"context"
	"database/sql/driver"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

func TestContext(t *testing.T) {
	tests := []struct {
		name           string
		timeout, slack time.Duration
		deadline       bool
	}{
		{"no timeout", 0, time.Second, false},
		{"timeout", time.Second, 0, true},
		{"timeout and slack", time.Second, 2 * time.Second, true},
	}
	for _, tc := range tests {
		start := time.Now()
		ctx, cancel := Context(context.Background(), tc.timeout, tc.slack)
		d, ok := ctx.Deadline()
		if ok != tc.deadline || ok && (d.Before(start.Add(tc.timeout+tc.slack)) || d.After(time.Now().Add(tc.timeout+tc.slack))) {
			t.Errorf("%s: deadline %v %v, want one %s from now: %v", tc.name, d, ok, tc.timeout+tc.slack, tc.deadline)
		}
		cancel()
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct{ detail, want string }{
		{"", "statement ran over 200ms"},
		{"killed", "statement ran over 200ms: killed"},
	}
	for _, tc := range tests {
		want := &fuzz.Result{Status: fuzz.StatusTimeout, Err: tc.want}
		if got := Timeout(200*time.Millisecond, tc.detail); !reflect.DeepEqual(got, want) {
			t.Errorf("Timeout(%q) = %+v, want %+v", tc.detail, got, want)
		}
	}
}

// fakeRows are driver rows held in memory, with their columns' type names.
type fakeRows struct {
	cols, types []string
	rows        [][]driver.Value
}

func (r *fakeRows) Columns() []string                       { return r.cols }
func (r *fakeRows) Close() error                            { return nil }
func (r *fakeRows) ColumnTypeDatabaseTypeName(i int) string { return r.types[i] }
func (r *fakeRows) Next(dest []driver.Value) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	copy(dest, r.rows[0])
	r.rows = r.rows[1:]
	return nil
}

func TestReader(t *testing.T) {
	typed := func(typeName string, v driver.Value) string {
		if v == nil {
			return fuzz.Null
		}
		return typeName + ":" + v.(string)
	}
	tests := []struct {
		name string
		rows *fakeRows
		want *fuzz.Result
	}{
		{"rows", &fakeRows{[]string{"a", "b"}, []string{"x", "y"}, [][]driver.Value{{"1", nil}, {"2", "3"}}},
			&fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"a", "b"}, Rows: [][]string{{"x:1", "NULL"}, {"x:2", "y:3"}}}},
		{"no rows", &fakeRows{[]string{"a"}, []string{"x"}, nil}, &fuzz.Result{Status: fuzz.StatusOK, Columns: []string{"a"}}},
		{"no columns", &fakeRows{}, &fuzz.Result{Status: fuzz.StatusOK}},
	}
	var r Reader
	for _, tc := range tests {
		got, err := r.Read(tc.rows, typed)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Read = %+v %v, want %+v", tc.name, got, err, tc.want)
		}
	}
}
