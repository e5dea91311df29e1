// Package sqlite is the embedded SQLite target: one in-memory database per target, driven through
// github.com/mattn/go-sqlite3 (which bundles its own SQLite) without database/sql, so that the
// engine, not the driver, dominates each call. Values come back in the canonical forms of package
// fuzz; engine errors carry their extended result-code name (e.g. SQLITE_CONSTRAINT_UNIQUE) as
// Result.Code. A crash inside SQLite takes its process down: run the target in an isolated child
// (package isolated) to survive one. This package imports only fuzz and the driver.
package sqlite
