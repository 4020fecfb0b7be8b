// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf switch: hand the CMN-600 meshes to arm_cmn_hnf or back to the
 * kernel's arm_cmn driver, and optionally make the choice survive a reboot.
 *
 * Both drivers bind the same firmware nodes (ACPI ARMHC600, DT
 * arm,cmn-600) and both refuse sysfs unbind, so a switch unloads the
 * module that holds the devices, loads the other one and asks the bus to
 * probe whatever is left without a driver. Everything that could stop it
 * half way (a driver built into the kernel, a module in use, a module that
 * is not installed or that the command line forbids) is checked first, so
 * that a refusal changes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmn-hnf.h"

#define SW_MAX_DEVS		16
#define SW_CONF			"etc/modprobe.d/arm_cmn_hnf.conf"
#define SW_MARK			"# Written by cmn-hnf switch"

enum { SW_HNF, SW_ARM_CMN };

struct sw_driver {
	const char *key;	/* command line word */
	const char *module;	/* module name, '_' form */
	const char *driver;	/* platform driver name */
	const char *pmu;	/* PMU name prefix, followed by digits only */
	const char *initcall;	/* initcall of a built-in driver */
};

static const struct sw_driver sw_drivers[] = {
	[SW_HNF] = { "hnf", "arm_cmn_hnf", "arm-cmn-hnf", "arm_cmn_hnf_", NULL },
	[SW_ARM_CMN] = { "arm_cmn", "arm_cmn", "arm-cmn", "arm_cmn_",
			 "arm_cmn_init" },
};

enum sw_mod { MOD_MISSING, MOD_AVAILABLE, MOD_LOADED, MOD_BUILTIN };

struct sw_dev {
	char name[CMN_NAME_LEN];
	char driver[CMN_NAME_LEN];	/* "" when unbound */
};

struct sw_state {
	char release[CMN_NAME_LEN];
	int ndev;
	struct sw_dev dev[SW_MAX_DEVS];
	enum sw_mod mod[2];
	long refcnt[2];
	bool cmdline_blacklist[2];	/* module_blacklist= names it */
	bool initcall_blacklist;	/* initcall_blacklist=arm_cmn_init */
};

struct sw_opts {
	int target;
	bool persistent;
	bool dry_run;
	const char *root;	/* --root: offline image, no live change */
};

/* ---- what the running system looks like ---- */

static bool path_exists(const char *p)
{
	struct stat st;

	return !lstat(p, &st);
}

static int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct sw_dev *)a)->name,
		      ((const struct sw_dev *)b)->name);
}

static void scan_devices(struct sw_state *s)
{
	char dir[CMN_PATH_LEN], path[CMN_PATH_LEN], alias[512];
	struct dirent *de;
	DIR *d;

	s->ndev = 0;
	cmn_sys_path(dir, sizeof(dir), "bus/platform/devices");
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && s->ndev < SW_MAX_DEVS) {
		struct sw_dev *dev = &s->dev[s->ndev];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/modalias", dir, de->d_name);
		if (cmn_read_file(path, alias, sizeof(alias)) < 0 ||
		    !cmn_is_cmn600_modalias(alias))
			continue;
		snprintf(dev->name, sizeof(dev->name), "%s", de->d_name);
		snprintf(path, sizeof(path), "%s/%s/driver", dir, de->d_name);
		cmn_link_base(path, dev->driver, sizeof(dev->driver));
		s->ndev++;
	}
	closedir(d);
	qsort(s->dev, s->ndev, sizeof(s->dev[0]), cmp_dev);
}

/* "arm-cmn.ko.xz" and "arm_cmn.ko" both name module arm_cmn */
static bool is_module_file(const char *path, const char *module)
{
	const char *base = strrchr(path, '/');
	size_t i, len = strlen(module);

	base = base ? base + 1 : path;
	for (i = 0; i < len; i++) {
		char c = base[i] == '-' ? '_' : base[i];

		if (c != module[i])
			return false;
	}
	return !strncmp(base + len, ".ko", 3);
}

static const char *modules_root(void)
{
	const char *r = getenv("CMN_HNF_MODULES_ROOT");

	return r && *r ? r : "/lib/modules";
}

