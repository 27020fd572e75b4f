/*
 * The benchmark's anchor for reads (scripts/bench.sh): libmicrohttpd 0.9.75 with nothing on top.
 *
 *   raw_mhd PORT HEALTHZ_FILE SESSION_FILE
 *
 * Same daemon flags, pool and connection options as `navsim serve` (AUTO_INTERNAL_THREAD | ITC |
 * ERROR_LOG | ALLOW_SUSPEND_RESUME, 8 pool threads, 4096 connections, 256 per IP address, 16 KiB
 * per connection (navsim's default: libmicrohttpd zeroes the pool after every request, so
 * the limit is work per request and both servers must have the same), 30 s idle timeout), loopback only: the transport settings, so that both
 * servers' libmicrohttpd does the same work. navsim's other options are its own features and
 * their cost is navsim's: NOTIFY_COMPLETED (request state), NOTIFY_CONNECTION (header and
 * request deadlines), UNESCAPE_CALLBACK (it decodes paths itself), EXTERNAL_LOGGER. `GET /healthz` answers HEALTHZ_FILE's bytes,
 * any other GET the bytes of SESSION_FILE (what navsim answered for the session), each with the
 * same headers navsim sends. `POST /echo` answers the body it was sent (a copy): the floor of a
 * write's HTTP side for scripts/bench/instructions.py. A reply is created per request, as navsim does, from the loaded bytes
 * without a copy (MHD_RESPMEM_PERSISTENT; navsim lends its cached bytes the same way, through a
 * free callback), so the anchor does no work navsim skips.
 * Runs until SIGTERM/SIGINT.
 */
#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct body { char *bytes; size_t size; };
static struct body healthz, session;

/* The body of the POST being read. A connection stays on one pool thread, so a thread-local
   buffer needs neither a lock nor a NOTIFY_COMPLETED callback to free it. */
static __thread char echo_body[65536];
static __thread size_t echo_size;

static int load(const char *path, struct body *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  out->bytes = malloc(n > 0 ? (size_t) n : 1);
  out->size = fread(out->bytes, 1, (size_t) n, f);
  fclose(f);
  return 0;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls) {
  (void) cls; (void) version;
  static int marker;
  int is_echo = strcmp(method, "POST") == 0 && strcmp(url, "/echo") == 0;
  if (strcmp(method, "GET") != 0 && !is_echo) return MHD_NO;
  /* Answer on the second call, as navsim does: a reply queued on the first (headers-only) call
     makes libmicrohttpd 0.9.75 close the connection instead of keeping it alive. */
  if (*req_cls == NULL) {
    *req_cls = &marker;
    echo_size = 0;
    return MHD_YES;
  }
  if (is_echo) {
    if (*upload_data_size != 0) {
      if (*upload_data_size > sizeof echo_body - echo_size) return MHD_NO;
      memcpy(echo_body + echo_size, upload_data, *upload_data_size);
      echo_size += *upload_data_size;
      *upload_data_size = 0;
      return MHD_YES;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(echo_size, echo_body, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "application/json");
    enum MHD_Result ret = MHD_queue_response(connection, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
  }
  *upload_data_size = 0;
  int is_health = strcmp(url, "/healthz") == 0;
  struct body *b = is_health ? &healthz : &session;
  struct MHD_Response *r = MHD_create_response_from_buffer(b->size, b->bytes, MHD_RESPMEM_PERSISTENT);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", "application/json");
  if (!is_health) {
    MHD_add_response_header(r, "ETag", "\"10\"");
    MHD_add_response_header(r, "Vary", "Accept");
  }
  enum MHD_Result ret = MHD_queue_response(connection, MHD_HTTP_OK, r);
  MHD_destroy_response(r);
  return ret;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: raw_mhd PORT HEALTHZ_FILE SESSION_FILE\n");
    return 2;
  }
  if (load(argv[2], &healthz) || load(argv[3], &session)) {
    perror("raw_mhd: reading a body file");
    return 1;
  }
  /* SIGTERM and SIGINT blocked before libmicrohttpd starts its threads (they inherit the mask)
     and taken with sigwait: a handler might run on one of those threads and leave pause() in
     this one waiting, which happens under valgrind. */
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t) atoi(argv[1]));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME,
      (uint16_t) atoi(argv[1]),
      NULL, NULL, answer, NULL,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &address,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned int) 8,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned int) 4096,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int) 256,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 30,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) (16 * 1024),
      MHD_OPTION_END);
  if (!d) {
    fprintf(stderr, "raw_mhd: cannot start on port %s\n", argv[1]);
    return 1;
  }
  int sig;
  sigwait(&stop_signals, &sig);
  MHD_stop_daemon(d);
  return 0;
}
