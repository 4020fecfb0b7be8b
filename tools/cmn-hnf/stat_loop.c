// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat and top: the interval loop.
 *
 * Signals (SIGINT, SIGTERM, SIGCHLD, SIGWINCH) are turned into bytes on a
 * pipe, and the loop waits in poll(2) on that pipe (and on the terminal
 * for top) with the time left to the end of the interval: a command that
 * exits, a ^C or a key ends the wait at once, with no race between a
 * check and a sleep.
 *
 * The command after -- is started before the counters are enabled and
 * waits on a pipe until they are; a second, close-on-exec pipe tells
 * whether execvp() failed, so that a command that cannot run is an error
 * with no counts, as in perf.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stat.h"

static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	unsigned char b = (unsigned char)sig;
	int saved = errno;

	/* a full pipe already holds a wake-up: nothing is lost */
	if (write(sig_pipe[1], &b, 1) < 0)
		b = 0;
	errno = saved;
}

static const int st_sigs[] = { SIGINT, SIGTERM, SIGCHLD, SIGWINCH, SIGHUP };

static int signals_install(void)
{
	struct sigaction sa;
	size_t i;

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(st_sigs); i++)
		sigaction(st_sigs[i], &sa, NULL);
	return 0;
}

void st_signals_block_default(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < ARRAY_SIZE(st_sigs); i++)
		sigaction(st_sigs[i], &sa, NULL);
	if (sig_pipe[0] >= 0) {
		close(sig_pipe[0]);
		close(sig_pipe[1]);
		sig_pipe[0] = -1;
		sig_pipe[1] = -1;
	}
}

struct child {
	pid_t pid;
	int go;			/* write end: let it exec */
	int err;		/* read end: errno of a failed exec */
	int status;
	bool done;
};

static int child_start(struct st_ctx *c, struct child *ch)
{
	int go[2], err[2], e;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		e = -errno;
		close(go[0]);
		close(go[1]);
		return e;
	}
	ch->pid = fork();
	if (ch->pid < 0) {
		e = -errno;
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return e;
	}
	if (!ch->pid) {
		char b;

		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGWINCH, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* wait until the counters run; EOF means cmn-hnf gave up */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		execvp(c->o.cmd[0], c->o.cmd);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	ch->go = go[1];
	ch->err = err[0];
	return 0;
}

