// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hostile: guest-side helper of the tests that make the model hostile
 * (race mode, required interrupts, disabled events). Static; libc and the
 * guest helpers of tools/testing/fuzz/guest.c only;
 * every answer is one line on stdout that a busybox script can compare.
 *
 *   cmn-hostile race [-g] -s SECS [-n READS] -m MESH SRC EV [SRC EV]...
 *       The mesh must be in race mode with its clock stopped. Opens EV,
 *       samples the truth of SRC (T0), enables EV, starts the clock
 *       ("free constant"), reads EV in a loop for SECS seconds, four reads
 *       back to back then the truth, stops the clock ("manual") and reads
 *       once more. -n: go on past SECS until READS reads are made, for at
 *       most 8 * SECS seconds in all (a guest the host starves reads
 *       slowly: the run gets longer, its bar stays the same). Prints
 *         reads=<n> secs=<s> over=<n> maxover=<n> nonmono=<n> maxdrop=<n>
 *         final=<count> truth=<T1 - T0>
 *       over: reads above the truth sampled after them (after the four);
 *       nonmono: reads below the previous one.
 *       -g: the EVs form one group (the first leads), enabled at once and
 *       read in one read() (PERF_FORMAT_GROUP); over and nonmono count
 *       member reads, final and truth list the members with a SRC, comma
 *       separated. SRC "-": no truth (the cycle counter), monotonic only;
 *       SRC "<SRC": a bound only (over counted, not in final and truth).
 *
 *   cmn-hostile seq -m MESH EV@SRC... -- OP...
 *       Opens the events disabled and runs OPs in order, the model's clock
 *       being manual: "on:I", "off:I" (ioctl ENABLE/DISABLE of event I),
 *       "step:N" (N cycles; the truth delta of each event's SRC is added to
 *       the event's expected count if the event is enabled), "check:I"
 *       (read event I). Events between a "{" and a "}" word form a group
 *       led by the first (read with PERF_FORMAT_GROUP): "on:I" and "off:I"
 *       of its leader switch the whole group, and "check:I" of its leader
 *       reads the whole group in one read(), one line per member. Every
 *       check prints
 *         check <I> <count> <expected> ok|BAD
 *       and at the end, per event, from the model's counted totals,
 *         hardware <I> leak=<n> gap=<n> ok|BAD
 *       leak: events of SRC some DTM counter counted while the event was
 *       disabled; gap: events of SRC produced while it was enabled that no
 *       counter counted (no other event may count the same SRC).
 *       Exit status 1 if anything was BAD.
 *
 *   cmn-hostile run [-p] EV... -- CMD
 *   cmn-hostile run [-p] [-m MESH] -w SECS EV...
 *       Opens the events (the first one pinned with -p, so perf never
 *       rotates it out), enables them all at once (prctl), runs "sh -c CMD",
 *       disables them all at once and reads them: one line per event,
 *         <raw count> <time enabled> <time running>
 *       With -w, instead of a command: waits 0.5 s for perf to settle,
 *       reads every event, waits SECS seconds, reads them again, then
 *       disables and reads; each line then also has the differences of the
 *       two middle reads (a window away from the start and the end, where
 *       perf reschedules every event as each one is enabled or disabled):
 *         <raw> <enabled> <running> <d raw> <d enabled> <d running>
 *       and a last line with the model's cycles of mesh MESH (default 0)
 *       and those during which its DTC0 counted, from just before the
 *       first of those reads to just after the second:
 *         model <d cycles> <d active cycles>
 *
 *   cmn-hostile wraps -n CYCLES COUNTERS TRUTH0 TRUTH1
 *       Overflow flags a step of CYCLES cycles sets, per DTC, from the
 *       counter registers before it (COUNTERS, a copy of meshN/counters)
 *       and the truth before and after it: the carries of every paired
 *       local counter (value + its source's events) / 2^width added to its
 *       global counter, and the cycle counter of every counting DTC. Only
 *       a flag clear before the step and on a DTC with ovfl_intr_en raises
 *       an interrupt, and a driver that clears each one gets one interrupt
 *       per wrap. Prints "dtc<lid> <wraps that raise an interrupt>".
 *
 *   cmn-hostile regrace -s SECS LOCAL SHIFT GLOBAL SHIFT
 *       Reads a DTM local counter (16 bits at bit SHIFT of the 64-bit
 *       register at physical address LOCAL) and a DTC global counter (32
 *       bits at bit SHIFT of the register at GLOBAL) through /dev/mem in a
 *       loop: global, local, global. Prints
 *         loops=<n> wraps=<n> early=<n> late=<n>
 *       wraps: local wraps seen; late: a wrap seen with both global reads
 *       still without its carry; early: the global counter moved between
 *       the two reads around a local read that had not wrapped yet. With
 *       no late wrap seen by SECS it goes on, for at most 8 * SECS in all
 *       (a starved guest loops slowly).
 *
 * SRC is EVENTID[,OCCUPID|-[,NODEID|*]] (decimal or 0x-hex), the model's
 * truth lines an event counts. EV is PMU:CONFIG as in cmn-perf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

typedef unsigned short u16;

#define MAX_EVENTS	16
#define RACE_BURST	4
#define MAX_DTCS	4
#define NR_GLOBAL	8

static void write_model(const char *file, const char *text)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), G_MODEL "/%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		g_die("cannot open %s: %s", path, strerror(errno));
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		g_die("cannot write '%s' to %s: %s", text, path, strerror(errno));
	close(fd);
}

