// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: the /dev/sgx ioctls (kmod/uapi/isgx.h): copy in, validate, hand off.
 *
 * Validation is at least as strict as the staging driver's validate_secs,
 * validate_secinfo and validate_tcs, so that a malformed argument gets an
 * errno here instead of a fault from ENCLS.  Every errno is listed in the
 * README; nothing user space can pass logs a line or WARNs.
 *
 * The structures have the same layout for 32-bit and 64-bit processes, so
 * the compat entry point only converts the argument pointer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/mman.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <crypto/sha2.h>
#include <asm/fpu/api.h>

#include "encl.h"
#include "encls.h"
#include "ioctl.h"
#include "pager.h"
#include "uapi/isgx.h"

/* EINIT retries on SGX_UNMASKED_EVENT, as the staging driver did. */
#define ISGX_EINIT_SPIN_COUNT	20
#define ISGX_EINIT_SLEEP_COUNT	50
#define ISGX_EINIT_SLEEP_MS	20

/* Highest ISVSVNLE seen in a valid EINITTOKEN (SGX_LE_ROLLBACK below it). */
static u16 isgx_isvsvnle_max;
static DEFINE_SPINLOCK(isgx_isvsvnle_lock);

static bool isgx_all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/* Bytes of the XSAVE area (non-compacted) that @xfrm needs. */
static u32 isgx_xsave_size(u64 xfrm)
{
	u32 size = 512 + 64, eax, ebx, ecx, edx;
	int i;

	for (i = 2; i < 64; i++) {
		if (!(xfrm & BIT_ULL(i)))
			continue;
		cpuid_count(0xd, i, &eax, &ebx, &ecx, &edx);
		size = max(size, eax + ebx);
	}
	return size;
}

static int isgx_secs_validate(const struct isgx_secs *secs)
{
	bool mode64 = secs->attributes & SGX_ATTR_MODE64BIT;
	u32 caps[4], attrs[4];
	u64 attr_allowed, xfrm_allowed;
	unsigned int max_log2;
	u32 ssa_needed;

	isgx_encls_cpuid(0, caps);
	isgx_encls_cpuid(1, attrs);
	attr_allowed = (u64)attrs[1] << 32 | attrs[0];
	xfrm_allowed = (u64)attrs[3] << 32 | attrs[2];
	max_log2 = mode64 ? (caps[3] >> 8) & 0xff : caps[3] & 0xff;

	if (secs->size < 2 * PAGE_SIZE || !is_power_of_2(secs->size) ||
	    ilog2(secs->size) >= max_log2)
		return -EINVAL;
	if (secs->attributes & (SGX_ATTR_RESERVED_MASK | SGX_ATTR_INIT) ||
	    secs->attributes & ~attr_allowed)
		return -EINVAL;
	/* 64-bit enclaves only from 64-bit tasks, 32-bit ones only from compat. */
	if (mode64 == in_compat_syscall())
		return -EINVAL;
	if ((secs->xfrm & 3) != 3 || secs->xfrm & ~xfrm_allowed)
		return -EINVAL;
	if (secs->miscselect & ~caps[1])
		return -EINVAL;
	ssa_needed = isgx_xsave_size(secs->xfrm) + SGX_SSA_GPRS_SIZE +
		     (secs->miscselect & SGX_MISC_EXINFO ? SGX_SSA_MISC_EXINFO_SIZE : 0);
	if (!secs->ssa_frame_size || secs->ssa_frame_size > secs->size >> PAGE_SHIFT ||
	    (u64)secs->ssa_frame_size * PAGE_SIZE < ssa_needed)
		return -EINVAL;
	if (!isgx_all_zero(secs->reserved1, sizeof(secs->reserved1)) ||
	    !isgx_all_zero(secs->reserved2, sizeof(secs->reserved2)) ||
	    !isgx_all_zero(secs->reserved3, sizeof(secs->reserved3)) ||
	    !isgx_all_zero(secs->reserved4, sizeof(secs->reserved4)) ||
	    !isgx_all_zero(secs->config_id, sizeof(secs->config_id)) ||
	    secs->config_svn)
		return -EINVAL;
	return 0;
}

