# shellcheck shell=bash
# Throwaway PostgreSQL and MariaDB servers for the SQL server targets' tests, on 127.0.0.1 only.
#
# Usage (bash):
#   source scripts/sqlservers.sh
#   sqlservers_start   # starts both (or reuses servers already answering on the ports), exports the DSNs
#   ...                # go test ./targets/...
#   sqlservers_stop    # stops only what sqlservers_start started and removes its temp dirs
#
# Ports: POLYFUZZ_PG_PORT (default 55432), POLYFUZZ_MARIADB_PORT (default 53306). Data goes to a
# temp dir under POLYFUZZ_SQLSERVERS_TMP (default /dev/shm when it has room, else TMPDIR or /tmp).
# Exports POLYFUZZ_POSTGRES_DSN, POLYFUZZ_MARIADB_DSN and POLYFUZZ_MYSQL_DSN (the mysql target is
# driven against the same MariaDB server: MySQL itself is not packaged by Debian).
# The servers get a user polyfuzz with password polyfuzz-secret (CREATEDB on PostgreSQL, all
# privileges on MariaDB, where polyfuzz creates a database per worker) and a database polyfuzz.
# PostgreSQL trusts its local socket and asks for a password over TCP; MariaDB always asks.
# Installs nothing: scripts/test.sh installs postgresql, mariadb-server and mariadb-client.
#
# Crashes: PostgreSQL's postmaster restarts a crashed backend itself. mariadbd runs under a small
# supervisor loop, as mysqld_safe does: when it dies by a signal or exits non-zero, the loop logs a
# line to the server's log and starts it again with the same arguments 0.3 s later (the targets'
# Reset waits for it), until sqlservers_stop. A mariadbd that exits before it ever came up is not
# restarted, and the loop gives up after 5 restarts in a row that die before they come up.
# The loop's pid is in DIR/supervisor.pid and the current mariadbd's in DIR/mariadbd.pid, where DIR
# is the directory of the server's pid file (SELECT @@pid_file).

source "$(dirname "${BASH_SOURCE[0]}")/servertmp.sh"
_SQLSERVERS_USER=polyfuzz
_SQLSERVERS_PASS=polyfuzz-secret
_SQLSERVERS_DB=polyfuzz
# What sqlservers_start started (kept if the file is sourced again).
_SQLSERVERS_PG_DIR="${_SQLSERVERS_PG_DIR:-}"           # temp dir of the PostgreSQL cluster, if any
_SQLSERVERS_MARIADB_DIR="${_SQLSERVERS_MARIADB_DIR:-}" # temp dir of the MariaDB server, if any
_SQLSERVERS_MARIADB_PID="${_SQLSERVERS_MARIADB_PID:-}" # pid of the supervisor loop around mariadbd, if any

# _sqlservers_pg_bin prints the directory holding initdb and pg_ctl (newest installed version).
_sqlservers_pg_bin() {
  if [ -n "${POLYFUZZ_PG_BIN:-}" ]; then
    echo "$POLYFUZZ_PG_BIN"
    return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1) || true
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then
    echo "$d"
    return
  fi
  d=$(command -v initdb 2>/dev/null) || return 1
  dirname "$d"
}

# _sqlservers_as_pg runs a shell command as the postgres user when we are root (initdb refuses
# root), and as ourselves otherwise.
_sqlservers_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    su postgres -s /bin/sh -c "$1"
  else
    sh -c "$1"
  fi
}

_sqlservers_pg_ready() {
  "$1/pg_isready" -q -h 127.0.0.1 -p "$2" -t 1 >/dev/null 2>&1
}

_sqlservers_mariadb_ready() {
  # Any answer from the server, even one that denies access, means it is up.
  local out
  out=$(mariadb-admin --no-defaults --protocol=tcp -h127.0.0.1 -P"$1" -uping --connect-timeout=1 ping 2>&1) && return 0
  case "$out" in *"Access denied"* | *"not allowed to connect"*) return 0 ;; esac
  return 1
}

