// SPDX-License-Identifier: GPL-2.0
/*
 * cmn600_model: a software model of Arm CMN-600 for testing CMN-600 PMU
 * drivers in a virtual machine. Firmware (DT or ACPI) describes a CMN-600
 * over a region of memory; this module lays out the configuration space
 * there and moves the PMU counters when told to (debugfs "step") or by
 * itself ("clock" set to "free"). See Documentation/cmn600-model.rst.
 */

#define pr_fmt(fmt) "cmn600_model: " fmt

#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "cmn600_model.h"
#include "mesh.h"
#include "runtime.h"

#define LOAD_MAX	(1024 * 1024)
#define WRITE_MAX	4096
#define FREQ_MAX_MHZ	100000
#define STEP_MAX	BIT_ULL(63)

static char *fault = "";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "break every image built (see Documentation/cmn600-model.rst)");

/*
 * The highest SPI the system's interrupt controller implements. An SPI
 * beyond it may still be wired (QEMU's virt GICv3 has 256 SPI lines but
 * says 224 in GICD_TYPER), but Linux never sets it up: raised, it stays a
 * Group 0 interrupt of the highest priority, which masks every other
 * interrupt of its CPU for good. A mesh with such an SPI is refused at load.
 */
static unsigned int max_spi = 987;
module_param(max_spi, uint, 0444);
MODULE_PARM_DESC(max_spi, "refuse DTC interrupts above this SPI (default 987, GICv3's last)");

/**
 * struct model - the module's state
 * @lock: serialises debugfs users (the meshes' clocks use their own locks)
 * @fault: the fault applied to images
 * @nr_meshes: meshes loaded
 * @meshes: the loaded meshes, in file order
 * @dirs: their debugfs directories (changed only under load_lock)
 * @free: the clock is free-running (every mesh runs its hrtimer)
 * @profile: workload profile of free mode
 * @freq_mhz: model clock in free mode
 * @root: debugfs root directory
 */
static struct model {
	struct mutex lock;	/* everything below, between debugfs users */
	enum cmn600_model_fault fault;
	unsigned int nr_meshes;
	struct cmn600_rt_mesh *meshes[CMN600_MODEL_MAX_MESHES];
	struct dentry *dirs[CMN600_MODEL_MAX_MESHES];
	bool free;
	enum cmn600_rt_profile profile;
	u32 freq_mhz;
	struct dentry *root;
} model = {
	.lock = __MUTEX_INITIALIZER(model.lock),
	.freq_mhz = 2000,
};

/* Serialises loads (and so the creation and removal of mesh directories) */
static DEFINE_MUTEX(load_lock);

static void step_all(u64 cycles)
{
	unsigned int i;

	for (i = 0; i < model.nr_meshes; i++)
		cmn600_rt_step(model.meshes[i], cycles);
}

/* Reading files: i_private is the mesh number; look it up under the lock */

enum mesh_file {
	MF_RATE, MF_TRUTH, MF_CYCLES, MF_IRQS, MF_INFO, MF_COUNTED, MF_COUNTERS, MF_RACE,
	MF_IRQ_FAULT, MF_ELAPSED, MF_CHANGED, MF_WINDOWED, MF_NR
};

struct mesh_file_data {
	unsigned int index;
	enum mesh_file what;
};

static struct mesh_file_data mesh_files[CMN600_MODEL_MAX_MESHES][MF_NR];

static int mesh_show(struct seq_file *s, void *unused)
{
	const struct mesh_file_data *d = s->private;
	struct cmn600_rt_mesh *m;
	int ret = 0;

	mutex_lock(&model.lock);
	if (d->index >= model.nr_meshes) {
		ret = -ENODEV;
		goto out;
	}
	m = model.meshes[d->index];
	if (d->what == MF_TRUTH || d->what == MF_CYCLES || d->what == MF_COUNTED ||
	    d->what == MF_COUNTERS || d->what == MF_ELAPSED || d->what == MF_WINDOWED)
		cmn600_rt_sync(m);
	switch (d->what) {
	case MF_RATE:
		cmn600_rt_show_rates(s, m);
		break;
	case MF_TRUTH:
		cmn600_rt_show_truth(s, m);
		break;
	case MF_CYCLES:
		seq_printf(s, "%llu\n", (unsigned long long)cmn600_rt_cycles(m));
		break;
	case MF_IRQS:
		cmn600_rt_show_irqs(s, m);
		break;
	case MF_INFO:
		cmn600_rt_show_info(s, m);
		break;
	case MF_COUNTED:
		cmn600_rt_show_counted(s, m);
		break;
	case MF_COUNTERS:
		cmn600_rt_show_counters(s, m);
		break;
	case MF_RACE:
		cmn600_rt_show_race(s, m);
		break;
	case MF_IRQ_FAULT:
		cmn600_rt_show_irq_fault(s, m);
		break;
	case MF_ELAPSED:
		cmn600_rt_show_elapsed(s, m);
		break;
	case MF_CHANGED:
		cmn600_rt_show_changed(s, m);
		break;
	case MF_WINDOWED:
		cmn600_rt_show_windowed(s, m);
		break;
	case MF_NR:
		break;
	}
out:
	mutex_unlock(&model.lock);
	return ret;
}

