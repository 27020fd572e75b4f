/*
 * An LD_PRELOAD shim for the benchmark's "fsync dominates" figure (scripts/bench.sh): every
 * fsync and fdatasync of the process first sleeps SLOW_FSYNC_US microseconds (default 2000),
 * as on a disk whose cache flush takes that long. The sleep costs no CPU, and the real call
 * still runs, so durability is unchanged. navsim and the naive writer run under the same shim.
 *
 *   cc -O2 -shared -fPIC -o slow_fsync.so slow_fsync.c -ldl
 *   LD_PRELOAD=./slow_fsync.so SLOW_FSYNC_US=2000 program …
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void flush_delay(void) {
  static long us = -1;
  if (us < 0) {
    const char *text = getenv("SLOW_FSYNC_US");
    us = text ? atol(text) : 2000;
  }
  struct timespec t = {us / 1000000, (us % 1000000) * 1000};
  while (nanosleep(&t, &t) != 0) {
  }
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int)) dlsym(RTLD_NEXT, "fsync");
  flush_delay();
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int)) dlsym(RTLD_NEXT, "fdatasync");
  flush_delay();
  return real(fd);
}