/* ---- truth ---------------------------------------------------------------- */

struct src {
	int event;
	int occ;	/* -1: every class */
	int node;	/* -1: every HN-F */
};

static void parse_src(struct src *s, const char *text)
{
	char buf[64], *save = NULL, *f;

	snprintf(buf, sizeof(buf), "%s", text);
	s->occ = -1;
	s->node = -1;
	f = strtok_r(buf, ",", &save);
	if (!f)
		g_die("empty source");
	s->event = (int)g_num(f);
	f = strtok_r(NULL, ",", &save);
	if (f && strcmp(f, "-"))
		s->occ = (int)g_num(f);
	f = strtok_r(NULL, ",", &save);
	if (f && strcmp(f, "*"))
		s->node = (int)g_num(f);
}

static char filebuf[1 << 20];

/*
 * Sums of the truth-format lines of @text that each of the @n sources @s
 * selects, in one pass (@sum[i], @matched[i] lines)
 */
static void sum_lines_n(char *text, const struct src *s, int n, u64 *sum,
			int *matched)
{
	char *line, *save = NULL;
	int i;

	for (i = 0; i < n; i++) {
		sum[i] = 0;
		matched[i] = 0;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char node[32], ev[32], occ[32], cnt[32];

		if (sscanf(line, "%31s %31s %31s %31s", node, ev, occ, cnt) != 4)
			continue;
		for (i = 0; i < n; i++) {
			if ((int)strtoul(ev, NULL, 16) != s[i].event)
				continue;
			if (s[i].node >= 0 && (int)strtoul(node, NULL, 16) != s[i].node)
				continue;
			if (s[i].occ >= 0 && (occ[0] == '-' || atoi(occ) != s[i].occ))
				continue;
			sum[i] += strtoull(cnt, NULL, 10);
			matched[i]++;
		}
	}
}

/* Sum of the truth-format lines of @text that @s selects */
static u64 sum_lines(char *text, const struct src *s, int *matched)
{
	u64 sum;

	sum_lines_n(text, s, 1, &sum, matched);
	return sum;
}

/* The model's exact total of @s on mesh @mesh, from @file (truth, counted) */
static u64 model_file_total(int mesh, const char *file, const struct src *s)
{
	char path[256];
	int matched;
	u64 sum;

	snprintf(path, sizeof(path), G_MODEL "/mesh%d/%s", mesh, file);
	if (g_read_file(path, filebuf, sizeof(filebuf)) <= 0)
		g_die("cannot read %s", path);
	sum = sum_lines(filebuf, s, &matched);
	if (!matched)
		g_die("no line for event %d in %s", s->event, path);
	return sum;
}

static u64 model_total(int mesh, const struct src *s)
{
	return model_file_total(mesh, "truth", s);
}

