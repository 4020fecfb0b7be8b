// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf check: a doctor. One line per finding, each with a fix when
 * something is wrong; exit status 1 when any check failed.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmn-hnf.h"

enum verdict { V_OK, V_INFO, V_WARN, V_FAIL };

struct check_ctx {
	FILE *out;
	int counts[4];
};

__printf(3, 4)
static void say(struct check_ctx *c, enum verdict v, const char *fmt, ...);

static void say(struct check_ctx *c, enum verdict v, const char *fmt, ...)
{
	static const char *const tag[] = { "ok  ", "info", "WARN", "FAIL" };
	va_list ap;

	c->counts[v]++;
	fprintf(c->out, "%s  ", tag[v]);
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fputc('\n', c->out);
}

static void check_usage(FILE *f)
{
	fprintf(f,
		"usage: cmn-hnf check\n"
		"\n"
		"Diagnose why HN-F counting would not work: arm_cmn_hnf PMUs present and\n"
		"sane, module loaded, CMN-600 devices (ARMHC600 / arm,cmn-600) bound to\n"
		"arm_cmn_hnf rather than the upstream arm-cmn driver, perf_event_paranoid\n"
		"and capabilities, perf in PATH, lockdown. One line per finding:\n"
		"ok, info, WARN or FAIL with a fix. Exit status 1 if anything FAILed.\n"
		"\n"
		"  -h, --help    this help\n");
}

static bool path_exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

static void link_base(const char *path, char *buf, size_t len)
{
	char link[CMN_PATH_LEN], *slash;
	ssize_t n;

	buf[0] = '\0';
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	slash = strrchr(link, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : link);
}

static bool is_cmn600_modalias(const char *m)
{
	return strstr(m, "ARMHC600") || strstr(m, "arm,cmn-600");
}

/* Platform devices that firmware describes as CMN-600, and their drivers */
static int check_devices(struct check_ctx *c, int npmu)
{
	char dir[CMN_PATH_LEN], path[CMN_PATH_LEN], alias[512], drv[128];
	struct dirent *de;
	int found = 0, bad = 0;
	DIR *d;

	cmn_sys_path(dir, sizeof(dir), "bus/platform/devices");
	d = opendir(dir);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/modalias", dir,
				 de->d_name);
			if (cmn_read_file(path, alias, sizeof(alias)) < 0 ||
			    !is_cmn600_modalias(alias))
				continue;
			found++;
			snprintf(path, sizeof(path), "%s/%s/driver", dir,
				 de->d_name);
			link_base(path, drv, sizeof(drv));
			if (!drv[0]) {
				say(c, V_WARN,
				    "device %s (CMN-600) has no driver; fix: modprobe arm_cmn_hnf",
				    de->d_name);
			} else if (!strcmp(drv, "arm-cmn")) {
				bad++;
				say(c, V_FAIL,
				    "device %s is bound to the upstream arm-cmn driver; fix: rmmod arm-cmn (add 'blacklist arm-cmn' to /etc/modprobe.d/), then modprobe arm_cmn_hnf",
				    de->d_name);
			} else {
				say(c, V_OK, "device %s (CMN-600) bound to %s",
				    de->d_name, drv);
			}
		}
		closedir(d);
	}

	/* The upstream driver's own view, in case modalias was not readable */
	cmn_sys_path(dir, sizeof(dir), "bus/platform/drivers/arm-cmn");
	d = opendir(dir);
	if (d) {
		while ((de = readdir(d))) {
			struct stat st;

			if (de->d_name[0] == '.' ||
			    (!strchr(de->d_name, ':') && !strchr(de->d_name, '.')))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (lstat(path, &st) || !S_ISLNK(st.st_mode))
				continue;
			snprintf(path, sizeof(path), "%s/%s/modalias", dir,
				 de->d_name);
			if (cmn_read_file(path, alias, sizeof(alias)) >= 0 &&
			    is_cmn600_modalias(alias))
				continue;	/* already reported above */
			bad++;
			say(c, V_FAIL,
			    "arm-cmn drives %s; fix: rmmod arm-cmn (add 'blacklist arm-cmn' to /etc/modprobe.d/), then modprobe arm_cmn_hnf",
			    de->d_name);
		}
		closedir(d);
	}
	if (!found && !npmu)
		say(c, V_FAIL,
		    "no CMN-600 device (ACPI ARMHC600 or DT arm,cmn-600) in %s/bus/platform/devices; fix: firmware must describe the mesh (or use the cmn600 model for tests)",
		    cmn_sysfs_root);
	return bad;
}