/* Is @module listed in lib/modules/<release>/@file (modules.dep, .builtin)? */
static bool modules_list_has(const struct sw_state *s, const char *file,
			     const char *module)
{
	char path[CMN_PATH_LEN], *line = NULL, *colon;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", modules_root(), s->release,
		 file);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		colon = strchr(line, ':');
		if (colon)
			*colon = '\0';
		found = is_module_file(line, module);
	}
	free(line);
	fclose(f);
	return found;
}

static enum sw_mod module_state(struct sw_state *s, int i)
{
	const struct sw_driver *d = &sw_drivers[i];
	char path[CMN_PATH_LEN];

	cmn_sys_path(path, sizeof(path), "module/%s/initstate", d->module);
	if (path_exists(path)) {
		cmn_sys_path(path, sizeof(path), "module/%s/refcnt", d->module);
		if (cmn_read_long(path, &s->refcnt[i]) < 0)
			s->refcnt[i] = 0;
		return MOD_LOADED;
	}
	if (modules_list_has(s, "modules.builtin", d->module))
		return MOD_BUILTIN;
	/* a driver registered without a module behind it is built in */
	cmn_sys_path(path, sizeof(path), "bus/platform/drivers/%s", d->driver);
	if (path_exists(path)) {
		cmn_sys_path(path, sizeof(path), "bus/platform/drivers/%s/module",
			     d->driver);
		if (!path_exists(path))
			return MOD_BUILTIN;
	}
	if (modules_list_has(s, "modules.dep", d->module))
		return MOD_AVAILABLE;
	return MOD_MISSING;
}

/* Does "key=a,b,c" on the command line list @name ('-' and '_' alike)? */
static bool cmdline_lists(const char *cmdline, const char *key,
			  const char *name)
{
	size_t klen = strlen(key), nlen = strlen(name), i;
	const char *p = cmdline, *v;

	while ((p = strstr(p, key))) {
		if (p != cmdline && p[-1] != ' ') {
			p += klen;
			continue;
		}
		for (v = p + klen; *v && *v != ' ';) {
			size_t n = strcspn(v, ", ");

			if (n == nlen) {
				for (i = 0; i < n; i++)
					if ((v[i] == '-' ? '_' : v[i]) != name[i])
						break;
				if (i == n)
					return true;
			}
			v += n;
			if (*v == ',')
				v++;
		}
		p += klen;
	}
	return false;
}

static void scan(struct sw_state *s)
{
	char path[CMN_PATH_LEN], cmdline[4096];
	struct utsname u;
	int i;

	memset(s, 0, sizeof(*s));
	if (!uname(&u))
		snprintf(s->release, sizeof(s->release), "%s", u.release);
	scan_devices(s);
	cmn_proc_path(path, sizeof(path), "cmdline");
	if (cmn_read_file(path, cmdline, sizeof(cmdline)) < 0)
		cmdline[0] = '\0';
	for (i = 0; i < 2; i++) {
		s->mod[i] = module_state(s, i);
		s->cmdline_blacklist[i] =
			cmdline_lists(cmdline, "module_blacklist=",
				      sw_drivers[i].module);
	}
	s->initcall_blacklist = cmdline_lists(cmdline, "initcall_blacklist=",
					      sw_drivers[SW_ARM_CMN].initcall);
}

/* ---- refusals: each says why and what to do, nothing has changed ---- */

static void bootloader_hint(FILE *out, const char *verb, const char *param)
{
	fprintf(out,
		"  To %s %s on the kernel command line:\n"
		"    Debian, Ubuntu:     edit GRUB_CMDLINE_LINUX in /etc/default/grub,\n"
		"                        then run update-grub\n"
		"    Amazon Linux 2023:  grubby --update-kernel=ALL --%s=%s\n"
		"  and reboot.\n",
		verb, param, !strcmp(verb, "add") ? "args" : "remove-args", param);
}

