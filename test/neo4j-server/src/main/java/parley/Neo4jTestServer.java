package parley;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Starts Neo4j Community in-process for Parley's networked tests: Bolt on 127.0.0.1, authentication
 * on, HTTP off. Prints {@code NEO4J_URI=bolt://127.0.0.1:<port>} when ready and stops on SIGTERM, or
 * when stdin closes with {@code --stop-on-stdin-close}.
 *
 * <p>Arguments: {@code <password> <work-dir> [--stop-on-stdin-close] [--port <n>] [--keep-data]}.
 * The password is set for user {@code neo4j}. Without {@code --keep-data} the server runs through
 * Neo4j's test harness, which puts its store in a fresh folder under work-dir and deletes it on stop.
 * With {@code --keep-data} it runs the same Community DBMS directly on work-dir
 * ({@code DatabaseManagementServiceBuilder}), which keeps the store across stops, so a restart on
 * the same work-dir and {@code --port} finds every committed transaction (the scale-out test restarts
 * Neo4j under load this way). {@code --port 0} (the default) binds a free port.
 */
public final class Neo4jTestServer {
  private Neo4jTestServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: Neo4jTestServer <password> <work-dir> [--stop-on-stdin-close] [--port <n>] [--keep-data]");
      System.exit(2);
    }
    String password = args[0];
    Path workDir = Path.of(args[1]);
    boolean stopOnStdinClose = false;
    boolean keepData = false;
    int port = 0;
    for (int i = 2; i < args.length; i++) {
      switch (args[i]) {
        case "--stop-on-stdin-close" -> stopOnStdinClose = true;
        case "--keep-data" -> keepData = true;
        case "--port" -> {
          if (i + 1 >= args.length) throw new IllegalArgumentException("--port needs a number");
          port = Integer.parseInt(args[++i]);
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    SocketAddress bolt = new SocketAddress("127.0.0.1", port);
    long pageCache = 128L * 1024 * 1024;
    CountDownLatch stopped = new CountDownLatch(1);
    String uri;
    if (keepData) {
      DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(workDir)
          .setConfig(GraphDatabaseSettings.auth_enabled, true)
          .setConfig(BoltConnector.enabled, true)
          .setConfig(BoltConnector.listen_address, bolt)
          .setConfig(HttpConnector.enabled, false)
          .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
          .build();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        dbms.shutdown();
        stopped.countDown();
      }));
      setPassword(dbms, password);
      GraphDatabaseAPI system = (GraphDatabaseAPI) dbms.database("system");
      int bound = system.getDependencyResolver().resolveDependency(ConnectorPortRegister.class)
          .getLocalAddress(ConnectorType.BOLT).getPort();
      uri = "bolt://127.0.0.1:" + bound;
    } else {
      Neo4j server = Neo4jBuilders.newInProcessBuilder(workDir)
          .withConfig(GraphDatabaseSettings.auth_enabled, true)
          .withConfig(BoltConnector.enabled, true)
          .withConfig(BoltConnector.listen_address, bolt)
          .withConfig(HttpConnector.enabled, false)
          .withConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
          .withDisabledServer()
          .build();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        server.close();
        stopped.countDown();
      }));
      setPassword(server.databaseManagementService(), password);
      uri = server.boltURI().toString().replace("localhost", "127.0.0.1").replaceAll("/$", "");
    }
    System.out.println("NEO4J_URI=" + uri);
    System.out.flush();
    if (stopOnStdinClose) {
      try {
        while (System.in.read() != -1) { /* discard */ }
      } catch (IOException ignored) {
        // stdin gone: stop
      }
      System.exit(0); // runs the shutdown hook
    }
    stopped.await(); // until SIGTERM runs the shutdown hook
  }

  /** Set the password of user neo4j; on a kept store a restart finds it already set. */
  private static void setPassword(DatabaseManagementService dbms, String password) {
    try {
      dbms.database("system").executeTransactionally(
          "ALTER USER neo4j SET PASSWORD $p CHANGE NOT REQUIRED", Map.of("p", password));
    } catch (RuntimeException e) {
      // Neo4j refuses to set the password it already has: a restart of a kept store.
      if (!String.valueOf(e.getMessage()).contains("Old password and new password cannot be the same")) throw e;
    }
  }
}
