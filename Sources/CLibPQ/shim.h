/*
 * CLibPQ: PostgreSQL's client library (pkg-config `libpq`, Debian's libpq-dev) as a Clang module.
 *
 * pkg-config gives -I/usr/include/postgresql, where <libpq-fe.h> lives. Everything the
 * PostgreSQL target calls is a plain (non-variadic) C function, so nothing else is needed here.
 */
#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif /* CLIBPQ_SHIM_H */
