// SPDX-License-Identifier: GPL-2.0
/*
 * isgx_emu_test: microbenchmark of the emu backend, run by reading
 * /sys/kernel/debug/isgx_emu_test/bench.
 *
 * Each metric is the median over T_BENCH_N operations, in ns, next to the
 * floors measured in the same boot with the same primitives: one 4 KiB
 * gcm(aes) encrypt and decrypt with a 128-byte AAD (the model's EWB/ELDU
 * shape, own key and tfm) and one 4 KiB SHA-256.  The ratios ewb/gcm_enc
 * and eldu/gcm_dec show what the model adds on top of the crypto.
 */
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <crypto/aead.h>
#include <crypto/sha2.h>
#include "../compat.h"

#include "test.h"

#define T_BENCH_N	128
#define T_BENCH_WARM	4

enum { B_EADD, B_EWB, B_ELDU, B_EBLOCK, B_ETRACK, B_ENC, B_DEC, B_SHA, B_NR };

static const char *const isgx_test_bench_name[B_NR] = {
	"eadd_eextend_4k", "ewb", "eldu", "eblock", "etrack",
	"gcm_enc_4k", "gcm_dec_4k", "sha256_4k",
};

static int isgx_test_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 isgx_test_median(u64 *v, int n)
{
	sort(v, n, sizeof(*v), isgx_test_u64_cmp, NULL);
	return v[n / 2];
}

struct isgx_test_gcm {
	struct crypto_aead *tfm;
	struct aead_request *req;
	u8 *hdr;		/* 128-byte AAD followed by the 16-byte tag */
	u8 iv[12];
	struct scatterlist src[3], dst[3];
};

static int isgx_test_gcm_op(struct isgx_test_gcm *g, bool enc, void *in, void *out)
{
	DECLARE_CRYPTO_WAIT(wait);

	sg_init_table(g->src, enc ? 2 : 3);
	sg_set_buf(&g->src[0], g->hdr, 128);
	sg_set_buf(&g->src[1], in, PAGE_SIZE);
	sg_init_table(g->dst, enc ? 3 : 2);
	sg_set_buf(&g->dst[0], g->hdr, 128);
	sg_set_buf(&g->dst[1], out, PAGE_SIZE);
	if (enc)
		sg_set_buf(&g->dst[2], g->hdr + 128, 16);
	else
		sg_set_buf(&g->src[2], g->hdr + 128, 16);
	aead_request_set_callback(g->req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &wait);
	aead_request_set_ad(g->req, 128);
	aead_request_set_crypt(g->req, g->src, g->dst,
			       PAGE_SIZE + (enc ? 0 : 16), g->iv);
	return crypto_wait_req(enc ? crypto_aead_encrypt(g->req) :
			       crypto_aead_decrypt(g->req), &wait);
}

static int isgx_test_gcm_init(struct isgx_test_gcm *g, char *drv, size_t drvlen)
{
	u8 key[16];
	int ret;

	g->tfm = crypto_alloc_aead("gcm(aes)", 0, 0);
	if (IS_ERR(g->tfm)) {
		ret = PTR_ERR(g->tfm);
		g->tfm = NULL;
		return ret;
	}
	strscpy(drv, crypto_tfm_alg_driver_name(crypto_aead_tfm(g->tfm)),
		drvlen);
	get_random_bytes(key, sizeof(key));
	ret = crypto_aead_setkey(g->tfm, key, sizeof(key));
	if (!ret)
		ret = crypto_aead_setauthsize(g->tfm, 16);
	g->req = aead_request_alloc(g->tfm, GFP_KERNEL);
	g->hdr = kzalloc(256, GFP_KERNEL);
	if (!g->req || !g->hdr)
		ret = -ENOMEM;
	return ret;
}

static void isgx_test_gcm_exit(struct isgx_test_gcm *g)
{
	kfree(g->hdr);
	aead_request_free(g->req);
	crypto_free_aead(g->tfm);
}

#define T_BENCH_TIME(dst, expr)					\
	({							\
		u64 __t0 = ktime_get_ns();			\
		int __r = (expr);				\
		(dst) = ktime_get_ns() - __t0;			\
		__r;						\
	})

/*
 * One iteration measures every metric once, so that the floors and the
 * leaves see the same conditions (TCG's speed drifts within a boot).
 * Returns 0, an ENCLS code, or a negative errno.
 */
