#!/usr/bin/env bash
# Neo4j for the networked contract tests: Neo4j Community 5 in-process through Neo4j's test harness
# (test/neo4j-server), Bolt on 127.0.0.1 at a free port, authentication on.
#
#   scripts/neo4j-test-server.sh start   build the launcher if needed (the first run downloads from
#                                        Maven Central into ~/.m2), start it in the background, wait
#                                        for its Bolt URI and write NEO4J_URI / NEO4J_USER /
#                                        NEO4J_PASSWORD to $NEO4J_TEST_ENV (source it)
#   scripts/neo4j-test-server.sh stop    stop it and remove its data
#   scripts/neo4j-test-server.sh restart stop it (SIGTERM, or SIGKILL with NEO4J_TEST_RESTART_SIGNAL=KILL),
#                                        leave it down NEO4J_TEST_RESTART_PAUSE_S seconds (default 0)
#                                        and start it again on the same data, port and password;
#                                        only for a server started with NEO4J_TEST_KEEP_DATA=1
#
# Settings: NEO4J_TEST_DIR (state, default /tmp/parley-neo4j-test), NEO4J_TEST_ENV (default
# $NEO4J_TEST_DIR/env), NEO4J_TEST_START_S (how long to wait, default 180), NEO4J_TEST_HEAP (default 1g),
# NEO4J_TEST_KEEP_DATA=1 (run the Community DBMS directly on $NEO4J_TEST_DIR/data instead of through
# the harness, which deletes its store on stop, so `restart` finds the data again; the first start
# binds a free port, kept for restarts).
set -euo pipefail
cd "$(dirname "$0")/.."

state=${NEO4J_TEST_DIR:-/tmp/parley-neo4j-test}
env_file=${NEO4J_TEST_ENV:-$state/env}
launcher=test/neo4j-server
pid_file=$state/pid

# Stop the server (signal $1), leaving its data.
terminate() {
  if [ -f "$pid_file" ]; then
    local pid; pid=$(cat "$pid_file")
    if kill -0 "$pid" 2>/dev/null; then
      kill "-$1" "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pid_file"
  fi
}

stop() {
  terminate TERM
  rm -rf "$state/data" "$state/port" "$state/password"
}

build() {
  command -v java >/dev/null || { echo "neo4j-test-server: java (17) is required" >&2; exit 1; }
  command -v mvn >/dev/null || { echo "neo4j-test-server: mvn is required" >&2; exit 1; }
  # Rebuild only when the pom or the source changed since the last build (target/.built).
  local built=$launcher/target/.built
  if [ ! -f "$built" ] || [ -n "$(find "$launcher/pom.xml" "$launcher/src" -newer "$built" -type f)" ]; then
    echo "neo4j-test-server: building the launcher (the first run downloads Neo4j from Maven Central)" >&2
    (cd "$launcher" && mvn -q -B package) >&2
    touch "$built"
  fi
}

# Start the launcher with password $1 and further launcher arguments, wait for its Bolt URI.
launch() {
  local password=$1; shift
  local cp
  cp="$launcher/target/classes:$(cat "$launcher/target/classpath.txt")"
  mkdir -p "$state"
  # Created here, not only by the background job's redirection, which may not have run yet when the
  # wait loop first reads it (with `set -e` a failed read would end the script).
  : >"$state/out.log"
  # It stops on SIGTERM (its shutdown hook closes the database).
  nohup java "-Xmx${NEO4J_TEST_HEAP:-1g}" -XX:+UseSerialGC -cp "$cp" parley.Neo4jTestServer "$password" "$state/data" "$@" \
    </dev/null >"$state/out.log" 2>>"$state/err.log" &
  echo $! >"$pid_file"
  local deadline=$((SECONDS + ${NEO4J_TEST_START_S:-180})) uri=""
  while [ $SECONDS -lt $deadline ]; do
    uri=$(sed -n 's/^NEO4J_URI=//p' "$state/out.log" | head -n 1)
    [ -n "$uri" ] && break
    kill -0 "$(cat "$pid_file")" 2>/dev/null || { echo "neo4j-test-server: the server exited:" >&2; tail -n 30 "$state/err.log" >&2; exit 1; }
    sleep 0.5
  done
  [ -n "$uri" ] || { echo "neo4j-test-server: no Bolt URI within ${NEO4J_TEST_START_S:-180} s" >&2; tail -n 30 "$state/err.log" >&2; stop; exit 1; }
  printf 'export NEO4J_URI=%s\nexport NEO4J_USER=neo4j\nexport NEO4J_PASSWORD=%s\n' "$uri" "$password" >"$env_file"
  echo "neo4j-test-server: ready at $uri (env in $env_file)" >&2
  LAUNCHED_URI=$uri
}

start() {
  build
  stop
  mkdir -p "$state"
  : >"$state/err.log"
  local password
  password=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
  if [ "${NEO4J_TEST_KEEP_DATA:-0}" = 1 ]; then
    launch "$password" --keep-data --port 0
    printf '%s\n' "${LAUNCHED_URI##*:}" >"$state/port"
    printf '%s\n' "$password" >"$state/password"
  else
    launch "$password"
  fi
}

restart() {
  [ -f "$state/port" ] && [ -f "$state/password" ] || {
    echo "neo4j-test-server: restart needs a server started with NEO4J_TEST_KEEP_DATA=1 in $state" >&2; exit 1; }
  build
  terminate "${NEO4J_TEST_RESTART_SIGNAL:-TERM}"
  sleep "${NEO4J_TEST_RESTART_PAUSE_S:-0}"
  launch "$(cat "$state/password")" --keep-data --port "$(cat "$state/port")"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) restart ;;
  *) echo "usage: $0 start|stop|restart" >&2; exit 2 ;;
esac
