/*
 * The native spawn host: starts solver processes for the Node process that owns it and relays
 * their standard streams, as spawn-host.program.mjs does, at a fraction of the cost.
 *
 * Why native: Node forks even from a small process, and forking a V8 process costs CPU on every
 * solver; this host's fork is cheap, and it sets the solver's parent-death signal itself instead
 * of exec'ing setpriv first (docs/farm.md#how-it-works has the figures).
 *
 * Usage: satfarm-spawn-host OWNER_PID. Frames on stdin (owner -> host) and stdout (host ->
 * owner), all integers little-endian:
 *   u32 payload length, u8 op, u32 id, payload
 * owner -> host: 1 spawn (payload: u32 argc, argv as NUL-terminated strings, argv[0] looked up
 *                in PATH, then the first input, acknowledged by nothing) | 2 stdin (bytes) |
 *                3 stdin-end | 4 spawn-with-input (as spawn; the input ends after the first)
 * host -> owner: 1 ready | 2 spawned (u32 pid) | 3 spawn-error (errno name NUL message) |
 *                4 stdin-ack | 5 stdout (bytes) | 6 stderr (bytes) | 7 exit |
 *                8 close (i32 exit code or -1, i32 signal number or 0, u32 peak resident
 *                set in KiB, u32 CPU time in ms, user and system: the solver's rusage from wait4)
 * Frames to the owner are gathered and written once per turn of the loop: every write wakes the
 * owner, and on a virtual machine a wake-up costs more than the frame. A whole small formula
 * travels in the spawn frame, so a trivial solve is one write each way and a final one back.
 * Each solver leads its own session (so its process group), dies with this host (parent-death
 * signal), and is reaped here. When the owner goes away (stdin ends) every group is killed.
 * Signals go from the owner straight to the process group; the host only spawns, relays, reaps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

enum { IN_SPAWN = 1, IN_STDIN = 2, IN_STDIN_END = 3, IN_SPAWN_WITH_INPUT = 4 };
enum {
  OUT_READY = 1,
  OUT_SPAWNED = 2,
  OUT_SPAWN_ERROR = 3,
  OUT_STDIN_ACK = 4,
  OUT_STDOUT = 5,
  OUT_STDERR = 6,
  OUT_EXIT = 7,
  OUT_CLOSE = 8
};
enum { HEADER = 9, RELAY_CHUNK = 65536 };

struct child {
  uint32_t id;
  pid_t pid;
  int in_fd, out_fd, err_fd; /* -1 once closed */
  char *pending;             /* input not yet taken by the solver's pipe */
  size_t pending_len, pending_off;
  int end_after_pending;
  int ack_pending; /* whether the owner waits for `stdin-ack` of the pending input */
  int exited, status, closed;
  uint32_t maxrss_kib, cpu_ms; /* from the rusage of its reaping */
  struct child *next;
};

static struct child *children;
static pid_t self;

static void die(const char *what) {
  fprintf(stderr, "satfarm-spawn-host: %s: %s\n", what, strerror(errno));
  for (struct child *c = children; c != NULL; c = c->next)
    if (!c->exited) kill(-c->pid, SIGKILL);
  exit(1);
}

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

static uint32_t saturate_u32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

static uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Frames for the owner, written by flush() once per turn of the loop. */
static unsigned char *outbuf;
static size_t out_len, out_cap;

static void emit(int op, uint32_t id, const void *payload, size_t len) {
  if (out_cap - out_len < HEADER + len) {
    out_cap = (out_len + HEADER + len) * 2;
    outbuf = realloc(outbuf, out_cap);
    if (outbuf == NULL) die("realloc");
  }
  unsigned char *at = outbuf + out_len;
  put_u32(at, (uint32_t)len);
  at[4] = (unsigned char)op;
  put_u32(at + 5, id);
  if (len > 0) memcpy(at + HEADER, payload, len);
  out_len += HEADER + len;
}

static void owner_gone(void);

