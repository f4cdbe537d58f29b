// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - a key-value store in the enclave's pages, driven YCSB style.
 *
 * Fixed-size records in one open-addressing table (linear probing) laid
 * over the whole working set: slot s is the bytes [s * slot_size,
 * (s + 1) * slot_size) of the global page space, so records cross page
 * (and, with several enclaves, enclave) boundaries as they fall.  A slot
 * is a header { key + 1 (0: empty), version } and value_size bytes, each
 * 8-byte word a hash of (key, version, word index).  The table is filled
 * to 3/4 by the load phase (keys 0 .. nr_keys - 1 in order) and never
 * changes shape afterwards: requests only rewrite values in place.
 *
 * Requests: YCSB workloads A (50 % reads, 50 % updates), B (95/5) and C
 * (reads only), keys drawn from Zipf(theta) over the ranks and scrambled
 * with FNV-1a as YCSB's ScrambledZipfianGenerator does, so hot keys land
 * anywhere in the table.  A read finds the key, checks the version
 * against the one kept outside the enclave and every value word against
 * the hash; an update bumps the version and rewrites the value.  Any
 * mismatch (a lost or stale write, a corrupted page, a missing key) is
 * counted in kv->errors and the first few are printed.
 *
 * Every page a request touches (each probed header, then the value's
 * byte range) goes to the recorder in order, once per page and request.
 */
#include "wsgen.h"

#include <stdlib.h>
#include <string.h>

#define KV_HDR		16
#define KV_MAX_SHOWN	5

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* YCSB's fnvhash64: FNV-1a over the 8 bytes of @v, low byte first. */
static uint64_t fnv64(uint64_t v)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i < 8; i++) {
		h ^= v & 0xff;
		h *= 0x100000001b3ULL;
		v >>= 8;
	}
	return h;
}

static uint64_t value_word(uint64_t key, uint64_t ver, unsigned int j)
{
	return mix64((key << 32 | j) + ver * 0x9e3779b97f4a7c15ULL);
}

int kv_init(struct kv *kv, const struct ws *ws, char ycsb, unsigned int value_size,
	    double theta, unsigned long seed, char *err)
{
	memset(kv, 0, sizeof(*kv));
	switch (ycsb) {
	case 'a': kv->update_frac = 0.5; break;
	case 'b': kv->update_frac = 0.05; break;
	case 'c': kv->update_frac = 0; break;
	default:
		snprintf(err, 256, "--ycsb must be a, b or c");
		return -1;
	}
	if (value_size < 8 || value_size % 8 || value_size > (1U << 20)) {
		snprintf(err, 256, "--value-size must be a multiple of 8 in [8, 1048576], not %u",
			 value_size);
		return -1;
	}
	kv->ws = ws;
	kv->value_size = value_size;
	kv->slot_size = KV_HDR + value_size;
	kv->nr_slots = (uint64_t)ws_pages(ws) * SGX_PAGE_SIZE / kv->slot_size;
	kv->nr_keys = kv->nr_slots * 3 / 4;
	if (kv->nr_keys < 1 || kv->nr_keys > UINT32_MAX) {
		snprintf(err, 256, "%u pages hold %llu records of %u bytes: need 1 to 2^32 keys",
			 ws_pages(ws), (unsigned long long)kv->nr_slots, kv->slot_size);
		return -1;
	}
	kv->hash_seed = mix64(seed + 0x9e3779b97f4a7c15ULL);
	kv->ver = calloc(kv->nr_keys, sizeof(*kv->ver));
	if (!kv->ver || zipf_init(&kv->zipf, kv->nr_keys, theta)) {
		free(kv->ver);
		snprintf(err, 256, "out of memory for %llu keys", (unsigned long long)kv->nr_keys);
		return -1;
	}
	for (unsigned int i = 0; i < KV_STRIPES; i++)
		pthread_mutex_init(&kv->lock[i], NULL);
	atomic_init(&kv->errors, 0);
	return 0;
}

void kv_free(struct kv *kv)
{
	for (unsigned int i = 0; i < KV_STRIPES; i++)
		pthread_mutex_destroy(&kv->lock[i]);
	free(kv->ver);
	zipf_free(&kv->zipf);
}

/* A request's view of the table: records each page once, in order. */
struct cursor {
	const struct kv *kv;
	struct recorder *rc;
	unsigned int last;
};