static int isgx_secinfo_validate(const struct isgx_secinfo *secinfo)
{
	u64 flags = secinfo->flags;
	u64 pt = (flags & SGX_SECINFO_PT_MASK) >> SGX_SECINFO_PT_SHIFT;

	if (flags & (SGX_SECINFO_RESERVED_MASK | SGX_SECINFO_STATE_MASK))
		return -EINVAL;
	if ((flags & SGX_SECINFO_W) && !(flags & SGX_SECINFO_R))
		return -EINVAL;
	if (pt != SGX_PT_REG && pt != SGX_PT_TCS)
		return -EINVAL;
	if (!isgx_all_zero(secinfo->reserved, sizeof(secinfo->reserved)))
		return -EINVAL;
	return 0;
}

static int isgx_tcs_validate(const struct isgx_tcs *tcs)
{
	if (tcs->flags || !PAGE_ALIGNED(tcs->ssa_offset) ||
	    !PAGE_ALIGNED(tcs->fs_offset) || !PAGE_ALIGNED(tcs->gs_offset) ||
	    (tcs->fs_limit & 0xfff) != 0xfff || (tcs->gs_limit & 0xfff) != 0xfff ||
	    !isgx_all_zero(tcs->reserved, sizeof(tcs->reserved)))
		return -EINVAL;
	return 0;
}

static long isgx_ioc_create(struct file *file, void __user *arg)
{
	struct isgx_secinfo secinfo __aligned(SGX_SECINFO_ALIGN) = {};
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	struct sgx_create_param param;
	struct isgx_epc_page *epc;
	struct isgx_encl *encl;
	struct isgx_secs *secs;
	unsigned long addr;
	long ret;

	if (copy_from_user(&param, arg, sizeof(param)))
		return -EFAULT;
	secs = (struct isgx_secs *)get_zeroed_page(GFP_KERNEL);
	if (!secs)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(secs, u64_to_user_ptr(param.secs), sizeof(*secs)))
		goto err_secs;
	ret = isgx_secs_validate(secs);
	if (ret)
		goto err_secs;

	ret = -ENOMEM;
	encl = isgx_encl_alloc(current->mm);
	if (!encl)
		goto err_secs;
	/* Its SECS stays in the EPC until INIT: bounded (proc.c). */
	ret = isgx_proc_pin(encl->proc);
	if (ret)
		goto err_encl;
	encl->flags |= ISGX_ENCL_PINNED;
	encl->size = secs->size;
	encl->attributes = secs->attributes;
	if (secs->attributes & SGX_ATTR_DEBUG)
		encl->flags |= ISGX_ENCL_DEBUG;

	addr = vm_mmap(file, 0, secs->size, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_SHARED, 0);
	if (IS_ERR_VALUE(addr)) {
		ret = (long)addr;
		goto err_encl;
	}
	encl->base = addr;
	secs->base = addr;
	ret = isgx_encl_backing_create(encl);
	if (ret)
		goto err_unmap;

	/* The SECS counts against max_pages_per_process too. */
	ret = isgx_pager_charge(encl);
	if (ret)
		goto err_unmap;
	epc = isgx_epc_alloc(encl);
	if (IS_ERR(epc)) {
		isgx_proc_charge(encl->proc, -1);
		ret = PTR_ERR(epc);
		goto err_unmap;
	}
	encl->secs = epc;
	pginfo.contents = (unsigned long)secs;
	pginfo.metadata = (unsigned long)&secinfo;
	ret = __ecreate(&pginfo, epc->va);
	if (ret) {
		/* Validation mirrors ECREATE's checks; a fault is a bad SECS. */
		ret = -EINVAL;
		goto err_unmap;
	}
	/* On failure the range was unmapped or replaced meanwhile: not ours. */
	ret = isgx_encl_attach(encl, current->mm);
	if (ret)
		goto err_encl;
	param.addr = addr;
	if (copy_to_user(arg, &param, sizeof(param))) {
		ret = -EFAULT;
		goto err_unmap;
	}
	isgx_encl_put(encl);
	free_page((unsigned long)secs);
	return 0;

err_unmap:
	vm_munmap(addr, secs->size);
err_encl:
	isgx_encl_put(encl);
