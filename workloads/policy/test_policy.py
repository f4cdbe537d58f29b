#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""unit.policy: the policy core (kmod/lru.c, built into policy-replay)
replayed on wsgen's traces, checked three ways:

1. against bench/policy-model, the same policies written independently:
   fault counts within TOLERANCE (both are deterministic; a difference
   means one of them does not do what lru.c's essay says);
2. against what the essay claims: on a loop the default policy is at most
   2 % above (N - C + low + R) / (N - C) x Belady's MIN (R: what a round of
   reclaim passes evicts), never worse than
   twolist on loops and the scan, and at most 3 % worse than the better of
   twolist and fifo on Zipf, uniform and hot/cold;
3. with --online-bound, bench/online-bound's LRU, LFU and probable: exact
   fault counts on a trace worked out by hand, never fewer faults than MIN
   on the first seed's trace, LRU faulting on every access of a loop larger
   than the capacity, and MIN <= probable < LFU < LRU on Zipf.

TAP output; exits non-zero when a check fails.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

TOLERANCE = 0.005          # fault counts: policy-replay vs policy-model
CAPACITY, BATCH, LOW, HIGH = 2040, 64, 32, 64
# (pattern, ratio to 2048 pages, seeds, capacity, batch): the module's
# defaults at EPC 2048, and the guest tests' EPC of 256 (batch EPC/8 = 32,
# two passes a round).
CASES = [('loop', 1.25, [1], CAPACITY, BATCH), ('loop', 2.0, [1], CAPACITY, BATCH),
         ('loop', 0.1875, [1], 248, 32),
         ('scan', 2.0, [1, 2], CAPACITY, BATCH), ('zipf', 2.0, [1, 2, 3], CAPACITY, BATCH),
         ('uniform', 2.0, [1, 2], CAPACITY, BATCH), ('hotcold', 2.0, [1, 2], CAPACITY, BATCH)]
POLICIES = ['default', 'twolist', 'fifo']

n = 0
failed = 0


def check(ok, what):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, what))
    if not ok:
        failed += 1


def replay(exe, pattern, ratio, seed, policy, cap, batch, trace_out=None):
    cmd = [exe, '--pattern=' + pattern, '--ratio=%g' % ratio, '--seed=%d' % seed,
           '--capacity=%d' % cap, '--batch=%d' % batch, '--low=%d' % LOW,
           '--high=%d' % HIGH, '--policy=' + policy]
    if trace_out:
        cmd.append('--trace-out=' + trace_out)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {k: v for k, v in re.findall(r'(\w+)=(\S+)', out)}


def model(exe, trace, warm, policy, cap, batch):
    out = subprocess.run([sys.executable, exe, '--trace=' + trace, '--warm=%d' % warm,
                          '--capacity=%d' % cap, '--batch=%d' % batch,
                          '--low=%d' % LOW, '--high=%d' % HIGH, '--policy=' + policy],
                         check=True, capture_output=True, text=True).stdout
    return int(re.search(r'faults=(\d+)', out).group(1))


def load_online_bound(path):
    loader = importlib.machinery.SourceFileLoader('online_bound', path)
    spec = importlib.util.spec_from_loader('online_bound', loader)
    ob = importlib.util.module_from_spec(spec)
    loader.exec_module(ob)
    return ob


def check_online_bound_small(ob):
    """Fault counts worked out by hand on a trace of seven accesses, two
    pages of capacity: LRU 1 . 2 3(-1) . 4(-3) . = 4; LFU 1 . 2 3(-2, one
    access) 2(-3) 4(-1: 1 and 2 have two accesses each, 1 is the older)
    . = 5 (a tie broken the other way evicts 2 and faults on the last
    access); the least probable first (ranks = page numbers when N = 5)
    evicts 2, 3, 2, 4: 6 faults.  With a warm-up of 3 accesses: 2, 3, 4."""
    t = [1, 1, 2, 3, 2, 4, 2]
    got = (ob.lru(t, 0, 2), ob.lfu(t, 0, 2), ob.probable(t, 0, 2, 5),
           ob.lru(t, 3, 2), ob.lfu(t, 3, 2), ob.probable(t, 3, 2, 5))
    check(got == (4, 5, 6, 2, 3, 4),
          'online-bound on a hand-made trace: LRU, LFU, probable %s, by hand (4, 5, 6, 2, 3, 4)'
          % (got,))


