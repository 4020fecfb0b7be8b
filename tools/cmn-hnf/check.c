// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf check: a doctor. One line per finding, each with a fix when
 * something is wrong; exit status 1 when any check failed.
 */
#include <dirent.h>
#include <errno.h>
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

static bool path_exists(const char *p)
{
	struct stat st;

	return !stat(p, &st);
}

/*
 * The upstream arm_cmn driver keeps the device it takes (no unbind), so
 * the fix depends on how it is built. Both ways it has /sys/module/arm_cmn
 * (a built-in driver still gets one for its drivers/ link); only a
 * loadable module has initstate.
 */
static bool arm_cmn_builtin(void)
{
	char path[CMN_PATH_LEN];

	cmn_sys_path(path, sizeof(path), "module/arm_cmn");
	if (!path_exists(path))
		return false;
	cmn_sys_path(path, sizeof(path), "module/arm_cmn/initstate");
	return !path_exists(path);
}

/*
 * The fix names what "cmn-hnf switch hnf --persistent" does (switch.c),
 * so that the advice and the tool agree, and the same by hand.
 */
static const char *arm_cmn_fix(void)
{
	static const char *const fix[] = {
		"sudo cmn-hnf switch hnf --persistent (unloads arm_cmn, loads arm_cmn_hnf, writes 'blacklist arm_cmn' to /etc/modprobe.d/arm_cmn_hnf.conf and updates the initramfs); by hand: rmmod arm_cmn, modprobe arm_cmn_hnf, the same file, then update-initramfs -u -k all (or dracut -f --regenerate-all)",
		"arm_cmn is built into this kernel and cannot be unloaded or unbound: boot with initcall_blacklist=arm_cmn_init (sudo cmn-hnf switch hnf says how), then modprobe arm_cmn_hnf",
	};

	return fix[arm_cmn_builtin()];
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
			    !cmn_is_cmn600_modalias(alias))
				continue;
			found++;
			snprintf(path, sizeof(path), "%s/%s/driver", dir,
				 de->d_name);
			cmn_link_base(path, drv, sizeof(drv));
			if (!drv[0]) {
				say(c, V_WARN,
				    "device %s (CMN-600) has no driver; fix: modprobe arm_cmn_hnf",
				    de->d_name);
			} else if (!strcmp(drv, "arm-cmn")) {
				bad++;
				say(c, V_FAIL,
				    "device %s is bound to the upstream arm-cmn driver; fix: %s",
				    de->d_name, arm_cmn_fix());
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
			    cmn_is_cmn600_modalias(alias))
				continue;	/* already reported above */
			bad++;
			say(c, V_FAIL, "arm-cmn drives %s; fix: %s", de->d_name,
			    arm_cmn_fix());
		}
		closedir(d);
	}
	if (!found && !npmu)
		say(c, V_FAIL,
		    "no CMN-600 device (ACPI ARMHC600 or DT arm,cmn-600) in %s/bus/platform/devices; fix: firmware must describe the mesh (or use the cmn600 model for tests)",
		    cmn_sysfs_root);
	return bad;
}

/*
 * The driver names its overflow interrupts after the PMU. /proc/interrupts
 * has a column per CPU, so on a big machine it is large: read it a line at
 * a time, never a truncated buffer.
 */
static void check_irq(struct check_ctx *c, const char *pmu)
{
	char path[CMN_PATH_LEN], *line = NULL, *p, *end;
	unsigned long long total = 0;
	size_t cap = 0, len = strlen(pmu);
	ssize_t n;
	int irqs = 0;
	FILE *f;

	cmn_proc_path(path, sizeof(path), "interrupts");
	f = fopen(path, "re");
	if (!f) {
		say(c, V_WARN, "%s: cannot read %s: %s", pmu, path,
		    strerror(errno));
		return;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
			line[--n] = '\0';
		if ((size_t)n < len || strcmp(line + n - len, pmu) ||
		    ((size_t)n > len && line[n - len - 1] != ' '))
			continue;
		irqs++;
		/* "<irq>: <count per CPU>... <chip> <hwirq> <type> <name>" */
		p = strchr(line, ':');
		while (p && *++p) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p || (*end != ' ' && *end))
				break;
			total += v;
			p = end;
		}
	}
	free(line);
	fclose(f);
	if (irqs)
		say(c, V_OK, "%s: %d overflow interrupt%s, raised %llu times",
		    pmu, irqs, irqs == 1 ? "" : "s", total);
	else
		say(c, V_WARN,
		    "%s: no overflow interrupt in %s; counts may be lost when a counter wraps",
		    pmu, path);
}

/*
 * The events/ aliases against the table: perf spells events by alias, the
 * tool by the table, so an alias with another encoding would make the two
 * count different things. Both are turned into attr.config through the
 * PMU's format/ files and compared.
 */
