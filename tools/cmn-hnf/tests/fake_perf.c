// SPDX-License-Identifier: GPL-2.0
/*
 * A fake arm_cmn_hnf PMU behind cmn_perf_ops, for the unit tests and for
 * cmn-hnf-fake, the tool linked with it (screen tests under tmux).
 *
 * Every read of a group advances each member by its rate (fake_rate())
 * times the time it ran: HN-F groups run half the time (so counts must be
 * scaled back), the cycle counter all the time. Per-HN-F events are
 * weighted by the HN-F's place in hnfs_3x3 of the tests (lid + 1), those
 * of other node ids (the shipped meshes of the screen tests) 1 to 9.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "fake_perf.h"

struct fake_ev fev[FAKE_MAX];
int nfev;
bool fake_no_groups;
int fake_max_group;	/* events per group the "driver" takes, 0: any */
bool fake_cycles_error;	/* the pinned dtc_cycles is in error state */
int fake_run_permille = 500;	/* time HN-F groups run, per 1000 */
bool fake_wave;		/* rates that change from read to read */
int fake_type1 = 10;	/* attr.type of the second mesh */
int fake_open_errno;	/* non-zero: every open fails with it */
/*
 * Every HN-F event counts 1000 x eventid + 100 x occupid per read at full
 * time, so that a count tells which encoding was opened
 */
bool fake_rate_by_config;
/* the next @fake_lag_reads reads (-1: all) each take @fake_read_lag s */
double fake_read_lag;
int fake_lag_reads;
static double fake_lag;		/* how far fake_now() is ahead of the clock */

static int fake_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	if (fake_open_errno)
		return -fake_open_errno;
	if (nfev == FAKE_MAX)
		return -EMFILE;
	if (fake_no_groups && group_fd >= 0)
		return -EINVAL;
	if (fake_max_group && group_fd >= 0) {
		int j, members = 0;

		for (j = 0; j < nfev; j++)
			if (!fev[j].closed && fev[j].leader == group_fd - FAKE_FD)
				members++;
		if (members >= fake_max_group)
			return -EINVAL;
	}
	fev[nfev].attr = *attr;
	fev[nfev].closed = false;
	fev[nfev].cpu = cpu;
	fev[nfev].leader = group_fd >= 0 ? group_fd - FAKE_FD : nfev;
	fev[nfev].val = 0;
	fev[nfev].ena = 0;
	fev[nfev].run = 0;
	fev[nfev].reads = 0;
	return FAKE_FD + nfev++;
}

/* Events per read at full time */
static uint64_t fake_rate(const struct fake_ev *e)
{
	uint64_t c = e->attr.config;
	unsigned int id = c & 0xff, type = (c >> 32) & 0xf;
	uint64_t r, w = 1;

	if (type == 3)
		return 100000;
	if (fake_rate_by_config)
		return 1000 * id + 100 * ((c >> 8) & 0xf);
	switch (id) {
	case 0x01:
		r = e->attr.type == (unsigned int)fake_type1 ? 750 : 250;
		break;
	case 0x02:
		r = 1000;
		break;
	case 0x04:
		r = 50;
		break;
	case 0x05:
		r = 1000;
		break;
	case 0x06:
		r = 300;
		break;
	case 0x0c:
		r = 10;
		break;
	case 0x0d:
		r = 400;
		break;
	case 0x0e:
		r = 6;
		break;
	case 0x0f:
		r = 20000;
		break;
	case 0x18:
		r = 2000;
		break;
	case 0x19:
		r = 30;
		break;
	case 0x1a:
		r = 20;
		break;
	default:
		r = 0;
	}
	/* per HN-F: weight lid + 1 (node ids of hnfs_3x3 in order) */
	if (c & (1 << 12)) {
		switch ((c >> 16) & 0xffff) {
		case 0x08:
			w = 1;
			break;
		case 0x28:
			w = 2;
			break;
		case 0x48:
			w = 3;
			break;
		case 0x4d:
			w = 4;
			break;
		default:
			/* other meshes (the screen tests): 1 to 9 by node id */
			w = 1 + (((c >> 16 & 0xffff) * 2654435761U) >> 16) % 9;
		}
	}
	if (fake_wave && r) {
		/* a slow wave, with a phase per event and per HN-F */
		double k = 1.0 + 0.7 * sin(e->reads * 0.3 + id * 0.9 + w * 1.3);

		r = (uint64_t)(r * k);
	}
	return r * w;
}

static long fake_read(int fd, void *buf, size_t len)
{
	uint64_t *out = buf, run;
	int i = fd - FAKE_FD, j, n = 0;

	if (i < 0 || i >= nfev || fev[i].leader != i)
		return -1;
	if (fake_lag_reads) {
		fake_lag += fake_read_lag;
		if (fake_lag_reads > 0)
			fake_lag_reads--;
	}
	/* perf returns 0 bytes for a pinned event it could not schedule */
	if (fake_cycles_error && (fev[i].attr.config >> 32) == 3)
		return 0;
	/* the cycle counter is never multiplexed, HN-F groups run half the time */
	run = (fev[i].attr.config >> 32) == 3 ? 1000 : fake_run_permille;
	for (j = i; j < nfev; j++) {
		if (fev[j].leader != i)
			continue;
		if ((size_t)(3 + n + 1) * 8 > len)
			return -1;
		fev[j].ena += 1000;
		fev[j].run += run;
		fev[j].val += fake_rate(&fev[j]) * run / 1000;
		fev[j].reads++;
		out[3 + n++] = fev[j].val;
	}
	out[0] = n;
	out[1] = fev[i].ena;
	out[2] = fev[i].run;
	return (3 + n) * 8;
}

static int fake_enable(int fd)
{
	return fd >= FAKE_FD ? 0 : -1;
}

static void fake_close(int fd)
{
	if (fd >= FAKE_FD && fd < FAKE_FD + nfev)
		fev[fd - FAKE_FD].closed = true;
}

/* Counted events (read at least once) of the group led by event @i */
int fake_members(int i)
{
	int j, n = 0;

	for (j = 0; j < nfev; j++)
		if (fev[j].ena && fev[j].leader == i)
			n++;
	return n;
}

/* The counted event with @config on PMU @type after @after, or -1 */
int fake_find(unsigned int type, uint64_t config, int after)
{
	int j;

	for (j = after + 1; j < nfev; j++)
		if (fev[j].ena && fev[j].attr.type == type &&
		    fev[j].attr.config == config)
			return j;
	return -1;
}

/* CLOCK_MONOTONIC, plus the time the lagging reads took */
static double fake_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9 + fake_lag;
}

const struct cmn_perf_ops fake_ops = {
	.open = fake_open,
	.read = fake_read,
	.enable = fake_enable,
	.close = fake_close,
	.now = fake_now,
};
