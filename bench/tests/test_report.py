#!/usr/bin/env python3
"""The report page of a benchmark run (bench/report-html) in a real
headless browser: Debian's chromium through chromedriver (python3-selenium).

  python3 bench/tests/test_report.py
      unit (ctest unit.report): a run folder made from the committed smoke
      baseline (results/baseline/smoke: summarize, compare with the
      held-out run results/heldout/smoke with two groups shifted so that
      one fails and one is better, the history and the charts with
      gnuplot as scripts/bench draws them), its page checked in the
      browser, and the same page with a broken image and with a wrong
      number, which the check must catch; report-html's errors and its
      escaping.
  python3 bench/tests/test_report.py --run RUN_DIR [--screenshot FILE]
      bench (ctest bench.report, after bench.smoke): check RUN_DIR/index.html.

The check loads the page from file://, saves a screenshot of the whole page
(RUN_DIR/report-screenshot.png unless --screenshot), requires the page's
<img> to be exactly the run's charts (unit: the PNGs the gnuplot step
wrote; --run: RUN_DIR/charts/*.png), each a non-empty file that loaded
(naturalWidth > 0), every link to name an existing file inside the run
folder, and the table's numbers to match the run's own: those of
summary.txt (bench/summarize's output) and, computed here from results.txt
without benchlib, the faults, MIN and faults / MIN (mean and sd over the
seeds) of every run and the floors' gcm times; and, when the run was
compared, the verdict banner and every verdict row of compare.txt (parsed
here).  The browser session has a deadline, and so has its end: a
chromedriver that does not quit is killed with its process group.
"""
import argparse
import collections
import contextlib
import os
import pathlib
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

