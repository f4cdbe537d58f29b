"""benchlib: shared by bench/summarize, bench/compare and bench/history.

Reads the benchmark's lines (metric=NAME factors=K=V,... value=N unit=U),
derives the ratios the project reports (faults over Belady's MIN at the
usable capacity, swap rate and access latencies over the gcm floors of the
same repeat), groups the runs by seed (the unit of replication), and
carries the statistics: mean, sample standard deviation, Welch's t-test
and the paired t-test, with the Student t distribution computed from the
regularized incomplete beta function (Python's standard library has
neither).
"""
import fnmatch
import math
import pathlib

# Factors that tell repeats of one measurement apart: a group is a metric
# and its factors without these.
REPEAT_FACTORS = ("rep", "seed")


class Row:
    __slots__ = ("metric", "factors", "value", "unit")

    def __init__(self, metric, factors, value, unit):
        self.metric, self.factors, self.value, self.unit = metric, factors, value, unit

    def __repr__(self):
        return f"Row({self.metric!r}, {self.factors!r}, {self.value!r}, {self.unit!r})"


def parse_line(line):
    """One Row from a result line, or None for anything else (comments,
    blank lines).  A line that starts with metric= but is malformed raises
    ValueError: a result file must not lose measurements silently."""
    line = line.strip()
    if not line.startswith("metric="):
        return None
    fields = {}
    for tok in line.split():
        if "=" not in tok:
            raise ValueError(f"token without '=': {tok!r}")
        k, v = tok.split("=", 1)
        fields[k] = v
    if "value" not in fields:
        raise ValueError("no value=")
    try:
        value = float(fields["value"])
    except ValueError:
        raise ValueError(f"value is not a number: {fields['value']!r}") from None
    factors = {}
    for kv in fields.get("factors", "").split(","):
        if not kv:
            continue
        if "=" not in kv:
            raise ValueError(f"factor without '=': {kv!r}")
        k, v = kv.split("=", 1)
        factors[k] = v
    return Row(fields["metric"], factors, value, fields.get("unit", ""))


def read_results(path):
    """Rows of a results.txt (a path to the file or to its run folder)."""
    path = pathlib.Path(path)
    if path.is_dir():
        path = path / "results.txt"
    if not path.is_file():
        raise FileNotFoundError(f"no results file {path}")
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = parse_line(line)
        except ValueError as e:
            raise ValueError(f"{path}:{n}: {e}") from None
        if row:
            rows.append(row)
    if not rows:
        raise ValueError(f"{path}: no measurements")
    return rows


def read_metadata(path):
    """key=value lines of a metadata.txt (missing file: empty)."""
    path = pathlib.Path(path)
    if path.is_dir():
        path = path / "metadata.txt"
    meta = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            if "=" in line and not line.lstrip().startswith("#"):
                k, v = line.split("=", 1)
                meta[k.strip()] = v.strip().strip('"')
    return meta


def _key(factors, drop=()):
    return tuple(sorted((k, v) for k, v in factors.items() if k not in drop))


# Per-run latencies (wsgen, ns) reported over the gcm decrypt of a 4 KiB
# page measured in the same repeat: NAME -> NAME_over_dec.
LATENCY_OVER_DEC = ("lat_fault_p50", "lat_fault_p90", "lat_fault_p99", "lat_fault_p999",
                    "lat_p50", "lat_p90", "lat_p99", "lat_p999")
# Metrics of a wsgen run whose factors carry extras (capacity=, slow_ns=,
# usable=) that tell nothing apart within one run.
_RUN_EXTRAS = ("capacity", "slow_ns", "usable")