/* The truth of each of the @n sources @s, from one read of the file */
static void model_totals(int mesh, const struct src *s, int n, u64 *sum)
{
	int matched[MAX_EVENTS], i;
	char path[256];

	snprintf(path, sizeof(path), G_MODEL "/mesh%d/truth", mesh);
	if (g_read_file(path, filebuf, sizeof(filebuf)) <= 0)
		g_die("cannot read %s", path);
	sum_lines_n(filebuf, s, n, sum, matched);
	for (i = 0; i < n; i++)
		if (!matched[i])
			g_die("no line for event %d in %s", s[i].event, path);
}

/* ---- events --------------------------------------------------------------- */

struct ev {
	struct perf_event_attr attr;
	char pmu[64];
	struct src src;
	int fd;
	int leader;	/* seq: index of the group's leader, -1: alone */
	int nmemb;	/* seq: members of the group it leads (itself included) */
	bool on;
	u64 expect;
	u64 leak;	/* counted by the hardware while disabled */
	u64 gap;	/* produced, not counted by the hardware while enabled */
};

static int pmu_number(const char *pmu, const char *file)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path), G_PMUS "/%s/%s", pmu, file);
	if (g_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

/* PMU:CONFIG */
static void parse_ev(struct ev *e, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	int type;

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(e->pmu))
		g_die("event '%s' is not PMU:CONFIG", spec);
	memset(e, 0, sizeof(*e));
	memcpy(e->pmu, spec, colon - spec);
	type = pmu_number(e->pmu, "type");
	if (type < 0)
		g_die("no PMU '%s'", e->pmu);
	e->attr.size = sizeof(e->attr);
	e->attr.type = type;
	e->attr.config = g_num(colon + 1);
	e->attr.disabled = 1;
	e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->fd = -1;
}

/* open @e in the group led by @group_fd (-1: alone) */
static void open_group_ev(struct ev *e, int group_fd)
{
	int cpu = pmu_number(e->pmu, "cpumask");

	e->fd = (int)syscall(__NR_perf_event_open, &e->attr, -1, cpu < 0 ? 0 : cpu,
			     group_fd, PERF_FLAG_FD_CLOEXEC);
	if (e->fd < 0)
		g_die("perf_event_open %s:0x%llx: %s", e->pmu, e->attr.config, strerror(errno));
}

static void open_ev(struct ev *e)
{
	open_group_ev(e, -1);
}