/*
 * truth is long (36 lines per HN-F), so are counted, windowed and counters:
 * size the buffer up front so that one read() produces it in one pass under
 * the lock, without seq_file growing the buffer and producing it again;
 * readers compare it with cycles.
 */
#define TRUTH_BUF	(64 * 1024)

static int mesh_open(struct inode *inode, struct file *file)
{
	const struct mesh_file_data *d = inode->i_private;

	if (d->what == MF_TRUTH || d->what == MF_COUNTED || d->what == MF_COUNTERS ||
	    d->what == MF_WINDOWED)
		return single_open_size(file, mesh_show, inode->i_private, TRUTH_BUF);
	return single_open(file, mesh_show, inode->i_private);
}

static char *get_user_text(const char __user *ubuf, size_t count)
{
	if (!count || count > WRITE_MAX)
		return ERR_PTR(-EINVAL);
	return memdup_user_nul(ubuf, count);
}

/* One rate line: node=<id|*> event=<id> [occupid=<0..4>] rate=<milli> */
static int rate_line(struct cmn600_rt_mesh *m, char *line)
{
	bool all = false, has_node = false, has_event = false, has_rate = false;
	u64 node = 0, event = 0, rate = 0, occ;
	int occupid = -1;
	char *tok;

	while ((tok = strsep(&line, " \t\r")) != NULL) {
		char *val = strchr(tok, '=');

		if (!*tok)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "node")) {
			has_node = true;
			if (!strcmp(val, "*"))
				all = true;
			else if (cmn600_model_parse_u64(val, &node) || node > U16_MAX)
				return -EINVAL;
		} else if (!strcmp(tok, "event")) {
			has_event = true;
			if (cmn600_model_parse_u64(val, &event) || event > U8_MAX)
				return -EINVAL;
		} else if (!strcmp(tok, "occupid")) {
			if (cmn600_model_parse_u64(val, &occ) || occ > 4)
				return -EINVAL;
			occupid = occ;
		} else if (!strcmp(tok, "rate")) {
			has_rate = true;
			if (cmn600_model_parse_u64(val, &rate) || rate > CMN600_RT_MAX_RATE)
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	if (!has_node && !has_event && !has_rate && occupid < 0)
		return 0;	/* blank line */
	if (!has_node || !has_event || !has_rate)
		return -EINVAL;
	return cmn600_rt_set_rate(m, all, node, event, occupid, rate);
}

static ssize_t rate_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct seq_file *s = file->private_data;
	const struct mesh_file_data *d = s->private;
	char *text, *cursor, *line;
	int ret = 0;

	text = get_user_text(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	mutex_lock(&model.lock);
	if (d->index >= model.nr_meshes) {
		ret = -ENODEV;
	} else {
		cursor = text;
		while (!ret && (line = strsep(&cursor, "\n")) != NULL)
			ret = rate_line(model.meshes[d->index], line);
	}
	mutex_unlock(&model.lock);
	kfree(text);
	return ret ? ret : count;
}

/*
 * race: "off", or "on" followed by any of "near_wrap", "lag_ns=<n>" and
 * "defer_us=<n>".
 * The mesh's clock is stopped around the change and restarted if free.
 */
