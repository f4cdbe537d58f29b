// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: EINIT -- SIGSTRUCT checks, RSA-3072 signature verification,
 * launch control.
 *
 * The signature check follows spec §5.3: N and S little-endian, e = 3,
 * S^3 mod N must be the PKCS#1 v1.5 encoding of SHA-256 over the 256
 * signed bytes, and Q1/Q2 must be the quotients the hardware uses to reduce
 * by multiplication only.  All big-number work is the kernel's MPI library.
 *
 * Launch control is flexible (FLC) and owner-controlled: the emulated
 * IA32_SGXLEPUBKEYHASH MSRs are per CPU, reset to Intel's launch key hash
 * and writable by the driver, which writes the enclave's MRSIGNER just
 * before EINIT.  When the owner sets an allow-list (parameter lc_allow),
 * only enclaves whose MRSIGNER is on it may launch; others get
 * SGX_INVALID_EINITTOKEN, the code for "launch not permitted".
 *
 * The token path (EINITTOKEN.VALID = 1) is checked as far as an emulator
 * can: a token MACed with the CPU's private launch key cannot be made by
 * anyone, so after the reserved-field and CPUSVN checks the MAC check
 * always fails.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/mpi.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "internal.h"

#define ISGX_LC_ALLOW_MAX	8

static const u8 isgx_sig_header[16] = {
	0x06, 0x00, 0x00, 0x00, 0xE1, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 isgx_sig_header2[16] = {
	0x01, 0x01, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00,
	0x60, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
};

static const u8 isgx_sha256_digest_info[19] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
	0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
};

/* Reset value of IA32_SGXLEPUBKEYHASH0..3 (Intel's launch enclave key). */
static const u64 isgx_lehash_reset[4] = {
	0xa6053e051270b7acULL, 0x6cfbe8ba8b3b413dULL,
	0xc4916d99f2b3735dULL, 0xd4f8c05909f9bb3bULL,
};

/* Emulated CPUSVN of this CPU model. */
static const u8 isgx_cpusvn[16];

static DEFINE_PER_CPU(u64[4], isgx_lehash);

/* Owner allow-list of MRSIGNER values; empty means any signer may launch. */
static DEFINE_MUTEX(isgx_lc_mutex);
static u8 isgx_lc_allow[ISGX_LC_ALLOW_MAX][SGX_HASH_SIZE];	/* lc_mutex */
static unsigned int isgx_lc_allow_nr;				/* lc_mutex */

/**
 * isgx_emu_lc_init() - reset the LE-key-hash MSRs of every CPU
 *
 * Context: process context (load time).
 */
void isgx_emu_lc_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memcpy(per_cpu(isgx_lehash, cpu), isgx_lehash_reset,
		       sizeof(isgx_lehash_reset));
}

/**
 * isgx_emu_lehash_write() - WRMSR IA32_SGXLEPUBKEYHASH0..3 on this CPU
 * @hash:	the four MSR values (digest bytes 0-7, 8-15, ... as LE u64)
 *
 * Context: the caller keeps the task on this CPU (migrate_disable()) from
 * the write until EINIT has started, as with the real MSRs.
 */
void isgx_emu_lehash_write(const u64 hash[4])
{
	u64 *msr = get_cpu_ptr(isgx_lehash);

	memcpy(msr, hash, 4 * sizeof(u64));
	put_cpu_ptr(isgx_lehash);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_lehash_write, ISGX);

static int isgx_lc_set(const u8 *mrsigner, unsigned int nr)
{
	if (nr > ISGX_LC_ALLOW_MAX)
		return -EINVAL;
	mutex_lock(&isgx_lc_mutex);
	if (nr)
		memcpy(isgx_lc_allow, mrsigner, nr * SGX_HASH_SIZE);
	isgx_lc_allow_nr = nr;
	mutex_unlock(&isgx_lc_mutex);
	return 0;
}

/**
 * isgx_emu_test_set_lc_allow() - set the owner's MRSIGNER allow-list
 * @mrsigner:	@nr hashes of SGX_HASH_SIZE bytes, back to back
 * @nr:		0 (anyone may launch) .. 8
 *
 * Context: process context.
 * Return: 0 or -EINVAL.
 */
int isgx_emu_test_set_lc_allow(const u8 *mrsigner, unsigned int nr)
{
	return isgx_lc_set(mrsigner, nr);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_set_lc_allow, ISGX);

