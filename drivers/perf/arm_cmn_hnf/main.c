// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf: perf PMU for the HN-F nodes (system level cache, snoop filter,
 * memory controller requests) of an Arm CMN-600 mesh.
 *
 *   perf stat -e arm_cmn_hnf/slc_miss/ -a -- <workload>
 *
 * This file is the platform driver: firmware description (ACPI ARMHC600 or
 * DT arm,cmn-600), probe and module init. One PMU per mesh, arm_cmn_hnf_<n>,
 * <n> being the ACPI _UID or the DT node's index in address order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_device.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>

#include <arm_cmn_hnf/compat.h>

#include "hnf.h"

#define CMN_HNF_DRV_NAME	"arm-cmn-hnf"
#define CMN_HNF_PMU_PREFIX	"arm_cmn_hnf_"
/* The stock driver, which binds the same firmware nodes */
#define CMN_HNF_UPSTREAM_DRV	"arm-cmn"

static enum cpuhp_state cmn_hnf_cpuhp_state;
static DEFINE_IDA(cmn_hnf_ida);

static const char *const cmn_hnf_revs[] = {
	[CMN600_REV_R1P0] = "r1p0", [CMN600_REV_R1P1] = "r1p1",
	[CMN600_REV_R1P2] = "r1p2", [CMN600_REV_R1P3] = "r1p3",
	[CMN600_REV_R2P0] = "r2p0", [CMN600_REV_R3P0] = "r3p0",
	[CMN600_REV_R3P1] = "r3p1",
};

/*
 * ACPI (Arm's CMN-600 binding): two memory resources, the configuration space
 * and the root node inside it, in either order. The nested resources make
 * request_mem_region() of the outer one fail with -EBUSY, so map it plainly.
 */
static int cmn_hnf_map_acpi(struct platform_device *pdev, struct cmn_hnf *cmn)
{
	struct device *dev = &pdev->dev;
	struct resource *cfg, *root;

	cfg = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	root = platform_get_resource(pdev, IORESOURCE_MEM, 1);
	if (!cfg || !root) {
		dev_err(dev, "ACPI: need two memory resources (configuration space and root node)\n");
		return -EINVAL;
	}
	if (!resource_contains(cfg, root))
		swap(cfg, root);
	if (!resource_contains(cfg, root)) {
		dev_err(dev, "ACPI: root node %pR is not inside %pR\n", root, cfg);
		return -EINVAL;
	}

	cmn->base = devm_ioremap(dev, cfg->start, resource_size(cfg));
	if (!cmn->base)
		return -ENOMEM;
	cmn->size = resource_size(cfg);
	cmn->root = root->start - cfg->start;
	return 0;
}

/* DT (arm,cmn.yaml): reg is the configuration space, arm,root-node the root */
static int cmn_hnf_map_of(struct platform_device *pdev, struct cmn_hnf *cmn)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	u32 root;

	if (of_property_read_u32(dev->of_node, "arm,root-node", &root)) {
		dev_err(dev, "DT: arm,root-node is required for arm,cmn-600\n");
		return -EINVAL;
	}
	cmn->base = devm_platform_get_and_ioremap_resource(pdev, 0, &res);
	if (IS_ERR(cmn->base))
		return PTR_ERR(cmn->base);
	cmn->size = resource_size(res);
	cmn->root = root;
	return 0;
}

static int cmn_hnf_acpi_id(struct device *dev, unsigned int *id)
{
	const char *uid = NULL;

#ifdef CONFIG_ACPI
	uid = acpi_device_uid(ACPI_COMPANION(dev));
#endif
	*id = 0;
	if (uid && kstrtouint(uid, 0, id)) {
		dev_err(dev, "ACPI: _UID \"%s\" is not a number\n", uid);
		return -EINVAL;
	}
	return 0;
}