static int race_cmd(struct cmn600_rt_mesh *m, char *text)
{
	bool on = false, near_wrap = false;
	char *tok, *cursor = strim(text);
	long lag_ns = -1, defer_us = -1;
	u64 v;
	int ret;

	tok = strsep(&cursor, " \t\n");
	if (!tok || (strcmp(tok, "on") && strcmp(tok, "off")))
		return -EINVAL;
	on = !strcmp(tok, "on");
	while ((tok = strsep(&cursor, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (on && !strcmp(tok, "near_wrap")) {
			near_wrap = true;
		} else if (on && !strncmp(tok, "lag_ns=", 7)) {
			if (cmn600_model_parse_u64(tok + 7, &v) || v > LONG_MAX)
				return -EINVAL;
			lag_ns = v;
		} else if (on && !strncmp(tok, "defer_us=", 9)) {
			if (cmn600_model_parse_u64(tok + 9, &v) || v > LONG_MAX)
				return -EINVAL;
			defer_us = v;
		} else {
			return -EINVAL;
		}
	}
	if (model.free)
		cmn600_rt_clock_stop(m);
	ret = cmn600_rt_set_race(m, on, near_wrap, lag_ns, defer_us);
	if (model.free)
		cmn600_rt_clock_start(m, model.freq_mhz);
	return ret;
}

/*
 * irq_fault: "spurious [dtc=<lid>] [count=<n>]", "stuck [dtc=<lid>]
 * [bit=<0..8>] [limit=<n>]", "off [dtc=<lid>] ms=<n>" or "clear". Runs
 * with the model's mutex held, so other debugfs users wait until a storm
 * or an off window has ended.
 */
static int irq_fault_cmd(struct cmn600_rt_mesh *m, char *text)
{
	u64 dtc = 0, count = 1, bit = 8, limit = 0, ms = 0, *dst;
	char *tok, *cmd, *cursor = strim(text);

	cmd = strsep(&cursor, " \t\n");
	if (!cmd)
		return -EINVAL;
	while ((tok = strsep(&cursor, " \t\n")) != NULL) {
		char *val = strchr(tok, '=');

		if (!*tok)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "dtc"))
			dst = &dtc;
		else if (!strcmp(tok, "count") && !strcmp(cmd, "spurious"))
			dst = &count;
		else if (!strcmp(tok, "bit") && !strcmp(cmd, "stuck"))
			dst = &bit;
		else if (!strcmp(tok, "limit") && !strcmp(cmd, "stuck"))
			dst = &limit;
		else if (!strcmp(tok, "ms") && !strcmp(cmd, "off"))
			dst = &ms;
		else
			return -EINVAL;
		if (cmn600_model_parse_u64(val, dst) || *dst > U32_MAX)
			return -EINVAL;
	}
	if (!strcmp(cmd, "spurious"))
		return cmn600_rt_irq_spurious(m, dtc, count);
	if (!strcmp(cmd, "stuck"))
		return cmn600_rt_irq_stuck(m, dtc, bit, limit);
	if (!strcmp(cmd, "off"))
		return cmn600_rt_irq_off(m, dtc, ms);
	if (!strcmp(cmd, "clear")) {
		cmn600_rt_irq_clear(m);
		return 0;
	}
	return -EINVAL;
}