def derive(rows):
    """Rows plus the derived per-run ratios:
    faults_over_min        faults / min_faults_usable of the same run:
                           Belady's MIN at the capacity the hardware
                           leaves (EPC - SECS - VA pages - reserve)
    faults_over_min_steady faults / min_faults_steady (MIN less the pages
                           kisgxswapd keeps free: secondary, a pager
                           improves it by keeping more free)
    swap_rate_over_floor   swap_rate ((evicted + loaded) / s of the
                           measured pass) / (2e9 / (gcm_enc_4k +
                           gcm_dec_4k)) of the same repeat: the share of the
                           crypto floor's page rate (one encrypt per page
                           out, one decrypt per page in) the pager reaches
    LAT_over_dec           each latency of LATENCY_OVER_DEC / gcm_dec_4k of
                           the same repeat
    build_rate_over_sha    build_rate (pages/s of EADD + EEXTEND) /
                           (1e9 / sha256_4k) of the same repeat
    ELDU/EWB latencies are not reported twice: the emu bench gives their
    ratios to the floors itself."""
    out = list(rows)
    by_run = {}
    floors = {}
    for r in rows:
        if r.factors.get("source") == "emu_bench" and r.metric in (
                "gcm_enc_4k", "gcm_dec_4k", "sha256_4k"):
            floors.setdefault(r.factors.get("rep", ""), {})[r.metric] = r.value
            continue
        if r.metric in ("faults", "min_faults_usable", "min_faults_steady", "swap_rate",
                        "build_rate") + LATENCY_OVER_DEC:
            f = {k: v for k, v in r.factors.items() if k not in _RUN_EXTRAS}
            by_run.setdefault(_key(f), {})[r.metric] = r
    for runs in by_run.values():
        faults = runs.get("faults")
        for mname, dname in (("min_faults_usable", "faults_over_min"),
                             ("min_faults_steady", "faults_over_min_steady")):
            mn = runs.get(mname)
            if faults and mn and mn.value > 0:
                out.append(Row(dname, dict(faults.factors), faults.value / mn.value, "ratio"))
        any_row = next(iter(runs.values()))
        fl = floors.get(any_row.factors.get("rep", ""), {})
        rate = runs.get("swap_rate")
        if rate and "gcm_enc_4k" in fl and "gcm_dec_4k" in fl:
            floor_rate = 2e9 / (fl["gcm_enc_4k"] + fl["gcm_dec_4k"])
            out.append(Row("swap_rate_over_floor", dict(rate.factors),
                           rate.value / floor_rate, "ratio"))
        if "gcm_dec_4k" in fl:
            for name in LATENCY_OVER_DEC:
                lat = runs.get(name)
                if lat:
                    f = {k: v for k, v in lat.factors.items() if k not in _RUN_EXTRAS}
                    out.append(Row(name + "_over_dec", f, lat.value / fl["gcm_dec_4k"], "ratio"))
        build = runs.get("build_rate")
        if build and "sha256_4k" in fl:
            out.append(Row("build_rate_over_sha", dict(build.factors),
                           build.value / (1e9 / fl["sha256_4k"]), "ratio"))
    return out


def group(rows, drop=REPEAT_FACTORS):
    """{(metric, factor key without the repeat factors): [values]}"""
    groups = {}
    for r in rows:
        groups.setdefault((r.metric, _key(r.factors, drop)), []).append(r.value)
    return groups


def group_by_seed(rows, drop=REPEAT_FACTORS):
    """{(metric, factor key without rep and seed): {seed: mean over the
    repeats of that seed}}: seeds are the unit of replication, repeats of
    one seed only measure timing noise.  Rows without a seed (the floors)
    use their rep as the seed."""
    acc = {}
    for r in rows:
        seed = r.factors.get("seed", "rep" + r.factors.get("rep", "1"))
        acc.setdefault((r.metric, _key(r.factors, drop)), {}).setdefault(seed, []).append(r.value)
    return {k: {s: mean(v) for s, v in per.items()} for k, per in acc.items()}


def factors_str(key):
    return ",".join(f"{k}={v}" for k, v in key)


def mean(xs):
    return sum(xs) / len(xs)


