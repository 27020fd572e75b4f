/*
 * libmicrohttpd 0.9.75 as Swift sees it.
 *
 * Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_daemon_info) nor
 * implement a va_list logger, so those few calls live here as static inline wrappers
 * (GRDB's shim.h trick). Clang compiles them when Swift imports
 * the module, so no separate C target is needed.
 */
#ifndef NAVSIM_CMICROHTTPD_SHIM_H
#define NAVSIM_CMICROHTTPD_SHIM_H

#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Everything MHD_start_daemon needs, as plain fields Swift can fill. */
struct mhd_shim_config {
  unsigned int flags;
  uint16_t port;
  const struct sockaddr_in *address;   /* bound via MHD_OPTION_SOCK_ADDR; read during start only */
  unsigned int thread_pool_size;       /* <= 1: one internal polling thread, no pool */
  unsigned int connection_timeout;     /* seconds */
  unsigned int connection_limit;
  unsigned int per_ip_connection_limit; /* 0: none */
  size_t connection_memory_limit;      /* bytes */
  MHD_NotifyConnectionCallback notify_connection; /* NULL: none */
  void *notify_connection_cls;
  int listen_fd;                       /* >= 0: a socket already listening (MHD_OPTION_LISTEN_SOCKET), else bind address */
};

/*
 * Error log. Messages go to stderr (what MHD_USE_ERROR_LOG does by default), except those
 * logged by the thread that called MHD_start_daemon: they are kept in `start_errors` instead,
 * so a failed start (bind: address in use, ...) is reported once, by the caller, with MHD's
 * own reason.
 * `starter` is written once before the daemon exists and only read afterwards, and only the
 * starter thread writes `start_errors`, so the struct needs no lock.
 */
struct mhd_shim_log {
  pthread_t starter;
  size_t used;
  char start_errors[512];
};

/*
 * One of libmicrohttpd's messages as a JSON line on stderr, like every other line the server
 * writes ({"time":…,"level":"warning","message":"libmicrohttpd: …"}), in one write(2) so that
 * it is never interleaved with another thread's line.
 */
static inline void
mhd_shim_log_json(const char *text)
{
  char out[1400];
  struct timespec now;
  struct tm utc;
  clock_gettime(CLOCK_REALTIME, &now);
  gmtime_r(&now.tv_sec, &utc);
  size_t n = strftime(out, sizeof out, "{\"time\":\"%Y-%m-%dT%H:%M:%S", &utc);
  n += (size_t) snprintf(out + n, sizeof out - n, ".%03ldZ\",\"level\":\"warning\",\"message\":\"libmicrohttpd: ",
                         (long) (now.tv_nsec / 1000000));
  for (const unsigned char *c = (const unsigned char *) text; *c && n < sizeof out - 16; c++) {
    if (*c == '\n' || *c == '\r') {
      if (c[1] == '\0') break;          /* the message's own line end */
      out[n++] = ' ';
    } else if (*c == '"' || *c == '\\') {
      out[n++] = '\\';
      out[n++] = (char) *c;
    } else if (*c < 0x20) {
      n += (size_t) snprintf(out + n, sizeof out - n, "\\u%04x", *c);
    } else {
      out[n++] = (char) *c;
    }
  }
  out[n++] = '"';
  out[n++] = '}';
  out[n++] = '\n';
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(STDERR_FILENO, out + done, n - done);
    if (w <= 0) return;                 /* logging never stops a request */
    done += (size_t) w;
  }
}

static inline void
mhd_shim_logger(void *cls, const char *format, va_list ap)
{
  struct mhd_shim_log *log = (struct mhd_shim_log *) cls;
  char line[512];
  int n = vsnprintf(line, sizeof line, format, ap);
  if (n < 0)
    return;
  if (log == NULL || !pthread_equal(pthread_self(), log->starter)) {
    mhd_shim_log_json(line);
    return;
  }
  size_t len = strlen(line);
  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    line[--len] = '\0';
  if (len == 0)
    return;
  size_t room = sizeof log->start_errors - log->used;
  if (room <= 3)
    return;
  if (log->used > 0) {
    memcpy(log->start_errors + log->used, "; ", 2);
    log->used += 2;
    room -= 2;
  }
  if (len >= room)
    len = room - 1;
  memcpy(log->start_errors + log->used, line, len);
  log->used += len;
  log->start_errors[log->used] = '\0';
}

/*
 * Leave URL and query text as received: the Swift side percent-decodes it, so that "%00"
 * and invalid UTF-8 cannot truncate or corrupt the C string (MHD's default unescaper
 * decodes in place). MHD still turns '+' into ' ' in query arguments before this is called.
 */
static inline size_t
mhd_shim_keep_escapes(void *cls, struct MHD_Connection *connection, char *s)
{
  (void) cls;
  (void) connection;
  return strlen(s);
}

static inline struct MHD_Daemon *
mhd_shim_start(const struct mhd_shim_config *c,
               struct mhd_shim_log *log,
               MHD_AccessHandlerCallback handler, void *handler_cls,
               MHD_RequestCompletedCallback completed, void *completed_cls)
{
  struct MHD_OptionItem ops[12];
  int n = 0;
  log->starter = pthread_self();
  log->used = 0;
  log->start_errors[0] = '\0';
  /* Two-pointer options: function in .value (as intptr_t), closure in .ptr_value. */
  if (c->thread_pool_size > 1)
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t) c->thread_pool_size, NULL };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) c->connection_timeout, NULL };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t) c->connection_limit, NULL };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t) c->per_ip_connection_limit, NULL };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) c->connection_memory_limit, NULL };
  if (c->listen_fd >= 0)
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, (intptr_t) c->listen_fd, NULL };
  else
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *) c->address };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) &mhd_shim_keep_escapes, NULL };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_cls };
  if (c->notify_connection != NULL)
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) c->notify_connection, c->notify_connection_cls };
  ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
  /* The logger must be the very first option (not inside the array), else MHD warns and
     logs whatever comes before it through its default logger. */
  return MHD_start_daemon(c->flags, c->port, NULL, NULL, handler, handler_cls,
                          MHD_OPTION_EXTERNAL_LOGGER, &mhd_shim_logger, (void *) log,
                          MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

/* The port actually bound (useful when 0 asked for an ephemeral one); 0 if unknown. */
static inline uint16_t
mhd_shim_bind_port(struct MHD_Daemon *daemon)
{
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info != NULL ? info->port : 0;
}

/* The socket of a connection (MHD_CONNECTION_INFO_CONNECTION_FD); -1 if unknown. */
static inline int
mhd_shim_connection_fd(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info != NULL ? info->connect_fd : -1;
}

/* What MHD_OPTION_NOTIFY_CONNECTION stored for this connection
   (MHD_CONNECTION_INFO_SOCKET_CONTEXT); NULL if none. */
static inline void *
mhd_shim_socket_context(struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info != NULL ? info->socket_context : NULL;
}

/* The connection's peer address as text (inet_ntop: "127.0.0.1", "::1") in `out`, NUL-ended;
   the text's length, or 0 when unknown (not IPv4 or IPv6). */
static inline size_t
mhd_shim_client_address(struct MHD_Connection *connection, char *out, size_t size)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL || size == 0)
    return 0;
  const struct sockaddr *address = info->client_addr;
  const char *text = NULL;
  if (address->sa_family == AF_INET)
    text = inet_ntop(AF_INET, &((const struct sockaddr_in *) address)->sin_addr, out, (socklen_t) size);
  else if (address->sa_family == AF_INET6)
    text = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) address)->sin6_addr, out, (socklen_t) size);
  return text != NULL ? strlen(out) : 0;
}

#endif
