/*
 * CSQLite: the system SQLite (pkg-config `sqlite3`, libsqlite3-dev) as a Clang module.
 *
 * Swift imports <sqlite3.h> directly; this header only adds what Swift cannot call itself.
 * `static inline` functions here are compiled by Clang when Swift imports the module, so no
 * separate C target is needed (GRDB's GRDBSQLite/shim.h does the same).
 */
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/*
 * sqlite3_db_config() is variadic, and Swift cannot call C variadic functions.
 * This covers the options whose arguments are `int, int*` (e.g. SQLITE_DBCONFIG_DQS_DML).
 */
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif /* CSQLITE_SHIM_H */