/* Blocking write to the owner: its back-pressure reaches the solvers' pipes. */
static void flush(void) {
  size_t done = 0;
  while (done < out_len) {
    ssize_t n = write(STDOUT_FILENO, outbuf + done, out_len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      /* The owner exited before reading its last frames (a CLI done with its report): the same
       * quiet end as when its pipe closes, not an error to print on its terminal. Node's stdio
       * is a socket pair, where unread data closed under the writer is a reset, not EPIPE. */
      if (errno == EPIPE || errno == ECONNRESET) owner_gone();
      out_len = 0;
      die("writing to the owner");
    }
    done += (size_t)n;
  }
  out_len = 0;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

static void drop_input(struct child *c) {
  free(c->pending);
  c->pending = NULL;
  c->pending_len = c->pending_off = 0;
  close_fd(&c->in_fd);
}

/* `close` once the solver has exited and both of its output pipes have ended. */
static void maybe_close(struct child *c) {
  if (c->closed || !c->exited || c->out_fd >= 0 || c->err_fd >= 0) return;
  int waiting = c->pending != NULL && c->ack_pending;
  drop_input(c);
  if (waiting) emit(OUT_STDIN_ACK, c->id, NULL, 0);
  unsigned char payload[16];
  int code = WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1;
  int sig = WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0;
  put_u32(payload, (uint32_t)code);
  put_u32(payload + 4, (uint32_t)sig);
  put_u32(payload + 8, c->maxrss_kib);
  put_u32(payload + 12, c->cpu_ms);
  emit(OUT_CLOSE, c->id, payload, sizeof payload);
  c->closed = 1;
}

static struct child *find_id(uint32_t id) {
  for (struct child *c = children; c != NULL; c = c->next)
    if (c->id == id && !c->closed) return c;
  return NULL;
}

static void set_nonblocking(int fd, int on) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) die("fcntl");
  flags = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
  if (fcntl(fd, F_SETFL, flags) < 0) die("fcntl");
}

static void spawn_error(uint32_t id, int err) {
  const char *name = strerrorname_np(err);
  const char *text = strerror(err);
  char payload[512];
  int n = snprintf(payload, sizeof payload, "%s%c%s", name != NULL ? name : "EUNKNOWN", '\0', text);
  emit(OUT_SPAWN_ERROR, id, payload, n < 0 ? 0 : (size_t)n < sizeof payload ? (size_t)n : sizeof payload - 1);
}

static void start_input(struct child *c, const char *data, size_t len, int ack);

static void spawn_child(uint32_t id, char *payload, size_t len, int input_ends) {
  uint32_t argc = len >= 4 ? get_u32((unsigned char *)payload) : 0;
  char **argv = calloc((size_t)argc + 1, sizeof *argv);
  if (argv == NULL) die("calloc");
  char *p = payload + 4, *end = payload + len;
  for (uint32_t i = 0; i < argc; i++) {
    char *nul = p < end ? memchr(p, '\0', (size_t)(end - p)) : NULL;
    if (nul == NULL) break;
    argv[i] = p;
    p = nul + 1;
  }
  if (argc == 0 || argv[argc - 1] == NULL) {
    free(argv);
    spawn_error(id, EINVAL);
    return;
  }

  int in[2], out[2], err[2], report[2];
  if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
      pipe2(report, O_CLOEXEC) < 0)
    die("pipe2");
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    int fds[] = {in[0], in[1], out[0], out[1], err[0], err[1], report[0], report[1]};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) close(fds[i]);
    free(argv);
    spawn_error(id, e);
    return;
  }
  if (pid == 0) {
    /* The solver: its own session, dead with this host, default signal state, piped stdio. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != self) _exit(127); /* this host died before the line above */
    if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0 ||
        dup2(err[1], STDERR_FILENO) < 0) {
      int e = errno;
      (void)!write(report[1], &e, sizeof e);
      _exit(127);
    }
    execvp(argv[0], argv);
    int e = errno;
    (void)!write(report[1], &e, sizeof e);
    _exit(127);
  }
  free(argv);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  close(report[1]);
  /* The report pipe closes on a successful exec, or carries the errno of a failed one. */
  int e = 0;
  ssize_t n;
  do n = read(report[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == (ssize_t)sizeof e) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    spawn_error(id, e);
    return;
  }
  struct child *c = calloc(1, sizeof *c);
  if (c == NULL) die("calloc");
  c->id = id;
  c->pid = pid;
  c->in_fd = in[1];
  c->out_fd = out[0];
  c->err_fd = err[0];
  set_nonblocking(c->in_fd, 1);
  set_nonblocking(c->out_fd, 1);
  set_nonblocking(c->err_fd, 1);
  c->next = children;
  children = c;
  unsigned char payload_pid[4];
  put_u32(payload_pid, (uint32_t)pid);
  emit(OUT_SPAWNED, id, payload_pid, sizeof payload_pid);
  if (input_ends) c->end_after_pending = 1;
  start_input(c, p, (size_t)(end - p), 0);
}