static volatile uint64_t *word(struct cursor *c, uint64_t addr)
{
	unsigned int g = addr / SGX_PAGE_SIZE;

	if (g != c->last) {
		rec_touch(c->rc, g);
		c->last = g;
	}
	return (volatile uint64_t *)((char *)ws_page(c->kv->ws, g) + addr % SGX_PAGE_SIZE);
}

static void report(struct kv *kv, const char *what, uint64_t key, uint64_t slot,
		   unsigned long long got, unsigned long long want)
{
	unsigned long n = atomic_fetch_add(&kv->errors, 1);
	uint64_t addr = slot * kv->slot_size;
	unsigned int g = addr / SGX_PAGE_SIZE;

	if (n < KV_MAX_SHOWN)
		fprintf(stderr, "wsgen: kv: key %llu (slot %llu, enclave %u page %u+%llu): %s %#llx, want %#llx\n",
			(unsigned long long)key, (unsigned long long)slot, g % kv->ws->nr_encl,
			g / kv->ws->nr_encl, (unsigned long long)(addr % SGX_PAGE_SIZE), what,
			got, want);
}

/* The slot holding @key (or, with @insert, the empty one for it); or -1. */
static int64_t probe(struct kv *kv, struct cursor *c, uint64_t key, bool insert)
{
	uint64_t s = mix64(key ^ kv->hash_seed) % kv->nr_slots;

	for (uint64_t i = 0; i < kv->nr_slots; i++) {
		uint64_t k = *word(c, s * kv->slot_size);

		if (k == (insert ? 0 : key + 1))
			return s;
		if (!k || k > kv->nr_keys || (insert && k == key + 1)) {
			/* An empty slot ends the chain; anything else is garbage. */
			report(kv, insert ? "key already present or bad header" :
			       k ? "bad header" : "missing: empty slot", key, s, k, key + 1);
			return -1;
		}
		if (++s == kv->nr_slots)
			s = 0;
	}
	report(kv, insert ? "table full" : "missing: not in the table", key, 0, 0, key + 1);
	return -1;
}

static void write_record(struct kv *kv, struct cursor *c, uint64_t key, uint64_t s, uint64_t ver)
{
	uint64_t a = s * kv->slot_size;

	*word(c, a) = key + 1;
	*word(c, a + 8) = ver;
	for (unsigned int j = 0; j < kv->value_size / 8; j++)
		*word(c, a + KV_HDR + 8 * j) = value_word(key, ver, j);
}

void kv_load(struct kv *kv, struct recorder *rc)
{
	struct cursor c = { kv, rc, UINT32_MAX };
	int64_t s;

	for (uint64_t key = 0; key < kv->nr_keys; key++) {
		c.last = UINT32_MAX;
		s = probe(kv, &c, key, true);
		if (s >= 0)
			write_record(kv, &c, key, s, 0);
	}
}

void kv_gen(const struct kv *kv, struct rng *r, struct kv_req *req, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		req[i].update = rng_unit(r) < kv->update_frac;
		req[i].key = fnv64(zipf_next(&kv->zipf, r)) % kv->nr_keys;
	}
}

void kv_op(struct kv *kv, struct recorder *rc, const struct kv_req *q)
{
	pthread_mutex_t *lock = &kv->lock[q->key % KV_STRIPES];
	struct cursor c = { kv, rc, UINT32_MAX };
	uint64_t key = q->key, ver, a;
	int64_t s;

	/* Headers never change after the load: only the key's own record needs the lock. */
	pthread_mutex_lock(lock);
	s = probe(kv, &c, key, false);
	if (s < 0)
		goto out;
	a = s * kv->slot_size;
	if (q->update) {
		ver = ++kv->ver[key];
		*word(&c, a + 8) = ver;
		for (unsigned int j = 0; j < kv->value_size / 8; j++)
			*word(&c, a + KV_HDR + 8 * j) = value_word(key, ver, j);
		goto out;
	}
	ver = *word(&c, a + 8);
	if (ver != kv->ver[key]) {
		report(kv, "version", key, s, ver, kv->ver[key]);
		goto out;
	}
	for (unsigned int j = 0; j < kv->value_size / 8; j++) {
		uint64_t v = *word(&c, a + KV_HDR + 8 * j), want = value_word(key, ver, j);

		if (v != want) {
			report(kv, "value word", key, s, v, want);
			break;
		}
	}
out:
	pthread_mutex_unlock(lock);
}
