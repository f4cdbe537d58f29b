// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: choice of the ENCLS backend at load time.
 *
 * backend=auto picks the real instruction only when CPUID leaf 12H reports
 * SGX1 with at least one EPC section and the kernel's own SGX driver does
 * not own that EPC (it does whenever it is built in and the kernel kept
 * X86_FEATURE_SGX); otherwise the software model.  backend=hw insists on
 * the instruction and fails the load without it; backend=emu always uses
 * the model.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>

#include "encls.h"

bool isgx_encls_hw __read_mostly;
EXPORT_SYMBOL_NS_GPL(isgx_encls_hw, ISGX);

static char backend[8] = "auto";
module_param_string(backend, backend, sizeof(backend), 0444);
MODULE_PARM_DESC(backend, "ENCLS backend: auto (default), emu (software model) or hw (real SGX1, untested)");

/* The emu backend's paging crypto; modprobe loads these first. */
MODULE_SOFTDEP("pre: gcm aesni_intel ghash_clmulni_intel");

/* SGX1 with an EPC section, according to the CPU itself. */
static bool isgx_cpu_has_sgx1(void)
{
	u32 eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < ISGX_CPUID)
		return false;
	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	if (!(ebx & BIT(2)))
		return false;
	cpuid_count(ISGX_CPUID, 0, &eax, &ebx, &ecx, &edx);
	if (!(eax & ISGX_CPUID_SGX1))
		return false;
	cpuid_count(ISGX_CPUID, ISGX_CPUID_EPC, &eax, &ebx, &ecx, &edx);
	return (eax & ISGX_CPUID_EPC_MASK) == ISGX_CPUID_EPC_SECTION;
}

static bool isgx_kernel_owns_epc(void)
{
	return IS_ENABLED(CONFIG_X86_SGX) && boot_cpu_has(X86_FEATURE_SGX);
}

/**
 * isgx_encls_init() - choose the backend and start the model if needed
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int isgx_encls_init(void)
{
	bool usable = isgx_cpu_has_sgx1() && !isgx_kernel_owns_epc();

	if (sysfs_streq(backend, "hw")) {
		if (!usable) {
			pr_err("backend=hw: no SGX1 EPC available to this module\n");
			return -ENODEV;
		}
		isgx_encls_hw = true;
	} else if (sysfs_streq(backend, "auto")) {
		isgx_encls_hw = usable;
	} else if (sysfs_streq(backend, "emu")) {
		isgx_encls_hw = false;
	} else {
		pr_err("backend=%s: expected auto, emu or hw\n", backend);
		return -EINVAL;
	}
	pr_info("ENCLS backend: %s\n", isgx_encls_hw ? "hw" : "emu");
	return isgx_encls_hw ? 0 : isgx_emu_init();
}

/**
 * isgx_encls_exit() - stop the model if it was started
 *
 * Context: process context (module exit).
 */
void isgx_encls_exit(void)
{
	if (!isgx_encls_hw)
		isgx_emu_exit();
}
