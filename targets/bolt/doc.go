// Package bolt is the Neo4j target (and Memgraph's, which speaks the same protocol): one driver
// session per target over github.com/neo4j/neo4j-go-driver/v5, each statement an auto-commit query
// whose records come back in the same round trip (fetch size "all").
//
// URL: bolt://[USER[:PASSWORD]@]HOST:PORT[?database=NAME] (also neo4j://, bolt+s://, bolt+ssc://,
// neo4j+s://, neo4j+ssc://). Without a user the target logs in without authentication (a server
// with auth disabled); the password is never printed (see Redact). The database parameter names
// the database the target works in; "{worker}" in it is replaced by the worker number, so that one
// URL serves several workers (bolt://HOST:PORT?database=fuzz{worker}). The database must exist.
//
// Namespace and safety: a Bolt server holds graphs per database only, and Neo4j Community has one
// user database, so a target owns a whole database. Open refuses a database that holds any node
// unless Force is set; with Force, polyfuzz deletes every node of that database (there is no smaller
// namespace to work in). Reset deletes every node and relationship (MATCH (n) DETACH DELETE n, in
// transactions of 10,000 rows) and drops the indexes and constraints created since Open; those that
// existed at Open are kept. Close does the same as Reset and ends the session. Several workers
// cannot share one database: Open refuses Worker > 0 unless the URL names a database (with
// "{worker}", or a URL of its own per worker); a run with several workers against Neo4j Community
// therefore needs one server per worker. polyfuzz does not create databases.
//
// Values: integers, floats, strings, booleans, null, lists, maps, nodes, relationships and paths
// convert to cypherval.Val and print with Val.Canon; temporal and spatial values, which the graph
// generator does not produce, print as strings (t:) of the driver's text form, byte arrays as
// t:0x<hex>.
//
// Errors: a statement the server rejects is StatusEngineError with the server's code
// (Neo.ClientError.Statement.SyntaxError, ...) as Code and its message as Err. Each statement runs
// under a transaction timeout of Options.Timeout; the server's timeout error, or a client-side
// deadline of Timeout + 5 s as a backstop (Neo4j checks timeouts every 2 s, so a statement
// may run up to about Timeout + 2 s), is StatusTimeout. A lost connection is StatusCrash, and
// Exec answers crash until Reset, which waits up to a minute for the server to come back.
//
// Memgraph: Name "memgraph" selects the same code path with Memgraph's name in titles and messages.
// Memgraph cannot be installed here, so that path is untested; Memgraph's error codes, its version
// string (from the server agent) and its lack of CALL { } IN TRANSACTIONS (Reset falls back to a
// single DETACH DELETE when the batched form is rejected) are handled from its documentation only.
package bolt
