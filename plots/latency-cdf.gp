# plots/latency-cdf.gp: CDF of the faulting accesses of the measured
# passes (wsgen's per-access timings, every seed pooled), one panel per
# pattern and ratio, one line per policy.  Redrawn from the committed
# histograms: bench/summarize RUN writes the data from RUN/lat/.
# gnuplot -e "run='DIR'; out='FILE.png'; policies='...'; plotdir='plots'"
set terminal pngcairo size 1400,900 font ",10" noenhanced
set output out
if (!exists("plotdir")) plotdir = "plots"
load plotdir.'/colors.gp'
if (!exists("policies")) policies = "default fifo16"
panels = system(sprintf("ls %s/ | sed -n 's/^plot-latcdf-\\(.*\\)-\\([0-9.]*\\)-[^-]*\\.dat$/\\1@\\2/p' | sort -u | tr '\\n' ' '", run))
np = words(panels)
if (np == 0) { panels = "none"; np = 1 }
set multiplot layout (np > 4 ? 2 : 1), (np > 4 ? (np + 1) / 2 : np) title "isgx: faulting accesses of the measured pass (wsgen, per access; every seed), cumulative"
set xlabel "access time (ns, log scale)"
set ylabel "fraction of faulting accesses"
set logscale x
set grid
set key bottom right
set yrange [0:1.02]
file(pr, pol) = sprintf("%s/plot-latcdf-%s-%s-%s.dat", run, pr[1:strstrt(pr, "@") - 1], pr[strstrt(pr, "@") + 1:], pol)
has(f) = system(sprintf("test -s '%s' && echo 1 || echo 0", f)) + 0
do for [pr in panels] {
    set title pr
    cmd = ""
    do for [pol in policies] {
        if (pr ne "none" && has(file(pr, pol))) {
            cmd = cmd . sprintf("%s'%s' using 1:2 with steps lw 2 lc rgb %d title '%s'", \
                                (cmd eq "" ? "" : ", "), file(pr, pol), pcolor(pol), pol)
        }
    }
    if (cmd eq "") {
        set label 1 "no data" at graph 0.5, 0.5 center
        cmd = "[1:10][0:1] -1 notitle"
    }
    eval "plot " . cmd
    unset label 1
}
unset multiplot
