"""benchlib: shared by bench/summarize, bench/compare and bench/history.

Reads the benchmark's lines (metric=NAME factors=K=V,... value=N unit=U),
derives the ratios the project reports (faults over Belady's MIN, swap rate
over the gcm floor of the same repeat), groups repeats, and carries the
statistics: mean, sample standard deviation, Welch's t-test with the
Student t distribution computed from the regularized incomplete beta
function (Python's standard library has neither).
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


def derive(rows):
    """Rows plus the derived per-run ratios:
    faults_over_min      faults / min_faults of the same run
    swap_rate_over_floor swap_in_rate / (1e9 / (gcm_enc_4k + gcm_dec_4k)) of
                         the same repeat: the share of the crypto floor's
                         page rate the pager reaches
    ELDU/EWB latencies are not reported twice: the emu bench gives their
    ratios to the floors itself."""
    out = list(rows)
    by_run = {}
    floors = {}
    for r in rows:
        if r.factors.get("source") == "emu_bench" and r.metric in ("gcm_enc_4k", "gcm_dec_4k"):
            floors.setdefault(r.factors.get("rep", ""), {})[r.metric] = r.value
            continue
        if r.metric in ("faults", "min_faults", "swap_in_rate"):
            f = {k: v for k, v in r.factors.items() if k != "capacity"}
            by_run.setdefault(_key(f), {})[r.metric] = r
    for runs in by_run.values():
        faults, mn, rate = runs.get("faults"), runs.get("min_faults"), runs.get("swap_in_rate")
        if faults and mn and mn.value > 0:
            out.append(Row("faults_over_min", dict(faults.factors), faults.value / mn.value, "ratio"))
        if rate:
            fl = floors.get(rate.factors.get("rep", ""), {})
            if "gcm_enc_4k" in fl and "gcm_dec_4k" in fl:
                floor_rate = 1e9 / (fl["gcm_enc_4k"] + fl["gcm_dec_4k"])
                out.append(Row("swap_rate_over_floor", dict(rate.factors),
                               rate.value / floor_rate, "ratio"))
    return out


def group(rows, drop=REPEAT_FACTORS):
    """{(metric, factor key without the repeat factors): [values]}"""
    groups = {}
    for r in rows:
        groups.setdefault((r.metric, _key(r.factors, drop)), []).append(r.value)
    return groups


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


class Tolerance:
    __slots__ = ("glob", "rel", "direction", "line")

    def __init__(self, glob, rel, direction, line):
        self.glob, self.rel, self.direction, self.line = glob, rel, direction, line


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
    for t in tols:
        if "{" in t.glob:
            mglob, fglob = t.glob.split("{", 1)
            fglob = fglob.rstrip("}")
            if not fnmatch.fnmatchcase(metric, mglob):
                continue
            want = dict(kv.split("=", 1) for kv in fglob.split(",") if "=" in kv)
            have = dict(key)
            if all(fnmatch.fnmatchcase(have.get(k, ""), v) for k, v in want.items()):
                return t
        elif fnmatch.fnmatchcase(metric, t.glob):
            return t
    return None


class Verdict:
    __slots__ = ("metric", "key", "base", "cand", "ratio", "p", "tol", "verdict", "fail", "note")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


def judge(base_vals, cand_vals, tol, alpha):
    """(ratio, p, verdict, fail, note) for one group."""
    mb, mc = mean(base_vals), mean(cand_vals)
    if mb == mc:
        ratio = 1.0
    elif mb == 0:
        ratio = math.inf if mc > 0 else -math.inf
    else:
        ratio = mc / mb
    p, note = math.nan, ""
    if len(base_vals) >= 2 and len(cand_vals) >= 2:
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
    """A Verdict per group of the baseline and the candidate."""
    gb, gc = group(derive(base_rows)), group(derive(cand_rows))
    out = []
    for metric, key in sorted(set(gb) | set(gc)):
        tol = match_tolerance(tols, metric, key)
        b, c = gb.get((metric, key)), gc.get((metric, key))
        v = Verdict(metric=metric, key=key, base=b, cand=c, tol=tol, note="")
        judged = tol is not None and tol.direction != "info"
        if b is None:
            v.verdict, v.fail = "new", False
        elif c is None:
            # A measurement that stopped: a crash or a config change.
            v.verdict, v.fail = "missing", judged
        else:
            v.ratio, v.p, v.verdict, v.fail, v.note = judge(b, c, tol, alpha)
        out.append(v)
    return out