TOP = pathlib.Path(__file__).resolve().parent.parent.parent
BENCH = TOP / "bench"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Every browser session ends within this many seconds or fails.
TIMEOUT = 120
# driver.quit() gets this many seconds; then chromedriver's process group
# (chromium with it) is killed.
QUIT_TIMEOUT = 10

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    # Debian's python3-selenium is the system Python's: a python3 earlier
    # on PATH (a virtualenv, pyenv) does not see it.
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3" \
            and not os.environ.get("ISGX_REPORT_REEXEC"):
        os.environ["ISGX_REPORT_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    sys.exit("test_report: error: python3-selenium is not installed (scripts/setup installs it)")


class Timeout(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds, what):
    def fire(*_):
        raise Timeout(f"{what} took more than {seconds} s")
    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def browser():
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            raise RuntimeError(f"{path} is missing: install chromium and chromium-driver "
                               "(scripts/setup)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--hide-scrollbars"):
        opts.add_argument(arg)
    if os.geteuid() == 0:
        opts.add_argument("--no-sandbox")  # chromium refuses to run as root with it
    driver = service = None
    # chromium leaves a folder in TMPDIR per session: give it one of ours.
    with tempfile.TemporaryDirectory() as tmp:
        try:
            with deadline(TIMEOUT, "the browser session"):
                # Its own process group (chromium joins it): end_session
                # can kill the lot.
                service = Service(CHROMEDRIVER, env=dict(os.environ, TMPDIR=tmp),
                                  popen_kw={"start_new_session": True})
                driver = webdriver.Chrome(service=service, options=opts)
                driver.set_page_load_timeout(60)
                driver.set_script_timeout(30)
                yield driver
        finally:
            end_session(driver, service)


def end_session(driver, service, seconds=QUIT_TIMEOUT):
    """driver.quit() within seconds (outside the session's deadline: after
    a Timeout too); when it hangs or chromedriver is still there after it,
    SIGKILL to chromedriver's process group.  True when it had to kill."""
    hung = False
    if driver is not None:
        quitter = threading.Thread(target=driver.quit, daemon=True)
        quitter.start()
        quitter.join(seconds)
        hung = quitter.is_alive()
    proc = getattr(service, "process", None)
    if proc is not None and (hung or proc.poll() is None):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(seconds)
        return True
    return False


# --- what the page must show, from the run's own files ----------------------

def parse_results(path):
    """[(metric, factors, value)] of a results.txt, parsed here."""
    rows = []
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.startswith("metric="):
            continue
        f = dict(t.split("=", 1) for t in line.split())
        factors = dict(kv.split("=", 1) for kv in f.get("factors", "").split(",") if kv)
        rows.append((f["metric"], factors, float(f["value"])))
    return rows


def mean_sd(per_seed):
    vals = [statistics.mean(v) for _, v in sorted(per_seed.items())]
    return statistics.mean(vals), (statistics.stdev(vals) if len(vals) > 1 else 0.0)


def expected_from_results(run):
    """{row key: {"faults": (mean, sd), "fmin": (mean, sd)}} and the floors
    {metric: (mean, sd)}, from results.txt: each seed's repeats averaged,
    then mean and sample sd over the seeds."""
    rows = parse_results(pathlib.Path(run) / "results.txt")
    extras = ("capacity", "slow_ns", "usable")
    mins = {}
    for metric, f, v in rows:
        if metric == "min_faults_usable":
            mins[tuple(sorted((k, x) for k, x in f.items() if k not in extras))] = v
    faults = collections.defaultdict(lambda: collections.defaultdict(list))
    fmin = collections.defaultdict(lambda: collections.defaultdict(list))
    mins_by_row = collections.defaultdict(lambda: collections.defaultdict(list))
    floors = collections.defaultdict(list)
    for metric, f, v in rows:
        if f.get("source") in ("emu_bench", "floor"):
            floors[metric].append(v)
            continue
        if metric not in ("faults", "min_faults_usable") or f.get("source") \
                or "pattern" not in f:
            continue
        key = (f"{f.get('policy', '?')}|{f['pattern']}|{float(f['ratio']):.2f}|"
               f"{int(f.get('epc', 0))}|{int(f.get('threads', 1))}|{f.get('role', '')}")
        seed = f.get("seed", "rep" + f.get("rep", "1"))
        if metric == "min_faults_usable":
            mins_by_row[key][seed].append(v)
            continue
        faults[key][seed].append(v)
        mn = mins.get(tuple(sorted((k, x) for k, x in f.items() if k not in extras)))
        if mn:
            fmin[key][seed].append(v / mn)
    want = {k: {"faults": mean_sd(per)} for k, per in faults.items()}
    for k, per in fmin.items():
        want[k]["fmin"] = mean_sd(per)
    # MIN (usable capacity): each seed's repeats averaged, then the mean
    # over the seeds (the page shows no sd for it).
    for k, per in mins_by_row.items():
        if k in want:
            want[k]["min"] = (mean_sd(per)[0], None)
    floor_want = {m: (statistics.mean(v), statistics.stdev(v) if len(v) > 1 else 0.0)
                  for m, v in floors.items()}
    return want, floor_want


def summary_rows(run):
    """{row key: {field: text}} of summary.txt's run table (summarize's own
    output), the fields named as the page's cells."""
    fields = ("fp", "faults", "min", "fmin", "fsteady", "frac", "et", "ipi", "p50", "p99",
              "p999", "cost", "perf_p50", "perf_p99")
    out, in_table = {}, False
    for line in (pathlib.Path(run) / "summary.txt").read_text().splitlines():
        if line.startswith("policy ") and "faults/MIN" in line:
            in_table = True
            continue
        if in_table and not line.strip():
            break
        if in_table:
            t = line.split("  IMPOSSIBLE")[0].split()
            policy, pattern, ratio, epc, thr, role = t[:6]
            key = f"{policy}|{pattern}|{ratio}|{epc}|{thr}|{'' if role == '-' else role}"
            out[key] = dict(zip(fields, t[6:]))
    return out


def numbers(text):
    """The numbers of a cell ("2703 ± 82", "–" for none: [nan])."""
    text = text.replace("–", "nan")
    return [float(x) for x in re.findall(r"-?(?:\d+\.?\d*|nan|inf)", text)]


def close(shown, want, text):
    """shown (rounded as printed in text) is want to the printed digits."""
    if want != want:
        return shown != shown
    digits = len(text.split(".")[1]) if "." in text else 0
    return abs(shown - want) <= 0.5 * 10 ** -digits + 1e-9 * abs(want)


# --- the check --------------------------------------------------------------

JS_IMAGES = ("return Array.from(document.images).map("
             "i => [i.getAttribute('src'), i.complete, i.naturalWidth]);")
JS_RUNS = ("return Array.from(document.querySelectorAll('#runs tr[data-key]')).map(tr => "
           "[tr.dataset.key, Object.fromEntries(Array.from(tr.querySelectorAll('td[data-field]'))"
           ".map(td => [td.dataset.field, td.innerText]))]);")
JS_FLOORS = ("return Array.from(document.querySelectorAll('#floors tr[data-metric]')).map(tr => "
             "[tr.dataset.metric, tr.cells[1].innerText]);")
JS_LINKS = "return Array.from(document.links).map(a => a.href);"
JS_VERDICTS = ("return Array.from(document.querySelectorAll('#verdicts tr')).filter(tr => "
               "tr.querySelector('td')).map(tr => [tr.className, "
               "Array.from(tr.cells).map(td => td.textContent)]);")


def parse_compare_txt(path):
    """(rows, failing groups) of bench/compare's output, parsed here: the
    rows of its table (cells split at runs of two or more spaces, as
    compare pads them) and the count of its "REGRESSION: N group(s)" line
    (0 without one)."""
    lines = pathlib.Path(path).read_text().splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("metric ")), None)
    if start is None:
        return None, 0
    ncols = len(re.split(r"\s{2,}", lines[start].strip()))
    rows = []
    for ln in lines[start + 1:]:
        if not ln.strip() or ln.startswith(("note:", "summary:", "REGRESSION:", "no regression")):
            break
        cells = re.split(r"\s{2,}", ln.strip())
        if len(cells) != ncols:
            raise ValueError(f"{path}: a row of {len(cells)} cells, not {ncols}: {ln!r}")
        rows.append(cells)
    m = re.search(r"^REGRESSION: (\d+) group", "\n".join(lines), re.M)
    return rows, int(m.group(1)) if m else 0


