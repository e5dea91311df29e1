// Package falkordb is the FalkorDB target: one RESP connection per target over
// github.com/redis/go-redis/v9, each statement sent as `GRAPH.QUERY key stmt --compact TIMEOUT ms`
// and its compact reply decoded into cypherval values.
//
// URL: redis://[[USER]:PASSWORD@]HOST:PORT[/DB] (rediss:// for TLS). The password is never printed
// (see Redact).
//
// Namespace and safety: FalkorDB keeps each graph under a key. Worker N works in the graph
// polyfuzz_w<N>; a key of that name is polyfuzz's, and polyfuzz touches no other key (never
// FLUSHDB or FLUSHALL). Reset deletes the key (GRAPH.DELETE; a missing key is fine); Close deletes
// it too. Open refuses when the key holds something other than a graph, unless Force is set, in
// which case it deletes that key. The connection is named after the key (CLIENT SETNAME), and Open
// refuses when another connection of that name is live (another polyfuzz run with the same worker
// numbers), unless Force is set; a server that forbids CLIENT LIST skips that check.
//
// Values: the compact reply's nulls, strings, integers, booleans, doubles, lists, maps, nodes,
// relationships and paths convert to cypherval.Val and print with Val.Canon. Label, property-key
// and relationship-type ids are resolved through db.labels(), db.propertyKeys() and
// db.relationshipTypes(), read again whenever a reply holds an id past their end and forgotten on
// Reset. FalkorDB sends doubles as text rounded to 15 significant digits; Canon rounds every
// engine's floats alike. Points print as t:point({latitude: .., longitude: ..}), vectors as lists
// of floats, temporal values as t: of their integer seconds.
//
// Errors: FalkorDB answers a failed statement with one error for the whole reply. It is
// StatusEngineError with Err the message and Code a short class derived from it (see errorCode):
// "syntax", "type", "division-by-zero", "unknown-function", "undefined", "argument" or "error".
// "Query timed out" is StatusTimeout; the TIMEOUT argument bounds read queries only (writes ignore
// it unless the server's TIMEOUT_MAX is set, which polyfuzz leaves alone), and a client-side
// deadline of Timeout + 2 s is the backstop. A lost connection is StatusCrash, and Exec answers
// crash until Reset, which waits up to a minute for the server to come back.
package falkordb
