// Package falkordb drives FalkorDB (and RedisGraph) over RESP with GRAPH.QUERY.
package falkordb

import _ "github.com/redis/go-redis/v9"
