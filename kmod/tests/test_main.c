// SPDX-License-Identifier: GPL-2.0
/*
 * isgx_emu_test: in-kernel tests and microbenchmark of the emu backend.
 *
 * Loading the module runs every case once and writes KTAP to
 * /sys/kernel/debug/isgx_emu_test/results (summary in the kernel log);
 * reading /sys/kernel/debug/isgx_emu_test/bench runs the microbenchmark.
 * The module can then be unloaded.  Debian's 6.1 kernel has no KUnit, so
 * this is a plain module using symbols exported by isgx.ko (namespace
 * ISGX).
 *
 * The cases use the last T_NR_EPC pages of the EPC and assume nobody else
 * does: run them with no enclave loaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "test.h"
#include "isgx_test_sigstruct.h"

MODULE_IMPORT_NS(ISGX);

const u8 *const isgx_test_sig[4] = {
	isgx_gen_sig_a, isgx_gen_sig_b, isgx_gen_sig_c, isgx_gen_sig_d,
};

const u8 *isgx_test_mrsigner = isgx_gen_mrsigner;
const u8 *isgx_test_sig_a_lekey = isgx_gen_sig_a_lekey;
const u8 *isgx_test_sig_c_family = isgx_gen_sig_c_family;

/* encls-spec.md §8, copied verbatim. */
const char *const isgx_test_mrenclave_hex[4] = {
	"9e197c8837c6d65632dbdd59cd7df4f1a25b68d8e4e5eb6ca3b20b05311fecb8",
	"995c454650d39811c9c53e1af534aa6c34a496ce9302c34e0ced2c7a7e2c4103",
	"c6d695350dca63406562d0e067640f7b7d972bc86943e619f9b4b0ee72f0bb62",
	"aaddb3f82a446a5b21764b73de062d4f419c516df84031290ccf24055d27b74a",
};

#define T_RESULTS_SIZE	(64 * 1024)

static struct isgx_test_env *isgx_test_env;
static DEFINE_MUTEX(isgx_test_mutex);		/* serializes cases and bench on isgx_test_env */
static struct dentry *isgx_test_dir;
static char *isgx_test_results;
static size_t isgx_test_results_len;

/**
 * isgx_test_expect() - record the first failed expectation of a case
 * @t:		test environment
 * @ok:		the expectation held
 * @line:	source line
 * @fmt:	description of the failure
 *
 * Context: process context.
 * Return: @ok.
 */
bool isgx_test_expect(struct isgx_test_env *t, bool ok, int line,
		      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ok || t->failed)
		return ok;
	t->failed = true;
	n = scnprintf(t->reason, sizeof(t->reason), "line %d: ", line);
	va_start(ap, fmt);
	vscnprintf(t->reason + n, sizeof(t->reason) - n, fmt, ap);
	va_end(ap);
	return ok;
}

/**
 * isgx_test_reset_ops() - clear the PAGEINFO and SECINFO operands
 * @t:	test environment
 *
 * Context: process context.
 */
void isgx_test_reset_ops(struct isgx_test_env *t)
{
	memset(t->ops, 0, 128);
}

/**
 * isgx_test_secs_fill() - write a SECS into the source page
 * @t:	test environment
 * @base:	BASEADDR
 * @size:	SIZE
 * @attr:	ATTRIBUTES.FLAGS (XFRM is 3)
 * @ssa:	SSAFRAMESIZE
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int isgx_test_secs_fill(struct isgx_test_env *t, u64 base, u64 size, u64 attr, u32 ssa)
{
	struct isgx_secs *s = t->src;

	memset(s, 0, PAGE_SIZE);
	s->base = base;
	s->size = size;
	s->attributes = attr;
	s->xfrm = 0x3;
	s->ssa_frame_size = ssa;
	return 0;
}

/* ECREATE with the SECS already in t->src. */
static int isgx_test_ecreate_src(struct isgx_test_env *t, void *secs)
{
	isgx_test_reset_ops(t);
	t->pi->contents = (unsigned long)t->src;
	t->pi->metadata = (unsigned long)t->si;
	t->si->flags = (u64)SGX_PT_SECS << SGX_SECINFO_PT_SHIFT;
	return __ecreate(t->pi, secs);
}