/* The driver names its overflow interrupts after the PMU */
static void check_irq(struct check_ctx *c, const char *pmu)
{
	char path[CMN_PATH_LEN], *buf, *line, *save = NULL, *end;
	unsigned long long total = 0;
	int irqs = 0;
	size_t len;

	buf = malloc(1 << 18);
	if (!buf)
		return;
	cmn_proc_path(path, sizeof(path), "interrupts");
	if (cmn_read_file(path, buf, 1 << 18) < 0) {
		free(buf);
		return;
	}
	len = strlen(pmu);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (n < len || strcmp(line + n - len, pmu) ||
		    (n > len && line[n - len - 1] != ' '))
			continue;
		irqs++;
		/* "<irq>: <count per CPU>... <chip> <hwirq> <type> <name>" */
		line = strchr(line, ':');
		while (line && *++line) {
			unsigned long long v = strtoull(line, &end, 10);

			if (end == line || (*end != ' ' && *end))
				break;
			total += v;
			line = end;
		}
	}
	free(buf);
	if (irqs)
		say(c, V_OK, "%s: %d overflow interrupt%s, raised %llu times",
		    pmu, irqs, irqs == 1 ? "" : "s", total);
	else
		say(c, V_WARN,
		    "%s: no overflow interrupt in %s; counts may be lost when a counter wraps",
		    pmu, path);
}

static int check_pmus(struct check_ctx *c, int *npmu)
{
	static const char *const need[] = {
		"eventid", "occupid", "bynodeid", "nodeid", "type",
	};
	struct cmn_pmu *pmus;
	char why[512], path[CMN_PATH_LEN], buf[64];
	int n, i, k, f, missing;
	size_t e;

	pmus = calloc(CMN_MAX_PMUS, sizeof(*pmus));
	if (!pmus)
		return -ENOMEM;
	n = cmn_pmus_scan(pmus, CMN_MAX_PMUS, why, sizeof(why));
	*npmu = n > 0 ? n : 0;
	if (n < 0) {
		say(c, V_FAIL,
		    "no %s<n> PMU: %s; fix: a kernel with perf events, then modprobe arm_cmn_hnf",
		    CMN_PMU_PREFIX, why);
		free(pmus);
		return n;
	}
	if (!n) {
		cmn_sys_path(path, sizeof(path), "bus/event_source/devices");
		say(c, V_FAIL, "no %s<n> PMU in %s; fix: modprobe arm_cmn_hnf (see below)",
		    CMN_PMU_PREFIX, path);
	}
	for (i = 0; i < n; i++) {
		const struct cmn_pmu *p = &pmus[i];

		say(c, V_OK, "%s: %s %s, perf type %d, cpu %s, device %s, %d HN-Fs",
		    p->name, p->have_id ? cmn_part_name(p->part) : "?",
		    p->have_id ? cmn_rev_name(p->part, p->rev) : "?", p->type,
		    p->cpumask[0] ? p->cpumask : "none",
		    p->parent[0] ? p->parent : "unknown", p->topo.nhnf);
		if (!p->have_id)
			say(c, V_WARN,
			    "%s: identifier '%s' is not %%03x%%02x; perf JSON metrics will not match",
			    p->name, p->identifier);
		else if (!*cmn_part_name(p->part))
			say(c, V_WARN, "%s: part 0x%x is not a CMN-600", p->name,
			    p->part);
		if (p->cpu < 0)
			say(c, V_FAIL,
			    "%s: no CPU in cpumask; fix: bring a CPU of the mesh's NUMA node online",
			    p->name);
		missing = 0;
		for (k = 0; k < (int)ARRAY_SIZE(need); k++) {
			for (f = 0; f < p->nfmt; f++)
				if (!strcmp(p->fmt[f].name, need[k]))
					break;
			if (f == p->nfmt) {
				missing++;
				say(c, V_FAIL,
				    "%s: format/%s missing; fix: driver and tool versions differ",
				    p->name, need[k]);
			}
		}
		missing = 0;
		for (e = 0; e < cmn_num_events; e++) {
			snprintf(path, sizeof(path), "%s/events/%s", p->path,
				 cmn_events[e].name);
			if (cmn_read_file(path, buf, sizeof(buf)) < 0)
				missing++;
		}
		if (missing)
			say(c, V_WARN,
			    "%s: %d of %zu event aliases missing from events/ (raw eventid= still works)",
			    p->name, missing, cmn_num_events);
		check_irq(c, p->name);
		if (!p->topo.present)
			say(c, V_WARN, "%s: %s; --per-hnf and the mesh map are unavailable",
			    p->name, p->topo.why);
	}
	free(pmus);
	return 0;
}

