// SPDX-License-Identifier: GPL-2.0
/*
 * misplace: a test hook of the model, not hardware.
 *
 * An uncore PMU driver's event_init() sets event->cpu to the CPU that owns
 * the PMU, and perf installs the event on that CPU later, in the same
 * perf_event_open(). If CPU hotplug moves the PMU in between, the event
 * lands on a CPU that no longer owns it, where the driver must not let it
 * count. That window is microseconds wide; this hook opens it on demand.
 *
 *   echo "<function> <cpu>" > misplace   arm: the next call of <function>,
 *                                        a driver's event_init (int
 *                                        fn(struct perf_event *)), that
 *                                        returns 0 leaves its event with
 *                                        cpu = <cpu>, as if the PMU had
 *                                        moved away from <cpu> meanwhile
 *   echo off > misplace                  disarm, remove the probe
 *   cat misplace                         "armed <function> <cpu>" or
 *                                        "idle", then "misplaced <n>": the
 *                                        events moved since the model
 *                                        loaded, and the last one moved,
 *                                        "last <comm> type=<t> config=<c>"
 *
 * Only the function's name is shared with the driver, given by the test.
 */

#define pr_fmt(fmt) "cmn600_model: " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "runtime.h"

static DEFINE_MUTEX(misplace_mutex);
static char misplace_fn[128];
static int misplace_cpu = -1;		/* -1: disarmed */
static atomic_t misplace_armed;		/* one event to move */
static atomic_t misplace_done;		/* events moved */
static bool misplace_registered;
/* the last event moved: who opened it, its type and config */
static DEFINE_RAW_SPINLOCK(misplace_last_lock);
static char misplace_comm[TASK_COMM_LEN];
static u32 misplace_type;
static u64 misplace_config;

static int misplace_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(struct perf_event **)ri->data =
		(struct perf_event *)regs_get_kernel_argument(regs, 0);
	return 0;
}

static int misplace_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct perf_event *event = *(struct perf_event **)ri->data;
	char comm[TASK_COMM_LEN];
	unsigned long flags;

	if (regs_return_value(regs) || !event || !atomic_cmpxchg(&misplace_armed, 1, 0))
		return 0;
	event->cpu = READ_ONCE(misplace_cpu);
	/* (task_lock() before 6.13: not under a raw spinlock) */
	get_task_comm(comm, current);
	raw_spin_lock_irqsave(&misplace_last_lock, flags);
	memcpy(misplace_comm, comm, sizeof(comm));
	misplace_type = event->attr.type;
	misplace_config = event->attr.config;
	raw_spin_unlock_irqrestore(&misplace_last_lock, flags);
	atomic_inc(&misplace_done);
	return 0;
}

static struct kretprobe misplace_probe = {
	.entry_handler = misplace_entry,
	.handler = misplace_ret,
	.data_size = sizeof(struct perf_event *),
};

/* Under misplace_mutex */
static void misplace_off(void)
{
	atomic_set(&misplace_armed, 0);
	if (misplace_registered)
		unregister_kretprobe(&misplace_probe);
	misplace_registered = false;
	misplace_cpu = -1;
}

static int misplace_show(struct seq_file *s, void *unused)
{
	mutex_lock(&misplace_mutex);
	if (misplace_cpu >= 0 && atomic_read(&misplace_armed))
		seq_printf(s, "armed %s %d\n", misplace_fn, misplace_cpu);
	else
		seq_puts(s, "idle\n");
	seq_printf(s, "misplaced %d\n", atomic_read(&misplace_done));
	if (atomic_read(&misplace_done)) {
		char comm[TASK_COMM_LEN];
		unsigned long flags;
		u64 config;
		u32 type;

		raw_spin_lock_irqsave(&misplace_last_lock, flags);
		memcpy(comm, misplace_comm, sizeof(comm));
		type = misplace_type;
		config = misplace_config;
		raw_spin_unlock_irqrestore(&misplace_last_lock, flags);
		seq_printf(s, "last %s type=%u config=0x%llx\n", comm, type,
			   (unsigned long long)config);
	}
	mutex_unlock(&misplace_mutex);
	return 0;
}

static int misplace_open(struct inode *inode, struct file *file)
{
	return single_open(file, misplace_show, NULL);
}

static ssize_t misplace_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[160], fn[128];
	int cpu, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&misplace_mutex);
	misplace_off();
	if (sysfs_streq(buf, "off")) {
		mutex_unlock(&misplace_mutex);
		return count;
	}
	if (sscanf(buf, "%127s %d", fn, &cpu) != 2 || cpu < 0 || cpu >= nr_cpu_ids ||
	    !cpu_online(cpu)) {
		pr_err("misplace: want '<function> <online cpu>', got '%s'\n", strim(buf));
		mutex_unlock(&misplace_mutex);
		return -EINVAL;
	}
	strscpy(misplace_fn, fn, sizeof(misplace_fn));
	memset(&misplace_probe.kp, 0, sizeof(misplace_probe.kp));
	misplace_probe.kp.symbol_name = misplace_fn;
	ret = register_kretprobe(&misplace_probe);
	if (ret) {
		pr_err("misplace: no probe on %s (%d)\n", misplace_fn, ret);
		mutex_unlock(&misplace_mutex);
		return ret;
	}
	misplace_registered = true;
	misplace_cpu = cpu;
	atomic_set(&misplace_armed, 1);
	mutex_unlock(&misplace_mutex);
	return count;
}

static const struct file_operations misplace_fops = {
	.owner = THIS_MODULE,
	.open = misplace_open,
	.read = seq_read,
	.write = misplace_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void cmn600_misplace_init(struct dentry *root)
{
	debugfs_create_file("misplace", 0644, root, NULL, &misplace_fops);
}

void cmn600_misplace_exit(void)
{
	mutex_lock(&misplace_mutex);
	misplace_off();
	mutex_unlock(&misplace_mutex);
}