/* Let the command run; 0 once it is exec'd, else its errno */
static int child_go(struct child *ch)
{
	int e = 0;
	ssize_t n;

	if (write(ch->go, "g", 1) != 1)
		e = errno;
	close(ch->go);
	ch->go = -1;
	do {
		n = read(ch->err, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(ch->err);
	ch->err = -1;
	return n == sizeof(e) ? e : 0;
}

static void child_reap(struct child *ch, bool block)
{
	pid_t r;

	if (ch->pid <= 0 || ch->done)
		return;
	do {
		r = waitpid(ch->pid, &ch->status, block ? 0 : WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == ch->pid || (r < 0 && errno == ECHILD))
		ch->done = true;
}

/* The exit status of cmn-hnf for the command's wait status */
static int child_exit_status(const struct child *ch)
{
	if (WIFEXITED(ch->status))
		return WEXITSTATUS(ch->status);
	if (WIFSIGNALED(ch->status))
		return 128 + WTERMSIG(ch->status);
	return 1;
}

/* Drain the signal pipe: what happened since the last look */
struct events {
	bool stop;
	bool chld;
	bool winch;
	int stop_sig;
};

static void drain(struct events *ev)
{
	unsigned char b[32];
	ssize_t n, i;

	while ((n = read(sig_pipe[0], b, sizeof(b))) > 0) {
		for (i = 0; i < n; i++) {
			if (b[i] == SIGCHLD) {
				ev->chld = true;
			} else if (b[i] == SIGWINCH) {
				ev->winch = true;
			} else {
				ev->stop = true;
				ev->stop_sig = b[i];
			}
		}
	}
}

int st_run(struct st_ctx *c, const struct st_hooks *hooks)
{
	struct child ch = { .pid = -1, .go = -1, .err = -1 };
	struct events ev = { 0 };
	struct pollfd pfd[2];
	double t0, last, now, deadline;
	struct st_frame f;
	bool end = false;
	int ret = 0, e, timeout, stop_sig = 0;
	long n;

	ret = st_open_all(c);
	if (ret)
		return ret;
	if (signals_install()) {
		st_close_all(c);
		return 1;
	}
	if (c->o.cmd) {
		e = child_start(c, &ch);
		if (e) {
			fprintf(stderr, "%s: cannot start '%s': %s\n", cmn_prog,
				c->o.cmd[0], strerror(-e));
			ret = 1;
			goto out;
		}
	}
	st_enable_all(c);
	if (st_read_start(c, c->o.interval_ms ? c->o.interval_ms / 1000.0 : 1.0)) {
		ret = 1;
		goto out;
	}
	t0 = st_now();
	last = t0;
	deadline = t0;
	if (ch.pid > 0) {
		e = child_go(&ch);
		if (e) {
			/* perf: "Workload failed"; no counts for no workload */
			/* stat sleep 1: a word that is no metric runs; a typo too */
			fprintf(stderr, "%s: cannot run '%s': %s%s\n", cmn_prog,
				c->o.cmd[0], strerror(e), e == ENOENT &&
				!strchr(c->o.cmd[0], '/') ?
				" (nor is it a metric or group: see cmn-hnf list)" : "");
			child_reap(&ch, true);
			ret = e == ENOENT ? 127 : 126;
			goto out;
		}
	}
	for (n = 0; !end; n++) {
		deadline += (c->o.interval_ms ? c->o.interval_ms : 1000) / 1000.0;
		/* wait for the end of the interval, the command, a signal */
		for (;;) {
			drain(&ev);
			if (ev.chld) {
				ev.chld = false;
				child_reap(&ch, false);
			}
			if (ev.winch && hooks && hooks->resize) {
				ev.winch = false;
				hooks->resize(c, hooks->arg);
			}
			if (ev.stop) {
				if (ch.pid > 0 && !ch.done)
					kill(ch.pid, ev.stop_sig);
				stop_sig = ev.stop_sig;
				end = true;
				break;
			}
			if (ch.pid > 0 && ch.done) {
				end = true;
				break;
			}
			now = st_now();
			/* with a command and no -I: count while it runs */
			if (!(ch.pid > 0 && !c->o.interval_ms) && now >= deadline)
				break;
			timeout = ch.pid > 0 && !c->o.interval_ms ? -1 :
				  (int)ceil((deadline - now) * 1000.0);
			pfd[0] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
			pfd[1] = (struct pollfd){ .fd = hooks ? hooks->fd : -1,
						  .events = POLLIN };
			if (poll(pfd, 2, timeout) > 0 &&
			    (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    hooks && hooks->input && !hooks->input(c, hooks->arg)) {
				end = true;
				break;
			}
		}
		now = st_now();
		if (st_read_all(c, now - last)) {
			ret = 1;
			goto out;
		}
		memset(&f, 0, sizeof(f));
		f.time = now - t0;
		f.seconds = now - last;
		f.epoch = cmn_epoch_now();
		f.index = n + 1;
		if (st_frame_build(c, &f)) {
			ret = 1;
			goto out;
		}
		if (hooks && hooks->frame) {
			if (!hooks->frame(c, &f, hooks->arg))
				end = true;
		} else {
			st_report(c, &f);
		}
		if (c->o.prom) {
			e = st_write_prom(c, &f, c->o.prom);
			if (e) {
				fprintf(stderr, "%s: --prometheus %s: %s\n",
					cmn_prog, c->o.prom, strerror(-e));
				ret = 1;
				st_frame_free(&f);
				goto out;
			}
		}
		st_frame_free(&f);
		last = now;
		if (!c->o.interval_ms)
			break;
		if (c->o.count && n + 1 >= c->o.count)
			break;
	}
out:
	if (ch.pid > 0 && !ch.done) {
		/* -n intervals are over before the command: end it, as perf */
		if (!ret && !stop_sig)
			c->child_killed = true;
		kill(ch.pid, SIGTERM);
	}
	if (ch.pid > 0)
		child_reap(&ch, true);
	if (ch.go >= 0)
		close(ch.go);
	if (ch.err >= 0)
		close(ch.err);
	st_close_all(c);
	st_signals_block_default();
	/*
	 * Stopped by ^C or SIGTERM while the command ran: 128 + the signal,
	 * whether or not the command, which got it too, was reaped yet.
	 */
	if (!ret && ch.pid > 0 && stop_sig)
		ret = 128 + stop_sig;
	else if (!ret && ch.pid > 0 && !c->child_killed)
		ret = child_exit_status(&ch);
	return ret;
}
