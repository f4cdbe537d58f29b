#!/usr/bin/env python3
"""Host unit tests of bench/benchlib.py, bench/compare, bench/summarize and
bench/history, on synthetic runs (ctest unit.bench).  Run directly:
python3 bench/tests/test_bench.py"""
import importlib.machinery
import importlib.util
import math
import pathlib
import subprocess
import sys
import tempfile
import unittest

BENCH = pathlib.Path(__file__).resolve().parent.parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
import benchlib  # noqa: E402

FLOORS = {"gcm_enc_4k": 160000, "gcm_dec_4k": 150000}


def write_run(folder, runs, floors=FLOORS, meta=None, hist=None):
    """A run folder: runs maps (policy, pattern) to a list of per-repeat
    dicts of metric values (faults, min_faults, swap_in_rate, ...)."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    nreps = max(len(v) for v in runs.values())
    for rep in range(1, nreps + 1):
        for m, v in floors.items():
            lines.append(f"metric={m} factors=source=emu_bench,rep={rep} value={v} unit=ns")
    for (policy, pattern), reps in runs.items():
        for rep, metrics in enumerate(reps, 1):
            f = (f"pattern={pattern},ratio=2.00,epc=256,accesses=3000,seed={rep},"
                 f"policy={policy},rep={rep}")
            for metric, value in metrics.items():
                extra = ",capacity=206" if metric.startswith("min_faults_") else ""
                lines.append(f"metric={metric} factors={f}{extra} value={value} unit=x")
    (folder / "results.txt").write_text("# a comment line\n" + "\n".join(lines) + "\n")
    meta = meta or {}
    (folder / "metadata.txt").write_text(
        "".join(f"{k}={v}\n" for k, v in {"commit": "abc1234", "date": "2026-12-03T07:00:00Z",
                                          "config": "smoke", **meta}.items()))
    if hist:
        (folder / "fault_latency").mkdir(exist_ok=True)
        for name, counts in hist.items():
            (folder / "fault_latency" / f"{name}.txt").write_text(
                "".join(f"lt_ns={1 << (i + 10)} count={c}\n" for i, c in enumerate(counts)))
    return folder


def reps(faults, rates, etrack=(0.09, 0.091, 0.089), mn=250):
    return [{"faults": f, "min_faults_usable": mn, "min_faults_bound": 190, "swap_rate": r,
             "nr_evicted": 1400, "etrack_per_evicted": e, "access_time": 0.2}
            for f, r, e in zip(faults, rates, etrack)]


BASE = {("default", "zipf"): reps([470, 480, 475], [2000, 2100, 2050]),
        ("fifo16", "zipf"): reps([610, 600, 620], [1700, 1750, 1800])}


def run_tool(*args):
    p = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class TDistribution(unittest.TestCase):
    def test_betainc_against_binomial_sums(self):
        # For integers, I_x(a, b) = P(Binomial(a + b - 1, x) >= a).
        for a in (1, 2, 3, 7):
            for b in (1, 2, 5, 9):
                for x in (0.01, 0.2, 0.5, 0.77, 0.99):
                    n = a + b - 1
                    want = sum(math.comb(n, j) * x ** j * (1 - x) ** (n - j)
                               for j in range(a, n + 1))
                    self.assertAlmostEqual(benchlib.betainc(a, b, x), want, places=12,
                                           msg=f"I_{x}({a},{b})")

    def test_betainc_edges_and_errors(self):
        self.assertEqual(benchlib.betainc(2, 3, 0), 0.0)
        self.assertEqual(benchlib.betainc(2, 3, 1), 1.0)
        self.assertAlmostEqual(benchlib.betainc(4.5, 4.5, 0.5), 0.5, places=14)
        with self.assertRaises(ValueError):
            benchlib.betainc(0, 1, 0.5)

    def test_t_cdf_closed_forms(self):
        for t in (-30, -3.1, -1, -0.2, 0, 0.5, 1, 2.5, 12.7, 400):
            # df = 1: Cauchy.  df = 2: 1/2 + t / (2 sqrt(2 + t^2)).
            self.assertAlmostEqual(benchlib.t_cdf(t, 1), 0.5 + math.atan(t) / math.pi, places=12)
            self.assertAlmostEqual(benchlib.t_cdf(t, 2), 0.5 + t / (2 * math.sqrt(2 + t * t)),
                                   places=12)

    def test_t_cdf_table_values(self):
        # Two-sided 5 % and 1 % critical values of Student's t tables.
        for t, df, cdf in ((12.706205, 1, 0.975), (2.776445, 4, 0.975), (2.228139, 10, 0.975),
                           (2.042272, 30, 0.975), (3.169273, 10, 0.995), (1.959964, 1e7, 0.975),
                           (4.604095, 4, 0.995)):
            self.assertAlmostEqual(benchlib.t_cdf(t, df), cdf, places=6, msg=f"t={t} df={df}")
            self.assertAlmostEqual(benchlib.t_cdf(-t, df), 1 - cdf, places=6)

    def test_welch_wikipedia_example(self):
        # Wikipedia, "Welch's t-test", example 1: t = -2.46, df = 24.9, p = 0.021.
        a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0,
              21.7, 21.4]
        a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9,
              20.5, 24.4]
        t, df, p = benchlib.welch(a2, a1)
        self.assertAlmostEqual(t, -2.46, delta=0.005)
        self.assertAlmostEqual(df, 24.9, delta=0.1)
        self.assertAlmostEqual(p, 0.021, delta=0.0005)
        t2, df2, p2 = benchlib.welch(a1, a2)
        self.assertAlmostEqual(t2, -t)
        self.assertAlmostEqual(p2, p)

    def test_welch_degenerate(self):
        self.assertEqual(benchlib.welch([3, 3, 3], [3, 3])[2], 1.0)
        self.assertEqual(benchlib.welch([3, 3, 3], [4, 4])[2], 0.0)
        with self.assertRaises(ValueError):
            benchlib.welch([1], [1, 2])


    def test_paired_t_by_hand(self):
        # Differences 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5), t = 3 / (sqrt(2.5) / sqrt(5)).
        xs = [10, 20, 30, 40, 50]
        ys = [11, 22, 33, 44, 55]
        t, df, p = benchlib.paired_t(xs, ys)
        self.assertAlmostEqual(t, 3 / (math.sqrt(2.5) / math.sqrt(5)), places=12)
        self.assertEqual(df, 4)
        self.assertAlmostEqual(p, 2 * (1 - benchlib.t_cdf(t, 4)), places=12)
        # Pairing removes the between-seed spread Welch's test sees.
        self.assertLess(p, 0.05)
        self.assertGreater(benchlib.welch(xs, ys)[2], 0.5)

    def test_paired_t_degenerate(self):
        self.assertEqual(benchlib.paired_t([1, 2], [1, 2])[2], 1.0)
        self.assertEqual(benchlib.paired_t([1, 2], [2, 3])[2], 0.0)
        with self.assertRaises(ValueError):
            benchlib.paired_t([1], [1])
        with self.assertRaises(ValueError):
            benchlib.paired_t([1, 2], [1, 2, 3])


class Parsing(unittest.TestCase):
    def test_parse_line(self):
        r = benchlib.parse_line("metric=faults factors=a=1,b=x value=12.5 unit=pages")
        self.assertEqual((r.metric, r.factors, r.value, r.unit),
                         ("faults", {"a": "1", "b": "x"}, 12.5, "pages"))
        self.assertIsNone(benchlib.parse_line("# comment"))
        for bad in ("metric=x value=abc", "metric=x factors=a=1", "metric=x junk value=1",
                    "metric=x factors=a value=1"):
            with self.assertRaises(ValueError, msg=bad):
                benchlib.parse_line(bad)

    def test_tolerances(self):
        with tempfile.TemporaryDirectory() as d:
            p = pathlib.Path(d) / "t.conf"
            p.write_text("faults{pattern=loop} 0.5 lower\nfaults 0.1 lower\nmin_* - exact\n"
                         "* - info\n")
            tols = benchlib.read_tolerances(p)
            k = (("pattern", "loop"),)
            self.assertEqual(benchlib.match_tolerance(tols, "faults", k).rel, 0.5)
            self.assertEqual(benchlib.match_tolerance(tols, "faults", (("pattern", "zipf"),)).rel,
                             0.1)
            self.assertEqual(benchlib.match_tolerance(tols, "min_faults_usable", k).direction,
                             "exact")
            self.assertEqual(benchlib.match_tolerance(tols, "other", k).direction, "info")
            for bad in ("faults 0.1\n", "faults x lower\n", "faults - lower\n",
                        "faults 0.1 sideways\n", "faults -0.1 lower\n"):
                p.write_text(bad)
                with self.assertRaises(ValueError, msg=bad):
                    benchlib.read_tolerances(p)

    def test_unmatched_tolerances(self):
        """A misspelt metric matches nothing and is named; a line whose
        metric exists is not, whatever its factor filter."""
        with tempfile.TemporaryDirectory() as d:
            p = pathlib.Path(d) / "t.conf"
            p.write_text("faults{patern=loop} 0.5 lower\nfualts 0.1 lower\nfaults 0.1 lower\n"
                         "fault_* 0.2 lower\n* - info\n")
            tols = benchlib.read_tolerances(p)
            self.assertEqual([t.line for t in benchlib.unmatched_tolerances(tols, {"faults"})],
                             [2, 4])
            self.assertEqual(set(tols[0].want), {"patern"})
            self.assertEqual(set(tols[2].want), set())

    def test_project_tolerances_match_smoke(self):
        """Every line of bench/tolerances.conf names a metric of the
        committed smoke baseline, and every factor its filters ask about
        is a factor of some committed results file: a misspelt metric or
        factor would judge nothing, silently."""
        tols = benchlib.read_tolerances(BENCH / "tolerances.conf")
        smoke = {r.metric for r in benchlib.read_results(ROOT / "results" / "baseline" / "smoke")}
        smoke |= {m for m, _ in benchlib.group_by_seed(
            benchlib.derive(benchlib.read_results(ROOT / "results" / "baseline" / "smoke")))}
        self.assertEqual([(t.line, t.glob) for t in benchlib.unmatched_tolerances(tols, smoke)],
                         [])
        factors = set()
        for f in (ROOT / "results").rglob("results.txt"):
            for line in f.read_text().splitlines():
                r = benchlib.parse_line(line)
                if r:
                    factors |= set(r.factors)
        asked = set().union(*(set(t.want) for t in tols))
        self.assertTrue(asked, "the project's tolerances filter on no factor: test the test")
        self.assertEqual(asked - factors, set())

    def test_project_tolerances_parse(self):
        tols = benchlib.read_tolerances(BENCH / "tolerances.conf")
        self.assertTrue(tols)
        self.assertEqual(benchlib.match_tolerance(tols, "faults_over_min", ()).direction, "lower")


class Compare(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = pathlib.Path(self.tmp.name)
        self.base = write_run(self.d / "base", BASE)

    def tearDown(self):
        self.tmp.cleanup()

    def compare(self, cand_runs, project=False, **kw):
        """bench/compare of the baseline and a candidate; the tolerances of
        the test (fixed here, whatever the project's file says) unless
        project is true."""
        cand = write_run(self.d / "cand", cand_runs, **kw)
        tols = self.d / "tolerances.conf"
        tols.write_text("min_faults* - exact\nfaults_over_min 0.15 lower\n"
                        "etrack_per_evicted 0.2 lower\nswap_rate_over_floor 0.35 higher\n* - info\n")
        extra = [] if project else ["--tolerances", tols]
        return run_tool(BENCH / "compare", self.base, cand, *extra)

    def test_misspelt_tolerance_named(self):
        cand = write_run(self.d / "cand", BASE)
        tols = self.d / "tolerances.conf"
        tols.write_text("min_faults* - exact\nfaults_over_mni 0.15 lower\n* - info\n")
        rc, out = run_tool(BENCH / "compare", self.base, cand, "--tolerances", tols)
        self.assertEqual(rc, 0, out)
        self.assertIn(f"note: {tols}:2: 'faults_over_mni' matches no metric of either run", out)
        self.assertNotIn(":1: ", out)

    def test_same_numbers_pass(self):
        rc, out = self.compare({("default", "zipf"): reps([478, 471, 476], [2080, 1990, 2060]),
                                ("fifo16", "zipf"): reps([605, 615, 612], [1760, 1690, 1790])})
        self.assertEqual(rc, 0, out)
        self.assertIn("no regression", out)
        self.assertNotIn("WORSE", out)

    def test_doctored_worse_candidate_fails(self):
        # The default policy's faults go up by 25 %, reproducibly: must fail.
        rc, out = self.compare({("default", "zipf"): reps([590, 600, 595], [2050, 2000, 2100]),
                                ("fifo16", "zipf"): BASE[("fifo16", "zipf")]})
        self.assertEqual(rc, 1, out)
        self.assertIn("REGRESSION", out)
        line = [x for x in out.splitlines() if x.startswith("faults_over_min")
                and "policy=default" in x][0]
        self.assertIn("WORSE", line)

    def test_fifo16_as_candidate_of_default_fails(self):
        # The baseline policy's numbers under the default policy's name,
        # judged by the project's own tolerances.
        rc, out = self.compare({("default", "zipf"): BASE[("fifo16", "zipf")],
                                ("fifo16", "zipf"): BASE[("fifo16", "zipf")]}, project=True)
        self.assertEqual(rc, 1, out)
        self.assertIn("WORSE", out)

    def test_worse_but_not_significant_passes(self):
        # Mean 20 % worse but the repeats scatter widely: not significant.
        rc, out = self.compare({("default", "zipf"): reps([300, 900, 510], [2050, 2000, 2100]),
                                ("fifo16", "zipf"): BASE[("fifo16", "zipf")]})
        self.assertEqual(rc, 0, out)
        self.assertIn("not significant", out)

    def test_better_passes(self):
        rc, out = self.compare({("default", "zipf"): reps([380, 385, 390], [2050, 2000, 2100]),
                                ("fifo16", "zipf"): BASE[("fifo16", "zipf")]})
        self.assertEqual(rc, 0, out)
        self.assertIn("better", out)

    def test_slower_swap_relative_to_floor_fails(self):
        rc, out = self.compare({("default", "zipf"): reps([470, 480, 475], [1000, 1050, 1020]),
                                ("fifo16", "zipf"): BASE[("fifo16", "zipf")]})
        self.assertEqual(rc, 1, out)
        self.assertIn("swap_rate_over_floor", out.split("REGRESSION")[1])

    def test_slower_host_is_not_a_regression(self):
        # Everything half as fast, floors included: the ratios hold.
        slow = {k: reps([r["faults"] for r in v], [r["swap_rate"] / 2 for r in v])
                for k, v in BASE.items()}
        rc, out = self.compare(slow, floors={k: 2 * v for k, v in FLOORS.items()})
        self.assertEqual(rc, 0, out)

    def test_exact_metric_differs_fails(self):
        runs = {k: [dict(r, min_faults_usable=251) for r in v] for k, v in BASE.items()}
        rc, out = self.compare(runs)
        self.assertEqual(rc, 1, out)
        self.assertIn("DIFFERS", out)

    def test_missing_group_fails_new_group_passes(self):
        rc, out = self.compare({("default", "zipf"): BASE[("default", "zipf")]})
        self.assertEqual(rc, 1, out)
        self.assertIn("MISSING", out)
        runs = dict(BASE)
        runs[("seed", "zipf")] = BASE[("default", "zipf")]
        rc, out = self.compare(runs)
        self.assertEqual(rc, 0, out)
        self.assertIn("new", out)

    def test_bad_input(self):
        rc, out = run_tool(BENCH / "compare", self.base, self.d / "nonexistent")
        self.assertEqual(rc, 2, out)
        self.assertIn("no results file", out)
        bad = self.d / "bad"
        bad.mkdir()
        (bad / "results.txt").write_text("metric=faults value=many unit=x\n")
        rc, out = run_tool(BENCH / "compare", self.base, bad)
        self.assertEqual(rc, 2, out)
        self.assertIn("results.txt:1", out)


SMOKE = BENCH.parent / "results" / "baseline" / "smoke"


def relabel(rows, policy_from):
    """The rows of a run with policy=default's rows dropped and those of
    policy_from relabelled as default: what a candidate would measure if
    the default policy behaved as policy_from."""
    out = []
    for line in rows:
        f = benchlib.parse_line(line)
        pol = f.factors.get("policy") if f else None
        if pol == "default":
            continue
        out.append(line)
        if pol == policy_from:
            out.append(line.replace(f"policy={policy_from}", "policy=default"))
    return out


class SmokeGate(unittest.TestCase):
    """The CI gate (bench.smoke: the smoke config compared with its
    committed baseline at bench/tolerances.conf) must catch a default
    policy that is really fifo16, and one that evicts in batches of 16.
    Both are proven on the measured baseline itself: its fifo16 and
    default+batch=16 runs, relabelled as the default's."""

    def setUp(self):
        self.assertTrue((SMOKE / "results.txt").is_file(), f"no committed baseline in {SMOKE}")
        # The baseline must be of the smoke config as it is now.
        meta = benchlib.read_metadata(SMOKE)
        conf = (BENCH / "configs" / "smoke.conf").read_text()
        for line in conf.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                k, v = line.split("=", 1)
                self.assertEqual(meta.get(k), v.strip('"'), f"baseline's {k} is not smoke.conf's")
        self.lines = (SMOKE / "results.txt").read_text().splitlines()
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def gate(self, lines):
        cand = pathlib.Path(self.tmp.name) / "cand"
        cand.mkdir()
        (cand / "results.txt").write_text("\n".join(lines) + "\n")
        return run_tool(BENCH / "compare", SMOKE, cand)

    def failing(self, out, metric):
        """The groups of the default policy that compare found worse for
        metric (not missing: a group that disappeared proves nothing)."""
        tail = out.split("REGRESSION:", 1)[1] if "REGRESSION:" in out else ""
        return [x for x in tail.splitlines()
                if x.strip().startswith(metric + " ") and "policy=default," in x + ","
                and ": worse" in x]

    def test_baseline_against_itself_passes(self):
        rc, out = self.gate(self.lines)
        self.assertEqual(rc, 0, out)

    def test_heldout_run_passes(self):
        # A second run of the baseline's commit: a gate that fails it
        # fails by chance (the tolerances are narrower than the noise).
        heldout = SMOKE.parent.parent / "heldout" / "smoke"
        self.assertEqual(benchlib.read_metadata(heldout).get("commit"),
                         benchlib.read_metadata(SMOKE).get("commit"),
                         "the held-out run is not of the baseline's commit")
        rc, out = run_tool(BENCH / "compare", SMOKE, heldout)
        self.assertEqual(rc, 0, out)

    def test_fifo16_as_default_fails(self):
        policies = {benchlib.parse_line(x).factors.get("policy") for x in self.lines
                    if x.startswith("metric=")}
        self.assertIn("fifo16", policies)
        rc, out = self.gate(relabel(self.lines, "fifo16"))
        self.assertEqual(rc, 1, out)
        # Judged per pattern: every pattern of the smoke config fails on
        # its ETRACKs per evicted page, and the loop on its faults / MIN
        # too (the default's non-resident history keeps a hot set there).
        # On Zipf the default's faults / MIN is only 5-7 % below fifo16's
        # in the guest, inside the 8 % tolerance (README, The replacement
        # policy).
        for metric, patterns in (("etrack_per_evicted", ("zipf", "loop")),
                                 ("faults_over_min", ("loop",))):
            bad = self.failing(out, metric)
            for pattern in patterns:
                self.assertTrue([x for x in bad if f"pattern={pattern}," in x],
                                f"{metric} {pattern} not worse:\n{out}")

    def test_batch16_default_fails(self):
        rc, out = self.gate(relabel(self.lines, "default+batch=16"))
        self.assertEqual(rc, 1, out)
        bad = self.failing(out, "etrack_per_evicted")
        for pattern in ("zipf", "loop"):
            self.assertTrue([x for x in bad if f"pattern={pattern}," in x], out)


class SummarizeAndHistory(unittest.TestCase):
    def test_summary_and_plot_data(self):
        with tempfile.TemporaryDirectory() as d:
            run = write_run(pathlib.Path(d) / "r", BASE,
                            hist={"default-rep1": [0, 5, 90, 4, 1], "default-rep2": [0, 5, 90, 4, 1]})
            rc, out = run_tool(BENCH / "summarize", run)
            self.assertEqual(rc, 0, out)
            summary = (run / "summary.txt").read_text()
            self.assertIn("seeds: 3", summary)
            # default/zipf: faults 470, 480, 475 over MIN 250.
            fmin = [f / 250 for f in (470, 480, 475)]
            line = [x for x in summary.splitlines() if x.split()[:2] == ["default", "zipf"]][0]
            self.assertIn(f"{benchlib.mean(fmin):.2f}±{benchlib.stddev(fmin):.2f}", line)
            cols = (run / "plot-zipf-default.dat").read_text().splitlines()[1].split()
            self.assertAlmostEqual(float(cols[3]), benchlib.mean(fmin))
            self.assertAlmostEqual(float(cols[4]), benchlib.stddev(fmin))
            # swap rate over floor: 2050 pages/s over 2e9 / 310000 ns.
            self.assertAlmostEqual(float(cols[5]), 2050 / (2e9 / 310000))
            cdf = (run / "plot-latency-default.dat").read_text().splitlines()
            self.assertEqual(cdf[-1].split()[1], "1.000000")
            self.assertIn("p50 <       4096 ns  p99 <       8192 ns", summary)

    def test_experiments_sections(self):
        lines = []
        for seed in (1, 2):
            lines.append(f"metric=gcm_dec_4k factors=source=emu_bench,rep={seed} value=100000 unit=ns")
            base = f"pattern=uniform,ratio=2.00,seed={seed},policy=default,rep={seed}"
            for th, rate in ((1, 1000), (2, 1500 + 100 * seed), (4, 1800)):
                f = f"{base},epc=2048" + (f",threads={th},enclaves=1" if th > 1 else "")
                lines += [f"metric=faults factors={f} value=5000 unit=pages",
                          f"metric=swap_in_rate factors={f} value={rate * seed} unit=pages/s"]
            for epc, cost in ((2048, 200000), (16384, 300000)):
                f = f"{base},epc={epc},accesses=65536"
                lines += [f"metric=faults factors={f} value=5000 unit=pages",
                          f"metric=nr_evicted factors={f} value=1000 unit=count",
                          f"metric=ns_reclaim_total factors={f} value={cost * 1000} unit=ns"]
            for role, faults in (("small-alone", 0), ("small-shared", 30 * seed)):
                f = f"pattern=zipf,ratio=0.25,epc=2048,seed={seed},role={role},policy=default,rep={seed}"
                lines += [f"metric=faults factors={f} value={faults} unit=pages",
                          f"metric=lat_p99 factors={f} value={3000 * seed} unit=ns"]
        with tempfile.TemporaryDirectory() as d:
            run = pathlib.Path(d)
            (run / "results.txt").write_text("\n".join(lines) + "\n")
            rc, out = run_tool(BENCH / "summarize", run)
            self.assertEqual(rc, 0, out)
            summary = (run / "summary.txt").read_text()
            # 2 threads over 1, per seed: 1600/1000 and 3400/2000.
            thr = [x for x in summary.splitlines() if x.strip().startswith("default") and "thr" in x][0]
            self.assertIn(f"(x{(1.6 + 1.7) / 2:.2f}", thr)
            # Multiproc: the small one's faults alone 0, shared 30 and 60.
            mp = [x for x in summary.splitlines() if x.strip().startswith("default")
                  and "±" in x and "thr" not in x and "uniform" not in x]
            self.assertTrue(any(" 45±" in x for x in mp), summary)
            # Scaling: 200 then 300 us per evicted page, growth 1.5.
            sc = [x for x in summary.splitlines() if " 16384 " in x and "us" not in x]
            self.assertTrue(any("300.0±" in x and " 1.50 " in x for x in sc), summary)

    def test_summary_flags_impossible_runs(self):
        with tempfile.TemporaryDirectory() as d:
            runs = {("default", "zipf"): reps([150, 480, 475], [2000, 2100, 2050])}
            run = write_run(pathlib.Path(d) / "r", runs)
            rc, out = run_tool(BENCH / "summarize", run)
            self.assertEqual(rc, 0, out)
            self.assertIn("IMPOSSIBLE: 1 seed(s)", out)

    def test_history_line_and_plot(self):
        with tempfile.TemporaryDirectory() as d:
            run = write_run(pathlib.Path(d) / "r", BASE)
            rc, out = run_tool(BENCH / "history", "line", run)
            self.assertEqual(rc, 0, out)
            fields = dict(t.split("=", 1) for t in out.split())
            self.assertEqual(fields["commit"], "abc1234")
            self.assertEqual(fields["seeds"], "3")
            m, s = map(float, fields["fmin.zipf.fifo16.2.00"].split(":"))
            self.assertAlmostEqual(m, 610 / 250, places=4)
            # Lines of another config, other settings or a dirty commit
            # are not this series.
            dirty = out.replace("commit=abc1234", "commit=abc1234-dirty")
            other = out.replace("config=smoke", "config=other")
            edited = out.replace(f"confhash={fields['confhash']}", "confhash=0123456789")
            hist = pathlib.Path(d) / "h.txt"
            hist.write_text(out + out + dirty + other + edited)
            rc, out = run_tool(BENCH / "history", "plot", hist, pathlib.Path(d) / "p", run)
            self.assertEqual(rc, 0, out)
            dat = (pathlib.Path(d) / "p" / "history-fmin.dat").read_text().splitlines()
            self.assertEqual(len(dat), 4)
            self.assertTrue(dat[3].startswith("this-run"))


PAGER_REPORT = BENCH.parent / "results" / "baseline" / "pager-report"


def expected_latload(results):
    """{policy: [(rate, p99/dec, p50/dec, pattern, ratio, epc, seed, rep)]}
    recomputed from a results.txt without benchlib: one point per
    single-thread wsgen run with faults and a faulting access; the rate is
    swap_in_rate (else faults / access_time), the latencies lat_fault_p99
    and lat_fault_p50 over gcm_dec_4k of the same rep."""
    dec, runs = {}, {}
    for line in pathlib.Path(results).read_text().splitlines():
        if not line.startswith("metric="):
            continue
        fields = dict(t.split("=", 1) for t in line.split())
        factors = dict(kv.split("=", 1) for kv in fields["factors"].split(","))
        value = float(fields["value"])
        if fields["metric"] == "gcm_dec_4k" and factors.get("source") == "emu_bench":
            dec[factors["rep"]] = value
        if ("pattern" not in factors or "source" in factors or "role" in factors
                or factors.get("threads", "1") != "1"):
            continue
        key = tuple(sorted((k, v) for k, v in factors.items()
                           if k not in ("capacity", "slow_ns", "usable")))
        runs.setdefault(key, {})[fields["metric"]] = value
    out = {}
    for key, m in runs.items():
        f = dict(key)
        rate = m.get("swap_in_rate")
        if rate is None and m.get("access_time"):
            rate = m.get("faults", 0) / m["access_time"]
        if not rate or not m.get("lat_fault_p99") or f["rep"] not in dec:
            continue
        out.setdefault(f["policy"], []).append(
            (rate, m["lat_fault_p99"] / dec[f["rep"]], m.get("lat_fault_p50", 0) / dec[f["rep"]],
             f["pattern"], float(f["ratio"]), int(f.get("epc", 0)), f["seed"], f["rep"]))
    return out


def latload_problems(run, want):
    """What is wrong in RUN/plot-latload-POLICY.dat against want (from
    expected_latload): a missing or extra file or row, a number off."""
    problems = []
    have = {p.name[len("plot-latload-"):-len(".dat")]
            for p in pathlib.Path(run).glob("plot-latload-*.dat")}
    if have != set(want):
        problems.append(f"files for {sorted(have)}, want {sorted(want)}")
    for policy, pts in want.items():
        path = pathlib.Path(run) / f"plot-latload-{policy}.dat"
        if not path.is_file():
            continue
        lines = path.read_text().splitlines()
        if not lines[0].startswith("# refault_rate_pages_s p99_over_dec p50_over_dec pattern "
                                   "ratio epc seed rep"):
            problems.append(f"{policy}: header {lines[0]!r}")
        rows = {}
        for line in lines[1:]:
            c = line.split()
            rows[(c[3], float(c[4]), int(c[5]), c[6], c[7])] = tuple(map(float, c[:3]))
        wanted = {(p[3], p[4], p[5], p[6], p[7]): p[:3] for p in pts}
        if set(rows) != set(wanted) or len(rows) != len(lines) - 1:
            problems.append(f"{policy}: runs {sorted(rows)}, want {sorted(wanted)}")
        for k in set(rows) & set(wanted):
            for name, got, exp, tol in zip(("rate", "p99/dec", "p50/dec"), rows[k], wanted[k],
                                           (0.051, 5e-5, 5e-5)):
                if abs(got - exp) > tol:
                    problems.append(f"{policy} {k}: {name} {got}, want {exp:.5f}")
    return problems


class LatencyLoad(unittest.TestCase):
    """plot-latload-POLICY.dat (plots/latency-load.gp's data) and its
    summary section, against numbers recomputed here from results.txt."""

    def synthetic(self, folder):
        """Two reps (seeds) with different gcm decrypt floors; per rep a
        default and a fifo16 zipf run, a run without swap_in_rate (the rate
        falls back to faults / access_time), a run without faults, a
        2-thread run and a multiproc role (neither is a point)."""
        lines = []
        for rep, dec in ((1, 100000), (2, 125000)):
            lines.append(f"metric=gcm_dec_4k factors=source=emu_bench,rep={rep} value={dec} unit=ns")
            lines.append(f"metric=gcm_enc_4k factors=source=emu_bench,rep={rep} value=110000 unit=ns")
            runs = (("default", "zipf", "", 2000 + 100 * rep, 150000, 400000 * rep, 5000),
                    ("fifo16", "zipf", "", 1800, 170000 + rep, 3000000, 4000),
                    ("default", "loop", "", None, 160000, 450000, 3000 + rep),
                    ("default", "hotcold", "", 0, 0, 0, 0),
                    ("default", "uniform", ",threads=2,enclaves=1", 2500, 150000, 9000000, 5000),
                    ("default", "uniform", ",role=hog", 2600, 150000, 9000000, 5000))
            for policy, pattern, extra, rate, p50, p99, faults in runs:
                f = (f"pattern={pattern},ratio=2.00,epc=2048,accesses=40960,seed={rep},"
                     f"policy={policy},rep={rep}{extra}")
                lines += [f"metric=faults factors={f} value={faults} unit=pages",
                          f"metric=access_time factors={f} value=2.5 unit=s",
                          f"metric=lat_fault_p50 factors={f},slow_ns=50000 value={p50} unit=ns",
                          f"metric=lat_fault_p99 factors={f},slow_ns=50000 value={p99} unit=ns"]
                if rate is not None:
                    lines.append(f"metric=swap_in_rate factors={f} value={rate} unit=pages/s")
        folder = pathlib.Path(folder)
        folder.mkdir()
        (folder / "results.txt").write_text("\n".join(lines) + "\n")
        return folder

    def test_synthetic_points_and_summary(self):
        with tempfile.TemporaryDirectory() as d:
            run = self.synthetic(pathlib.Path(d) / "r")
            rc, out = run_tool(BENCH / "summarize", run)
            self.assertEqual(rc, 0, out)
            want = expected_latload(run / "results.txt")
            # What the test itself expects of the recomputation: default
            # zipf and loop (2 reps each), fifo16 zipf; nothing else.
            self.assertEqual(sorted((p, len(v)) for p, v in want.items()),
                             [("default", 4), ("fifo16", 2)])
            self.assertEqual(latload_problems(run, want), [])
            rows = (run / "plot-latload-default.dat").read_text().splitlines()[1:]
            # The loop's rate is faults / access_time: 3002 / 2.5; its
            # latencies over rep 2's floor, 450000 and 160000 / 125000.
            self.assertIn("1200.8 3.6000 1.2800 loop 2 2048 2 2", rows)
            # Each rep over its own floor: p99 800000 / 125000, not the mean floor.
            self.assertIn("2200.0 6.4000 1.2000 zipf 2 2048 2 2", rows)
            summary = (run / "summary.txt").read_text()
            sec = summary.split("fault latency against load", 1)[1].splitlines()
            line = [x for x in sec if x.split()[:2] == ["default", "zipf"]][0]
            rate, p50, p99 = [2100, 2200], [1.5, 1.2], [4.0, 6.4]
            self.assertEqual(line.split()[2:4], ["2.00", "2048"])
            self.assertIn(f"{benchlib.mean(rate):7.0f}±{benchlib.stddev(rate):<5.0f}", line)
            self.assertIn(f"{benchlib.mean(p50):6.2f}±{benchlib.stddev(p50):<6.2f}", line)
            self.assertIn(f"{benchlib.mean(p99):6.1f}±{benchlib.stddev(p99):<5.1f}", line)
            # p99 <= 5 gcm decrypts: rep 1 (4.0) only.
            self.assertTrue(line.endswith(" 1/2"), line)
            fifo = [x for x in sec if x.split()[:2] == ["fifo16", "zipf"]][0]
            self.assertTrue(fifo.endswith(" 0/2"), fifo)
            self.assertFalse([x for x in sec if "uniform" in x or "hotcold" in x], summary)

    def test_pager_report_baseline(self):
        self.assertTrue((PAGER_REPORT / "results.txt").is_file(), f"no baseline in {PAGER_REPORT}")
        with tempfile.TemporaryDirectory() as d:
            run = pathlib.Path(d) / "pager-report"
            run.mkdir()
            (run / "results.txt").write_text((PAGER_REPORT / "results.txt").read_text())
            rc, out = run_tool(BENCH / "summarize", run)
            self.assertEqual(rc, 0, out)
            want = expected_latload(run / "results.txt")
            # 3 policies x 7 patterns x 5 seeds, every run faulting.
            self.assertEqual({p: len(v) for p, v in want.items()},
                             {"default": 35, "twolist": 35, "fifo16": 35})
            self.assertEqual(latload_problems(run, want), [])
            # The points are the main table's runs: the mean of default/zipf's
            # per-seed p99s is the table's p99/dec.
            p99 = [p[1] for p in want["default"] if p[3] == "zipf"]
            summary = (run / "summary.txt").read_text()
            line = [x for x in summary.splitlines() if x.split()[:2] == ["default", "zipf"]][0]
            self.assertIn(f"{benchlib.mean(p99):6.1f}±{benchlib.stddev(p99):<5.1f}", line)
            # The check catches a doctored point, a dropped run and a
            # missing file.
            path = run / "plot-latload-fifo16.dat"
            good = path.read_text()
            c = good.splitlines()[3].split()
            bad = good.replace(" ".join(c), " ".join([c[0], f"{float(c[1]) * 1.01:.4f}"] + c[2:]))
            path.write_text(bad)
            self.assertTrue([x for x in latload_problems(run, want) if "p99/dec" in x])
            path.write_text("\n".join(good.splitlines()[:-1]) + "\n")
            self.assertTrue([x for x in latload_problems(run, want) if "runs" in x])
            path.unlink()
            self.assertTrue([x for x in latload_problems(run, want) if "files" in x])


class SwapCeiling(unittest.TestCase):
    """bench/swap-ceiling on a synthetic run, against numbers worked out
    by hand."""

    def test_bucket_edges(self):
        loader = importlib.machinery.SourceFileLoader("swap_ceiling",
                                                      str(BENCH / "swap-ceiling"))
        mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(
            "swap_ceiling", loader))
        loader.exec_module(mod)
        # lat.c: [b, b + 1) below 8 ns, then [(8 + s) << (e - 1), (9 + s) << (e - 1)).
        for ub, low in ((1, 0), (8, 7), (9, 8), (16, 15), (18, 16), (1024, 960),
                        (1152, 1024), (65536, 61440), (196608, 180224)):
            self.assertEqual(mod.bucket_low(ub), low, ub)

    def test_synthetic_run(self):
        with tempfile.TemporaryDirectory() as d:
            run = pathlib.Path(d)
            f = "pattern=zipf,ratio=2.00,epc=2048,accesses=40960,seed=1,policy=default,rep=1"
            (run / "results.txt").write_text("\n".join([
                "metric=gcm_enc_4k factors=source=emu_bench,rep=1 value=160000 unit=ns",
                "metric=gcm_dec_4k factors=source=emu_bench,rep=1 value=150000 unit=ns",
                f"metric=access_time factors={f} value=0.5 unit=s",
                f"metric=lat_fault_count factors={f},slow_ns=50000 value=2500 unit=count",
                f"metric=nr_loaded factors={f} value=3000 unit=count",
                f"metric=swap_rate factors={f} value=6000 unit=pages/s"]) + "\n")
            (run / "lat").mkdir()
            # 1000 faulting accesses in [180224, 196608), 1000 in [245760, 262144).
            (run / "lat" / "default-zipf-2-t1-seed1-rep1.txt").write_text(
                "# lt_ns all faulting\n1024 500 0\n196608 1000 1000\n262144 1000 1000\n")
            rc, out = run_tool(BENCH / "swap-ceiling", run)
            self.assertEqual(rc, 0, out)
            line = [x for x in out.splitlines() if x.startswith("default")][0].split()
            # Mid-points 188416 and 253952 ns, mean 221184 ns = 1.475 decrypts;
            # in faulting accesses 2000 x 221184 ns of 0.5 s = 0.885 of the
            # pass; 3000 loads / 2500 faulting accesses = 1.2 a fault; ceiling
            # 1.2 x 310000 / (2 x 221184) = 0.841; swap 6000 / (4e9 / 310000)
            # = 0.465; for 0.7: a mean of 1.2 x 310000 / 1.4 = 265714 ns = 1.771.
            vals = [float(x) for x in line[3::2]]
            for got, want in zip(vals, (1.475, 0.885, 1.2, 0.841, 0.465, 1.771)):
                self.assertLessEqual(abs(got - want), 0.0015, (vals, want))

    def test_errors(self):
        rc, out = run_tool(BENCH / "swap-ceiling")
        self.assertEqual(rc, 2)
        with tempfile.TemporaryDirectory() as d:
            # A run with floors but no lat/ histogram: nothing to say.
            (pathlib.Path(d) / "results.txt").write_text(
                "metric=gcm_dec_4k factors=source=emu_bench,rep=1 value=1 unit=ns\n")
            rc, out = run_tool(BENCH / "swap-ceiling", d)
            self.assertEqual(rc, 1)
            self.assertIn("no single-thread run", out)
        with tempfile.TemporaryDirectory() as d:
            rc, out = run_tool(BENCH / "swap-ceiling", d)
            self.assertEqual(rc, 2)
            self.assertIn("no such file", out)


if __name__ == "__main__":
    unittest.main()