def run_charts(run):
    """The names (charts/NAME.png) of RUN/charts/*.png."""
    folder = pathlib.Path(run) / "charts"
    return {f"charts/{p.name}" for p in folder.glob("*.png")} if folder.is_dir() else set()


def check_page(run, screenshot, charts=None):
    """The problems of RUN/index.html (empty: the page is right).  charts:
    the names of the PNGs the run's chart step wrote (the page must show
    exactly these, from RUN/charts/); default the PNGs in RUN/charts/,
    at least one."""
    run = pathlib.Path(run).resolve()
    page = run / "index.html"
    if not page.is_file():
        return [f"no report page {page}"]
    problems = []
    if charts is None:
        charts = run_charts(run)
        if not charts:
            problems.append(f"the run has no charts ({run / 'charts'}/*.png)")
    want_charts = {f"charts/{pathlib.Path(c).name}" for c in charts}
    with browser() as d:
        d.get(page.as_uri())
        height = d.execute_script("return document.documentElement.scrollHeight;")
        d.set_window_size(1400, max(600, min(int(height), 16000)))
        if not d.save_screenshot(str(screenshot)):
            problems.append(f"no screenshot saved to {screenshot}")
        body = d.find_element("tag name", "body").text
        images = d.execute_script(JS_IMAGES)
        runs = dict(d.execute_script(JS_RUNS))
        floors = dict(d.execute_script(JS_FLOORS))
        links = d.execute_script(JS_LINKS)
        verdict_rows = d.execute_script(JS_VERDICTS)

    # The charts: exactly the run's, each a non-empty file that loaded.
    shown_charts = collections.Counter(urllib.parse.unquote(src or "") for src, _, _ in images)
    for src, n in shown_charts.items():
        if n > 1:
            problems.append(f"image {src} shown {n} times")
    if set(shown_charts) != want_charts:
        missing, extra = want_charts - set(shown_charts), set(shown_charts) - want_charts
        problems.append(f"the page's images are not the run's charts: missing {sorted(missing)}, "
                        f"not the run's {sorted(extra)}")
    for name in sorted(want_charts):
        f = run / name
        if not f.is_file() or f.stat().st_size == 0:
            problems.append(f"chart {name} is missing or empty in the run folder")
    for src, complete, width in images:
        if not complete or not width:
            problems.append(f"image {src} did not load (naturalWidth {width})")
    # Every link: a file inside the run folder.
    for url in links:
        u = urllib.parse.urlparse(url)
        if u.scheme != "file" or u.netloc not in ("", "localhost"):
            problems.append(f"link {url} leaves the run folder (not a local file://)")
            continue
        target = pathlib.Path(urllib.parse.unquote(u.path)).resolve()
        if not target.is_relative_to(run):
            problems.append(f"link {url} leaves the run folder {run}")
        elif not target.exists():
            problems.append(f"link {url} names no file")

    # summary.txt, cell by cell.
    text_rows = summary_rows(run)
    if not text_rows:
        problems.append("summary.txt has no run table")
    if set(text_rows) != set(runs):
        problems.append(f"the page's rows {sorted(runs)} are not summary.txt's {sorted(text_rows)}")
    for key, cells in text_rows.items():
        shown = runs.get(key, {})
        for field, txt in cells.items():
            if field not in shown:
                problems.append(f"{key}: no {field} cell")
                continue
            want = [float(x) for x in txt.replace("±", " ").split()]
            got = numbers(shown[field])
            if len(got) != len(want) or not all(
                    (a != a and b != b) or close(a, b, txt.split("±")[i] if "±" in txt else txt)
                    for i, (a, b) in enumerate(zip(got, want))):
                problems.append(f"{key}: {field} shows {shown[field]!r}, summary.txt {txt!r}")

    # results.txt, computed here.
    want, floor_want = expected_from_results(run)
    for key, metrics in want.items():
        shown = runs.get(key)
        if shown is None:
            problems.append(f"{key}: no row on the page")
            continue
        for field, (m, s) in metrics.items():
            cell = shown.get(field, "")
            got = numbers(cell)
            parts = cell.split("±")
            if s is None:  # a mean alone
                if len(got) != 1 or not close(got[0], m, cell.strip()):
                    problems.append(f"{key}: {field} shows {cell!r}, results.txt gives {m:.4f}")
                continue
            if len(got) != 2 or not close(got[0], m, parts[0].strip()) \
                    or not close(got[1], s, parts[-1].strip()):
                problems.append(f"{key}: {field} shows {cell!r}, results.txt gives "
                                f"{m:.4f} ± {s:.4f}")
    for metric in ("gcm_dec_4k", "gcm_enc_4k"):
        if metric in floor_want:
            cell = floors.get(metric, "")
            got, (m, s) = numbers(cell), floor_want[metric]
            if len(got) != 2 or abs(got[0] - m) > 0.006 or abs(got[1] - s) > 0.006:
                problems.append(f"floor {metric} shows {cell!r}, results.txt gives {m:.2f} ± {s:.2f}")
    seeds = len({f["seed"] for _, f, _ in parse_results(run / "results.txt")
                 if "seed" in f and f.get("role") != "hog"})
    if f"seeds: {seeds} " not in body:
        problems.append(f"the page does not say 'seeds: {seeds}'")

    # The verdict of compare.txt, when the run was compared: the banner
    # and every row, failing rows marked.
    cmp_txt = run / "compare.txt"
    if cmp_txt.is_file():
        text = cmp_txt.read_text()
        if "REGRESSION:" in text and "REGRESSION against the baseline" not in body:
            problems.append("compare.txt has a regression the page does not show")
        if "no regression beyond the tolerances" in text \
                and "no regression beyond the tolerances" not in body:
            problems.append("compare.txt passed and the page does not say so")
        want_rows, nfail = parse_compare_txt(cmp_txt)
        if want_rows is not None:
            got_rows = [[c.strip() for c in cells] for _, cells in verdict_rows]
            if len(got_rows) != len(want_rows):
                problems.append(f"the page shows {len(got_rows)} verdict rows, compare.txt "
                                f"{len(want_rows)}")
            for i, (got, want_cells) in enumerate(zip(got_rows, want_rows)):
                if got != want_cells:
                    problems.append(f"verdict row {i + 1} shows {got}, compare.txt {want_cells}")
            # compare writes a failing verdict in capitals.
            want_fail = [i for i, r in enumerate(want_rows) if r[-1].split(" ")[0].isupper()]
            got_fail = [i for i, (cls, _) in enumerate(verdict_rows) if "fail" in cls.split()]
            if got_fail != want_fail:
                problems.append(f"the page marks verdict rows {got_fail} as failing, "
                                f"compare.txt {want_fail}")
            if len(want_fail) != nfail:
                problems.append(f"compare.txt: {len(want_fail)} failing rows, its REGRESSION "
                                f"line {nfail} group(s)")
    return problems