static void check_aliases(struct check_ctx *c, const struct cmn_pmu *p)
{
	char path[CMN_PATH_LEN], terms[256], alias[256], why[512];
	char wrong[512] = "";
	uint64_t ca[3];
	uint64_t ct[3];
	int missing = 0, bad = 0, unknown = 0;
	struct dirent *de;
	size_t e, used = 0;
	DIR *d;

	for (e = 0; e <= cmn_num_events; e++) {
		const char *name = e < cmn_num_events ? cmn_events[e].name :
				   CMN_DTC_CYCLES;

		snprintf(path, sizeof(path), "%s/events/%s", p->path, name);
		if (cmn_read_file(path, alias, sizeof(alias)) < 0) {
			missing++;
			continue;
		}
		if (e < cmn_num_events)
			cmn_event_terms(&cmn_events[e], terms, sizeof(terms));
		else
			snprintf(terms, sizeof(terms), "type=0x3");
		memset(ca, 0, sizeof(ca));
		memset(ct, 0, sizeof(ct));
		if (cmn_terms_apply(p->fmt, p->nfmt, alias, ca, why, sizeof(why)) ||
		    cmn_terms_apply(p->fmt, p->nfmt, terms, ct, why, sizeof(why)) ||
		    memcmp(ca, ct, sizeof(ca))) {
			bad++;
			used += snprintf(wrong + used,
					 used < sizeof(wrong) ? sizeof(wrong) - used : 0,
					 "%s%s='%s' (table: %s)", used ? ", " : "",
					 name, alias, terms);
		}
	}
	if (bad)
		say(c, V_FAIL,
		    "%s: %d event alias%s from the event table: %s; fix: install a driver and a cmn-hnf of the same version",
		    p->name, bad, bad == 1 ? " differs" : "es differ", wrong);
	if (missing)
		say(c, V_WARN,
		    "%s: %d of %zu event aliases missing from events/ (raw eventid= still works)",
		    p->name, missing, cmn_num_events + 1);
	snprintf(path, sizeof(path), "%s/events", p->path);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && !strchr(de->d_name, '.') &&
			    !cmn_event_find(de->d_name) &&
			    strcmp(de->d_name, CMN_DTC_CYCLES))
				unknown++;
		closedir(d);
	}
	if (unknown)
		say(c, V_INFO, "%s: %d aliases in events/ that this cmn-hnf does not know",
		    p->name, unknown);
	if (!bad && !missing)
		say(c, V_OK, "%s: all %zu event aliases match the event table",
		    p->name, cmn_num_events + 1);
}

/* HN-Fs that hnfs places outside the mesh the mesh file gives */
static void check_outside(struct check_ctx *c, const struct cmn_pmu *p)
{
	const struct cmn_topo *t = &p->topo;
	char list[256] = "";
	size_t used = 0;
	int i;

	if (!t->present || !t->nout)
		return;
	for (i = 0; i < t->nhnf; i++) {
		if (t->hnf[i].x >= 0 && t->hnf[i].x < t->mesh_x &&
		    t->hnf[i].y >= 0 && t->hnf[i].y < t->mesh_y)
			continue;
		used += snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
				 "%sH%d 0x%x at (%d,%d)", used ? ", " : "",
				 t->hnf[i].lid, t->hnf[i].nodeid, t->hnf[i].x,
				 t->hnf[i].y);
	}
	say(c, V_FAIL,
	    "%s: %d HN-F%s outside the %dx%d mesh of the mesh file: %s; fix: hnfs and mesh disagree: a driver bug, report both files",
	    p->name, t->nout, t->nout == 1 ? "" : "s", t->mesh_x, t->mesh_y, list);
}