/* Writes what the solver's pipe takes now; the owner hears `stdin-ack` once all is taken. */
static void flush_input(struct child *c) {
  while (c->pending != NULL && c->pending_off < c->pending_len) {
    ssize_t n = write(c->in_fd, c->pending + c->pending_off, c->pending_len - c->pending_off);
    if (n > 0) {
      c->pending_off += (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    /* EPIPE: the solver stopped reading (it may exit before taking all of its input). */
    int ack = c->ack_pending;
    drop_input(c);
    if (ack) emit(OUT_STDIN_ACK, c->id, NULL, 0);
    return;
  }
  if (c->pending != NULL) {
    free(c->pending);
    c->pending = NULL;
    c->pending_len = c->pending_off = 0;
    if (c->ack_pending) emit(OUT_STDIN_ACK, c->id, NULL, 0);
  }
  if (c->end_after_pending) close_fd(&c->in_fd);
}

static void start_input(struct child *c, const char *data, size_t len, int ack) {
  if (len > 0) {
    c->pending = malloc(len);
    if (c->pending == NULL) die("malloc");
    memcpy(c->pending, data, len);
    c->pending_len = len;
    c->pending_off = 0;
  }
  c->ack_pending = ack;
  if (c->pending == NULL && ack) emit(OUT_STDIN_ACK, c->id, NULL, 0);
  flush_input(c);
}

static void take_input(uint32_t id, const char *data, size_t len) {
  struct child *c = find_id(id);
  if (c == NULL || c->in_fd < 0 || c->pending != NULL) {
    emit(OUT_STDIN_ACK, id, NULL, 0);
    return;
  }
  start_input(c, data, len, 1);
}

static void end_input(uint32_t id) {
  struct child *c = find_id(id);
  if (c == NULL) return;
  if (c->pending != NULL) c->end_after_pending = 1;
  else close_fd(&c->in_fd);
}

/* One read per turn of the loop, so what a turn gathers for the owner stays bounded. */
static void relay(struct child *c, int *fd, int op) {
  static char buf[RELAY_CHUNK];
  ssize_t n;
  do n = read(*fd, buf, sizeof buf);
  while (n < 0 && errno == EINTR);
  if (n > 0) {
    emit(op, c->id, buf, (size_t)n);
    return;
  }
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  close_fd(fd); /* end of output (or an error, which ends it too) */
  maybe_close(c);
}

static void reap(void) {
  for (;;) {
    int status;
    struct rusage ru;
    pid_t pid = wait4(-1, &status, WNOHANG, &ru);
    if (pid <= 0) return;
    for (struct child *c = children; c != NULL; c = c->next) {
      if (c->pid != pid || c->exited) continue;
      c->exited = 1;
      c->status = status;
      c->maxrss_kib = saturate_u32((uint64_t)ru.ru_maxrss); /* KiB on Linux */
      c->cpu_ms = saturate_u32(((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000 +
                               ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) / 1000);
      /* Anything the leader left in its group goes with it. */
      kill(-pid, SIGKILL);
      emit(OUT_EXIT, c->id, NULL, 0);
      maybe_close(c);
      break;
    }
  }
}

static void sweep_closed(void) {
  struct child **link = &children;
  while (*link != NULL) {
    struct child *c = *link;
    if (c->closed) {
      *link = c->next;
      free(c);
    } else {
      link = &c->next;
    }
  }
}

static void owner_gone(void) {
  out_len = 0;
  for (struct child *c = children; c != NULL; c = c->next)
    if (!c->exited) kill(-c->pid, SIGKILL);
  exit(0);
}

/* Frames from the owner, as complete frames arrive. */
static unsigned char *inbuf;
static size_t in_len, in_cap;

static void read_owner(void) {
  if (in_cap - in_len < RELAY_CHUNK) {
    in_cap = in_cap * 2 + RELAY_CHUNK;
    inbuf = realloc(inbuf, in_cap);
    if (inbuf == NULL) die("realloc");
  }
  ssize_t n = read(STDIN_FILENO, inbuf + in_len, in_cap - in_len);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) owner_gone();
  in_len += (size_t)n;
  size_t at = 0;
  while (in_len - at >= HEADER) {
    uint32_t len = get_u32(inbuf + at);
    if (in_len - at < HEADER + (size_t)len) break;
    int op = inbuf[at + 4];
    uint32_t id = get_u32(inbuf + at + 5);
    char *payload = (char *)inbuf + at + HEADER;
    switch (op) {
      case IN_SPAWN:
      case IN_SPAWN_WITH_INPUT:
        spawn_child(id, payload, len, op == IN_SPAWN_WITH_INPUT);
        break;
      case IN_STDIN:
        take_input(id, payload, len);
        break;
      case IN_STDIN_END:
        end_input(id);
        break;
      default:
        fprintf(stderr, "satfarm-spawn-host: unknown op %d\n", op);
        owner_gone();
    }
    at += HEADER + len;
  }
  memmove(inbuf, inbuf + at, in_len - at);
  in_len -= at;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: satfarm-spawn-host OWNER_PID\n");
    return 2;
  }
  self = getpid();
  /* Dead with the owner, even by SIGKILL; and not started at all if it is already gone. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != (pid_t)atol(argv[1])) return 0;
  signal(SIGPIPE, SIG_IGN);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &chld, NULL) < 0) die("sigprocmask");
  int sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sigfd < 0) die("signalfd");
  set_nonblocking(STDIN_FILENO, 0);
  set_nonblocking(STDOUT_FILENO, 0);
  emit(OUT_READY, 0, NULL, 0);
  flush();

  struct pollfd *fds = NULL;
  struct child **who = NULL;
  size_t cap = 0;
  for (;;) {
    size_t count = 0;
    for (struct child *c = children; c != NULL; c = c->next) count += 3;
    if (count + 2 > cap) {
      cap = (count + 2) * 2;
      fds = realloc(fds, cap * sizeof *fds);
      who = realloc(who, cap * sizeof *who);
      if (fds == NULL || who == NULL) die("realloc");
    }
    size_t n = 0;
    fds[n] = (struct pollfd){STDIN_FILENO, POLLIN, 0};
    who[n++] = NULL;
    fds[n] = (struct pollfd){sigfd, POLLIN, 0};
    who[n++] = NULL;
    for (struct child *c = children; c != NULL; c = c->next) {
      if (c->out_fd >= 0) fds[n] = (struct pollfd){c->out_fd, POLLIN, 0}, who[n++] = c;
      if (c->err_fd >= 0) fds[n] = (struct pollfd){c->err_fd, POLLIN, 0}, who[n++] = c;
      if (c->in_fd >= 0 && c->pending != NULL) fds[n] = (struct pollfd){c->in_fd, POLLOUT, 0}, who[n++] = c;
    }
    flush();
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    /* Output first, so a solver's last words precede its `close`. */
    for (size_t i = 2; i < n; i++) {
      struct child *c = who[i];
      if (fds[i].revents == 0 || c->closed) continue;
      if (fds[i].fd == c->out_fd) relay(c, &c->out_fd, OUT_STDOUT);
      else if (fds[i].fd == c->err_fd) relay(c, &c->err_fd, OUT_STDERR);
      else if (fds[i].fd == c->in_fd) flush_input(c);
    }
    if (fds[1].revents != 0) {
      struct signalfd_siginfo info;
      while (read(sigfd, &info, sizeof info) == (ssize_t)sizeof info) {
      }
      reap();
    }
    if (fds[0].revents != 0) read_owner();
    sweep_closed();
  }
}