# --- the unit test: a run folder from the committed smoke baseline ------------

def run_tool(*cmd, stdout=None, ok=(0,)):
    p = subprocess.run([str(c) for c in cmd], stdout=stdout or subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode not in ok:
        raise AssertionError(f"{cmd} exited {p.returncode}: {p.stderr}")
    return p


# The groups shifted in the comparison baseline (shifted_heldout()), by
# how much its ETRACKs per evicted page are scaled: the run then fails
# the first (its ETRACKs twice the baseline's) and beats the second.
SHIFTED = {"policy=default,rep=": 0.5, "policy=fifo16,rep=": 2.0}


def shifted_heldout(folder):
    """The held-out run results/heldout/smoke with the ETRACKs per evicted
    page of the default's and fifo16's Zipf runs scaled (SHIFTED), so that
    the page shows a failing and a better verdict row whatever the two
    committed runs happen to differ by."""
    out = pathlib.Path(folder) / "heldout-shifted"
    out.mkdir()
    src = TOP / "results" / "heldout" / "smoke"
    shutil.copy(src / "metadata.txt", out / "metadata.txt")
    lines = []
    for ln in (src / "results.txt").read_text().splitlines():
        if ln.startswith("metric=etrack_per_evicted ") and "pattern=zipf," in ln:
            for key, scale in SHIFTED.items():
                if key in ln:
                    m = re.search(r" value=(\S+)", ln)
                    ln = ln[:m.start(1)] + f"{float(m.group(1)) * scale:.6g}" + ln[m.end(1):]
        lines.append(ln)
    (out / "results.txt").write_text("\n".join(lines) + "\n")
    return out


def make_run(folder):
    """A run folder as scripts/bench leaves it, from results/baseline/smoke,
    and the PNGs its gnuplot step wrote.  As in scripts/bench, the charts
    are drawn into a folder that holds an older run's PNGs (build/plots/ is
    shared and never emptied), each target removed first, and report-html
    gets exactly the PNGs that gnuplot wrote."""
    run = pathlib.Path(folder) / "run"
    base = TOP / "results" / "baseline" / "smoke"
    run.mkdir(parents=True)
    for name in ("results.txt", "metadata.txt"):
        shutil.copy(base / name, run / name)
    for d in ("lat", "fault_latency"):
        if (base / d).is_dir():
            shutil.copytree(base / d, run / d)
    (run / "status").write_text("0\n")
    run_tool(sys.executable, BENCH / "summarize", run)
    with open(run / "compare.txt", "w") as fh:
        run_tool(sys.executable, BENCH / "compare", shifted_heldout(folder), run,
                 stdout=fh, ok=(0, 1))
    run_tool(sys.executable, BENCH / "history", "plot", TOP / "results" / "history" / "smoke.txt",
             run, run)
    meta = {}
    for line in (run / "metadata.txt").read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            meta[k] = v.strip('"')
    plots = pathlib.Path(folder) / "plots"
    plots.mkdir()
    # An older run's charts: one this run draws again, one it does not.
    (plots / "stale-old-run.png").write_bytes(b"an older run's chart")
    (plots / "tracking.png").write_bytes(b"an older run's chart")
    charts = []
    for gp in sorted((TOP / "plots").glob("*.gp")):
        png = plots / (gp.stem + ".png")
        png.unlink(missing_ok=True)
        run_tool("gnuplot", "-e",
                 f"run='{run}'; out='{png}'; "
                 f"patterns='{meta.get('patterns', '')}'; policies='{meta.get('policies', '')}'; "
                 f"config='{meta.get('config', '')}'; plotdir='{TOP / 'plots'}'", gp)
        if png.is_file() and png.stat().st_size:
            charts.append(png)
    # An older page's chart in the run folder: --chart replaces the lot.
    (run / "charts").mkdir()
    (run / "charts" / "stale-old-page.png").write_bytes(b"x")
    run_tool(sys.executable, BENCH / "report-html", run,
             *[a for png in charts for a in ("--chart", png)])
    return run, [png.name for png in charts]


class ReportCli(unittest.TestCase):
    def test_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = run_tool(sys.executable, BENCH / "report-html", pathlib.Path(tmp) / "none",
                         ok=(2,))
            self.assertIn("no run folder", p.stderr)
            p = run_tool(sys.executable, BENCH / "report-html", tmp, ok=(2,))
            self.assertIn("no results.txt", p.stderr)
            (pathlib.Path(tmp) / "results.txt").write_text("metric=x value=oops\n")
            p = run_tool(sys.executable, BENCH / "report-html", tmp, ok=(2,))
            self.assertIn("error", p.stderr)
            self.assertFalse((pathlib.Path(tmp) / "index.html").exists())

    def test_unexpected_error_is_one_line(self):
        """A bug (here: a summarize whose compute() raises RuntimeError)
        makes a one-line error and exit status 2, no traceback, no page."""
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            bench = tmp / "bench"
            bench.mkdir()
            shutil.copy(BENCH / "report-html", bench)
            shutil.copy(BENCH / "benchlib.py", bench)
            (bench / "summarize").write_text("def compute(run):\n    raise RuntimeError('boom')\n")
            run = tmp / "run"
            run.mkdir()
            shutil.copy(TOP / "results" / "baseline" / "smoke" / "results.txt", run)
            p = run_tool(sys.executable, bench / "report-html", run, ok=(2,))
            self.assertNotIn("Traceback", p.stderr)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn("error: unexpected RuntimeError: boom", p.stderr)
            self.assertEqual(sorted(x.name for x in run.iterdir()), ["results.txt"])

    def test_charts_are_exactly_the_named_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            run = tmp / "run"
            (run / "charts").mkdir(parents=True)
            shutil.copy(TOP / "results" / "baseline" / "smoke" / "results.txt", run)
            (run / "charts" / "old.png").write_bytes(b"old")
            (tmp / "a.png").write_bytes(b"a")
            (tmp / "empty.png").write_bytes(b"")
            # A missing or empty chart: exit 2, the folder untouched.
            for bad in (tmp / "none.png", tmp / "empty.png"):
                p = run_tool(sys.executable, BENCH / "report-html", run, "--chart", tmp / "a.png",
                             "--chart", bad, ok=(2,))
                self.assertIn("missing or empty", p.stderr)
                self.assertEqual(run_charts(run), {"charts/old.png"})
            run_tool(sys.executable, BENCH / "report-html", run, "--chart", tmp / "a.png")
            self.assertEqual(run_charts(run), {"charts/a.png"})
            self.assertIn('src="charts/a.png"', (run / "index.html").read_text())

    def test_quit_that_hangs_is_bounded(self):
        """end_session: a driver whose quit() never returns costs its few
        seconds, then chromedriver's process group is killed."""
        class Hangs:
            def quit(self):
                time.sleep(3600)

        class FakeService:
            process = subprocess.Popen(["sleep", "600"], start_new_session=True)
        t0 = time.monotonic()
        self.assertTrue(end_session(Hangs(), FakeService, seconds=1))
        self.assertLess(time.monotonic() - t0, 5)
        self.assertEqual(FakeService.process.wait(5), -signal.SIGKILL)

    def test_escapes_what_it_reads(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = pathlib.Path(tmp)
            shutil.copy(TOP / "results" / "baseline" / "smoke" / "results.txt", run)
            (run / "metadata.txt").write_text("config=<b>smoke</b>\nhost_cpu=A&B <script>x</script>\n")
            (run / "a<b>.txt").write_text("x")
            run_tool(sys.executable, BENCH / "report-html", run)
            page = (run / "index.html").read_text()
            self.assertNotIn("<script", page)
            self.assertNotIn("<b>smoke", page)
            self.assertIn("A&amp;B &lt;script&gt;", page)
            self.assertIn('href="a%3Cb%3E.txt"', page)


class ReportInBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.rundir, cls.charts = make_run(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def copy(self, name):
        dst = pathlib.Path(self.tmp.name) / name
        shutil.copytree(self.rundir, dst)
        return dst

    def check(self, run):
        return check_page(run, run / "shot.png", self.charts)

    def rewrite(self, run, old, new, count=1):
        page = (run / "index.html").read_text()
        self.assertIn(old, page)
        (run / "index.html").write_text(page.replace(old, new, count))

    def test_page_is_right(self):
        # Every .gp but colors.gp (loaded by the others) draws a chart.
        self.assertEqual(sorted(self.charts),
                         sorted(gp.stem + ".png" for gp in (TOP / "plots").glob("*.gp")
                                if gp.stem != "colors"))
        self.assertEqual(run_charts(self.rundir), {f"charts/{c}" for c in self.charts})
        self.assertNotIn(b"an older run", (self.rundir / "charts" / "tracking.png").read_bytes())
        shot = pathlib.Path(self.tmp.name) / "shot.png"
        self.assertEqual(check_page(self.rundir, shot, self.charts), [])
        self.assertGreater(shot.stat().st_size, 10000)
        self.assertEqual(check_page(self.rundir, shot), [])  # --run's way: RUN/charts/

    def test_dropped_chart_is_caught(self):
        run = self.copy("dropped-chart")
        page = (run / "index.html").read_text()
        m = re.search(r'<figure><a href="charts/phases.png">.*?</figure>', page)
        (run / "index.html").write_text(page[:m.start()] + page[m.end():])
        self.assertTrue(any("missing ['charts/phases.png']" in p for p in self.check(run)))
        # A page made without it (report-html given fewer charts): the
        # gnuplot step's list still wants it.
        run = self.copy("chart-not-copied")
        run_tool(sys.executable, BENCH / "report-html", run,
                 *[a for c in self.charts if c != "phases.png"
                   for a in ("--chart", run / "charts" / c)])
        problems = self.check(run)
        self.assertTrue(any("missing ['charts/phases.png']" in p for p in problems), problems)
        self.assertTrue(any("charts/phases.png is missing" in p for p in problems), problems)

    def test_stale_chart_is_caught(self):
        run = self.copy("stale-chart")
        shutil.copy(run / "charts" / "tracking.png", run / "charts" / "old-run.png")
        run_tool(sys.executable, BENCH / "report-html", run)  # shows what charts/ holds
        problems = self.check(run)
        self.assertTrue(any("not the run's ['charts/old-run.png']" in p for p in problems),
                        problems)

    def test_empty_chart_is_caught(self):
        run = self.copy("empty-chart")
        (run / "charts" / "swap-rate.png").write_bytes(b"")
        problems = self.check(run)
        self.assertTrue(any("swap-rate.png is missing or empty" in p for p in problems), problems)

    def test_link_outside_the_run_is_caught(self):
        run = self.copy("outside-link")
        (run.parent / "outside.txt").write_text("x")
        self.rewrite(run, '<a href="summary.txt">', '<a href="../outside.txt">')
        self.rewrite(run, '<a href="#charts">', '<a href="/etc/hostname">')
        problems = self.check(run)
        self.assertTrue(any("outside.txt leaves the run folder" in p for p in problems), problems)
        self.assertTrue(any("/etc/hostname leaves the run folder" in p for p in problems),
                        problems)

    def test_broken_image_is_caught(self):
        run = self.copy("broken-image")
        (run / "charts" / "tracking.png").write_bytes(b"not a png")
        problems = self.check(run)
        self.assertTrue(any("tracking.png did not load" in p for p in problems), problems)

    def test_wrong_number_is_caught(self):
        run = self.copy("wrong-number")
        page = (run / "index.html").read_text()
        # The first row's faults / MIN, one unit in its last digit higher.
        m = re.search(r'data-field="fmin">(\d+\.\d+) ± ', page)
        wrong = f"{float(m.group(1)) + 0.01:.2f}"
        (run / "index.html").write_text(page[:m.start(1)] + wrong + page[m.end(1):])
        problems = self.check(run)
        self.assertTrue(any("fmin shows" in p and "summary.txt" in p for p in problems), problems)
        self.assertTrue(any("fmin shows" in p and "results.txt" in p for p in problems), problems)

    def test_wrong_min_is_caught(self):
        run = self.copy("wrong-min")
        page = (run / "index.html").read_text()
        m = re.search(r'data-field="min">(\d+)<', page)
        (run / "index.html").write_text(page[:m.start(1)] + str(int(m.group(1)) + 1)
                                        + page[m.end(1):])
        problems = self.check(run)
        self.assertTrue(any(": min shows" in p and "results.txt" in p for p in problems), problems)

    def test_wrong_verdict_row_is_caught(self):
        run = self.copy("wrong-verdict")
        # compare.txt (the shifted held-out run against the smoke baseline) has failing rows.
        self.assertIn("REGRESSION:", (run / "compare.txt").read_text())
        # A failing row shown as passing, and a row dropped.
        self.rewrite(run, '<tr class="fail">', "<tr>")
        problems = self.check(run)
        self.assertTrue(any("as failing" in p for p in problems), problems)
        page = (run / "index.html").read_text()
        m = re.search(r'<tr class="better">.*?</tr>', page, re.S)
        (run / "index.html").write_text(page[:m.start()] + page[m.end():])
        problems = self.check(run)
        self.assertTrue(any("verdict rows, compare.txt" in p for p in problems), problems)
        # A cell changed.
        run = self.copy("wrong-verdict-cell")
        self.rewrite(run, "<td>paired</td>", "<td>welch</td>")
        problems = self.check(run)
        self.assertTrue(any(re.match(r"verdict row \d+ shows", p) for p in problems), problems)


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("--run", "-h", "--help"):
        ap = argparse.ArgumentParser(prog="bench/tests/test_report.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
        ap.add_argument("--run", required=True, help="a run folder with its index.html")
        ap.add_argument("--screenshot", help="default RUN/report-screenshot.png")
        a = ap.parse_args()
        run = pathlib.Path(a.run)
        shot = pathlib.Path(a.screenshot) if a.screenshot else run / "report-screenshot.png"
        problems = check_page(run, shot)
        for p in problems:
            print(f"test_report: {p}", file=sys.stderr)
        print(f"test_report: {run / 'index.html'}: "
              + (f"{len(problems)} problem(s)" if problems else "ok")
              + (f"; screenshot {shot}" if shot.is_file() else ""))
        return 1 if problems else 0
    unittest.main()


if __name__ == "__main__":
    sys.exit(main())