static int refuse_builtin(const struct sw_state *s, int target, FILE *out)
{
	const struct sw_driver *a = &sw_drivers[SW_ARM_CMN];
	char param[64];

	snprintf(param, sizeof(param), "initcall_blacklist=%s", a->initcall);
	if (target == SW_HNF) {
		fprintf(out,
			"%s: arm_cmn is built into kernel %s (CONFIG_ARM_CMN=y): it cannot\n"
			"  be unloaded or unbound while the system runs. Keep it off the\n"
			"  CMN-600 with the kernel parameter %s; arm_cmn_hnf\n"
			"  then binds the mesh at boot.\n",
			cmn_prog, s->release, param);
		bootloader_hint(out, "add", param);
	} else {
		fprintf(out,
			"%s: arm_cmn is built into kernel %s but the kernel parameter %s\n"
			"  kept it from registering; it cannot be started while the system runs.\n",
			cmn_prog, s->release, param);
		bootloader_hint(out, "remove", param);
	}
	fprintf(out, "Nothing was changed.\n");
	return 1;
}

__printf(2, 3)
static int refuse(FILE *out, const char *fmt, ...);

static int refuse(FILE *out, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%s: ", cmn_prog);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fprintf(out, "\nNothing was changed.\n");
	return 1;
}

/* 0 when the live switch to @target can go ahead */
static int check_feasible(const struct sw_state *s, int target, FILE *out)
{
	int other = target == SW_HNF ? SW_ARM_CMN : SW_HNF;
	const struct sw_driver *t = &sw_drivers[target];
	const struct sw_driver *o = &sw_drivers[other];
	int i, held = 0;

	if (!s->ndev)
		return refuse(out,
			      "no CMN-600 device in %s/bus/platform/devices (ACPI ARMHC600 or DT\n"
			      "  arm,cmn-600). The firmware does not describe the mesh: on AWS Graviton2\n"
			      "  only metal instances do; a VM has none.",
			      cmn_sysfs_root);
	for (i = 0; i < s->ndev; i++)
		held += !strcmp(s->dev[i].driver, o->driver);

	if (s->mod[SW_ARM_CMN] == MOD_BUILTIN &&
	    ((target == SW_HNF && held) ||
	     (target == SW_ARM_CMN && s->initcall_blacklist)))
		return refuse_builtin(s, target, out);
	if (s->mod[target] == MOD_MISSING && target == SW_HNF)
		return refuse(out,
			      "%s is not installed for kernel %s: install the arm-cmn-hnf-dkms\n"
			      "  package, or run 'make && sudo make install' in the source tree.",
			      t->module, s->release);
	if (s->mod[target] == MOD_MISSING)
		return refuse(out,
			      "%s is not installed for kernel %s: on Ubuntu it is in the package\n"
			      "  linux-modules-extra-%s; otherwise the kernel was built without\n"
			      "  CONFIG_ARM_CMN.",
			      t->module, s->release, s->release);
	if (s->mod[target] != MOD_LOADED && s->mod[target] != MOD_BUILTIN &&
	    s->cmdline_blacklist[target])
		return refuse(out,
			      "the kernel command line has module_blacklist=%s: the kernel refuses\n"
			      "  to load it. Remove it from the command line (as you added it) and\n"
			      "  reboot.", t->module);
	if (s->mod[other] == MOD_LOADED && s->refcnt[other] > 0)
		return refuse(out,
			      "%s is in use (%ld references: open perf events). Stop what\n"
			      "  counts on it (perf, cmn-hnf stat, monitoring agents) and run again.",
			      o->module, s->refcnt[other]);
	return 0;
}

/* ---- doing it ---- */

#define SW_MAX_ARGS	8

/*
 * Run a command (chrooted to @root when set), after printing it. The
 * arguments end with NULL. Returns its exit status, or -errno.
 */
__cmn_attr((sentinel))
static int run_cmd(FILE *out, bool dry_run, const char *root, ...);