def stddev(xs):
    """Sample standard deviation (n - 1); 0 for fewer than two values."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            return h
    raise ArithmeticError(f"betainc({a}, {b}, {x}) did not converge")


def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b), a, b > 0."""
    if a <= 0 or b <= 0:
        raise ValueError("betainc needs a > 0 and b > 0")
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t) for Student's t with df > 0 degrees of freedom."""
    if df <= 0:
        raise ValueError("t_cdf needs df > 0")
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def welch(xs, ys):
    """Welch's unequal-variance t-test: (t, df, two-sided p).  Needs two
    values on each side; both variances zero gives p 1 for equal means and
    0 otherwise (a deterministic difference)."""
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        raise ValueError("Welch's t-test needs at least two values on each side")
    m1, m2 = mean(xs), mean(ys)
    v1, v2 = stddev(xs) ** 2 / n1, stddev(ys) ** 2 / n2
    if v1 + v2 == 0:
        return (0.0 if m1 == m2 else math.copysign(math.inf, m2 - m1)), float(n1 + n2 - 2), \
            (1.0 if m1 == m2 else 0.0)
    t = (m2 - m1) / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1 ** 2 / (n1 - 1) + v2 ** 2 / (n2 - 1))
    p = betainc(df / 2.0, 0.5, df / (df + t * t))
    return t, df, min(1.0, p)


def paired_t(xs, ys):
    """Paired t-test of ys - xs (same seeds, in the same order): (t, df,
    two-sided p).  Needs two pairs; identical differences give p 1 for a
    zero mean difference and 0 otherwise."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("the paired t-test needs at least two pairs")
    d = [y - x for x, y in zip(xs, ys)]
    n, md, sdd = len(d), mean(d), stddev(d)
    if sdd == 0:
        return (0.0 if md == 0 else math.copysign(math.inf, md)), float(n - 1), \
            (1.0 if md == 0 else 0.0)
    t = md / (sdd / math.sqrt(n))
    df = n - 1.0
    return t, df, min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


class Tolerance:
    """One line of a tolerance file; its GLOB split once into the metric
    glob and the {k=v,...} filter (a dict, empty without one)."""
    __slots__ = ("glob", "rel", "direction", "line", "metric_glob", "want")

    def __init__(self, glob, rel, direction, line):
        self.glob, self.rel, self.direction, self.line = glob, rel, direction, line
        self.metric_glob, _, fglob = glob.partition("{")
        self.want = dict(kv.split("=", 1) for kv in fglob.rstrip("}").split(",") if "=" in kv)


DIRECTIONS = ("lower", "higher", "exact", "info")


def read_tolerances(path):
    """Lines 'GLOB TOLERANCE DIRECTION' (first match wins): GLOB matches the
    metric name, or 'metric{k=v,...}' to match only groups with those
    factors; TOLERANCE is relative (0.10 = 10 %) or '-'; DIRECTION is
    lower or higher (which is better), exact (deterministic: any
    difference fails) or info (reported, never judged)."""
    tols = []
    for n, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 3:
            raise ValueError(f"{path}:{n}: want 'GLOB TOLERANCE DIRECTION', got {line!r}")
        glob, rel, direction = parts
        if direction not in DIRECTIONS:
            raise ValueError(f"{path}:{n}: direction must be one of {', '.join(DIRECTIONS)}")
        if rel == "-":
            if direction in ("lower", "higher"):
                raise ValueError(f"{path}:{n}: {direction} needs a tolerance")
            relv = 0.0
        else:
            try:
                relv = float(rel)
            except ValueError:
                raise ValueError(f"{path}:{n}: tolerance {rel!r} is not a number") from None
            if relv < 0:
                raise ValueError(f"{path}:{n}: negative tolerance")
        tols.append(Tolerance(glob, relv, direction, n))
    return tols


def match_tolerance(tols, metric, key):
    fstr = factors_str(key)
    have = dict(key)
    for t in tols:
        if fnmatch.fnmatchcase(metric, t.metric_glob) and \
                all(fnmatch.fnmatchcase(have.get(k, ""), v) for k, v in t.want.items()):
            return t
    return None


def unmatched_tolerances(tols, metrics):
    """The lines of @tols whose metric glob matches none of @metrics
    (metric names): a misspelt metric, or a line for another config.
    Either way the line judged nothing, so bench/compare names it.  A
    factor filter that matches nothing is not named: a config without
    threads has no threads factor, and that is no mistake
    (unit.bench checks the project's filters against the factor names
    of the committed results instead)."""
    return [t for t in tols
            if not any(fnmatch.fnmatchcase(m, t.metric_glob) for m in metrics)]


class Verdict:
    __slots__ = ("metric", "key", "base", "cand", "ratio", "p", "tol", "verdict", "fail", "note",
                 "paired")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


def judge(base_vals, cand_vals, tol, alpha, paired=False):
    """(ratio, p, verdict, fail, note) for one group: per-seed values on
    each side; paired: the same seeds in the same order on both sides
    (the paired t-test), else Welch's test on the per-seed values."""
    mb, mc = mean(base_vals), mean(cand_vals)
    if mb == mc:
        ratio = 1.0
    elif mb == 0:
        ratio = math.inf if mc > 0 else -math.inf
    else:
        ratio = mc / mb
    p, note = math.nan, ""
    if paired and len(base_vals) >= 2:
        p = paired_t(base_vals, cand_vals)[2]
    elif len(base_vals) >= 2 and len(cand_vals) >= 2:
        p = welch(base_vals, cand_vals)[2]
    if tol is None or tol.direction == "info":
        return ratio, p, "info", False, note
    if tol.direction == "exact":
        same = mb == mc
        return ratio, p, "same" if same else "differs", not same, note
    if tol.direction == "lower":
        worse, better = ratio > 1 + tol.rel, ratio < 1 - tol.rel
    else:
        worse, better = ratio < 1 - tol.rel, ratio > 1 + tol.rel
    testable = not math.isnan(p)
    significant = testable and p < alpha
    if not testable and (worse or better):
        note = "n<2: untested"
    if worse and (significant or not testable):
        return ratio, p, "worse", True, note
    if better and (significant or not testable):
        return ratio, p, "better", False, note
    if worse or better:
        note = "beyond tolerance, not significant"
    return ratio, p, "same", False, note