/**
 * isgx_test_ecreate() - ECREATE a SECS built by isgx_test_secs_fill()
 * @t:	test environment
 * @secs:	target EPC page
 * @base:	BASEADDR
 * @size:	SIZE
 * @attr:	ATTRIBUTES.FLAGS
 * @ssa:	SSAFRAMESIZE
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_ecreate(struct isgx_test_env *t, void *secs, u64 base, u64 size, u64 attr,
		      u32 ssa)
{
	isgx_test_secs_fill(t, base, size, attr, ssa);
	return isgx_test_ecreate_src(t, secs);
}

/**
 * isgx_test_eadd_raw() - EADD the current source page
 * @t:	test environment
 * @secs:	SECS
 * @epc:	target EPC page
 * @linaddr:	LINADDR
 * @flags:	SECINFO.FLAGS
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_eadd_raw(struct isgx_test_env *t, void *secs, void *epc, u64 linaddr,
		       u64 flags)
{
	isgx_test_reset_ops(t);
	t->pi->addr = linaddr;
	t->pi->contents = (unsigned long)t->src;
	t->pi->metadata = (unsigned long)t->si;
	t->pi->secs = (unsigned long)secs;
	t->si->flags = flags;
	return __eadd(t->pi, epc);
}

/**
 * isgx_test_eadd() - EADD given contents
 * @t:	test environment
 * @secs:	SECS
 * @epc:	target EPC page
 * @linaddr:	LINADDR
 * @flags:	SECINFO.FLAGS
 * @content:	4 KiB to add, or NULL for zeroes
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_eadd(struct isgx_test_env *t, void *secs, void *epc, u64 linaddr, u64 flags,
		   const void *content)
{
	if (content)
		memcpy(t->src, content, PAGE_SIZE);
	else
		memset(t->src, 0, PAGE_SIZE);
	return isgx_test_eadd_raw(t, secs, epc, linaddr, flags);
}

/**
 * isgx_test_eextend_page() - EEXTEND a whole page (16 chunks)
 * @t:	test environment
 * @secs:	SECS
 * @epc:	the page
 *
 * Context: process context, may sleep.
 * Return: the first non-zero ENCLS result, or 0.
 */