static int run_cmd(FILE *out, bool dry_run, const char *root, ...)
{
	const char *argv[SW_MAX_ARGS + 1];
	int i, n = 0, status;
	va_list ap;
	pid_t pid;

	va_start(ap, root);
	while (n < SW_MAX_ARGS && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;

	fprintf(out, "  %s", dry_run ? "would run:" : "run:");
	if (root)
		fprintf(out, " chroot %s", root);
	for (i = 0; i < n; i++)
		fprintf(out, " %s", argv[i]);
	fputc('\n', out);
	if (dry_run)
		return 0;
	fflush(out);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (root && (chroot(root) || chdir("/"))) {
			fprintf(stderr, "%s: chroot %s: %s\n", cmn_prog, root,
				strerror(errno));
			_exit(127);
		}
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: %s: %s\n", cmn_prog, argv[0],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int modprobe(FILE *out, bool dry_run, bool remove, const char *module)
{
	if (remove)
		return run_cmd(out, dry_run, NULL, "modprobe", "-r", module, NULL);
	return run_cmd(out, dry_run, NULL, "modprobe", module, NULL);
}

/* Ask the bus to find a driver for each CMN-600 device that has none */
static int probe_orphans(const struct sw_state *s, FILE *out, bool dry_run)
{
	char path[CMN_PATH_LEN];
	int i, bad = 0;
	FILE *f;

	cmn_sys_path(path, sizeof(path), "bus/platform/drivers_probe");
	for (i = 0; i < s->ndev; i++) {
		if (s->dev[i].driver[0])
			continue;
		fprintf(out, "  %s: echo %s > %s\n",
			dry_run ? "would write" : "write", s->dev[i].name, path);
		if (dry_run)
			continue;
		f = fopen(path, "we");
		if (!f || fputs(s->dev[i].name, f) < 0) {
			bad++;
			fprintf(out, "  failed: %s: %s\n", path, strerror(errno));
		}
		if (f && fclose(f)) {
			bad++;
			fprintf(out, "  failed: %s: %s\n", path, strerror(errno));
		}
	}
	return bad;
}

static int switch_live(struct sw_state *s, int target, FILE *out,
		       bool dry_run)
{
	int other = target == SW_HNF ? SW_ARM_CMN : SW_HNF;
	const struct sw_driver *t = &sw_drivers[target];
	const struct sw_driver *o = &sw_drivers[other];
	int i, held = 0, rc;

	for (i = 0; i < s->ndev; i++)
		held += !strcmp(s->dev[i].driver, o->driver);
	if (s->mod[other] == MOD_LOADED) {
		rc = modprobe(out, dry_run, true, o->module);
		if (rc) {
			fprintf(out, "  failed: modprobe -r %s exited with %d\n",
				o->module, rc);
			return 1;
		}
	} else if (held) {
		/* built in: check_feasible() has refused already */
		return 1;
	}
	if (s->mod[target] != MOD_LOADED && s->mod[target] != MOD_BUILTIN) {
		rc = modprobe(out, dry_run, false, t->module);
		if (rc) {
			fprintf(out, "  failed: modprobe %s exited with %d\n",
				t->module, rc);
			return 1;
		}
	}
	if (dry_run) {
		/* a module load binds the devices by itself */
		if (s->mod[target] != MOD_LOADED && s->mod[target] != MOD_BUILTIN)
			return 0;
		for (i = 0; i < s->ndev; i++)
			if (strcmp(s->dev[i].driver, t->driver))
				s->dev[i].driver[0] = '\0';
		return probe_orphans(s, out, true) ? 1 : 0;
	}
	/* a module load probes its devices; bind what is still unbound */
	scan_devices(s);
	return probe_orphans(s, out, false) ? 1 : 0;
}

/* ---- --persistent ---- */

static void root_file(char *buf, size_t len, const char *root,
		      const char *rel)
{
	size_t n = strlen(root);

	snprintf(buf, len, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/",
		 rel);
}

static int write_conf(const char *root, int target, FILE *out, bool dry_run)
{
	const char *blocked = sw_drivers[target == SW_HNF ? SW_ARM_CMN :
					 SW_HNF].module;
	char path[CMN_PATH_LEN], dir[CMN_PATH_LEN], *slash;
	FILE *f;

	root_file(path, sizeof(path), root, SW_CONF);
	fprintf(out, "  %s %s: blacklist %s\n",
		dry_run ? "would write" : "write", path, blocked);
	if (dry_run)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(out, "  failed: mkdir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	f = fopen(path, "we");
	if (!f) {
		fprintf(out, "  failed: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(f,
		SW_MARK " %s --persistent.\n"
		"# Both arm_cmn_hnf and the kernel's arm_cmn driver match the CMN-600;\n"
		"# this keeps %s from loading at boot, so that %s owns the\n"
		"# mesh. Switch back with: cmn-hnf switch %s --persistent\n"
		"blacklist %s\n",
		sw_drivers[target].key, blocked, sw_drivers[target].module,
		sw_drivers[target == SW_HNF ? SW_ARM_CMN : SW_HNF].key, blocked);
	if (fclose(f)) {
		fprintf(out, "  failed: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* First of @cands that exists under @root, as a path inside @root */
static const char *find_tool(const char *root, const char *const *cands)
{
	char path[CMN_PATH_LEN];
	int i;

	for (i = 0; cands[i]; i++) {
		root_file(path, sizeof(path), root, cands[i] + 1);
		if (!access(path, X_OK))
			return cands[i];
	}
	return NULL;
}

static int update_initramfs(const char *root, FILE *out, bool dry_run)
{
	static const char *const uit[] = {
		"/usr/sbin/update-initramfs", "/sbin/update-initramfs", NULL };
	static const char *const dracut[] = {
		"/usr/bin/dracut", "/usr/sbin/dracut", "/sbin/dracut", NULL };
	const char *chroot_to = strcmp(root, "/") ? root : NULL;
	const char *tool;
	int rc;

	tool = find_tool(root, uit);
	if (tool) {
		rc = run_cmd(out, dry_run, chroot_to, tool, "-u", "-k", "all",
			     NULL);
	} else {
		tool = find_tool(root, dracut);
		if (!tool) {
			fprintf(out,
				"  note: no initramfs tool (update-initramfs, dracut) in %s; the\n"
				"        blacklist applies to modules loaded after the root file system\n"
				"        is mounted, which is where arm_cmn loads unless an initramfs\n"
				"        holds it\n", root);
			return 0;
		}
		rc = run_cmd(out, dry_run, chroot_to, tool, "-f",
			     "--regenerate-all", NULL);
	}
	if (rc)
		fprintf(out, "  failed: %s exited with %d\n", tool, rc);
	return rc ? 1 : 0;
}

/* ---- verification ---- */

/* Registered PMUs named <prefix><digits> */
static int count_pmus(const char *prefix)
{
	char dir[CMN_PATH_LEN];
	struct dirent *de;
	size_t len = strlen(prefix);
	int n = 0;
	DIR *d;

	cmn_sys_path(dir, sizeof(dir), "bus/event_source/devices");
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, len) && de->d_name[len] &&
		    strspn(de->d_name + len, "0123456789") ==
		    strlen(de->d_name + len))
			n++;
	closedir(d);
	return n;
}

static bool verified(struct sw_state *s, int target)
{
	const struct sw_driver *t = &sw_drivers[target];
	int i;

	scan_devices(s);
	for (i = 0; i < s->ndev; i++)
		if (strcmp(s->dev[i].driver, t->driver))
			return false;
	return s->ndev && count_pmus(t->pmu) >= s->ndev;
}

static int verify(struct sw_state *s, int target, FILE *out)
{
	const struct sw_driver *t = &sw_drivers[target];
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int i, tries, npmu;

	/* udev may still be loading a module it saw appear; give it 3 s */
	for (tries = 0; tries < 30 && !verified(s, target); tries++)
		nanosleep(&ts, NULL);
	npmu = count_pmus(t->pmu);
	for (i = 0; i < s->ndev; i++)
		fprintf(out, "  %s: %s bound to %s\n",
			strcmp(s->dev[i].driver, t->driver) ? "FAIL" : "ok",
			s->dev[i].name,
			s->dev[i].driver[0] ? s->dev[i].driver : "no driver");
	fprintf(out, "  %s: %d %s<n> PMU%s for %d device%s\n",
		npmu >= s->ndev ? "ok" : "FAIL", npmu, t->pmu,
		npmu == 1 ? "" : "s", s->ndev, s->ndev == 1 ? "" : "s");
	return verified(s, target) ? 0 : 1;
}

/* ---- the command ---- */

static int parse_args(int argc, char **argv, struct sw_opts *o, FILE *out)
{
	const struct cmn_opt opts[] = {
		{ 0x101, "persistent", NULL, CMN_OPT_FLAG, &o->persistent, .help =
		  "also keep the choice across reboots: write\n"
		  "/etc/modprobe.d/arm_cmn_hnf.conf (blacklist\n"
		  "arm_cmn for hnf, blacklist arm_cmn_hnf for\n"
		  "arm_cmn), then update the initramfs:\n"
		  "update-initramfs -u -k all or, without it,\n"
		  "dracut -f --regenerate-all" },
		{ 0x102, "root", "DIR", CMN_OPT_STR, &o->root, .help =
		  "with --persistent: only write the files of\n"
		  "the system installed at DIR (the initramfs\n"
		  "tool runs chrooted there); no change to the\n"
		  "running system" },
		{ 'n', "dry-run", NULL, CMN_OPT_FLAG, &o->dry_run, .help =
		  "print what would be done, change nothing" },
		{ 0 },
	};
	const struct cmn_cmd cmd = {
		.name = "switch", .opts = opts, .args = true,
		.synopsis = "hnf|arm_cmn [--persistent] [--root DIR] [-n]",
		.desc =
		"Hand the CMN-600 meshes to arm_cmn_hnf (hnf) or to the kernel's arm_cmn\n"
		"driver (arm_cmn), as root: unload the module that holds them (both drivers\n"
		"refuse sysfs unbind), load the other one, bind the devices left without a\n"
		"driver, then verify that every CMN-600 device is bound to the chosen driver\n"
		"and its PMU is registered. Prints each step. Nothing is changed when the\n"
		"switch cannot be done: a driver built into the kernel (the kernel parameter\n"
		"to use instead is printed), a module in use by perf events, a module that\n"
		"is not installed or that the kernel command line blacklists.",
		.footer =
		"Exit status: 0 switched (or already so) and verified, 1 refused or\n"
		"failed, 2 usage error.\n",
	};
	const char *name;
	int rc, first;

	memset(o, 0, sizeof(*o));
	o->target = -1;
	rc = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (first + 1 != argc)
		return cmn_usage_error(&cmd, "name one driver: hnf or arm_cmn");
	name = argv[first];
	if (!strcmp(name, "hnf") || !strcmp(name, "arm_cmn_hnf"))
		o->target = SW_HNF;
	else if (!strcmp(name, "arm_cmn") || !strcmp(name, "arm-cmn"))
		o->target = SW_ARM_CMN;
	else
		return cmn_usage_error(&cmd, "unknown driver '%s' (hnf or arm_cmn)",
				       name);
	if (o->root && !o->persistent)
		return cmn_usage_error(&cmd, "--root only goes with --persistent");
	return -1;
}

static int persist(const struct sw_opts *o, FILE *out)
{
	const char *root = o->root ? o->root : "/";
	struct stat st;

	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(out, "%s: %s is not a directory. Nothing was changed.\n",
			cmn_prog, root);
		return 1;
	}
	if (write_conf(root, o->target, out, o->dry_run))
		return 1;
	return update_initramfs(root, out, o->dry_run);
}

int cmd_switch(int argc, char **argv, FILE *out)
{
	struct sw_state s;
	struct sw_opts o;
	const struct sw_driver *t;
	int rc, i;

	rc = parse_args(argc, argv, &o, out);
	if (rc >= 0)
		return rc;
	t = &sw_drivers[o.target];

	if (o.root) {
		fprintf(out, "%s in the system at %s (no change to the running system):\n",
			o.dry_run ? "Would make arm_cmn_hnf.conf choose" :
			"Making arm_cmn_hnf.conf choose", o.root);
		fprintf(out, "  driver: %s\n", t->module);
		rc = persist(&o, out);
		fprintf(out, "%s\n", rc ? "Failed." :
			o.dry_run ? "Dry run: nothing was changed." : "Done.");
		return rc;
	}
	if (!o.dry_run && geteuid()) {
		fprintf(stderr, "%s switch: loading and unloading modules needs root (sudo)\n",
			cmn_prog);
		return 1;
	}

	scan(&s);
	rc = check_feasible(&s, o.target, out);
	if (rc)
		return rc;
	fprintf(out, "%s the CMN-600 to %s:\n", o.dry_run ?
		"Would switch" : "Switching", t->module);
	for (i = 0; i < s.ndev; i++)
		fprintf(out, "  %s: now %s\n", s.dev[i].name,
			s.dev[i].driver[0] ? s.dev[i].driver : "without a driver");
	rc = switch_live(&s, o.target, out, o.dry_run);
	if (!rc && o.persistent)
		rc = persist(&o, out);
	if (o.dry_run) {
		fprintf(out, "Dry run: nothing was changed.\n");
		return rc;
	}
	if (verify(&s, o.target, out))
		rc = 1;
	fprintf(out, rc ? "Switch to %s FAILED; see above.\n" :
		"Switched to %s.\n", t->module);
	return rc;
}
