// SPDX-License-Identifier: GPL-2.0
/*
 * isgx - build, measure and sign the deterministic enclave of layout.h.
 *
 *	isgx build   --pages N [--tcs N] [--debug] [--mode32] [--skip-eextend]
 *		     [--key PEM] [--hold SECONDS] [--device PATH]
 *	isgx measure --pages N [--tcs N] [--mode32] [--skip-eextend]
 *	isgx sign    --pages N [--tcs N] [--debug] [--mode32] [--skip-eextend]
 *		     [--key PEM] --out FILE
 *
 * build creates, adds, signs and initialises the enclave through /dev/sgx
 * and prints its base, size, the MRENCLAVE computed here (the kernel
 * refuses INIT unless it computed the same), MRSIGNER and the time spent
 * in each ioctl; measure prints only the MRENCLAVE, without a device; sign
 * writes the 1808-byte SIGSTRUCT, e.g. for a program that cannot sign
 * (the 32-bit compat test).  Exit status: 0, 1 on failure, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enclave.h"
#include "layout.h"
#include "sign.h"

#ifndef ISGX_DEFAULT_KEY
#define ISGX_DEFAULT_KEY "signing_key.pem"
#endif

struct options {
	struct isgx_layout layout;
	const char *key;
	const char *out;
	const char *device;
	unsigned int hold_s;
	bool have_pages;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: isgx build   --pages N [--tcs N] [--debug] [--mode32] [--skip-eextend]\n"
		"                    [--key PEM] [--hold SECONDS] [--device PATH]\n"
		"       isgx measure --pages N [--tcs N] [--mode32] [--skip-eextend]\n"
		"       isgx sign    --pages N [--tcs N] [--debug] [--mode32] [--skip-eextend]\n"
		"                    [--key PEM] --out FILE\n"
		"\n"
		"  --pages N       pages added to the enclave: N >= 2 * TCS (TCS, SSA, data);\n"
		"                  the SECS is one more EPC page; SIZE is the next power of two\n"
		"  --tcs N         thread control structures, each with one SSA page (default 1)\n"
		"  --debug         ATTRIBUTES.DEBUG (not measured; changes the SIGSTRUCT)\n"
		"  --mode32        a 32-bit enclave (MODE64BIT clear): only a 32-bit process\n"
		"                  may create it; sign it here for one\n"
		"  --skip-eextend  add every page with SGX_ADD_SKIP_EEXTEND (contents not measured)\n"
		"  --key PEM       RSA-3072 e=3 signing key (default %s)\n"
		"  --hold SECONDS  build: keep the enclave this long before destroying it\n"
		"  --device PATH   build: the SGX device (default /dev/sgx)\n"
		"  --out FILE      sign: where the SIGSTRUCT goes\n",
		ISGX_DEFAULT_KEY);
}

static int parse_uint(const char *opt, const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v > max) {
		fprintf(stderr, "isgx: %s wants a number from 0 to %u, not '%s'\n", opt, max, s);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "pages", required_argument, NULL, 'p' },
		{ "tcs", required_argument, NULL, 't' },
		{ "debug", no_argument, NULL, 'd' },
		{ "mode32", no_argument, NULL, '3' },
		{ "skip-eextend", no_argument, NULL, 's' },
		{ "key", required_argument, NULL, 'k' },
		{ "hold", required_argument, NULL, 'H' },
		{ "device", required_argument, NULL, 'D' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->layout.nr_tcs = 1;
	o->key = ISGX_DEFAULT_KEY;
	o->device = "/dev/sgx";
	optind = 2;	/* after the command */
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_uint("--pages", optarg, ISGX_LAYOUT_MAX_PAGES, &o->layout.nr_pages))
				return -1;
			o->have_pages = true;
			break;
		case 't':
			if (parse_uint("--tcs", optarg, ISGX_LAYOUT_MAX_PAGES / 2, &o->layout.nr_tcs))
				return -1;
			break;
		case 'd':
			o->layout.debug = true;
			break;
		case '3':
			o->layout.mode32 = true;
			break;
		case 's':
			o->layout.skip_eextend = true;
			break;
		case 'k':
			o->key = optarg;
			break;
		case 'H':
			if (parse_uint("--hold", optarg, INT_MAX, &o->hold_s))
				return -1;
			break;
		case 'D':
			o->device = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;	/* getopt said why */
		}
	}
	if (optind < argc) {
		fprintf(stderr, "isgx: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!o->have_pages) {
		fprintf(stderr, "isgx: --pages N is required\n");
		return -1;
	}
	return 0;
}

static void print_hex(const char *label, const uint8_t *d)
{
	printf("%-10s ", label);
	for (int i = 0; i < SGX_HASH_SIZE; i++)
		printf("%02x", d[i]);
	putchar('\n');
}

static EVP_PKEY *load_key(const char *path)
{
	char err[256];
	EVP_PKEY *key = isgx_key_load(path, err);

	if (!key)
		fprintf(stderr, "isgx: %s\n", err);
	return key;
}