/* Writes to race and irq_fault: one command per write */
static ssize_t mesh_cmd_write(struct file *file, const char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	struct seq_file *s = file->private_data;
	const struct mesh_file_data *d = s->private;
	char *text;
	int ret;

	text = get_user_text(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	mutex_lock(&model.lock);
	if (d->index >= model.nr_meshes)
		ret = -ENODEV;
	else if (d->what == MF_RACE)
		ret = race_cmd(model.meshes[d->index], text);
	else
		ret = irq_fault_cmd(model.meshes[d->index], text);
	mutex_unlock(&model.lock);
	kfree(text);
	return ret ? ret : count;
}

static const struct file_operations mesh_ro_fops = {
	.owner = THIS_MODULE,
	.open = mesh_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations rate_fops = {
	.owner = THIS_MODULE,
	.open = mesh_open,
	.read = seq_read,
	.write = rate_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations mesh_cmd_fops = {
	.owner = THIS_MODULE,
	.open = mesh_open,
	.read = seq_read,
	.write = mesh_cmd_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static struct dentry *create_mesh_dir(unsigned int i)
{
	static const char * const names[MF_NR] = {
		"rate", "truth", "cycles", "irqs", "info", "counted", "counters", "race",
		"irq_fault", "elapsed", "changed", "windowed",
	};
	const struct file_operations *fops;
	struct dentry *dir;
	char name[16];
	unsigned int f;

	snprintf(name, sizeof(name), "mesh%u", i);
	dir = debugfs_create_dir(name, model.root);
	for (f = 0; f < MF_NR; f++) {
		mesh_files[i][f].index = i;
		mesh_files[i][f].what = f;
		if (f == MF_RATE)
			fops = &rate_fops;
		else if (f == MF_RACE || f == MF_IRQ_FAULT)
			fops = &mesh_cmd_fops;
		else
			fops = &mesh_ro_fops;
		debugfs_create_file(names[f], fops == &mesh_ro_fops ? 0444 : 0644, dir,
				    &mesh_files[i][f], fops);
	}
	return dir;
}

/* Every DTC interrupt of @m an SPI the interrupt controller has (max_spi) */
static int check_spis(const struct cmn600_model_mesh *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_nodes; i++) {
		const struct cmn600_model_node *n = &m->nodes[i];

		if (n->has_irq && n->irq > max_spi) {
			pr_err("load: line %u: irq=%u: the interrupt controller has SPIs 0..%u only\n",
			       n->line, n->irq, max_spi);
			return -EINVAL;
		}
	}
	return 0;
}

/* load: collect the whole file, then parse and build when it is closed */

struct load_buf {
	char *text;
	size_t len;
};

static int load_open(struct inode *inode, struct file *file)
{
	struct load_buf *lb = kzalloc(sizeof(*lb), GFP_KERNEL);

	if (!lb)
		return -ENOMEM;
	file->private_data = lb;
	return nonseekable_open(inode, file);
}

static ssize_t load_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct load_buf *lb = file->private_data;
	char *text;

	if (count > LOAD_MAX - lb->len)
		return -EFBIG;
	text = krealloc(lb->text, lb->len + count + 1, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	lb->text = text;
	if (copy_from_user(lb->text + lb->len, ubuf, count))
		return -EFAULT;
	lb->len += count;
	return count;
}

static int do_load(const char *text, size_t len)
{
	struct cmn600_rt_mesh *old[CMN600_MODEL_MAX_MESHES], *new[CMN600_MODEL_MAX_MESHES];
	struct cmn600_model_file *file;
	unsigned int i, nr_old;
	char err[160];
	int ret;

	ret = cmn600_model_parse(text, len, &file, err, sizeof(err));
	if (ret) {
		pr_err("load: %s\n", ret == -EINVAL ? err : "out of memory");
		return ret;
	}
	for (i = 0; i < file->nr_meshes; i++) {
		if (!file->meshes[i]->has_base) {
			pr_err("load: line %u: mesh without base=\n", file->meshes[i]->line);
			cmn600_model_free(file);
			return -EINVAL;
		}
		ret = check_spis(file->meshes[i]);
		if (ret) {
			cmn600_model_free(file);
			return ret;
		}
	}

	mutex_lock(&load_lock);
	mutex_lock(&model.lock);
	nr_old = model.nr_meshes;
	memcpy(old, model.meshes, sizeof(old));
	model.nr_meshes = 0;
	mutex_unlock(&model.lock);

	for (i = 0; i < nr_old; i++) {
		debugfs_remove_recursive(model.dirs[i]);
		model.dirs[i] = NULL;
		cmn600_rt_destroy(old[i]);
	}

	for (i = 0; i < file->nr_meshes; i++) {
		ret = cmn600_rt_create(file->meshes[i], i, model.fault, &new[i]);
		if (ret) {
			pr_err("load: mesh %u (line %u): %d\n", i, file->meshes[i]->line, ret);
			while (i--)
				cmn600_rt_destroy(new[i]);
			goto out;
		}
	}

	mutex_lock(&model.lock);
	for (i = 0; i < file->nr_meshes; i++) {
		model.meshes[i] = new[i];
		if (model.free) {
			cmn600_rt_set_profile(new[i], model.profile);
			cmn600_rt_clock_start(new[i], model.freq_mhz);
		}
	}
	model.nr_meshes = file->nr_meshes;
	mutex_unlock(&model.lock);

	for (i = 0; i < file->nr_meshes; i++)
		model.dirs[i] = create_mesh_dir(i);
	pr_info("loaded %u mesh(es)%s%s\n", file->nr_meshes,
		model.fault ? ", fault " : "",
		model.fault ? cmn600_model_fault_name(model.fault) : "");
out:
	mutex_unlock(&load_lock);
	cmn600_model_free(file);
	return ret;
}

static int load_release(struct inode *inode, struct file *file)
{
	struct load_buf *lb = file->private_data;

	if (lb->len)
		do_load(lb->text, lb->len);
	kfree(lb->text);
	kfree(lb);
	return 0;
}

static const struct file_operations load_fops = {
	.owner = THIS_MODULE,
	.open = load_open,
	.write = load_write,
	.release = load_release,
};

static ssize_t step_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char *text = get_user_text(ubuf, count);
	u64 cycles;
	int ret;

	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = cmn600_model_parse_u64(strim(text), &cycles);
	kfree(text);
	if (ret || cycles > STEP_MAX)
		return -EINVAL;
	mutex_lock(&model.lock);
	step_all(cycles);
	mutex_unlock(&model.lock);
	return count;
}

static const struct file_operations step_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = step_write,
};

static int clock_show(struct seq_file *s, void *unused)
{
	mutex_lock(&model.lock);
	if (model.free)
		seq_printf(s, "free %s\n", cmn600_rt_profile_name(model.profile));
	else
		seq_puts(s, "manual\n");
	mutex_unlock(&model.lock);
	return 0;
}

static int clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, clock_show, NULL);
}

