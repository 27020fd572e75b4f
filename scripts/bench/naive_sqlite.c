/*
 * The benchmark's anchor for durable writes (scripts/bench.sh): the naive writer.
 *
 *   naive_sqlite DB_PATH SECONDS ROW_BYTES [COUNT]
 *
 * One connection, WAL + synchronous=FULL, one INSERT of ROW_BYTES per transaction
 * (BEGIN; INSERT; COMMIT), for SECONDS. Prints "ops_per_s cpu_us_per_op" on one line.
 * With COUNT, exactly COUNT transactions whatever SECONDS, and no clock read between them, so
 * that an instruction count (scripts/bench/instructions.py) depends on COUNT alone.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static double cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double) (u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double) (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void check(int rc, sqlite3 *db, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "naive_sqlite: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: naive_sqlite DB_PATH SECONDS ROW_BYTES [COUNT]\n");
    return 2;
  }
  double seconds = atof(argv[2]);
  int row = atoi(argv[3]);
  long count = argc == 5 ? atol(argv[4]) : -1;
  sqlite3 *db;
  check(sqlite3_open(argv[1], &db), db, "open");
  check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                         "CREATE TABLE IF NOT EXISTS entry(id INTEGER PRIMARY KEY, session TEXT, body BLOB)",
                     NULL, NULL, NULL), db, "setup");
  sqlite3_stmt *insert;
  check(sqlite3_prepare_v2(db, "INSERT INTO entry(session, body) VALUES (?1, ?2)", -1, &insert, NULL), db, "prepare");
  char *blob = malloc(row > 0 ? (size_t) row : 1);
  memset(blob, 'x', row > 0 ? (size_t) row : 1);
  long ops = 0;
  double start = now(), cpu0 = cpu();
  while (count >= 0 ? ops < count : now() - start < seconds) {
    check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
    sqlite3_bind_text(insert, 1, "s", 1, SQLITE_STATIC);
    sqlite3_bind_blob(insert, 2, blob, row, SQLITE_STATIC);
    check(sqlite3_step(insert), db, "insert");
    sqlite3_reset(insert);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
    ops++;
  }
  double elapsed = now() - start, used = cpu() - cpu0;
  printf("%.1f %.1f\n", ops / elapsed, ops ? used * 1e6 / ops : 0.0);
  sqlite3_finalize(insert);
  sqlite3_close(db);
  return 0;
}