def compare(base_rows, cand_rows, tols, alpha=0.05):
    """A Verdict per group of the baseline and the candidate.  Each side
    is reduced to one value per seed (the mean of that seed's repeats).
    When both sides ran two or more seeds in common, the group is judged
    on those seeds, paired; otherwise on all seeds of each side, Welch."""
    gb, gc = group_by_seed(derive(base_rows)), group_by_seed(derive(cand_rows))
    out = []
    for metric, key in sorted(set(gb) | set(gc)):
        tol = match_tolerance(tols, metric, key)
        sb, sc = gb.get((metric, key)), gc.get((metric, key))
        common = sorted(set(sb or ()) & set(sc or ()))
        paired = len(common) >= 2
        if paired:
            b, c = [sb[s] for s in common], [sc[s] for s in common]
        else:
            b = [sb[s] for s in sorted(sb)] if sb else None
            c = [sc[s] for s in sorted(sc)] if sc else None
        v = Verdict(metric=metric, key=key, base=b, cand=c, tol=tol, note="", paired=paired)
        judged = tol is not None and tol.direction != "info"
        if b is None:
            v.verdict, v.fail = "new", False
        elif c is None:
            # A measurement that stopped: a crash or a config change.
            v.verdict, v.fail = "missing", judged
        else:
            v.ratio, v.p, v.verdict, v.fail, v.note = judge(b, c, tol, alpha, paired)
            left = len(sb) + len(sc) - 2 * len(common)
            if paired and left:
                v.note = (v.note + "; " if v.note else "") + f"{left} unpaired seed(s) left out"
        out.append(v)
    return out