err_secs:
	free_page((unsigned long)secs);
	return ret;
}

/* The common entry of the enclave ioctls: the enclave, alive, of this mm. */
static long isgx_encl_lock_alive(struct isgx_encl *encl)
{
	mutex_lock(&encl->lock);
	if (encl->flags & ISGX_ENCL_DEAD) {
		mutex_unlock(&encl->lock);
		return -ENOENT;
	}
	if (isgx_encl_power_lost(encl)) {
		mutex_unlock(&encl->lock);
		return SGX_POWER_LOST_ENCLAVE;
	}
	return 0;
}

/*
 * EADD and EEXTEND of one page into @epc, allocated by the caller before
 * it took encl->lock (allocating may reclaim, and the reclaimer takes
 * enclave locks).  On failure the caller frees @epc.
 */
static long isgx_encl_add_page(struct isgx_encl *encl, unsigned long addr,
			       void *src, struct isgx_secinfo *secinfo, u32 flags,
			       struct isgx_epc_page *epc)
{
	struct isgx_pageinfo pginfo __aligned(SGX_PAGEINFO_ALIGN) = {};
	unsigned long idx = PFN_DOWN(addr - encl->base);
	struct isgx_encl_page *page;
	long ret;
	int i;

	if (encl->flags & ISGX_ENCL_INITIALIZED)
		return -EPERM;
	if (addr - encl->base >= encl->size)
		return -EINVAL;
	if (xa_load(&encl->pages, idx))
		return -EEXIST;

	page = kzalloc(sizeof(*page), GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	page->addr = addr;
	page->secinfo = secinfo->flags;
	page->encl = encl;
	INIT_LIST_HEAD(&page->lru.link);
	epc->owner = page;

	pginfo.addr = addr;
	pginfo.contents = (unsigned long)src;
	pginfo.metadata = (unsigned long)secinfo;
	pginfo.secs = (unsigned long)encl->secs->va;
	ret = __eadd(&pginfo, epc->va);
	if (ret)
		goto err_eadd;
	for (i = 0; !(flags & SGX_ADD_SKIP_EEXTEND) && i < PAGE_SIZE / SGX_CHUNK_SIZE; i++) {
		ret = __eextend(encl->secs->va, epc->va + i * SGX_CHUNK_SIZE);
		if (ret)
			goto err_eadd;
	}

	ret = xa_insert(&encl->pages, idx, page, GFP_KERNEL);
	if (ret)
		goto err_eadd;
	page->epc_page = epc;
	page->flags = ISGX_PAGE_NEVER_MAPPED;
	encl->nr_pages++;
	isgx_pager_track(epc);
	return 0;

err_eadd:
	/* EADD/EEXTEND fault only on a lost EPC or a model bug: not user input. */
	if (ret > 0 || encls_faulted(ret))
		ret = isgx_encl_power_lost(encl) ? SGX_POWER_LOST_ENCLAVE : -EIO;
	kfree(page);
	return ret;
}

static long isgx_ioc_add_page(struct file *file, void __user *arg)
{
	struct isgx_secinfo secinfo __aligned(SGX_SECINFO_ALIGN);
	struct sgx_add_param param;
	struct isgx_epc_page *epc;
	struct isgx_encl *encl;
	void *src;
	long ret;

	if (copy_from_user(&param, arg, sizeof(param)))
		return -EFAULT;
	if (param.flags & ~SGX_ADD_SKIP_EEXTEND || param.reserved)
		return -EINVAL;
	if (copy_from_user(&secinfo, u64_to_user_ptr(param.secinfo), sizeof(secinfo)))
		return -EFAULT;
	ret = isgx_secinfo_validate(&secinfo);
	if (ret)
		return ret;

	src = (void *)get_zeroed_page(GFP_KERNEL);
	if (!src)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(src, u64_to_user_ptr(param.user_addr), PAGE_SIZE))
		goto out_src;
	if ((secinfo.flags & SGX_SECINFO_PT_MASK) == (u64)SGX_PT_TCS << SGX_SECINFO_PT_SHIFT) {
		ret = isgx_tcs_validate(src);
		if (ret)
			goto out_src;
	}