static int check_pmus(struct check_ctx *c, int *npmu)
{
	static const char *const need[] = {
		"eventid", "occupid", "bynodeid", "nodeid", "type",
	};
	struct cmn_pmu *pmus;
	char why[512], path[CMN_PATH_LEN];
	int n, i, k, f;

	pmus = calloc(CMN_MAX_PMUS, sizeof(*pmus));
	if (!pmus)
		return -ENOMEM;
	n = cmn_pmus_scan_all(pmus, CMN_MAX_PMUS, why, sizeof(why));
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

		if (p->broken) {
			/* this PMU only: the others and the rest still run */
			say(c, V_FAIL,
			    "%s: cannot be read: %s; fix: check the driver's messages (dmesg) and the file's permissions",
			    p->name, p->err);
			continue;
		}
		say(c, V_OK, "%s: %s %s, perf type %d, cpu %s, device %s, %d HN-Fs",
		    p->name, p->have_id ? cmn_part_name(p->part) : "?",
		    p->have_id ? cmn_rev_name(p->part, p->rev) : "?", p->type,
		    p->cpumask[0] ? p->cpumask : "none",
		    p->parent[0] ? p->parent : "unknown", p->topo.nhnf);
		if (!p->have_id)
			say(c, V_WARN,
			    "%s: identifier '%s' is not five hex digits (three of part, two of revision, as 43402); perf JSON metrics will not match",
			    p->name, p->identifier);
		else if (!*cmn_part_name(p->part))
			say(c, V_WARN, "%s: part 0x%x is not a CMN-600", p->name,
			    p->part);
		if (p->cpu < 0)
			say(c, V_FAIL,
			    "%s: no CPU in cpumask; fix: bring a CPU of the mesh's NUMA node online",
			    p->name);
		for (k = 0; k < (int)ARRAY_SIZE(need); k++) {
			for (f = 0; f < p->nfmt; f++)
				if (!strcmp(p->fmt[f].name, need[k]))
					break;
			if (f == p->nfmt)
				say(c, V_FAIL,
				    "%s: format/%s missing; fix: install a driver and a cmn-hnf of the same version",
				    p->name, need[k]);
		}
		check_aliases(c, p);
		check_irq(c, p->name);
		if (!p->topo.present)
			say(c, V_WARN, "%s: %s; --per-hnf and the mesh map are unavailable",
			    p->name, p->topo.why);
		if (p->topo.mesh_why[0])
			say(c, V_FAIL,
			    "%s: %s; the mesh map is unavailable; fix: install a driver and a cmn-hnf of the same version, or report the driver's file",
			    p->name, p->topo.mesh_why);
		check_outside(c, p);
	}
	free(pmus);
	return 0;
}

static void check_perms(struct check_ctx *c)
{
	bool perfmon = cmn_has_cap(CMN_CAP_PERFMON);
	bool sysadmin = cmn_has_cap(CMN_CAP_SYS_ADMIN);
	char path[CMN_PATH_LEN];
	const char *has;
	long para;

	if (cmn_read_paranoid(&para)) {
		cmn_proc_path(path, sizeof(path), "sys/kernel/perf_event_paranoid");
		say(c, V_FAIL, "%s missing: the kernel has no perf events (CONFIG_PERF_EVENTS)",
		    path);
		return;
	}
	has = sysadmin ? "CAP_SYS_ADMIN" : perfmon ? "CAP_PERFMON" :
	      "neither CAP_PERFMON nor CAP_SYS_ADMIN";
	switch (cmn_perm_needed(para)) {
	case CMN_PERM_ANYONE:
		say(c, V_OK, "perf_event_paranoid=%ld allows system-wide counting by any user",
		    para);
		return;
	case CMN_PERM_PERFMON:
		if (perfmon || sysadmin)
			say(c, V_OK,
			    "perf_event_paranoid=%ld: system-wide counting needs CAP_PERFMON or CAP_SYS_ADMIN, and this process has %s",
			    para, has);
		else
			say(c, V_FAIL,
			    "perf_event_paranoid=%ld and this process has %s: system-wide (uncore) counting is refused; fix: %s",
			    para, has, cmn_perm_fix(para));
		return;
	default:
		if (sysadmin)
			say(c, V_OK,
			    "perf_event_paranoid=%ld: only CAP_SYS_ADMIN may count, and this process has it",
			    para);
		else
			say(c, V_FAIL,
			    "perf_event_paranoid=%ld and this process has %s: system-wide (uncore) counting is refused; fix: %s",
			    para, has, cmn_perm_fix(para));
		return;
	}
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
		    "; fix: sudo modprobe arm_cmn_hnf; the module comes with the arm-cmn-hnf-dkms package (apt install arm-cmn-hnf-dkms; 'dkms status arm_cmn_hnf' must say installed for this kernel, which needs its headers) or from make install in the source tree");
	cmn_sys_path(path, sizeof(path), "module/arm_cmn");
	if (path_exists(path))
		say(c, V_INFO, "the upstream arm_cmn driver is %s",
		    arm_cmn_builtin() ? "built into this kernel" : "loaded too");
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
	const struct cmn_cmd cmd = {
		.name = "check",
		.desc =
		"Diagnose why HN-F counting would not work: arm_cmn_hnf PMUs present and\n"
		"sane (identifier, cpumask, format/, event aliases against the event\n"
		"table, topology, overflow interrupt), module loaded, CMN-600 devices\n"
		"(ARMHC600 / arm,cmn-600) bound to arm_cmn_hnf rather than the upstream\n"
		"arm-cmn driver, perf_event_paranoid and capabilities, perf in PATH,\n"
		"lockdown. One line per finding: ok, info, WARN or FAIL with a fix.\n"
		"Exit status 1 if anything FAILed.",
	};
	struct check_ctx c = { .out = out };
	int ret, first, npmu = 0;

	ret = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
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