_sqlservers_start_postgres() {
  local port="${POLYFUZZ_PG_PORT:-55432}" bin dir ver i
  bin=$(_sqlservers_pg_bin) || {
    echo "sqlservers: PostgreSQL is not installed (apt-get install postgresql)" >&2
    return 1
  }
  export POLYFUZZ_POSTGRES_DSN="postgres://$_SQLSERVERS_USER:$_SQLSERVERS_PASS@127.0.0.1:$port/$_SQLSERVERS_DB"
  if _sqlservers_pg_ready "$bin" "$port"; then
    ver=$(PGPASSWORD=$_SQLSERVERS_PASS "$bin/psql" -X -At -h 127.0.0.1 -p "$port" -U "$_SQLSERVERS_USER" \
      -d "$_SQLSERVERS_DB" -c 'SHOW server_version' 2>/dev/null | cut -d' ' -f1) || true
    if [ -n "$ver" ]; then
      echo "postgres $ver on 127.0.0.1:$port (already running, reused)"
    else
      echo "postgres on 127.0.0.1:$port (already running, reused; the polyfuzz login failed: create role and database polyfuzz)" >&2
    fi
    return 0
  fi
  dir=$(mktemp -d "$(_polyfuzz_tmp "${POLYFUZZ_SQLSERVERS_TMP:-}")/polyfuzz-pg.XXXXXX") || return 1
  chmod 755 "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$dir"; fi
  _SQLSERVERS_PG_DIR=$dir
  if ! _sqlservers_as_pg "'$bin/initdb' -D '$dir/data' -U postgres --auth-local=trust --auth-host=scram-sha-256 \
      --encoding=UTF8 --locale=C --no-sync >'$dir/initdb.log' 2>&1"; then
    echo "sqlservers: initdb failed; see $dir/initdb.log" >&2
    cat "$dir/initdb.log" >&2
    return 1
  fi
  if ! _sqlservers_as_pg "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -t 60 start \
      -o '-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off' >/dev/null"; then
    echo "sqlservers: PostgreSQL did not start; its log:" >&2
    cat "$dir/server.log" >&2
    return 1
  fi
  for i in $(seq 1 100); do
    _sqlservers_pg_ready "$bin" "$port" && break
    sleep 0.1
  done
  if ! "$bin/psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
      -c "CREATE ROLE $_SQLSERVERS_USER LOGIN CREATEDB PASSWORD '$_SQLSERVERS_PASS'" \
      -c "CREATE DATABASE $_SQLSERVERS_DB OWNER $_SQLSERVERS_USER" >/dev/null; then
    echo "sqlservers: could not create the polyfuzz role and database" >&2
    return 1
  fi
  ver=$("$bin/psql" -X -At -h "$dir" -p "$port" -U postgres -d postgres -c 'SHOW server_version' | cut -d' ' -f1)
  echo "postgres $ver on 127.0.0.1:$port"
}