static u64 read_ev3(const struct ev *e, u64 *ena, u64 *run)
{
	u64 buf[3];

	if (read(e->fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		g_die("read: %s", strerror(errno));
	*ena = buf[1];
	*run = buf[2];
	return buf[0];
}

static u64 read_ev(const struct ev *e)
{
	u64 ena, run;

	return read_ev3(e, &ena, &run);
}

static void ioctl_ev(const struct ev *e, bool on)
{
	if (ioctl(e->fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0))
		g_die("ioctl: %s", strerror(errno));
}

/* ---- race ----------------------------------------------------------------- */

/* race -g: the group's counts in one read (PERF_FORMAT_GROUP) */
static void read_group(const struct ev *leader, int nev, u64 *val)
{
	u64 buf[1 + MAX_EVENTS];
	ssize_t len = (ssize_t)sizeof(u64) * (1 + nev);
	int i;

	if (read(leader->fd, buf, len) != len)
		g_die("group read: %s", strerror(errno));
	if (buf[0] != (u64)nev)
		g_die("group read: %llu members, not %d", buf[0], nev);
	for (i = 0; i < nev; i++)
		val[i] = buf[1 + i];
}

static void race_read(struct ev *ev, int nev, bool group, u64 *val)
{
	int i;

	if (group) {
		read_group(&ev[0], nev, val);
		return;
	}
	for (i = 0; i < nev; i++)
		val[i] = read_ev(&ev[i]);
}

static int cmd_race(int argc, char **argv)
{
	u64 t0[MAX_EVENTS], t[MAX_EVENTS], prev[MAX_EVENTS] = {}, c[MAX_EVENTS];
	u64 reads = 0, over = 0, maxover = 0, nonmono = 0, maxdrop = 0;
	static u64 burst[RACE_BURST][MAX_EVENTS];
	bool truth[MAX_EVENTS], exact[MAX_EVENTS], group = false;
	struct ev ev[MAX_EVENTS];
	struct src src[MAX_EVENTS];
	const char *sep;
	double secs = 0, start, now;
	u64 minreads = 0;
	int mesh = 0, opt, nev, i;
	unsigned int k;

	while ((opt = getopt(argc, argv, "gs:n:m:")) != -1) {
		if (opt == 'g')
			group = true;
		else if (opt == 's')
			secs = strtod(optarg, NULL);
		else if (opt == 'n')
			minreads = g_num(optarg);
		else if (opt == 'm')
			mesh = (int)g_num(optarg);
		else
			g_die("race: [-g] -s SECS [-n READS] -m MESH SRC EV [SRC EV]...");
	}
	nev = (argc - optind) / 2;
	if ((argc - optind) % 2 || nev < 1 || nev > MAX_EVENTS || secs <= 0 ||
	    (nev > 1 && !group))
		g_die("race: [-g] -s SECS [-n READS] -m MESH SRC EV [SRC EV]...");
	for (i = 0; i < nev; i++) {
		const char *text = argv[optind + 2 * i];

		truth[i] = strcmp(text, "-");
		exact[i] = truth[i] && text[0] != '<';
		if (truth[i])
			parse_src(&src[i], text + !exact[i]);
		parse_ev(&ev[i], argv[optind + 2 * i + 1]);
		if (group) {
			ev[i].attr.read_format = PERF_FORMAT_GROUP;
			ev[i].attr.disabled = !i;
		}
		open_group_ev(&ev[i], group && i ? ev[0].fd : -1);
	}
	/* the members without a truth count the first source again, unused */
	for (i = 0; i < nev; i++)
		if (!truth[i])
			src[i] = src[0];
	if (!truth[0])
		g_die("race: the first event needs a source");
	model_totals(mesh, src, nev, t0);
	if (ioctl(ev[0].fd, PERF_EVENT_IOC_ENABLE, group ? PERF_IOC_FLAG_GROUP : 0))
		g_die("ioctl: %s", strerror(errno));
	write_model("clock", "free constant");
	start = g_now();
	for (now = start; now < start + 8 * secs &&
	     (now < start + secs || reads < minreads); now = g_now()) {
		/* back-to-back reads, then the truth that bounds them all */
		for (k = 0; k < RACE_BURST; k++)
			race_read(ev, nev, group, burst[k]);
		model_totals(mesh, src, nev, t);
		for (i = 0; i < nev; i++)
			t[i] -= t0[i];
		for (k = 0; k < RACE_BURST; k++) {
			reads++;
			for (i = 0; i < nev; i++) {
				u64 v = burst[k][i];

				if (v < prev[i]) {
					nonmono++;
					if (prev[i] - v > maxdrop)
						maxdrop = prev[i] - v;
				}
				if (truth[i] && v > t[i]) {
					over++;
					if (v - t[i] > maxover)
						maxover = v - t[i];
				}
				prev[i] = v;
			}
		}
	}
	/* the race threads deliver every carry in flight before they stop */
	write_model("clock", "manual");
	race_read(ev, nev, group, c);
	model_totals(mesh, src, nev, t);
	printf("reads=%llu secs=%.1f over=%llu maxover=%llu nonmono=%llu maxdrop=%llu ",
	       reads, now - start, over, maxover, nonmono, maxdrop);
	/* final and truth: the members that have a truth, in order */
	printf("final=");
	for (i = 0, sep = ""; i < nev; i++)
		if (exact[i]) {
			printf("%s%llu", sep, c[i]);
			sep = ",";
		}
	printf(" truth=");
	for (i = 0, sep = ""; i < nev; i++)
		if (exact[i]) {
			printf("%s%llu", sep, t[i] - t0[i]);
			sep = ",";
		}
	printf("\n");
	for (i = nev - 1; i >= 0; i--)
		close(ev[i].fd);
	return 0;
}

/* ---- seq ------------------------------------------------------------------ */

/* seq: switch event @k, or the group it leads, on or off */
static void seq_switch(struct ev *ev, int nev, int k, bool on)
{
	int j;

	if (ev[k].nmemb) {
		if (ioctl(ev[k].fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
			  PERF_IOC_FLAG_GROUP))
			g_die("ioctl: %s", strerror(errno));
		for (j = k; j < nev; j++)
			if (j == k || ev[j].leader == k)
				ev[j].on = on;
		return;
	}
	ioctl_ev(&ev[k], on);
	ev[k].on = on;
}

/* seq: read event @k, or the group it leads in one read(); print each */
static int seq_check(struct ev *ev, int k)
{
	u64 val[MAX_EVENTS];
	int j, n = ev[k].nmemb ? ev[k].nmemb : 1, bad = 0;

	if (ev[k].nmemb)
		read_group(&ev[k], n, val);
	else
		val[0] = read_ev(&ev[k]);
	for (j = 0; j < n; j++) {
		const struct ev *e = &ev[k + j];

		printf("check %d %llu %llu %s\n", k + j, val[j], e->expect,
		       val[j] == e->expect ? "ok" : "BAD");
		bad |= val[j] != e->expect;
	}
	return bad;
}

static int cmd_seq(int argc, char **argv)
{
	struct ev ev[MAX_EVENTS];
	int mesh = 0, nev = 0, i, bad = 0, lead = -1;
	bool in_group = false;
	u64 before[MAX_EVENTS], cbefore[MAX_EVENTS];

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		char spec[160], *at;

		if (!strcmp(argv[i], "-m") && i + 1 < argc) {
			mesh = (int)g_num(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "{") || !strcmp(argv[i], "}")) {
			if (in_group == (argv[i][0] == '{'))
				g_die("seq: unbalanced '%s'", argv[i]);
			in_group = argv[i][0] == '{';
			lead = -1;
			continue;
		}
		if (nev == MAX_EVENTS)
			g_die("seq: too many events");
		snprintf(spec, sizeof(spec), "%s", argv[i]);
		at = strchr(spec, '@');
		if (!at)
			g_die("seq: event '%s' is not EV@SRC", argv[i]);
		*at = '\0';
		parse_ev(&ev[nev], spec);
		parse_src(&ev[nev].src, at + 1);
		ev[nev].leader = -1;
		if (in_group && lead < 0) {
			/* a group leader: read whole, members follow it */
			lead = nev;
			ev[nev].attr.read_format = PERF_FORMAT_GROUP;
			ev[nev].nmemb = 1;
			open_ev(&ev[nev]);
		} else if (in_group) {
			ev[nev].leader = lead;
			ev[nev].attr.disabled = 0;
			ev[lead].nmemb++;
			open_group_ev(&ev[nev], ev[lead].fd);
		} else {
			open_ev(&ev[nev]);
		}
		nev++;
	}
	if (in_group)
		g_die("seq: a '{' without its '}'");
	if (i == argc || !nev)
		g_die("seq: [-m MESH] EV@SRC... -- OP...");
	for (i++; i < argc; i++) {
		const char *op = argv[i], *arg = strchr(op, ':');
		unsigned int k;
		u64 v;

		if (!arg)
			g_die("seq: bad op '%s'", op);
		v = g_num(arg + 1);
		k = (unsigned int)v;
		if (!strncmp(op, "step:", 5)) {
			char text[32];

			for (k = 0; k < (unsigned int)nev; k++) {
				before[k] = model_total(mesh, &ev[k].src);
				cbefore[k] = model_file_total(mesh, "counted", &ev[k].src);
			}
			snprintf(text, sizeof(text), "%llu", v);
			write_model("step", text);
			for (k = 0; k < (unsigned int)nev; k++) {
				u64 t = model_total(mesh, &ev[k].src) - before[k];
				u64 c = model_file_total(mesh, "counted", &ev[k].src) - cbefore[k];

				if (ev[k].on) {
					ev[k].expect += t;
					ev[k].gap += t - c;
				} else {
					ev[k].leak += c;
				}
			}
			continue;
		}
		if (k >= (unsigned int)nev)
			g_die("seq: no event %u", k);
		if (ev[k].leader >= 0)
			g_die("seq: event %u is a group member: use its leader", k);
		if (!strncmp(op, "on:", 3))
			seq_switch(ev, nev, k, true);
		else if (!strncmp(op, "off:", 4))
			seq_switch(ev, nev, k, false);
		else if (!strncmp(op, "check:", 6))
			bad |= seq_check(ev, k);
		else
			g_die("seq: bad op '%s'", op);
	}
	for (i = 0; i < nev; i++) {
		printf("hardware %d leak=%llu gap=%llu %s\n", i, ev[i].leak, ev[i].gap,
		       ev[i].leak || ev[i].gap ? "BAD" : "ok");
		bad |= ev[i].leak || ev[i].gap;
		close(ev[i].fd);
	}
	return bad;
}

/* ---- run ------------------------------------------------------------------ */

/* The mesh's cycles and DTC0's active cycles (model time) */
static void model_time(int mesh, u64 *cycles, u64 *active)
{
	char path[256], *p;

	snprintf(path, sizeof(path), G_MODEL "/mesh%d/cycles", mesh);
	if (g_read_file(path, filebuf, sizeof(filebuf)) <= 0)
		g_die("cannot read %s", path);
	*cycles = g_num(filebuf);
	snprintf(path, sizeof(path), G_MODEL "/mesh%d/counters", mesh);
	if (g_read_file(path, filebuf, sizeof(filebuf)) <= 0)
		g_die("cannot read %s", path);
	p = strstr(filebuf, "active_cycles=");
	if (strncmp(filebuf, "dtc 0 ", 6) || !p)
		g_die("no active_cycles of DTC0 in %s", path);
	*active = strtoull(p + strlen("active_cycles="), NULL, 10);
}

static void read_all(struct ev *ev, int nev, u64 (*r)[3])
{
	int i;

	for (i = 0; i < nev; i++)
		r[i][0] = read_ev3(&ev[i], &r[i][1], &r[i][2]);
}

static int cmd_run(int argc, char **argv)
{
	static u64 r1[MAX_EVENTS][3], r2[MAX_EVENTS][3], rf[MAX_EVENTS][3];
	struct ev ev[MAX_EVENTS];
	u64 c1 = 0, a1 = 0, c2 = 0, a2 = 0;
	double wait = -1;
	bool pin = false;
	int nev = 0, i, st = 0, mesh = 0;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-p")) {
			pin = true;
			continue;
		}
		if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			wait = strtod(argv[++i], NULL);
			continue;
		}
		if (!strcmp(argv[i], "-m") && i + 1 < argc) {
			mesh = (int)g_num(argv[++i]);
			continue;
		}
		if (nev == MAX_EVENTS)
			g_die("run: too many events");
		parse_ev(&ev[nev], argv[i]);
		ev[nev].attr.pinned = pin && nev == 0;
		open_ev(&ev[nev]);
		nev++;
	}
	if (!nev || (wait < 0 && i + 1 >= argc) || (wait >= 0 && i < argc))
		g_die("run: [-p] EV... -- CMD, or run [-p] [-m MESH] -w SECS EV...");
	if (prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0))
		g_die("prctl enable: %s", strerror(errno));
	if (wait < 0) {
		st = system(argv[i + 1]);
	} else {
		usleep(500000);
		model_time(mesh, &c1, &a1);
		read_all(ev, nev, r1);
		usleep((useconds_t)(wait * 1e6));
		read_all(ev, nev, r2);
		model_time(mesh, &c2, &a2);
	}
	if (prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0))
		g_die("prctl disable: %s", strerror(errno));
	if (st)
		fprintf(stderr, "cmn-hostile: command exited with status %d\n", st);
	read_all(ev, nev, rf);
	for (i = 0; i < nev; i++) {
		printf("%llu %llu %llu", rf[i][0], rf[i][1], rf[i][2]);
		if (wait >= 0)
			printf(" %llu %llu %llu", r2[i][0] - r1[i][0], r2[i][1] - r1[i][1],
			       r2[i][2] - r1[i][2]);
		printf("\n");
		close(ev[i].fd);
	}
	if (wait >= 0)
		printf("model %llu %llu\n", c2 - c1, a2 - a1);
	return 0;
}