static ssize_t clock_write(struct file *file, const char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	enum cmn600_rt_profile profile = CMN600_RT_PROFILE_CONSTANT;
	char *text, *cursor, *mode, *arg;
	unsigned int i;
	int ret = 0;

	text = get_user_text(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	cursor = strim(text);
	mode = strsep(&cursor, " \t");
	arg = cursor ? strim(cursor) : NULL;

	mutex_lock(&model.lock);
	if (!strcmp(mode, "manual") && (!arg || !*arg)) {
		for (i = 0; i < model.nr_meshes; i++)
			cmn600_rt_clock_stop(model.meshes[i]);
		model.free = false;
	} else if (!strcmp(mode, "free")) {
		if (arg && *arg && cmn600_rt_profile_parse(arg, &profile)) {
			ret = -EINVAL;
			goto out;
		}
		model.profile = profile;
		for (i = 0; i < model.nr_meshes; i++) {
			cmn600_rt_set_profile(model.meshes[i], profile);
			cmn600_rt_clock_start(model.meshes[i], model.freq_mhz);
		}
		model.free = true;
	} else {
		ret = -EINVAL;
	}
out:
	mutex_unlock(&model.lock);
	kfree(text);
	return ret ? ret : count;
}

static const struct file_operations clock_fops = {
	.owner = THIS_MODULE,
	.open = clock_open,
	.read = seq_read,
	.write = clock_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int freq_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "%u\n", READ_ONCE(model.freq_mhz));
	return 0;
}

static int freq_open(struct inode *inode, struct file *file)
{
	return single_open(file, freq_show, NULL);
}

static ssize_t freq_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char *text = get_user_text(ubuf, count);
	unsigned int i;
	u64 mhz;
	int ret;

	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = cmn600_model_parse_u64(strim(text), &mhz);
	kfree(text);
	if (ret || !mhz || mhz > FREQ_MAX_MHZ)
		return -EINVAL;
	mutex_lock(&model.lock);
	model.freq_mhz = mhz;
	for (i = 0; i < model.nr_meshes; i++)
		cmn600_rt_set_freq(model.meshes[i], mhz);
	mutex_unlock(&model.lock);
	return count;
}

static const struct file_operations freq_fops = {
	.owner = THIS_MODULE,
	.open = freq_open,
	.read = seq_read,
	.write = freq_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init cmn600_model_init(void)
{
	if (cmn600_model_fault_parse(fault, &model.fault)) {
		pr_err("unknown fault '%s'\n", fault);
		return -EINVAL;
	}
	model.root = debugfs_create_dir("cmn600_model", NULL);
	if (IS_ERR(model.root))
		return PTR_ERR(model.root);
	debugfs_create_file("load", 0200, model.root, NULL, &load_fops);
	debugfs_create_file("step", 0200, model.root, NULL, &step_fops);
	debugfs_create_file("clock", 0644, model.root, NULL, &clock_fops);
	debugfs_create_file("freq_mhz", 0644, model.root, NULL, &freq_fops);
	cmn600_misplace_init(model.root);
	if (model.fault)
		pr_info("fault %s armed\n", cmn600_model_fault_name(model.fault));
	return 0;
}
module_init(cmn600_model_init);

static void __exit cmn600_model_exit(void)
{
	unsigned int i;

	/* destroying a mesh stops its clock */
	model.free = false;
	debugfs_remove_recursive(model.root);
	for (i = 0; i < model.nr_meshes; i++)
		cmn600_rt_destroy(model.meshes[i]);
	model.nr_meshes = 0;
	cmn600_misplace_exit();
	cmn600_rt_exit();
}
module_exit(cmn600_model_exit);

MODULE_DESCRIPTION("Software model of Arm CMN-600 for testing its PMU drivers");
MODULE_LICENSE("GPL");