# _sqlservers_mariadb_supervise DIR MARIADBD ARGS... runs MARIADBD ARGS... and restarts it with the
# same arguments when it dies by a signal or exits non-zero, logging a line to DIR/server.log each
# time, until the loop gets SIGTERM: then it stops the server (SIGTERM, a clean shutdown) and
# returns 0 once the server has exited; else it returns the last server's status. A server that dies before it came up (its pid file, which
# mariadbd writes when it starts listening and removes at a clean shutdown, is missing) is not
# restarted when no server came up before it, nor after 5 such deaths in a row. Run it in the
# background: it writes its own pid to DIR/supervisor.pid and the server's to DIR/mariadbd.pid.
_sqlservers_mariadb_supervise() {
  set +eu # the caller's errexit and nounset (scripts/test.sh sets them) must not end the loop
  local dir=$1 server="" rc=0 what up=0 fails=0
  shift
  _sqlservers_supervise_stop=0
  # On SIGTERM: no more restarts, and stop the server if one runs. The check after each start
  # covers a SIGTERM that comes while a server is being started.
  trap '_sqlservers_supervise_stop=1; [ -z "$server" ] || kill -TERM "$server" 2>/dev/null' TERM
  echo "$BASHPID" >"$dir/supervisor.pid"
  while [ "$_sqlservers_supervise_stop" = 0 ]; do
    rm -f "$dir/mariadb.pid"
    "$@" &
    server=$!
    echo "$server" >"$dir/mariadbd.pid"
    [ "$_sqlservers_supervise_stop" = 0 ] || kill -TERM "$server" 2>/dev/null
    wait "$server"
    rc=$?
    # wait returns early when SIGTERM comes; then wait on until the server has exited.
    while kill -0 "$server" 2>/dev/null; do
      wait "$server"
      rc=$?
    done
    [ "$_sqlservers_supervise_stop" = 0 ] && [ "$rc" -ne 0 ] || break
    if [ -e "$dir/mariadb.pid" ]; then
      up=1
      fails=0
    else
      fails=$((fails + 1))
    fi
    what="exited with status $rc"
    [ "$rc" -le 128 ] || what="died by signal $((rc - 128)) (SIG$(kill -l "$((rc - 128))" 2>/dev/null))"
    if [ "$up" = 0 ] || [ "$fails" -gt 5 ]; then
      echo "$(date '+%Y-%m-%d %H:%M:%S') sqlservers: mariadbd (pid $server) $what before it came up; not restarting it" \
        >>"$dir/server.log"
      break
    fi
    echo "$(date '+%Y-%m-%d %H:%M:%S') sqlservers: mariadbd (pid $server) $what; restarting it" >>"$dir/server.log"
    server=""
    sleep 0.3
  done
  rm -f "$dir/supervisor.pid" "$dir/mariadbd.pid"
  [ "$_sqlservers_supervise_stop" = 1 ] || return "$rc"
}

_sqlservers_start_mariadb() {
  local port="${POLYFUZZ_MARIADB_PORT:-53306}" dir ver i sql
  export POLYFUZZ_MARIADB_DSN="mariadb://$_SQLSERVERS_USER:$_SQLSERVERS_PASS@127.0.0.1:$port/$_SQLSERVERS_DB"
  export POLYFUZZ_MYSQL_DSN="mysql://$_SQLSERVERS_USER:$_SQLSERVERS_PASS@127.0.0.1:$port/$_SQLSERVERS_DB"
  if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
    echo "sqlservers: MariaDB is not installed (apt-get install mariadb-server mariadb-client)" >&2
    return 1
  fi
  if _sqlservers_mariadb_ready "$port"; then
    ver=$(mariadb --no-defaults --protocol=tcp -h127.0.0.1 -P"$port" -u"$_SQLSERVERS_USER" -p"$_SQLSERVERS_PASS" \
      -N -B -e 'SELECT VERSION()' 2>/dev/null) || true
    if [ -n "$ver" ]; then
      echo "mariadb ${ver%%-MariaDB*}-MariaDB on 127.0.0.1:$port (already running, reused)"
    else
      echo "mariadb on 127.0.0.1:$port (already running, reused; the polyfuzz login failed: create user polyfuzz)" >&2
    fi
    return 0
  fi
  local mariadbd=mariadbd
  command -v mariadbd >/dev/null 2>&1 || mariadbd=/usr/sbin/mariadbd
  dir=$(mktemp -d "$(_polyfuzz_tmp "${POLYFUZZ_SQLSERVERS_TMP:-}")/polyfuzz-mariadb.XXXXXX") || return 1
  _SQLSERVERS_MARIADB_DIR=$dir
  if ! mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$dir/data" --auth-root-authentication-method=socket \
      --auth-root-socket-user="$(id -un)" \
      --skip-test-db --skip-name-resolve >"$dir/install.log" 2>&1; then
    echo "sqlservers: mariadb-install-db failed:" >&2
    cat "$dir/install.log" >&2
    return 1
  fi
  _sqlservers_mariadb_supervise "$dir" "$mariadbd" --no-defaults --user="$(id -un)" --datadir="$dir/data" \
    --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" --log-error="$dir/server.log" --port="$port" \
    --bind-address=127.0.0.1 --skip-name-resolve --skip-log-bin --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 \
    --innodb-flush-method=nosync --sync-frm=0 --performance-schema=0 --innodb-buffer-pool-size=64M </dev/null >/dev/null 2>&1 &
  _SQLSERVERS_MARIADB_PID=$!
  for i in $(seq 1 300); do
    _sqlservers_mariadb_ready "$port" && break
    if ! kill -0 "$_SQLSERVERS_MARIADB_PID" 2>/dev/null; then
      wait "$_SQLSERVERS_MARIADB_PID" 2>/dev/null || true
      echo "sqlservers: mariadbd exited; its log:" >&2
      cat "$dir/server.log" >&2
      _SQLSERVERS_MARIADB_PID=""
      return 1
    fi
    sleep 0.1
  done
  sql="DROP USER IF EXISTS ''@'localhost';"
  for host in 127.0.0.1 localhost '%'; do
    sql="$sql CREATE USER '$_SQLSERVERS_USER'@'$host' IDENTIFIED BY '$_SQLSERVERS_PASS';"
    sql="$sql GRANT ALL PRIVILEGES ON *.* TO '$_SQLSERVERS_USER'@'$host';"
  done
  if ! mariadb --no-defaults -S "$dir/mariadb.sock" -uroot -e "$sql FLUSH PRIVILEGES;"; then
    echo "sqlservers: could not create the polyfuzz user" >&2
    return 1
  fi
  ver=$(mariadb --no-defaults -S "$dir/mariadb.sock" -uroot -N -B -e 'SELECT VERSION()')
  echo "mariadb ${ver%%-MariaDB*}-MariaDB on 127.0.0.1:$port"
}