/* ---- wraps ---------------------------------------------------------------- */

/* A truth file, parsed: one entry per line */
struct tline {
	unsigned int node, event;
	int occ;
	u64 count;
};

/* the truth lines of CMN-600's most HN-Fs, 36 each */
#define MAX_TLINES	(128 * 36)

static unsigned int parse_truth(const char *path, struct tline *t)
{
	char *line, *save = NULL;
	unsigned int n = 0;

	if (g_read_file(path, filebuf, sizeof(filebuf)) <= 0)
		g_die("cannot read %s", path);
	for (line = strtok_r(filebuf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char node[32], ev[32], occ[32], cnt[32];

		if (sscanf(line, "%31s %31s %31s %31s", node, ev, occ, cnt) != 4)
			continue;
		if (n == MAX_TLINES)
			g_die("%s: too many lines", path);
		t[n].node = (unsigned int)strtoul(node, NULL, 16);
		t[n].event = (unsigned int)strtoul(ev, NULL, 16);
		t[n].occ = occ[0] == '-' ? -1 : atoi(occ);
		t[n].count = strtoull(cnt, NULL, 10);
		n++;
	}
	return n;
}

static struct tline tl0[MAX_TLINES], tl1[MAX_TLINES];
static unsigned int ntl0, ntl1;

static G_NORETURN void no_line(unsigned int node, unsigned int event, int occ)
{
	g_die("wraps: no truth line for node 0x%x event 0x%x class %d", node, event, occ);
}

static u64 tlookup(const struct tline *t, unsigned int n, unsigned int node,
		   unsigned int event, int occ)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i].node == node && t[i].event == event && t[i].occ == occ)
			return t[i].count;
	no_line(node, event, occ);
}