/* DT: the index of this node among the arm,cmn-600 nodes by address */
static int cmn_hnf_of_id(struct device *dev, unsigned int *id)
{
	struct device_node *np;
	struct resource me, other;

	if (of_address_to_resource(dev->of_node, 0, &me)) {
		dev_err(dev, "DT: no reg\n");
		return -EINVAL;
	}
	*id = 0;
	for_each_compatible_node(np, NULL, "arm,cmn-600") {
		if (np == dev->of_node || !of_device_is_available(np))
			continue;
		if (!of_address_to_resource(np, 0, &other) &&
		    other.start < me.start)
			(*id)++;
	}
	return 0;
}

static void cmn_hnf_free_id(void *data)
{
	ida_free(&cmn_hnf_ida, (unsigned long)data);
}

static int cmn_hnf_claim_name(struct cmn_hnf *cmn)
{
	struct device *dev = cmn->dev;
	unsigned int id;
	int ret;

	ret = has_acpi_companion(dev) ? cmn_hnf_acpi_id(dev, &id) :
					cmn_hnf_of_id(dev, &id);
	if (ret)
		return ret;

	cmn->name = devm_kasprintf(dev, GFP_KERNEL, CMN_HNF_PMU_PREFIX "%u", id);
	if (!cmn->name)
		return -ENOMEM;
	if (id > INT_MAX || ida_alloc_range(&cmn_hnf_ida, id, id, GFP_KERNEL) < 0) {
		dev_err(dev, "PMU name %s is already taken (duplicate ACPI _UID?)\n",
			cmn->name);
		return -EBUSY;
	}
	return devm_add_action_or_reset(dev, cmn_hnf_free_id, (void *)(unsigned long)id);
}

/* Kernels before 5.14 route the lines through a hint: clear it (compat.h) */
static void cmn_hnf_irq_unhint(void *data)
{
	struct cmn_hnf *cmn = data;
	unsigned int i;

	for (i = 0; i < cmn->num_irqs; i++)
		cmn_hnf_irq_clear_affinity(cmn->irqs[i].irq);
}

/*
 * Every DTC's interrupt line, once per distinct line (several DTCs may
 * share one). Only found here: nothing is requested before the hardware
 * is quiet, and nothing touches the hardware before all of them are known
 * (a deferral or a missing line leaves it as it was).
 */
static int cmn_hnf_find_irqs(struct platform_device *pdev, struct cmn_hnf *cmn)
{
	struct device *dev = &pdev->dev;
	unsigned int d, i;
	int irq;

	for (d = 0; d < cmn->topo->num_dtcs; d++) {
		irq = platform_get_irq_optional(pdev, d);
		if (irq == -EPROBE_DEFER)
			return dev_err_probe(dev, irq,
					     "interrupt for DTC%u: waiting for its interrupt controller\n",
					     d);
		if (irq < 0)
			return dev_err_probe(dev, irq,
					     "no interrupt for DTC%u: firmware lists %u for the mesh's %u DTCs\n",
					     d, d, cmn->topo->num_dtcs);
		for (i = 0; i < cmn->num_irqs && cmn->irqs[i].irq != irq; i++)
			;
		if (i == cmn->num_irqs) {
			cmn->irqs[i].cmn = cmn;
			cmn->irqs[i].irq = irq;
			cmn->num_irqs++;
		}
		cmn->irqs[i].dtcs |= BIT(d);
	}
	return 0;
}

static int cmn_hnf_request_irqs(struct device *dev, struct cmn_hnf *cmn)
{
	unsigned int i;
	int ret;

	for (i = 0; i < cmn->num_irqs; i++) {
		ret = devm_request_irq(dev, cmn->irqs[i].irq, cmn_hnf_irq_handler,
				       IRQF_NOBALANCING | IRQF_NO_THREAD, cmn->name,
				       &cmn->irqs[i]);
		if (ret)
			return dev_err_probe(dev, ret, "cannot request IRQ %d\n",
					     cmn->irqs[i].irq);
	}
	/* devres runs this before the lines' free_irq(); publish routes them */
	return devm_add_action_or_reset(dev, cmn_hnf_irq_unhint, cmn);
}

static void cmn_hnf_quiesce(void *data)
{
	struct cmn_hnf *cmn = data;

	hrtimer_cancel(&cmn->poll);
	cmn_hnf_hw_reset(cmn, false);
}

