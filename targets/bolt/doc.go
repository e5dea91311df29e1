// Package bolt drives Neo4j and Memgraph over the Bolt protocol.
package bolt

import _ "github.com/neo4j/neo4j-go-driver/v5/neo4j"
