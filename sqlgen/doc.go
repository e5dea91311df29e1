// Package sqlgen generates, reduces and prints SQL test cases for the logic-bug oracles NoREC and
// TLP-WHERE. It owns the SQL dialect knowledge of polyfuzz's SQL domain: how a random database
// (schema and data) and random queries are written, which engine errors on them are expected, how
// a case shrinks, and how it reads as a script. It imports only the standard library and the
// module's fuzz and reduce packages, never a target or driver package (tests alone open SQLite
// through database/sql).
//
// # Cases
//
// [Generator.Generate] turns a seed into a [fuzz.Case] with Domain "sql", Gen set to
// [Options.String] and the seed. The setup (CREATE TABLE, INSERT, CREATE INDEX, CREATE VIEW,
// UPDATE, DELETE, ANALYZE, REINDEX, VACUUM, PRAGMA ...; one statement per string, no trailing
// semicolon) depends only on fuzz.SetupSeed(seed), so Options.QueriesPerDB consecutive seeds
// share it; the queries depend on the whole seed. Generated setups are kept in a
// [fuzz.SetupCache], so workers that walk the same setup build it once.
//
// Every case holds one predicate p and one FROM clause f (tables and views, joined with INNER,
// LEFT, RIGHT, FULL, CROSS or NATURAL joins and ON conditions), recorded as Params["pred"] and
// Params["from"], and the queries of the chosen oracles, each built from them:
//
//	norec.opt-count  SELECT COUNT(*) FROM f WHERE p
//	norec.opt-rows   SELECT * FROM f WHERE p [o]      (instead of opt-count, half the time;
//	                                                   the client counts the rows)
//	norec.unopt      SELECT SUM((p) IS TRUE) FROM f
//	tlp.orig         SELECT * FROM f
//	tlp.p            SELECT * FROM f WHERE p
//	tlp.notp         SELECT * FROM f WHERE NOT (p)
//	tlp.null         SELECT * FROM f WHERE (p) IS NULL
//
// where o, when present, is an ORDER BY clause recorded as Params["order"]. With Options.Checks
// = K > 1 (the default is 4) a case holds K predicates over f, the further ones in
// Params["pred#k"], and makes K checks of NoREC and TLP-WHERE: check k's queries carry the roles
// of fuzz.CheckRole ("norec.opt-count#2", "tlp.notp#2"; check 0 the plain roles), tlp.orig is
// shared, and norec.unopt sums every predicate in one scan: SELECT SUM((p) IS TRUE), ...,
// SUM((pK) IS TRUE) FROM f. The other layouts use the first predicate. NoREC expects the
// count of norec.opt-* to equal the sum of norec.unopt (NULL meaning zero); TLP expects the
// multiset of tlp.orig rows to equal the union of the other three. Every query but tlp.orig
// contains p verbatim and every query contains f verbatim. Expressions are printed fully
// parenthesized: each compound subexpression stands in its own parentheses, for example
// ((t0.c0 + 1) > (abs(t0.c1))), so precedence never matters and the reducer works on balanced
// parentheses.
//
// With the dqe and eet oracles a case also holds the layouts fuzz.DQE, fuzz.EET and fuzz.EETDML
// (dml.go): a SELECT, UPDATE and DELETE with one predicate over one table, each DML statement in a
// rolled-back transaction, and a query and a DML statement with their expressions rewritten by
// the EET rules (eet.go), rendered again from Params when the reducer shrinks a piece.
//
// The generator avoids the known sources of false positives: nondeterministic functions,
// subqueries in predicates, DISTINCT in views (unless Options.DistinctViews), aggregates in views,
// compound views whose arms differ in affinity or collation, LIKE in stored expressions after
// PRAGMA case_sensitive_like, and the type names the Go driver converts (DATE, DATETIME,
// TIMESTAMP, TIME, BOOLEAN).
//
// # Errors, reduction and text
//
// [Expected] reads a dialect's expected-error table, embedded from expected_<dialect>.tsv. The
// [Reducer] shrinks a case by ddmin over the setup and by shrinking p, f and o, substituting them
// back into every query. [Format] prints a case as SQL and as a repro.sh script.
//
// Per-dialect data (type names, literals, operators, functions, join kinds, statements, the NoREC
// unoptimized form) lives in one struct value per dialect; SQLite is the only dialect so far.
package sqlgen