# sqlservers_start starts PostgreSQL and MariaDB (reusing servers already answering on the ports)
# and exports the POLYFUZZ_*_DSN variables.
sqlservers_start() {
  _sqlservers_start_postgres || return 1
  _sqlservers_start_mariadb || return 1
}

# sqlservers_stop stops the servers sqlservers_start started and removes their temp dirs.
sqlservers_stop() {
  local bin i server
  if [ -n "$_SQLSERVERS_PG_DIR" ]; then
    if [ -f "$_SQLSERVERS_PG_DIR/data/postmaster.pid" ]; then
      bin=$(_sqlservers_pg_bin)
      _sqlservers_as_pg "'$bin/pg_ctl' -D '$_SQLSERVERS_PG_DIR/data' -m immediate -w stop" >/dev/null 2>&1 || true
    fi
    rm -rf "$_SQLSERVERS_PG_DIR"
    _SQLSERVERS_PG_DIR=""
  fi
  if [ -n "$_SQLSERVERS_MARIADB_PID" ]; then
    # SIGTERM ends the supervisor's loop first; the loop then shuts the server down and exits.
    kill -TERM "$_SQLSERVERS_MARIADB_PID" 2>/dev/null || true
    for i in $(seq 1 100); do
      kill -0 "$_SQLSERVERS_MARIADB_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$_SQLSERVERS_MARIADB_PID" 2>/dev/null; then
      # The server did not shut down within 10 s: kill it (the loop, still waiting on it, names
      # it in DIR/mariadbd.pid), then the loop.
      server=""
      if [ -n "$_SQLSERVERS_MARIADB_DIR" ]; then
        server=$(cat "$_SQLSERVERS_MARIADB_DIR/mariadbd.pid" 2>/dev/null) || true
      fi
      [ -z "$server" ] || kill -KILL "$server" 2>/dev/null || true
      for i in $(seq 1 20); do
        kill -0 "$_SQLSERVERS_MARIADB_PID" 2>/dev/null || break
        sleep 0.1
      done
      kill -KILL "$_SQLSERVERS_MARIADB_PID" 2>/dev/null || true
    fi
    wait "$_SQLSERVERS_MARIADB_PID" 2>/dev/null || true
    _SQLSERVERS_MARIADB_PID=""
  fi
  if [ -n "$_SQLSERVERS_MARIADB_DIR" ]; then
    rm -rf "$_SQLSERVERS_MARIADB_DIR"
    _SQLSERVERS_MARIADB_DIR=""
  fi
  return 0
}