int isgx_test_eextend_page(struct isgx_test_env *t, void *secs, void *epc)
{
	unsigned int off;
	int ret;

	for (off = 0; off < PAGE_SIZE; off += SGX_CHUNK_SIZE) {
		ret = __eextend(secs, epc + off);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * isgx_test_lehash_set() - write the LE-key-hash MSRs of this CPU
 * @mrsigner:	32-byte hash
 *
 * Context: process context, may sleep.
 */
void isgx_test_lehash_set(const u8 *mrsigner)
{
	u64 h[4];

	memcpy(h, mrsigner, sizeof(h));
	isgx_encls_lehash_write(h);
}

/**
 * isgx_test_einit_cur() - EINIT with t->sig and t->tok, LE hash = our MRSIGNER
 * @t:	test environment
 * @secs:	SECS
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_einit_cur(struct isgx_test_env *t, void *secs)
{
	int ret;

	/* Same CPU for the MSR write and EINIT, as the driver must do. */
	migrate_disable();
	isgx_test_lehash_set(isgx_test_mrsigner);
	ret = __einit(t->sig, secs, t->tok);
	migrate_enable();
	return ret;
}

/**
 * isgx_test_einit() - EINIT with a SIGSTRUCT and a zero token
 * @t:	test environment
 * @sig:	1808-byte SIGSTRUCT
 * @secs:	SECS
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_einit(struct isgx_test_env *t, const u8 *sig, void *secs)
{
	memcpy(t->sig, sig, sizeof(*t->sig));
	memset(t->tok, 0, sizeof(*t->tok));
	return isgx_test_einit_cur(t, secs);
}

/**
 * isgx_test_pattern() - fill a page with byte i = 7i + 3 + @seed
 * @p:	the page
 * @seed:	pattern variant
 *
 * Context: process context.
 */
void isgx_test_pattern(void *p, u8 seed)
{
	u8 *b = p;
	int i;

	for (i = 0; i < PAGE_SIZE; i++)
		b[i] = (u8)(7 * i + 3 + seed);
}

/**
 * isgx_test_all_ff() - does a page read as all-ones
 * @p:	the page
 *
 * Context: process context.
 * Return: true if every byte is 0xff.
 */
bool isgx_test_all_ff(const void *p)
{
	return !memchr_inv(p, 0xff, PAGE_SIZE);
}

/**
 * isgx_test_build() - build the enclave of an encls-spec §8 vector
 * @t:	test environment
 * @vec:	'a'..'d'
 * @secs:	SECS page
 * @p1:	first page
 * @p2:	second page (vector c)
 *
 * Context: process context, may sleep.
 * Return: the first non-zero ENCLS result, or 0.
 */
int isgx_test_build(struct isgx_test_env *t, char vec, void *secs, void *p1, void *p2)
{
	int ret;

	ret = isgx_test_ecreate(t, secs, T_BASE, T_SIZE, T_ATTR, 1);
	if (ret || vec == 'a')
		return ret;
	if (vec == 'd') {
		isgx_test_pattern(t->src, 0);
		ret = isgx_test_eadd_raw(t, secs, p1, T_BASE + 0x1000,
					 0x201);
		return ret ? ret : isgx_test_eextend_page(t, secs, p1);
	}
	ret = isgx_test_eadd(t, secs, p1, T_BASE, 0x203, NULL);
	if (ret || vec == 'b')
		return ret;
	ret = isgx_test_eadd(t, secs, p2, T_BASE + 0x1000, 0x205, NULL);
	return ret ? ret : isgx_test_eextend_page(t, secs, p2);
}

/**
 * isgx_test_std_enclave() - debug enclave with one REG page at T_BASE
 * @t:	test environment
 * @secs:	SECS page
 * @reg:	the REG page (pattern 0x11, R|W)
 *
 * Context: process context, may sleep.
 * Return: the first non-zero ENCLS result, or 0.
 */
int isgx_test_std_enclave(struct isgx_test_env *t, void *secs, void *reg)
{
	int ret = isgx_test_ecreate(t, secs, T_BASE, T_SIZE, T_ATTR, 1);

	if (ret)
		return ret;
	isgx_test_pattern(t->src, 0x11);
	return isgx_test_eadd_raw(t, secs, reg, T_BASE, 0x203);
}

/**
 * isgx_test_evict() - EWB a page into backing @i
 * @t:	test environment
 * @epc:	the page
 * @slot:	VA slot
 * @i:	backing page and PCMD index
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_evict(struct isgx_test_env *t, void *epc, void *slot, int i)
{
	struct isgx_pageinfo *pi = t->pi;

	memset(pi, 0, sizeof(*pi));
	pi->contents = (unsigned long)t->back[i];
	pi->metadata = (unsigned long)&t->pcmd[i];
	return __ewb(pi, epc, slot);
}

/**
 * isgx_test_eldu() - ELDU from backing @i
 * @t:	test environment
 * @epc:	target page
 * @slot:	VA slot
 * @secs:	parent SECS or NULL
 * @linaddr:	LINADDR
 * @i:	backing page and PCMD index
 *
 * Context: process context, may sleep.
 * Return: the ENCLS result.
 */
int isgx_test_eldu(struct isgx_test_env *t, void *epc, void *slot, void *secs, u64 linaddr,
		   int i)
{
	struct isgx_pageinfo *pi = t->pi;

	pi->addr = linaddr;
	pi->contents = (unsigned long)t->back[i];
	pi->metadata = (unsigned long)&t->pcmd[i];
	pi->secs = (unsigned long)secs;
	return __eldu(pi, epc, slot);
}

/**
 * isgx_test_set_inside() - declare CPUs inside an enclave, undone by cleanup
 * @t:	test environment
 * @secs:	SECS
 * @mask:	CPUs, or NULL
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int isgx_test_set_inside(struct isgx_test_env *t, void *secs, const struct cpumask *mask)
{
	int i;

	for (i = 0; i < t->nr_inside; i++)
		if (t->inside[i] == secs)
			break;
	if (i == t->nr_inside && mask) {
		if (t->nr_inside == ARRAY_SIZE(t->inside))
			return -ENOSPC;
		t->inside[t->nr_inside++] = secs;
	}
	return isgx_emu_test_set_inside(secs, mask);
}

/**
 * isgx_test_hold() - hold a page busy, released by cleanup
 * @t:	test environment
 * @epc:	the page
 * @etrack:	also pretend an ETRACK runs
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int isgx_test_hold(struct isgx_test_env *t, void *epc, bool etrack)
{
	int ret;

	if (t->nr_held == ARRAY_SIZE(t->held))
		return -ENOSPC;
	ret = isgx_emu_test_hold(epc, etrack);
	if (!ret)
		t->held[t->nr_held++] = epc;
	return ret;
}

/**
 * isgx_test_release() - release a page held by isgx_test_hold()
 * @t:	test environment
 * @epc:	the page
 *
 * Context: process context, may sleep.
 */
void isgx_test_release(struct isgx_test_env *t, void *epc)
{
	int i;

	for (i = 0; i < t->nr_held; i++) {
		if (t->held[i] == epc) {
			isgx_emu_test_release(epc);
			t->held[i] = t->held[--t->nr_held];
			return;
		}
	}
}

/**
 * isgx_test_other_cpu() - an online CPU other than this one
 *
 * Context: process context, may sleep.
 * Return: a CPU number, or -1 on a single-CPU guest.
 */
int isgx_test_other_cpu(void)
{
	unsigned int cpu = cpumask_any_but(cpu_online_mask,
					   raw_smp_processor_id());

	return cpu < nr_cpu_ids ? cpu : -1;
}

/* Undo whatever a case left behind; fails if a page cannot be removed. */
static void isgx_test_cleanup(struct isgx_test_env *t)
{
	int i, pass;

	while (t->nr_held)
		isgx_test_release(t, t->held[0]);
	for (i = 0; i < t->nr_inside; i++)
		isgx_emu_test_set_inside(t->inside[i], NULL);
	t->nr_inside = 0;
	if (current->mm)
		isgx_emu_mm_forget(current->mm);
	isgx_emu_test_set_strict(false);
	isgx_emu_test_set_unmasked_pct(0);
	isgx_emu_test_set_lc_allow(NULL, 0);
	isgx_emu_test_set_tick(0);
	/* Children and VA pages first, then SECS pages. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < T_NR_EPC; i++) {
			int ret = __eremove(t->epc[i]);

			T_CHECK(t, !pass || !ret,
				"cleanup: EREMOVE of test page %d = %#x", i, ret);
		}
	}
	for (i = 0; i < T_NR_EPC; i++)
		T_CHECK(t, isgx_test_all_ff(t->epc[i]),
			"cleanup: removed page %d does not read as all-ones", i);
}

static __printf(1, 2) void isgx_test_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	isgx_test_results_len += vscnprintf(isgx_test_results + isgx_test_results_len,
					    T_RESULTS_SIZE - isgx_test_results_len, fmt, ap);
	va_end(ap);
}

static void isgx_test_run_all(void)
{
	unsigned int n = isgx_test_nr_cases_build + isgx_test_nr_cases_paging;
	unsigned int i, pass = 0, fail = 0, skip = 0;
	struct isgx_test_env *t = isgx_test_env;

	isgx_test_out("KTAP version 1\n1..%u\n", n);
	for (i = 0; i < n; i++) {
		const struct isgx_test_case *c = i < isgx_test_nr_cases_build ?
			&isgx_test_cases_build[i] :
			&isgx_test_cases_paging[i - isgx_test_nr_cases_build];
		int ret = 0;

		t->reason[0] = 0;
		t->failed = false;
		isgx_test_cleanup(t);
		if (!t->failed)
			ret = c->fn(t);
		isgx_test_cleanup(t);
		if (!ret && !t->failed) {
			pass++;
			isgx_test_out("ok %u %s\n", i + 1, c->name);
		} else if (ret == -EOPNOTSUPP && !t->failed) {
			skip++;
			isgx_test_out("ok %u %s # SKIP %s\n", i + 1, c->name, t->reason);
		} else {
			fail++;
			isgx_test_out("not ok %u %s # %s\n", i + 1, c->name,
				      t->reason[0] ? t->reason : "failed");
			pr_info("case %s failed: %s\n", c->name, t->reason);
		}
		cond_resched();
	}
	isgx_test_out("# totals: pass:%u fail:%u skip:%u\n", pass, fail, skip);
	pr_info("%u cases: %u passed, %u failed, %u skipped\n", n, pass, fail,
		skip);
}

static ssize_t isgx_test_results_read(struct file *f, char __user *buf, size_t len,
				      loff_t *pos)
{
	return simple_read_from_buffer(buf, len, pos, isgx_test_results,
				       isgx_test_results_len);
}

static const struct file_operations isgx_test_results_fops = {
	.owner = THIS_MODULE,
	.read = isgx_test_results_read,
	.llseek = default_llseek,
};

struct isgx_test_bench_out {
	size_t len;
	char buf[];
};

#define T_BENCH_SIZE	4096

static int isgx_test_bench_open(struct inode *inode, struct file *f)
{
	struct isgx_test_bench_out *o = kvzalloc(sizeof(*o) + T_BENCH_SIZE,
						 GFP_KERNEL);
	int ret;

	if (!o)
		return -ENOMEM;
	mutex_lock(&isgx_test_mutex);
	isgx_test_env->reason[0] = 0;
	isgx_test_env->failed = false;
	isgx_test_cleanup(isgx_test_env);
	ret = isgx_test_env->failed ? -EBUSY :
	      isgx_test_bench_run(isgx_test_env, o->buf, T_BENCH_SIZE);
	isgx_test_cleanup(isgx_test_env);
	if (!isgx_test_env->failed && ret >= 0)
		o->len = ret;
	else
		o->len = scnprintf(o->buf, T_BENCH_SIZE,
				   "# bench failed: %d %s\n", ret,
				   isgx_test_env->reason);
	mutex_unlock(&isgx_test_mutex);
	f->private_data = o;
	return 0;
}

static ssize_t isgx_test_bench_read(struct file *f, char __user *buf, size_t len,
				    loff_t *pos)
{
	struct isgx_test_bench_out *o = f->private_data;

	return simple_read_from_buffer(buf, len, pos, o->buf, o->len);
}

static int isgx_test_bench_release(struct inode *inode, struct file *f)
{
	kvfree(f->private_data);
	return 0;
}

static const struct file_operations isgx_test_bench_fops = {
	.owner = THIS_MODULE,
	.open = isgx_test_bench_open,
	.read = isgx_test_bench_read,
	.release = isgx_test_bench_release,
	.llseek = default_llseek,
};

static void isgx_test_env_free(struct isgx_test_env *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < T_NR_BACK; i++)
		free_page((unsigned long)t->back[i]);
	free_page((unsigned long)t->kpage);
	free_page((unsigned long)t->src);
	free_page((unsigned long)t->sig);
	free_page((unsigned long)t->ops);
	vfree(t->vbuf);
	kfree(t);
}

static struct isgx_test_env *isgx_test_env_alloc(void)
{
	const struct isgx_emu_section *s;
	struct isgx_test_env *t;
	unsigned int n;
	int i;

	n = isgx_emu_nr_sections();
	s = n ? isgx_emu_section_get(n - 1) : NULL;
	if (!s || s->nr_pages < T_NR_EPC)
		return ERR_PTR(-ENODEV);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < T_NR_EPC; i++)
		t->epc[i] = s->base + (s->nr_pages - T_NR_EPC + i) * PAGE_SIZE;
	t->ops = (void *)get_zeroed_page(GFP_KERNEL);
	t->sig = (void *)get_zeroed_page(GFP_KERNEL);
	t->src = (void *)get_zeroed_page(GFP_KERNEL);
	t->kpage = (void *)get_zeroed_page(GFP_KERNEL);
	for (i = 0; i < T_NR_BACK; i++)
		t->back[i] = (void *)get_zeroed_page(GFP_KERNEL);
	t->vbuf = vzalloc(PAGE_SIZE);
	for (i = 0; i < T_NR_BACK; i++)
		if (!t->back[i])
			goto err;
	if (!t->ops || !t->sig || !t->src || !t->kpage || !t->vbuf)
		goto err;
	t->pi = t->ops;
	t->si = t->ops + 64;
	t->pcmd = t->ops + 128;
	t->tok = t->ops + 1024;
	t->bogus = t->vbuf + PAGE_SIZE;
	return t;
err:
	isgx_test_env_free(t);
	return ERR_PTR(-ENOMEM);
}

static int __init isgx_test_init(void)
{
	int ret;

	if (isgx_encls_hw) {
		pr_info("hw backend in use: the emu tests do not apply\n");
		return -ENODEV;
	}
	isgx_test_results = kvzalloc(T_RESULTS_SIZE, GFP_KERNEL);
	if (!isgx_test_results)
		return -ENOMEM;
	isgx_test_env = isgx_test_env_alloc();
	if (IS_ERR(isgx_test_env)) {
		ret = PTR_ERR(isgx_test_env);
		goto err_results;
	}
	isgx_test_dir = debugfs_create_dir("isgx_emu_test", NULL);
	debugfs_create_file("results", 0444, isgx_test_dir, NULL, &isgx_test_results_fops);
	debugfs_create_file("bench", 0444, isgx_test_dir, NULL, &isgx_test_bench_fops);

	mutex_lock(&isgx_test_mutex);
	isgx_test_run_all();
	mutex_unlock(&isgx_test_mutex);
	return 0;

err_results:
	kvfree(isgx_test_results);
	return ret;
}

static void __exit isgx_test_exit(void)
{
	debugfs_remove_recursive(isgx_test_dir);
	mutex_lock(&isgx_test_mutex);
	isgx_test_cleanup(isgx_test_env);
	mutex_unlock(&isgx_test_mutex);
	isgx_test_env_free(isgx_test_env);
	kvfree(isgx_test_results);
}

module_init(isgx_test_init);
module_exit(isgx_test_exit);

MODULE_DESCRIPTION("isgx emu backend: in-kernel tests and microbenchmark");
MODULE_AUTHOR("isgx developers");
MODULE_LICENSE("GPL");