/*
 * Remove: the PMU goes first, then the hotplug instance. No event can be
 * open (each holds a module reference, and the driver cannot be unbound).
 */
static void cmn_hnf_unpublish(void *data)
{
	struct cmn_hnf *cmn = data;

	perf_pmu_unregister(&cmn->pmu);
	cpuhp_state_remove_instance_nocalls(cmn_hnf_cpuhp_state, &cmn->cpuhp_node);
}

static int cmn_hnf_discover_mesh(struct cmn_hnf *cmn)
{
	char why[128] = "";
	unsigned int i;
	int ret;

	cmn->topo = devm_kzalloc(cmn->dev, sizeof(*cmn->topo), GFP_KERNEL);
	if (!cmn->topo)
		return -ENOMEM;
	ret = cmn_hnf_discover(cmn_hnf_hw_read64, cmn, cmn->size, cmn->root,
			       cmn->topo, why, sizeof(why));
	if (ret) {
		dev_err(cmn->dev, "unusable CMN-600 configuration tree: %s\n", why);
		return ret;
	}
	for (i = 0; i < cmn->topo->num_hnfs; i++)
		if (cmn_hnf_find_hnf(cmn->topo, cmn->topo->hnf[i].node_id) < 0)
			dev_warn(cmn->dev, "HN-F at 0x%x: another HN-F has its node id 0x%x too: bynodeid refuses it\n",
				 cmn->topo->hnf[i].offset, cmn->topo->hnf[i].node_id);
	cmn->local = devm_kcalloc(cmn->dev, cmn->topo->num_xps, sizeof(*cmn->local),
				  GFP_KERNEL);
	return cmn->local ? 0 : -ENOMEM;
}

/*
 * Publish the PMU on a CPU of the mesh's node. The hotplug instance comes
 * first (its _cpuslocked variant is not exported to modules); the CPU is
 * then chosen, the lines routed to it and the PMU registered under the
 * hotplug lock, so no CPU can go away meanwhile unseen.
 */
static int cmn_hnf_publish(struct cmn_hnf *cmn)
{
	struct device *dev = cmn->dev;
	unsigned int i;
	int ret;

	ret = cpuhp_state_add_instance_nocalls(cmn_hnf_cpuhp_state, &cmn->cpuhp_node);
	if (ret)
		return dev_err_probe(dev, ret, "cannot follow CPU hotplug\n");
	cpus_read_lock();
	cmn->cpu = cpumask_local_spread(0, dev_to_node(dev));
	cmn->from_cpu = -1;
	for (i = 0, ret = 0; i < cmn->num_irqs && !ret; i++)
		ret = cmn_hnf_irq_set_affinity(cmn->irqs[i].irq, cmn->cpu);
	if (!ret)
		ret = perf_pmu_register(&cmn->pmu, cmn->name, -1);
	cpus_read_unlock();
	if (ret) {
		cpuhp_state_remove_instance_nocalls(cmn_hnf_cpuhp_state, &cmn->cpuhp_node);
		return dev_err_probe(dev, ret, "cannot route the interrupts or register %s\n",
				     cmn->name);
	}
	return devm_add_action_or_reset(dev, cmn_hnf_unpublish, cmn);
}

/*
 * Everything that can fail or defer (mapping, discovery, name, interrupts,
 * memory) comes before the hardware is touched. The hardware is made quiet
 * before the lines are requested. devres undoes probe in reverse: PMU and
 * hotplug instance, lines, hardware quiet.
 */
