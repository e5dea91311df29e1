package polyfuzz.neo4j;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts an embedded Neo4j Community server with Bolt on 127.0.0.1:PORT and auth disabled, prints
 * "neo4j ready bolt://127.0.0.1:PORT VERSION" once Bolt accepts connections, and shuts down
 * cleanly on SIGTERM or SIGINT.
 *
 * <p>It runs any Neo4j from 4.4 on: it calls Neo4j's embedded API by reflection, on the API the
 * 4.4, 5.x and 2025+ lines share (a builder on a home directory, settings read from a file, a
 * database service with transactions), and writes the settings under the names of the server's
 * line (4.4's dbms.connector.bolt.*, 5's server.bolt.*). So one build runs on the jars of any
 * version, and compiling it needs no Neo4j classes (2025+ is compiled for Java 21).
 *
 * <p>Usage: java -cp 'launcher.jar:lib/*' polyfuzz.neo4j.Launcher PORT STORE_DIR
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
    Files.createDirectories(store);
    Path conf = store.resolve("polyfuzz-neo4j.conf");
    Files.writeString(conf, settings(major(), port));

    Class<?> builderClass = Class.forName("org.neo4j.dbms.api.DatabaseManagementServiceBuilder");
    Object builder = builderClass.getConstructor(Path.class).newInstance(store);
    builder = call(builder, "loadPropertiesFromFile", Path.class, conf);
    Object dbms = call(builder, "build");

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    call(dbms, "shutdown");
                  } catch (Exception e) {
                    e.printStackTrace();
                  } finally {
                    System.out.println("neo4j stopped");
                    System.out.flush();
                    stopped.countDown();
                  }
                },
                "neo4j-shutdown"));

    Object db = call(dbms, "database", String.class, "neo4j");
    String version = awaitVersion(db);
    waitForPort(port);
    System.out.println("neo4j ready bolt://127.0.0.1:" + port + " " + version);
    System.out.flush();
    stopped.await();
  }

  /** major returns the major version of the Neo4j jars on the class path: 4, 5, 2025, ... */
  private static int major() throws Exception {
    Package p = Class.forName("org.neo4j.dbms.api.DatabaseManagementServiceBuilder").getPackage();
    String v = p.getImplementationVersion();
    if (v == null) {
      throw new IllegalStateException("the Neo4j jar names no version (Implementation-Version)");
    }
    return Integer.parseInt(v.split("\\.")[0]);
  }

  /** settings returns the neo4j.conf of the server, in the setting names of its major version. */
  static String settings(int major, int port) {
    String addr = "127.0.0.1:" + port;
    StringBuilder b = new StringBuilder();
    if (major < 5) {
      b.append("dbms.connector.bolt.enabled=true\n")
          .append("dbms.connector.bolt.listen_address=").append(addr).append('\n')
          .append("dbms.connector.bolt.advertised_address=").append(addr).append('\n')
          .append("dbms.memory.pagecache.size=64m\n")
          .append("dbms.tx_log.preallocate=false\n")
          .append("dbms.tx_log.rotation.retention_policy=false\n");
    } else {
      b.append("server.bolt.enabled=true\n")
          .append("server.bolt.listen_address=").append(addr).append('\n')
          .append("server.bolt.advertised_address=").append(addr).append('\n')
          .append("server.memory.pagecache.size=64m\n")
          .append("db.tx_log.preallocate=false\n")
          .append("db.tx_log.rotation.retention_policy=false\n")
          // Unsupported settings: no in-process local connector, and a faster Bolt shutdown (by
          // default it waits 5 s for its thread pool, then 5 s for connections).
          .append("internal.dbms.bolt.local_enabled=false\n")
          .append("internal.server.bolt.thread_pool_shutdown_wait_time=1s\n")
          .append("internal.server.bolt.connection_shutdown_wait_time=1s\n");
    }
    b.append("dbms.security.auth_enabled=false\n");
    return b.toString();
  }

  /**
   * awaitVersion waits up to 120 s for the database to answer and returns the server's version.
   */
  private static String awaitVersion(Object db) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (true) {
      try {
        Object tx = call(db, "beginTx");
        try (AutoCloseable c = (AutoCloseable) tx) {
          Iterator<?> rows =
              (Iterator<?>)
                  call(
                      tx,
                      "execute",
                      String.class,
                      "CALL dbms.components() YIELD versions RETURN versions[0] AS v");
          return String.valueOf(((Map<?, ?>) rows.next()).get("v"));
        }
      } catch (Exception e) {
        if (System.nanoTime() > deadline) {
          System.err.println("neo4j: the database did not become available: " + e);
          System.exit(1);
        }
        Thread.sleep(100);
      }
    }
  }

  /** call calls the public method name of o with the given parameter type and argument. */
  private static Object call(Object o, String name, Class<?> type, Object arg) throws Exception {
    Method m = publicMethod(o.getClass(), name, type);
    return unwrap(() -> m.invoke(o, arg));
  }

  /** call calls the public method name of o that takes no arguments. */
  private static Object call(Object o, String name) throws Exception {
    Method m = publicMethod(o.getClass(), name);
    return unwrap(() -> m.invoke(o));
  }

  private interface Invocation {
    Object run() throws Exception;
  }

  /** unwrap runs an invocation and rethrows what the called method threw. */
  private static Object unwrap(Invocation i) throws Exception {
    try {
      return i.run();
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof Exception) {
        throw (Exception) e.getCause();
      }
      throw e;
    }
  }

  /**
   * publicMethod finds a method of c by name and parameter types on c's public interfaces and
   * classes (implementations are often package-private, so their own methods cannot be called).
   */
  private static Method publicMethod(Class<?> c, String name, Class<?>... types)
      throws NoSuchMethodException {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (java.lang.reflect.Modifier.isPublic(k.getModifiers())) {
        try {
          return k.getMethod(name, types);
        } catch (NoSuchMethodException e) {
          // look further
        }
      }
      for (Class<?> i : allInterfaces(k)) {
        try {
          return i.getMethod(name, types);
        } catch (NoSuchMethodException e) {
          // look further
        }
      }
    }
    throw new NoSuchMethodException(c.getName() + "." + name);
  }

  private static java.util.List<Class<?>> allInterfaces(Class<?> c) {
    java.util.List<Class<?>> out = new java.util.ArrayList<>();
    java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>(java.util.List.of(c.getInterfaces()));
    while (!todo.isEmpty()) {
      Class<?> i = todo.pop();
      if (!out.contains(i)) {
        if (java.lang.reflect.Modifier.isPublic(i.getModifiers())) {
          out.add(i);
        }
        todo.addAll(java.util.List.of(i.getInterfaces()));
      }
    }
    return out;
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