/* Events of one source between the two truth files */
static u64 src_delta(const char *node, const char *event, const char *occ)
{
	unsigned int nd = (unsigned int)strtoul(node, NULL, 16);
	unsigned int ev = (unsigned int)strtoul(event, NULL, 16);
	int oc = occ[0] == '-' ? -1 : atoi(occ);

	return tlookup(tl1, ntl1, nd, ev, oc) - tlookup(tl0, ntl0, nd, ev, oc);
}

static int cmd_wraps(int argc, char **argv)
{
	u64 gval[MAX_DTCS][NR_GLOBAL] = { }, carries[MAX_DTCS][NR_GLOBAL] = { };
	u64 cyc[MAX_DTCS] = { }, ovs[MAX_DTCS] = { }, cycles = 0;
	bool present[MAX_DTCS] = { }, active[MAX_DTCS] = { }, intr[MAX_DTCS] = { };
	static char counters[1 << 20];
	char *line, *save = NULL;
	unsigned int d, g;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			g_die("wraps: -n CYCLES COUNTERS TRUTH0 TRUTH1");
		cycles = g_num(optarg);
	}
	if (optind + 3 != argc)
		g_die("wraps: -n CYCLES COUNTERS TRUTH0 TRUTH1");
	ntl0 = parse_truth(argv[optind + 1], tl0);
	ntl1 = parse_truth(argv[optind + 2], tl1);
	if (g_read_file(argv[optind], counters, sizeof(counters)) <= 0)
		g_die("wraps: cannot read %s", argv[optind]);
	for (line = strtok_r(counters, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char node[32], event[32], occ[32], glob[32], gl[160];
		unsigned int x, y, n, width, a, i;
		int act, in;
		u64 v, ov, inc, room;

		if (sscanf(line,
			   "dtc %u addr=%*x irq=%*d active=%d intr=%d active_cycles=%*s pmovsr=%llx cycles=%llu global=%159s",
			   &d, &act, &in, &ov, &v, gl) == 6) {
			char *gs = NULL, *f;

			if (d >= MAX_DTCS)
				g_die("wraps: dtc %u", d);
			present[d] = true;
			active[d] = act;
			intr[d] = in;
			ovs[d] = ov;
			cyc[d] = v;
			for (g = 0, f = strtok_r(gl, ",", &gs); f && g < NR_GLOBAL;
			     g++, f = strtok_r(NULL, ",", &gs))
				gval[d][g] = g_num(f);
			continue;
		}
		if (sscanf(line, "ctr %u %u %*x %u %u %llu %u %31s %31s %31s %31s", &x, &y, &n,
			   &width, &v, &a, glob, node, event, occ) != 10)
			g_die("wraps: bad counters line '%s'", line);
		if (glob[0] == '-' || node[0] == '-' || width >= 64)
			continue;
		g = (unsigned int)g_num(glob);
		if (a >= MAX_DTCS || g >= NR_GLOBAL)
			g_die("wraps: bad counters line '%s'", line);
		inc = src_delta(node, event, occ);
		/* carries of a counter at v after inc events: (v + inc) >> width */
		room = (1ULL << width) - v;
		if (inc >= room) {
			i = width;
			carries[a][g] += 1 + ((inc - room) >> i);
		}
		(void)x;
		(void)y;
		(void)n;
	}
	for (d = 0; d < MAX_DTCS; d++) {
		u64 raised = 0, w;

		if (!present[d])
			continue;
		if (active[d] && intr[d]) {
			for (g = 0; g < NR_GLOBAL; g++) {
				/* carries into a 32-bit counter holding gval */
				w = (gval[d][g] + carries[d][g]) >> 32;
				if (!(ovs[d] & (1ULL << g)))
					raised += w;
			}
			w = (cyc[d] + cycles) >> 40;
			if (!(ovs[d] & (1ULL << 8)))
				raised += w;
		}
		printf("dtc%u %llu\n", d, raised);
	}
	return 0;
}

