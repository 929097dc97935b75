package parley;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * Starts Neo4j Community in-process for Parley's networked contract tests: Bolt on 127.0.0.1 at a
 * free port, authentication on, HTTP off. Prints {@code NEO4J_URI=bolt://127.0.0.1:<port>} when
 * ready and stops on SIGTERM, or when stdin closes if the third argument is
 * {@code --stop-on-stdin-close}.
 *
 * <p>Arguments: {@code <password> <work-dir> [--stop-on-stdin-close]}. The password is set for user {@code neo4j}.
 */
public final class Neo4jTestServer {
  private Neo4jTestServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: Neo4jTestServer <password> <work-dir>");
      System.exit(2);
    }
    String password = args[0];
    Path workDir = Path.of(args[1]);
    Neo4j server = Neo4jBuilders.newInProcessBuilder(workDir)
        .withConfig(GraphDatabaseSettings.auth_enabled, true)
        .withConfig(BoltConnector.enabled, true)
        .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", 0))
        .withConfig(HttpConnector.enabled, false)
        .withConfig(GraphDatabaseSettings.pagecache_memory, 128L * 1024 * 1024)
        .withDisabledServer()
        .build();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }));
    server.databaseManagementService().database("system")
        .executeTransactionally("ALTER USER neo4j SET PASSWORD $p CHANGE NOT REQUIRED",
            Map.of("p", password));
    System.out.println("NEO4J_URI=" + server.boltURI().toString().replace("localhost", "127.0.0.1").replaceAll("/$", ""));
    System.out.flush();
    if (args.length > 2 && args[2].equals("--stop-on-stdin-close")) {
      try {
        while (System.in.read() != -1) { /* discard */ }
      } catch (IOException ignored) {
        // stdin gone: stop
      }
      System.exit(0); // runs the shutdown hook
    }
    stopped.await(); // until SIGTERM runs the shutdown hook
  }
}
