package polyfuzz.neo4j;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * Starts an embedded Neo4j Community server with Bolt on 127.0.0.1:PORT and auth disabled, prints
 * "neo4j ready bolt://127.0.0.1:PORT VERSION" once Bolt accepts connections, and shuts down
 * cleanly on SIGTERM or SIGINT.
 *
 * <p>Usage: java -cp 'target/*:target/lib/*' polyfuzz.neo4j.Launcher PORT STORE_DIR
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: Launcher PORT STORE_DIR");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Path store = Path.of(args[1]).toAbsolutePath();

    DatabaseManagementService dbms =
        new DatabaseManagementServiceBuilder(store)
            .setConfig(BoltConnector.enabled, true)
            .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
            .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
            .setConfig(GraphDatabaseSettings.auth_enabled, false)
            .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(64))
            .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
            .setConfig(GraphDatabaseSettings.keep_logical_logs, "false")
            // Unsupported settings: no in-process local connector, and a faster Bolt shutdown
            // (by default it waits 5 s for its thread pool, then 5 s for connections).
            .setConfig(BoltConnectorInternalSettings.enable_local_connector, false)
            .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofSeconds(1))
            .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofSeconds(1))
            .build();

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    dbms.shutdown();
                  } finally {
                    System.out.println("neo4j stopped");
                    System.out.flush();
                    stopped.countDown();
                  }
                },
                "neo4j-shutdown"));

    GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
    if (!db.isAvailable(TimeUnit.SECONDS.toMillis(120))) {
      System.err.println("neo4j: database " + db.databaseName() + " did not become available");
      System.exit(1);
    }
    String version =
        db.executeTransactionally(
            "CALL dbms.components() YIELD versions RETURN versions[0] AS v",
            Map.of(),
            r -> String.valueOf(r.next().get("v")));
    waitForPort(port);
    System.out.println("neo4j ready bolt://127.0.0.1:" + port + " " + version);
    System.out.flush();
    stopped.await();
  }

  private static void waitForPort(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          System.err.println("neo4j: Bolt is not accepting connections on 127.0.0.1:" + port);
          System.exit(1);
        }
        Thread.sleep(50);
      }
    }
  }
}