/* ---- regrace -------------------------------------------------------------- */

static const u64 *map_reg(int fd, u64 addr)
{
	long page = sysconf(_SC_PAGESIZE);
	u64 base = addr & ~(u64)(page - 1);
	void *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, (off_t)base);

	if (p == MAP_FAILED)
		g_die("mmap /dev/mem at 0x%llx: %s", base, strerror(errno));
	return (const u64 *)((char *)p + (addr - base));
}

/* One 64-bit load from a device register, never merged or cached */
static u64 reg_load(const u64 *r)
{
	return __atomic_load_n(r, __ATOMIC_RELAXED);
}

static int cmd_regrace(int argc, char **argv)
{
	const u64 *lr, *gr;
	unsigned int ls, gs;
	u64 loops = 0, wraps = 0, early = 0, late = 0;
	u32 g1, g2, pg = 0;
	u16 l, pl = 0;
	double secs, start, now;
	bool first = true;
	int fd;

	if (argc != 6 || strcmp(argv[0], "-s"))
		g_die("regrace -s SECS LOCAL SHIFT GLOBAL SHIFT");
	secs = strtod(argv[1], NULL);
	fd = open("/dev/mem", O_RDONLY | O_SYNC);
	if (fd < 0)
		g_die("/dev/mem: %s", strerror(errno));
	lr = map_reg(fd, g_num(argv[2]));
	ls = (unsigned int)g_num(argv[3]);
	gr = map_reg(fd, g_num(argv[4]));
	gs = (unsigned int)g_num(argv[5]);
	start = g_now();
	for (now = start; now < start + 8 * secs &&
	     (now < start + secs || !late); now = g_now()) {
		unsigned int i;

		for (i = 0; i < 4096; i++) {
			g1 = (u32)(reg_load(gr) >> gs);
			l = (u16)(reg_load(lr) >> ls);
			g2 = (u32)(reg_load(gr) >> gs);
			loops++;
			if (!first && l < pl) {
				wraps++;
				if (g1 == pg && g2 == pg)
					late++;
			}
			if (!first && l >= pl && g1 != g2)
				early++;
			first = false;
			pl = l;
			pg = g2;
		}
	}
	printf("loops=%llu wraps=%llu early=%llu late=%llu\n", loops, wraps, early, late);
	return 0;
}

int main(int argc, char **argv)
{
	g_prog = "cmn-hostile";
	if (argc < 2)
		g_die("usage: cmn-hostile race|seq|run|wraps|regrace ...");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "race"))
		return cmd_race(argc - 1, argv + 1);
	if (!strcmp(argv[1], "seq"))
		return cmd_seq(argc - 2, argv + 2);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "wraps"))
		return cmd_wraps(argc - 1, argv + 1);
	if (!strcmp(argv[1], "regrace"))
		return cmd_regrace(argc - 2, argv + 2);
	g_die("unknown command '%s'", argv[1]);
}