static bool has_cap(struct check_ctx *c, int cap)
{
	char path[CMN_PATH_LEN], *buf, *line;
	unsigned long long eff;
	bool ret = false;

	(void)c;
	buf = malloc(8192);
	if (!buf)
		return false;
	cmn_proc_path(path, sizeof(path), "self/status");
	if (cmn_read_file(path, buf, 8192) >= 0) {
		line = strstr(buf, "CapEff:");
		if (line) {
			eff = strtoull(line + 7, NULL, 16);
			ret = (eff >> cap) & 1;
		}
	}
	free(buf);
	return ret;
}

static void check_perms(struct check_ctx *c)
{
	char path[CMN_PATH_LEN];
	bool perfmon = has_cap(c, 38), sysadmin = has_cap(c, 21);
	long para;

	cmn_proc_path(path, sizeof(path), "sys/kernel/perf_event_paranoid");
	if (cmn_read_long(path, &para)) {
		say(c, V_FAIL, "%s missing: the kernel has no perf events (CONFIG_PERF_EVENTS)",
		    path);
		return;
	}
	if (perfmon || sysadmin)
		say(c, V_OK, "perf_event_paranoid=%ld, but this process has %s",
		    para, perfmon ? "CAP_PERFMON" : "CAP_SYS_ADMIN");
	else if (para > 0)
		say(c, V_FAIL,
		    "perf_event_paranoid=%ld and no CAP_PERFMON: system-wide (uncore) counting is refused; fix: sysctl -w kernel.perf_event_paranoid=0, or run as root / with CAP_PERFMON",
		    para);
	else
		say(c, V_OK, "perf_event_paranoid=%ld allows system-wide counting",
		    para);
}

static void check_module(struct check_ctx *c, int npmu)
{
	char path[CMN_PATH_LEN];

	cmn_sys_path(path, sizeof(path), "module/arm_cmn_hnf");
	if (path_exists(path))
		say(c, V_OK, "module arm_cmn_hnf loaded");
	else
		say(c, npmu ? V_INFO : V_FAIL,
		    "module arm_cmn_hnf not loaded%s", npmu ? "" :
		    "; fix: modprobe arm_cmn_hnf (after make install or make dkms-install)");
	cmn_sys_path(path, sizeof(path), "module/arm_cmn");
	if (path_exists(path))
		say(c, V_INFO, "the upstream arm-cmn module is loaded too");
}

static void check_perf(struct check_ctx *c)
{
	char path[CMN_PATH_LEN], *env, *dirs, *dir, *save = NULL;
	bool found = false;

	env = getenv("PATH");
	dirs = strdup(env ? env : "/usr/bin:/bin");
	if (!dirs)
		return;
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/perf", dir);
		found = !access(path, X_OK);
	}
	free(dirs);
	if (found)
		say(c, V_OK, "perf found at %s", path);
	else
		say(c, V_INFO,
		    "perf not in PATH (cmn-hnf stat does not need it; --print-perf output does); fix: apt install linux-perf");
}

static void check_lockdown(struct check_ctx *c)
{
	char path[CMN_PATH_LEN], buf[128];

	cmn_sys_path(path, sizeof(path), "kernel/security/lockdown");
	if (cmn_read_file(path, buf, sizeof(buf)) >= 0)
		say(c, V_INFO,
		    "lockdown: %s (unsigned modules will not load under integrity lockdown / Secure Boot)",
		    buf);
}

int cmd_check(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_ctx c = { .out = out };
	int opt, npmu = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			check_usage(out);
			return 0;
		default:
			check_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		check_usage(stderr);
		return 2;
	}
	check_pmus(&c, &npmu);
	check_module(&c, npmu);
	check_devices(&c, npmu);
	check_perms(&c);
	check_perf(&c);
	check_lockdown(&c);
	fprintf(out, "check: %d ok, %d info, %d warnings, %d failures\n",
		c.counts[V_OK], c.counts[V_INFO], c.counts[V_WARN],
		c.counts[V_FAIL]);
	return c.counts[V_FAIL] ? 1 : 0;
}