	/* The page's own address names the enclave, as in the staging driver. */
	ret = -ENOENT;
	encl = isgx_encl_get(current->mm, param.addr, ISGX_ENCL_BY_PAGE);
	if (!encl)
		goto out_src;

	ret = -EINVAL;
	if (!PAGE_ALIGNED(param.addr))
		goto out_put;
	ret = isgx_pager_charge(encl);
	if (ret)
		goto out_put;
	epc = isgx_epc_alloc(NULL);
	if (IS_ERR(epc)) {
		isgx_proc_charge(encl->proc, -1);
		ret = PTR_ERR(epc);
		goto out_put;
	}
	ret = isgx_encl_lock_alive(encl);
	if (!ret) {
		ret = isgx_encl_add_page(encl, param.addr, src, &secinfo, param.flags, epc);
		mutex_unlock(&encl->lock);
	}
	if (ret) {
		isgx_epc_free(epc);
		isgx_proc_charge(encl->proc, -1);
	}
out_put:
	isgx_encl_put(encl);
out_src:
	free_page((unsigned long)src);
	return ret;
}

/*
 * EINIT with the launch-enclave hash programmed to the enclave's own
 * MRSIGNER (owner launch control: a self-signed enclave launches unless the
 * owner's allow-list in the model says otherwise).  The MSRs are per CPU,
 * so the task stays on one CPU from the write to EINIT's end.
 */
static int isgx_einit_once(struct isgx_encl *encl, struct isgx_sigstruct *sigstruct,
			   struct isgx_einittoken *token, const u64 mrsigner[4])
{
	int ret;

	migrate_disable();
	isgx_encls_lehash_write(mrsigner);
	ret = __einit(sigstruct, encl->secs->va, token);
	migrate_enable();
	return ret;
}

static long isgx_encl_init(struct isgx_encl *encl, struct isgx_sigstruct *sigstruct,
			   struct isgx_einittoken *token)
{
	u64 mrsigner[4];
	int i, j, ret;

	if (encl->flags & ISGX_ENCL_INITIALIZED)
		return -EPERM;

	if ((token->valid & SGX_EINITTOKEN_VALID) &&
	    token->isv_svn_le < READ_ONCE(isgx_isvsvnle_max))
		return SGX_LE_ROLLBACK;

	/*
	 * From EINIT on, the process's threads may run inside the enclave:
	 * the model counts the CPUs running this mm as inside it.  Before,
	 * nothing can be inside, so EREMOVE on a failed ADD_PAGE is never
	 * refused with SGX_ENCLAVE_ACT.
	 */
	if (!isgx_encls_hw) {
		ret = isgx_emu_encl_add_mm(encl->secs->va, encl->mm);
		if (ret)
			return ret;
	}

	sha256(sigstruct->modulus, SGX_MODULUS_SIZE, (u8 *)mrsigner);
	for (i = 0; i < ISGX_EINIT_SLEEP_COUNT; i++) {
		for (j = 0; j < ISGX_EINIT_SPIN_COUNT; j++) {
			ret = isgx_einit_once(encl, sigstruct, token, mrsigner);
			if (ret != SGX_UNMASKED_EVENT)
				goto done;
		}
		if (msleep_interruptible(ISGX_EINIT_SLEEP_MS) || signal_pending(current)) {
			ret = -EINTR;
			goto done;
		}
	}
done:
	if (!ret) {
		/* Only a token EINIT accepted may raise the rollback floor. */
		if (token->valid & SGX_EINITTOKEN_VALID) {
			spin_lock(&isgx_isvsvnle_lock);
			isgx_isvsvnle_max = max(isgx_isvsvnle_max, token->isv_svn_le);
			spin_unlock(&isgx_isvsvnle_lock);
		}
		encl->flags |= ISGX_ENCL_INITIALIZED;
		/* From now on its SECS can be evicted with its last child. */
		encl->flags &= ~ISGX_ENCL_PINNED;
		isgx_proc_unpin(encl->proc);
		return 0;
	}
	if (!isgx_encls_hw)
		isgx_emu_encl_del_mm(encl->secs->va, encl->mm);
	if (encls_faulted(ret))
		return isgx_encl_power_lost(encl) ? SGX_POWER_LOST_ENCLAVE : -EIO;
	return ret;
}