static int cmn_hnf_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const struct cmn_hnf_topology *topo;
	struct cmn_hnf *cmn;
	int ret;

	cmn = devm_kzalloc(dev, sizeof(*cmn), GFP_KERNEL);
	if (!cmn)
		return -ENOMEM;
	cmn->dev = dev;
	platform_set_drvdata(pdev, cmn);

	ret = has_acpi_companion(dev) ? cmn_hnf_map_acpi(pdev, cmn) :
					cmn_hnf_map_of(pdev, cmn);
	if (!ret)
		ret = cmn_hnf_discover_mesh(cmn);
	if (!ret)
		ret = cmn_hnf_claim_name(cmn);
	if (!ret)
		ret = cmn_hnf_find_irqs(pdev, cmn);
	if (ret)
		return ret;
	topo = cmn->topo;
	cmn_hnf_pmu_init(cmn);

	ret = devm_add_action(dev, cmn_hnf_quiesce, cmn);
	if (ret)
		return ret;
	cmn_hnf_hw_reset(cmn, true);
	ret = cmn_hnf_request_irqs(dev, cmn);
	if (!ret)
		ret = cmn_hnf_publish(cmn);
	if (ret)
		return ret;

	dev_info(dev, "%s: CMN-600 %s, %ux%u mesh, %u HN-Fs, %u DTCs, CPU%u\n",
		 cmn->name, topo->revision < ARRAY_SIZE(cmn_hnf_revs) ?
		 cmn_hnf_revs[topo->revision] : "r?p?", topo->mesh_x,
		 topo->mesh_y, topo->num_hnfs, topo->num_dtcs, cmn->cpu);
	return 0;
}

/* Reboot and kexec: leave the DTCs quiet for whoever comes next */
static void cmn_hnf_shutdown(struct platform_device *pdev)
{
	struct cmn_hnf *cmn = platform_get_drvdata(pdev);

	if (cmn)
		cmn_hnf_stop_all(cmn);
}

static const struct of_device_id cmn_hnf_of_match[] = {
	{ .compatible = "arm,cmn-600" },
	{}
};
MODULE_DEVICE_TABLE(of, cmn_hnf_of_match);

static const struct acpi_device_id cmn_hnf_acpi_match[] = {
	{ "ARMHC600" },
	{}
};
MODULE_DEVICE_TABLE(acpi, cmn_hnf_acpi_match);

static struct platform_driver cmn_hnf_driver = {
	.driver = {
		.name = CMN_HNF_DRV_NAME,
		.of_match_table = cmn_hnf_of_match,
		.acpi_match_table = cmn_hnf_acpi_match,
		/* unbinding under open events would pull the PMU away */
		.suppress_bind_attrs = true,
	},
	.probe = cmn_hnf_probe,
	.shutdown = cmn_hnf_shutdown,
};

/*
 * Both drivers match the same firmware node and only one can bind. When the
 * stock driver got there first our probe never runs; say why.
 */
static int cmn_hnf_check_owner(struct device *dev, void *unused)
{
	bool upstream;

	device_lock(dev);
	upstream = dev->driver && !strcmp(dev->driver->name, CMN_HNF_UPSTREAM_DRV);
	device_unlock(dev);
	if (!upstream)
		return 0;
	if (!of_match_device(cmn_hnf_of_match, dev) &&
	    !acpi_match_device(cmn_hnf_acpi_match, dev))
		return 0;
	pr_warn("%s is owned by arm-cmn; rmmod arm_cmn (or blacklist it: module_blacklist=arm_cmn) and reload arm_cmn_hnf\n",
		dev_name(dev));
	return 0;
}

static int __init cmn_hnf_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/arm/cmn_hnf:online",
				      cmn_hnf_cpu_online, cmn_hnf_cpu_offline);
	if (ret < 0)
		return ret;
	cmn_hnf_cpuhp_state = ret;

	ret = platform_driver_register(&cmn_hnf_driver);
	if (ret) {
		cpuhp_remove_multi_state(cmn_hnf_cpuhp_state);
		return ret;
	}

	bus_for_each_dev(&platform_bus_type, NULL, NULL, cmn_hnf_check_owner);
	return 0;
}

static void __exit cmn_hnf_exit(void)
{
	platform_driver_unregister(&cmn_hnf_driver);
	cpuhp_remove_multi_state(cmn_hnf_cpuhp_state);
	ida_destroy(&cmn_hnf_ida);
}

module_init(cmn_hnf_init);
module_exit(cmn_hnf_exit);

MODULE_DESCRIPTION("Arm CMN-600 HN-F PMU (system level cache, snoop filter, memory requests)");
MODULE_AUTHOR("The arm_cmn_hnf project");
MODULE_LICENSE("GPL");
