/*
 * An Ethernet link between two network namespaces with the delay, jitter and loss of tc netem,
 * for kernels built without sch_netem: two TAP devices, one in each namespace, and this process
 * carrying frames between them, each after its delay or not at all.
 *
 * Usage: impaired-link NETNS_A DEV_A NETNS_B DEV_B (namespaces by their `ip netns` names). Prints
 * "ready" once both devices exist; the caller addresses them and brings them up. Reads lines
 * "DELAY_MS JITTER_MS LOSS_PERCENT" on stdin, which apply to both directions from then on, as
 * `netem delay DELAY_MS JITTER_MS loss LOSS_PERCENT%` on both ends would (delay uniform within
 * +-jitter, frames kept in order); exits when stdin ends or its parent dies, and the devices
 * vanish with it. Frames beyond LIMIT queued in one direction are dropped, as netem's limit does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

enum { FRAME_MAX = 65536, LIMIT = 1000 };

struct frame {
  struct frame *next;
  int64_t due_ns;
  size_t length;
  unsigned char data[];
};

/* Frames read from one device, waiting for their time to be written to the other. */
struct direction {
  int from, to;
  struct frame *head, *tail;
  int queued;
  int64_t last_due_ns;
};

static double delay_ms, jitter_ms, loss_percent;
static uint64_t rng_state;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* xorshift64*: uniform in [0, 1). */
static double uniform(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static void die(const char *what) {
  fprintf(stderr, "impaired-link: %s: %s\n", what, strerror(errno));
  exit(1);
}

/* Creates TAP device `name` in namespace `netns` and returns its descriptor. */
static int open_tap(const char *netns, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "/run/netns/%s", netns);
  int ns = open(path, O_RDONLY | O_CLOEXEC);
  if (ns < 0) die(path);
  if (setns(ns, CLONE_NEWNET) < 0) die("setns");
  close(ns);
  int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) die("/dev/net/tun");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
  snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) die(name);
  return fd;
}

/* Reads every frame waiting on `d->from`, dropping or queueing each. */
static void take(struct direction *d) {
  unsigned char buffer[FRAME_MAX];
  for (;;) {
    ssize_t n = read(d->from, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    if (uniform() * 100 < loss_percent || d->queued >= LIMIT) continue;
    struct frame *f = malloc(sizeof *f + (size_t)n);
    if (f == NULL) die("malloc");
    double ms = delay_ms + jitter_ms * (2 * uniform() - 1);
    int64_t due = now_ns() + (int64_t)((ms > 0 ? ms : 0) * 1e6);
    /* In order: a frame never overtakes the one read before it. */
    if (due < d->last_due_ns) due = d->last_due_ns;
    d->last_due_ns = due;
    f->next = NULL;
    f->due_ns = due;
    f->length = (size_t)n;
    memcpy(f->data, buffer, (size_t)n);
    if (d->tail) d->tail->next = f;
    else d->head = f;
    d->tail = f;
    d->queued++;
  }
}

/* Writes the frames whose time has come; a device that is down refuses them, as a cut cable. */
static void deliver(struct direction *d, int64_t now) {
  while (d->head && d->head->due_ns <= now) {
    struct frame *f = d->head;
    d->head = f->next;
    if (!d->head) d->tail = NULL;
    d->queued--;
    if (write(d->to, f->data, f->length) < 0 && errno != EIO && errno != EAGAIN) die("write");
    free(f);
  }
}

/* Applies each complete line of settings on stdin; returns 0 once stdin has ended. */
static int read_settings(void) {
  static char line[256];
  static size_t used;
  ssize_t n = read(STDIN_FILENO, line + used, sizeof line - 1 - used);
  if (n < 0 && errno == EINTR) return 1;
  if (n <= 0) return 0;
  used += (size_t)n;
  line[used] = '\0';
  char *end;
  while ((end = strchr(line, '\n')) != NULL) {
    *end = '\0';
    double d, j, l;
    if (sscanf(line, "%lf %lf %lf", &d, &j, &l) == 3) {
      delay_ms = d;
      jitter_ms = j;
      loss_percent = l;
    } else {
      fprintf(stderr, "impaired-link: ignored settings '%s'\n", line);
    }
    used -= (size_t)(end + 1 - line);
    memmove(line, end + 1, used + 1);
  }
  if (used == sizeof line - 1) used = 0;
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: impaired-link NETNS_A DEV_A NETNS_B DEV_B\n");
    return 2;
  }
  pid_t parent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent) return 1;
  if (getrandom(&rng_state, sizeof rng_state, 0) != sizeof rng_state || rng_state == 0) rng_state = 88172645463325252ULL;
  int a = open_tap(argv[1], argv[2]);
  int b = open_tap(argv[3], argv[4]);
  struct direction ab = {.from = a, .to = b}, ba = {.from = b, .to = a};
  printf("ready\n");
  fflush(stdout);
  struct pollfd fds[3] = {{a, POLLIN, 0}, {b, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
  for (;;) {
    int64_t now = now_ns();
    deliver(&ab, now);
    deliver(&ba, now);
    int64_t next = INT64_MAX;
    if (ab.head && ab.head->due_ns < next) next = ab.head->due_ns;
    if (ba.head && ba.head->due_ns < next) next = ba.head->due_ns;
    struct timespec wait = {0, 0}, *timeout = NULL;
    if (next != INT64_MAX) {
      int64_t left = next > now ? next - now : 0;
      wait.tv_sec = left / 1000000000;
      wait.tv_nsec = left % 1000000000;
      timeout = &wait;
    }
    if (ppoll(fds, 3, timeout, NULL) < 0 && errno != EINTR) die("ppoll");
    if (fds[0].revents & POLLIN) take(&ab);
    if (fds[1].revents & POLLIN) take(&ba);
    if (fds[2].revents & (POLLIN | POLLHUP | POLLERR) && !read_settings()) return 0;
  }
}
