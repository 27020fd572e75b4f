/* Does the installed libmicrohttpd let a 304 go out without `Content-Length: 0`?
 * RFC 9110 §8.6: a 304 carries Content-Length only if it equals the 200's length.
 * Serves three 304s on 127.0.0.1:PORT and prints each reply's head:
 *   /plain    an empty buffer response (what navsim queues),
 *   /length   MHD_RF_INSANITY_HEADER_CONTENT_LENGTH and Content-Length: 8000 (the 200's length),
 *   /unknown  a callback response of MHD_SIZE_UNKNOWN.
 * Build: cc -O2 -o /tmp/mhd_304_length scripts/probes/mhd_304_length.c -lmicrohttpd
 * Exit status 0 when every reply is free of a wrong Content-Length, 1 otherwise. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static ssize_t none(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)cls; (void)pos; (void)buf; (void)max;
  return MHD_CONTENT_READER_END_OF_STREAM;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *size, void **state) {
  (void)cls; (void)method; (void)version; (void)upload; (void)size;
  if (*state == NULL) { *state = (void *)1; return MHD_YES; }  /* answer in the last call, as navsim */
  struct MHD_Response *r = strcmp(url, "/unknown") == 0
      ? MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, none, NULL, NULL)
      : MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
  if (strcmp(url, "/length") == 0) {
    MHD_set_response_options(r, MHD_RF_INSANITY_HEADER_CONTENT_LENGTH, MHD_RO_END);
    MHD_add_response_header(r, "Content-Length", "8000");
  }
  MHD_add_response_header(r, "ETag", "\"1\"");
  enum MHD_Result q = MHD_queue_response(c, MHD_HTTP_NOT_MODIFIED, r);
  MHD_destroy_response(r);
  return q;
}

int main(void) {
  struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, handle, NULL,
                                          MHD_OPTION_END);
  if (d == NULL) return 2;
  uint16_t port = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT)->port;
  printf("libmicrohttpd %s\n", MHD_get_version());
  const char *paths[] = {"/plain", "/length", "/unknown"};
  int wrong = 0;
  for (int i = 0; i < 3; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) return 2;
    char req[128], buf[2048];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", paths[i]);
    send(fd, req, (size_t)n, 0);
    size_t got = 0;
    ssize_t k;
    while (got < sizeof buf - 1 && (k = recv(fd, buf + got, sizeof buf - 1 - got, 0)) > 0) got += (size_t)k;
    buf[got] = 0;
    close(fd);
    printf("--- %s\n%s", paths[i], buf);
    if (strstr(buf, "Content-Length: 0") || strstr(buf, "Transfer-Encoding")) wrong = 1;
  }
  MHD_stop_daemon(d);
  return wrong;
}