static int check_layout(const struct isgx_layout *l)
{
	char err[128];

	if (isgx_layout_check(l, err)) {
		fprintf(stderr, "isgx: %s\n", err);
		return -1;
	}
	return 0;
}

/* Measure (and with @key sign) the layout without a device. */
static int offline(const struct options *o, EVP_PKEY *key, uint8_t mr[SGX_HASH_SIZE],
		   struct sgx_sigstruct *ss)
{
	struct isgx_enclave e;
	struct sgx_secs secs;

	isgx_layout_secs(&o->layout, &secs);
	if (isgx_enclave_create(&e, -1, &secs) || isgx_enclave_add_layout(&e, &o->layout) ||
	    isgx_enclave_mrenclave(&e, mr) || (key && isgx_enclave_sign(&e, key, ss))) {
		fprintf(stderr, "isgx: %s\n", isgx_enclave_error(&e));
		isgx_enclave_forget(&e);
		return -1;
	}
	return 0;
}

static int cmd_measure(const struct options *o)
{
	uint8_t mr[SGX_HASH_SIZE];

	if (check_layout(&o->layout) || offline(o, NULL, mr, NULL))
		return 1;
	for (int i = 0; i < SGX_HASH_SIZE; i++)
		printf("%02x", mr[i]);
	putchar('\n');
	return 0;
}

static int cmd_sign(const struct options *o)
{
	struct sgx_sigstruct ss;
	uint8_t mr[SGX_HASH_SIZE];
	EVP_PKEY *key;
	FILE *f;
	int ret = 1;

	if (!o->out) {
		fprintf(stderr, "isgx: sign needs --out FILE\n");
		return 2;
	}
	if (check_layout(&o->layout))
		return 1;
	key = load_key(o->key);
	if (!key)
		return 1;
	if (offline(o, key, mr, &ss))
		goto out;
	f = fopen(o->out, "wb");
	if (!f) {
		fprintf(stderr, "isgx: cannot create %s: %s\n", o->out, strerror(errno));
		goto out;
	}
	if (fwrite(&ss, sizeof(ss), 1, f) != 1 || fclose(f)) {
		fprintf(stderr, "isgx: cannot write %s: %s\n", o->out, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	EVP_PKEY_free(key);
	return ret;
}

static int cmd_build(const struct options *o)
{
	uint64_t size = isgx_layout_size(&o->layout);
	struct sgx_sigstruct ss;
	uint8_t mr[SGX_HASH_SIZE], signer[SGX_HASH_SIZE];
	struct isgx_enclave e;
	EVP_PKEY *key;
	int fd, ret = 1;

	if (check_layout(&o->layout))
		return 1;
	key = load_key(o->key);
	if (!key)
		return 1;
	fd = open(o->device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "isgx: cannot open %s: %s\n", o->device, strerror(errno));
		goto out_key;
	}
	if (isgx_enclave_build(&e, fd, &o->layout, key, &ss)) {
		fprintf(stderr, "isgx: %s\n", isgx_enclave_error(&e));
		goto out_destroy;
	}
	isgx_enclave_mrenclave(&e, mr);
	isgx_mrsigner(&ss, signer);
	printf("%-10s %#" PRIx64 "\n", "base", e.base);
	printf("%-10s %#" PRIx64 " (%" PRIu64 " pages; %u added, 1 SECS)\n", "size", size,
	       size / SGX_PAGE_SIZE, o->layout.nr_pages);
	print_hex("mrenclave", mr);
	print_hex("mrsigner", signer);
	printf("%-10s %.1f us\n", "create", e.create_ns / 1e3);
	printf("%-10s %.1f us (%u pages, %.1f us/page)\n", "add", e.add_ns / 1e3, e.nr_added,
	       e.nr_added ? e.add_ns / 1e3 / e.nr_added : 0.0);
	printf("%-10s %.1f us\n", "init", e.init_ns / 1e3);
	fflush(stdout);
	if (o->hold_s)
		sleep(o->hold_s);
	ret = 0;
out_destroy:
	if (isgx_enclave_destroy(&e)) {
		fprintf(stderr, "isgx: %s\n", isgx_enclave_error(&e));
		ret = 1;
	}
	close(fd);
out_key:
	EVP_PKEY_free(key);
	return ret;
}

int main(int argc, char **argv)
{
	struct options o;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "build") && strcmp(argv[1], "measure") && strcmp(argv[1], "sign")) {
		fprintf(stderr, "isgx: unknown command '%s' (build, measure or sign)\n", argv[1]);
		return 2;
	}
	if (parse(argc, argv, &o)) {
		fprintf(stderr, "Try 'isgx --help'.\n");
		return 2;
	}
	if (!strcmp(argv[1], "build"))
		return cmd_build(&o);
	if (!strcmp(argv[1], "measure"))
		return cmd_measure(&o);
	return cmd_sign(&o);
}