static bool isgx_lc_permitted(const u8 *mrsigner)
{
	bool ok = true;
	unsigned int i;

	mutex_lock(&isgx_lc_mutex);
	if (isgx_lc_allow_nr) {
		ok = false;
		for (i = 0; i < isgx_lc_allow_nr; i++)
			if (!memcmp(isgx_lc_allow[i], mrsigner, SGX_HASH_SIZE))
				ok = true;
	}
	mutex_unlock(&isgx_lc_mutex);
	return ok;
}

/* lc_allow=<64 hex>[,<64 hex>...]; empty string clears the list. */
static int isgx_lc_param_set(const char *val, const struct kernel_param *kp)
{
	u8 list[ISGX_LC_ALLOW_MAX][SGX_HASH_SIZE];
	unsigned int nr = 0;
	const char *p = val;

	while (*p && *p != '\n') {
		if (nr == ISGX_LC_ALLOW_MAX)
			return -EINVAL;
		if (hex2bin(list[nr], p, SGX_HASH_SIZE))
			return -EINVAL;
		p += 2 * SGX_HASH_SIZE;
		nr++;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return isgx_lc_set(&list[0][0], nr);
}

static int isgx_lc_param_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	mutex_lock(&isgx_lc_mutex);
	for (i = 0; i < isgx_lc_allow_nr; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s%*phN",
				 i ? "," : "", SGX_HASH_SIZE, isgx_lc_allow[i]);
	mutex_unlock(&isgx_lc_mutex);
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops isgx_lc_param_ops = {
	.set = isgx_lc_param_set,
	.get = isgx_lc_param_get,
};
module_param_cb(lc_allow, &isgx_lc_param_ops, NULL, 0644);
MODULE_PARM_DESC(lc_allow, "emu backend: comma-separated MRSIGNER allow-list (hex); empty = any signer");

static bool isgx_emu_all_zero(const void *p, size_t size)
{
	return !memchr_inv(p, 0, size);
}

/* Spec §4.4 step 2: fixed fields and reserved bytes of the SIGSTRUCT. */
static bool isgx_sigstruct_ok(const struct isgx_sigstruct *sig)
{
	return !memcmp(sig->header, isgx_sig_header, 16) &&
	       !memcmp(sig->header2, isgx_sig_header2, 16) &&
	       (sig->vendor == 0 || sig->vendor == 0x8086) &&
	       sig->exponent == 3 &&
	       isgx_emu_all_zero(sig->reserved1, sizeof(sig->reserved1)) &&
	       isgx_emu_all_zero(sig->reserved2, sizeof(sig->reserved2)) &&
	       isgx_emu_all_zero(sig->reserved3, sizeof(sig->reserved3)) &&
	       isgx_emu_all_zero(sig->reserved4, sizeof(sig->reserved4));
}

static MPI isgx_mpi_le(const u8 *le, u8 *scratch)
{
	unsigned int i;

	for (i = 0; i < SGX_MODULUS_SIZE; i++)
		scratch[i] = le[SGX_MODULUS_SIZE - 1 - i];
	return mpi_read_raw_data(scratch, SGX_MODULUS_SIZE);
}

/* true iff q * n + r == x */
static bool isgx_mpi_divides(MPI q, MPI n, MPI r, MPI x, MPI tmp)
{
	mpi_mul(tmp, q, n);
	mpi_add(tmp, tmp, r);
	return !mpi_cmp(tmp, x);
}

/*
 * Spec §5.3.  Return 0 if the signature verifies, SGX_INVALID_SIGNATURE if
 * not, or -ENOMEM.
 */
static int isgx_sigstruct_verify(const struct isgx_sigstruct *sig)
{
	MPI n = NULL, s = NULL, q1 = NULL, q2 = NULL;
	MPI r1 = NULL, r2 = NULL, x = NULL, tmp = NULL;
	u8 *buf, *em, digest[SHA256_DIGEST_SIZE];
	struct sha256_state sha;
	unsigned int nbytes;
	void *m = NULL;
	int ret = -ENOMEM;

	buf = kmalloc(2 * SGX_MODULUS_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	em = buf + SGX_MODULUS_SIZE;

	n = isgx_mpi_le(sig->modulus, buf);
	s = isgx_mpi_le(sig->signature, buf);
	q1 = isgx_mpi_le(sig->q1, buf);
	q2 = isgx_mpi_le(sig->q2, buf);
	r1 = mpi_alloc(0);
	r2 = mpi_alloc(0);
	x = mpi_alloc(0);
	tmp = mpi_alloc(0);
	if (!n || !s || !q1 || !q2 || !r1 || !r2 || !x || !tmp)
		goto out;

	ret = SGX_INVALID_SIGNATURE;
	if (!mpi_cmp_ui(n, 0) || mpi_cmp(s, n) >= 0)
		goto out;
	/* R1 = S^2 mod N; Q1 must be floor(S^2 / N). */
	mpi_mulm(r1, s, s, n);
	mpi_mul(x, s, s);
	if (!isgx_mpi_divides(q1, n, r1, x, tmp))
		goto out;
	/* R2 = S * R1 mod N = S^3 mod N; Q2 must be floor(S * R1 / N). */
	mpi_mulm(r2, s, r1, n);
	mpi_mul(x, s, r1);
	if (!isgx_mpi_divides(q2, n, r2, x, tmp))
		goto out;

	m = mpi_get_buffer(r2, &nbytes, NULL);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	if (nbytes > SGX_MODULUS_SIZE)
		goto out;
	memset(buf, 0, SGX_MODULUS_SIZE);
	memcpy(buf + SGX_MODULUS_SIZE - nbytes, m, nbytes);

	sha256_init(&sha);
	sha256_update(&sha, (const u8 *)sig + SGX_SIGSTRUCT_SIGNED1_OFFSET,
		      SGX_SIGSTRUCT_SIGNED1_SIZE);
	sha256_update(&sha, (const u8 *)sig + SGX_SIGSTRUCT_SIGNED2_OFFSET,
		      SGX_SIGSTRUCT_SIGNED2_SIZE);
	sha256_final(&sha, digest);

	/* 00 01 | ff x 330 | 00 | DigestInfo(19) | digest(32) */
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, 330);
	em[332] = 0x00;
	memcpy(em + 333, isgx_sha256_digest_info, 19);
	memcpy(em + 352, digest, 32);
	if (!memcmp(buf, em, SGX_MODULUS_SIZE))
		ret = 0;
out:
	kfree(m);
	mpi_free(tmp);
	mpi_free(x);
	mpi_free(r2);
	mpi_free(r1);
	mpi_free(q2);
	mpi_free(q1);
	mpi_free(s);
	mpi_free(n);
	kfree(buf);
	return ret;
}

/* Spec §4.4 step 14: the token path.  Returns the EINIT code. */
static int isgx_token_check(const struct isgx_einittoken *tok,
			    const struct isgx_secs *secs)
{
	unsigned int i;

	if ((tok->masked_attributes_le & SGX_ATTR_DEBUG) &&
	    !(secs->attributes & SGX_ATTR_DEBUG))
		return SGX_INVALID_EINITTOKEN;
	if ((tok->valid & ~SGX_EINITTOKEN_VALID) ||
	    !isgx_emu_all_zero(tok->reserved1, sizeof(tok->reserved1)) ||
	    !isgx_emu_all_zero(tok->reserved2, sizeof(tok->reserved2)) ||
	    !isgx_emu_all_zero(tok->reserved3, sizeof(tok->reserved3)) ||
	    !isgx_emu_all_zero(tok->reserved4, sizeof(tok->reserved4)))
		return SGX_INVALID_EINITTOKEN;
	for (i = 0; i < sizeof(isgx_cpusvn); i++)
		if (tok->cpusvn_le[i] > isgx_cpusvn[i])
			return SGX_INVALID_CPUSVN;
	/* Only the CPU's private launch key could have made the MAC. */
	return SGX_INVALID_EINITTOKEN;
}

/**
 * isgx_emu_einit() - ENCLS[EINIT]
 * @sigstruct:	SIGSTRUCT, 4 KiB aligned
 * @secs:	the SECS
 * @token:	EINITTOKEN, 512-byte aligned (all-zero for launch control)
 *
 * The LE-key-hash MSRs are those of the CPU that starts EINIT.
 *
 * Context: process context, may sleep (the RSA check allocates).
 * Return: 0, SGX_INVALID_SIG_STRUCT, SGX_UNMASKED_EVENT,
 * SGX_INVALID_SIGNATURE, SGX_INVALID_MEASUREMENT, SGX_INVALID_ATTRIBUTE,
 * SGX_INVALID_EINITTOKEN, SGX_INVALID_CPUSVN, or a fault (#GP, #PF).
 */
int isgx_emu_einit(struct isgx_sigstruct *sigstruct, void *secs,
		   struct isgx_einittoken *token)
{
	struct isgx_emu_lockset ls = {};
	u8 mrsigner[SGX_HASH_SIZE], mrenclave[SGX_HASH_SIZE];
	struct isgx_emu_secs_priv *priv;
	struct isgx_einittoken *tok;
	struct isgx_sigstruct *sig;
	struct isgx_secs *s = secs;
	struct sha256_state sha;
	u64 lehash[4], *msr;
	long sidx;
	int ret;

	msr = get_cpu_ptr(isgx_lehash);
	memcpy(lehash, msr, sizeof(lehash));
	put_cpu_ptr(isgx_lehash);

	if (!isgx_emu_aligned(sigstruct, PAGE_SIZE) ||
	    !isgx_emu_aligned(secs, PAGE_SIZE) ||
	    !isgx_emu_aligned(token, SGX_EINITTOKEN_ALIGN))
		return ISGX_EMU_GP;
	sidx = isgx_emu_epc_index(secs);
	if (sidx < 0)
		return ISGX_EMU_PF;

	sig = kmalloc(sizeof(*sig) + sizeof(*tok), GFP_KERNEL);
	if (!sig)
		return SGX_UNMASKED_EVENT;	/* transient: the caller retries */
	tok = (void *)(sig + 1);
	ret = isgx_emu_read(sig, sigstruct, sizeof(*sig));
	if (!ret)
		ret = isgx_emu_read(tok, token, sizeof(*tok));
	if (ret)
		goto out_free;

	if (!isgx_sigstruct_ok(sig)) {
		ret = SGX_INVALID_SIG_STRUCT;
		goto out_free;
	}
	if (isgx_emu_inject_unmasked()) {
		ret = SGX_UNMASKED_EVENT;
		goto out_free;
	}
	ret = isgx_sigstruct_verify(sig);
	if (ret < 0)
		ret = SGX_UNMASKED_EVENT;	/* out of memory: retry later */
	if (ret)
		goto out_free;

	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_SECS, sidx);
	if (ret)
		goto out_free;
	if (!(s->attributes & SGX_ATTR_KSS) &&
	    (!isgx_emu_all_zero(sig->isv_family_id, 16) ||
	     !isgx_emu_all_zero(sig->isv_ext_prod_id, 16))) {
		ret = SGX_INVALID_SIG_STRUCT;
		goto out_end;
	}
	if (s->attributes & SGX_ATTR_INIT) {
		ret = ISGX_EMU_GP;
		goto out_end;
	}
	priv = isgx_emu_secs_priv(sidx);
	sha = priv->sha;
	sha256_final(&sha, mrenclave);
	if (memcmp(mrenclave, sig->enclave_hash, SGX_HASH_SIZE)) {
		ret = SGX_INVALID_MEASUREMENT;
		goto out_end;
	}
	sha256(sig->modulus, SGX_MODULUS_SIZE, mrsigner);
	if ((s->attributes & SGX_ATTR_EINITTOKENKEY) &&
	    memcmp(mrsigner, lehash, SGX_HASH_SIZE)) {
		ret = SGX_INVALID_ATTRIBUTE;
		goto out_end;
	}
	if ((s->attributes & sig->attributes_mask) !=
	    (sig->attributes & sig->attributes_mask) ||
	    (s->xfrm & sig->xfrm_mask) != (sig->xfrm & sig->xfrm_mask) ||
	    (s->miscselect & sig->miscmask) !=
	    (sig->miscselect & sig->miscmask)) {
		ret = SGX_INVALID_ATTRIBUTE;
		goto out_end;
	}
	if (!(tok->valid & SGX_EINITTOKEN_VALID)) {
		if (memcmp(mrsigner, lehash, SGX_HASH_SIZE) ||
		    !isgx_lc_permitted(mrsigner)) {
			ret = SGX_INVALID_EINITTOKEN;
			goto out_end;
		}
	} else {
		ret = isgx_token_check(tok, s);
		if (ret)
			goto out_end;
	}

	memcpy(s->mrenclave, mrenclave, SGX_HASH_SIZE);
	memcpy(s->mrsigner, mrsigner, SGX_HASH_SIZE);
	s->isv_prod_id = sig->isv_prod_id;
	s->isv_svn = sig->isv_svn;
	s->attributes |= SGX_ATTR_INIT;
	ret = 0;
out_end:
	isgx_emu_leaf_end(&ls);
out_free:
	kfree(sig);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_einit, ISGX);