static long isgx_ioc_init(struct file *file, void __user *arg)
{
	struct isgx_einittoken *token;
	struct isgx_sigstruct *sigstruct;
	struct sgx_init_param param;
	struct isgx_encl *encl;
	void *buf;
	long ret;

	if (copy_from_user(&param, arg, sizeof(param)))
		return -EFAULT;
	/* One page: SIGSTRUCT at 0 (4 KiB aligned), the token at 2048 (512). */
	buf = (void *)get_zeroed_page(GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	sigstruct = buf;
	token = buf + 2048;
	ret = -EFAULT;
	if (copy_from_user(sigstruct, u64_to_user_ptr(param.sigstruct), sizeof(*sigstruct)) ||
	    copy_from_user(token, u64_to_user_ptr(param.einittoken), sizeof(*token)))
		goto out_buf;

	ret = -ENOENT;
	encl = isgx_encl_get(current->mm, param.addr, ISGX_ENCL_BY_BASE);
	if (!encl)
		goto out_buf;
	ret = isgx_encl_lock_alive(encl);
	if (!ret) {
		ret = isgx_encl_init(encl, sigstruct, token);
		mutex_unlock(&encl->lock);
	}
	isgx_encl_put(encl);
out_buf:
	free_page((unsigned long)buf);
	return ret;
}

/*
 * Unmap the VMAs of @encl in its range, and nothing else: after a partial
 * munmap, the hole may hold other mappings of the process (another
 * enclave, anonymous or file memory), which DESTROY must not touch.  Each
 * round finds the next VMA of the enclave under the read lock and unmaps
 * it (vm_munmap() takes the write lock): a thread of the same process
 * that remaps that very range in between loses its new mapping, which
 * only it could have asked for.
 */
static int isgx_encl_unmap(struct mm_struct *mm, struct isgx_encl *encl)
{
	unsigned long addr = encl->base, end = encl->base + encl->size;
	int ret = 0;

	while (!ret && addr < end) {
		unsigned long start = 0, stop = 0;
		struct vm_area_struct *vma;

		mmap_read_lock(mm);
		for (vma = find_vma(mm, addr); vma && vma->vm_start < end;
		     vma = find_vma(mm, vma->vm_end)) {
			if (vma->vm_ops == &isgx_vm_ops && vma->vm_private_data == encl) {
				start = max(vma->vm_start, addr);
				stop = min(vma->vm_end, end);
				break;
			}
		}
		mmap_read_unlock(mm);
		if (!stop)
			break;
		ret = vm_munmap(start, stop - start);
		addr = stop;
	}
	return ret;
}

static long isgx_ioc_destroy(struct file *file, void __user *arg)
{
	struct sgx_destroy_param param;
	struct isgx_encl *encl;
	long ret;

	if (copy_from_user(&param, arg, sizeof(param)))
		return -EFAULT;
	encl = isgx_encl_get(current->mm, param.addr, ISGX_ENCL_BY_BASE);
	if (!encl)
		return -ENOENT;
	mutex_lock(&encl->lock);
	encl->flags |= ISGX_ENCL_DEAD;
	mutex_unlock(&encl->lock);
	/* Unmapping drops the VMAs' references; the last one frees the EPC. */
	ret = isgx_encl_unmap(current->mm, encl);
	isgx_encl_put(encl);
	return ret;
}

/**
 * isgx_ioctl() - the unlocked_ioctl of /dev/sgx
 * @file:	the open device
 * @cmd:	SGX_IOC_ENCLAVE_*
 * @arg:	user pointer to the command's structure
 *
 * Context: process context.
 * Return: 0, a negative errno, or a positive SGX code (see the README).
 */
long isgx_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case SGX_IOC_ENCLAVE_CREATE:
		return isgx_ioc_create(file, uarg);
	case SGX_IOC_ENCLAVE_ADD_PAGE:
		return isgx_ioc_add_page(file, uarg);
	case SGX_IOC_ENCLAVE_INIT:
		return isgx_ioc_init(file, uarg);
	case SGX_IOC_ENCLAVE_DESTROY:
		return isgx_ioc_destroy(file, uarg);
	default:
		return -ENOTTY;
	}
}