def check_online_bound(ob, trace, warm, cap, name, mn, nr_pages, pattern):
    """bench/online-bound on the replay's trace: no policy below MIN; LRU
    faults on every measured access of a loop larger than the capacity;
    on Zipf, knowing the distribution beats counting, which beats
    recency."""
    with open(trace) as f:
        pages = [int(line) for line in f]
    lru, lfu = ob.lru(pages, warm, cap), ob.lfu(pages, warm, cap)
    check(lru >= mn and lfu >= mn, '%s: online-bound LRU %d and LFU %d >= MIN %d' %
          (name, lru, lfu, mn))
    if pattern == 'loop' and nr_pages > cap:
        check(lru == len(pages) - warm, '%s: LRU faults on every access of the loop (%d of %d)' %
              (name, lru, len(pages) - warm))
    if pattern == 'zipf':
        probable = ob.probable(pages, warm, cap, nr_pages)
        check(mn <= probable < lfu < lru, '%s: MIN %d <= probable %d < LFU %d < LRU %d' %
              (name, mn, probable, lfu, lru))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--replay', required=True)
    ap.add_argument('--model', required=True)
    ap.add_argument('--online-bound', help='bench/online-bound: check its LRU and LFU too')
    a = ap.parse_args()
    ob = load_online_bound(a.online_bound) if a.online_bound else None
    if ob:
        check_online_bound_small(ob)
    with tempfile.TemporaryDirectory() as tmp:
        for pattern, ratio, seeds, cap, batch in CASES:
            for seed in seeds:
                trace = os.path.join(tmp, 'trace')
                r = {}
                for policy in POLICIES:
                    r[policy] = replay(a.replay, pattern, ratio, seed, policy, cap, batch,
                                       trace if policy == POLICIES[0] else None)
                nr_pages = int(ratio * 2048)
                warm = 10 * nr_pages
                name = '%s %.2fx seed %d (C %d, batch %d)' % (pattern, ratio, seed, cap, batch)
                ratios = {p: float(r[p]['ratio_min']) for p in POLICIES}
                print('# %s: faults / MIN %s (MIN %s)' % (
                    name, ' '.join('%s %.3f' % (p, ratios[p]) for p in POLICIES), r['default']['min']))
                for policy in POLICIES:
                    c, m = int(r[policy]['faults']), model(a.model, trace, warm, policy, cap, batch)
                    check(abs(c - m) <= TOLERANCE * m,
                          '%s %s: lru.c %d faults, model %d' % (name, policy, c, m))
                d = ratios['default']
                if pattern in ('loop', 'scan'):
                    check(d <= ratios['twolist'], '%s: default %.3f <= twolist %.3f' %
                          (name, d, ratios['twolist']))
                else:
                    best = min(ratios['twolist'], ratios['fifo'])
                    check(d <= 1.03 * best, '%s: default %.3f <= 1.03 x best baseline %.3f' %
                          (name, d, best))
                if ob and seed == seeds[0] and cap == CAPACITY:
                    check_online_bound(ob, trace, warm, cap, name,
                                       int(r['default']['min']), nr_pages, pattern)
                if pattern == 'loop':
                    excess = nr_pages - cap
                    round_pages = batch * -(-(HIGH - LOW + 1) // batch)
                    cost = (excess + LOW + round_pages) / excess
                    check(d <= 1.02 * cost, '%s: default %.3f at most 2%% above the loop round cost %.3f' %
                          (name, d, cost))
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