static int isgx_test_bench_iter(struct isgx_test_env *t, struct isgx_test_gcm *g, int i,
				u64 (*s)[T_BENCH_N])
{
	void *secs = t->epc[0], *pg = t->epc[1], *slot = t->epc[3] + 8;
	void *secs2 = t->epc[4], *pg2 = t->epc[5];
	u64 lin = 0x1000000 + ((i + T_BENCH_WARM) % 64) * PAGE_SIZE;
	u64 d[8];
	u8 digest[32];
	int r;

	isgx_test_pattern(t->src, 0x55);
	r = T_BENCH_TIME(d[0], isgx_test_eadd_raw(t, secs2, pg2, lin, 0x203));
	if (!r)
		r = T_BENCH_TIME(d[1], isgx_test_eextend_page(t, secs2, pg2));
	if (!r)
		r = __eremove(pg2);
	if (!r)
		r = T_BENCH_TIME(d[2], __eblock(pg));
	if (!r)
		r = T_BENCH_TIME(d[3], __etrack(secs));
	if (!r)
		r = T_BENCH_TIME(d[4], isgx_test_evict(t, pg, slot, 0));
	if (!r)
		r = T_BENCH_TIME(d[5], isgx_test_eldu(t, pg, slot, secs, T_BASE, 0));
	if (r)
		return r;
	put_unaligned_le64(i + 100, g->iv + 4);
	r = T_BENCH_TIME(d[6], isgx_test_gcm_op(g, true, t->back[1], t->back[2]));
	if (!r)
		r = T_BENCH_TIME(d[7], isgx_test_gcm_op(g, false, t->back[2],
							t->back[3]));
	if (r)
		return r;
	if (i < 0)
		return 0;
	s[B_SHA][i] = ktime_get_ns();
	sha256(t->back[1], PAGE_SIZE, digest);
	s[B_SHA][i] = ktime_get_ns() - s[B_SHA][i];
	s[B_EADD][i] = d[0] + d[1];
	s[B_EBLOCK][i] = d[2];
	s[B_ETRACK][i] = d[3];
	s[B_EWB][i] = d[4];
	s[B_ELDU][i] = d[5];
	s[B_ENC][i] = d[6];
	s[B_DEC][i] = d[7];
	return 0;
}

/* "1.07" from a ratio of two u64. */
static int isgx_test_ratio(char *buf, size_t size, const char *name, u64 a, u64 b)
{
	u64 x = b ? div64_u64(a * 100, b) : 0;

	return scnprintf(buf, size, "metric=%s value=%llu.%02llu unit=ratio\n",
			 name, x / 100, x % 100);
}

/**
 * isgx_test_bench_run() - run the microbenchmark
 * @t:		test environment
 * @buf:	output
 * @size:	size of @buf
 *
 * Return: bytes written, or a negative errno (t->reason says more).
 */
int isgx_test_bench_run(struct isgx_test_env *t, char *buf, size_t size)
{
	u64 (*s)[T_BENCH_N], med[B_NR];
	char drv[CRYPTO_MAX_ALG_NAME];
	struct isgx_test_gcm g = {};
	int i, r, len = 0;

	s = kvcalloc(B_NR, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	r = isgx_test_gcm_init(&g, drv, sizeof(drv));
	/* E0/E1: enclave whose page goes out and in; E4/E5: EADD target. */
	if (!r)
		r = isgx_test_std_enclave(t, t->epc[0], t->epc[1]);
	if (!r)
		r = __epa(t->epc[3]);
	if (!r)
		r = isgx_test_ecreate(t, t->epc[4], 0x1000000, 64 * PAGE_SIZE, T_ATTR,
				      1);
	isgx_test_pattern(t->back[1], 0x66);
	for (i = -T_BENCH_WARM; !r && i < T_BENCH_N; i++) {
		r = isgx_test_bench_iter(t, &g, i, s);
		cond_resched();
	}
	if (!r && memcmp(t->back[1], t->back[3], PAGE_SIZE))
		r = -EIO;
	isgx_test_gcm_exit(&g);
	if (r > 0) {
		snprintf(t->reason, sizeof(t->reason), "ENCLS returned %#x", r);
		r = -EIO;
	}
	if (r)
		goto out;
	for (i = 0; i < B_NR; i++)
		med[i] = isgx_test_median(s[i], T_BENCH_N);
	len += scnprintf(buf + len, size - len,
			 "# isgx emu microbenchmark: median of %d ops, gcm driver %s\n",
			 T_BENCH_N, drv);
	for (i = 0; i < B_NR; i++)
		len += scnprintf(buf + len, size - len,
				 "metric=%s value=%llu unit=ns\n",
				 isgx_test_bench_name[i], med[i]);
	len += isgx_test_ratio(buf + len, size - len, "ewb/gcm_enc", med[B_EWB],
			       med[B_ENC]);
	len += isgx_test_ratio(buf + len, size - len, "eldu/gcm_dec", med[B_ELDU],
			       med[B_DEC]);
	r = len;
out:
	kvfree(s);
	return r;
}
