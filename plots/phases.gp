# plots/phases.gp: pager time per evicted page split by the phases of a
# reclaim pass (the module's ns_reclaim_* counters over the measured
# passes), stacked, one panel per policy, one bar per pattern@ratio.
# gnuplot -e "run='DIR'; out='FILE.png'; policies='...'; plotdir='plots'"
set terminal pngcairo size 1400,600 font ",10" noenhanced
set output out
if (!exists("policies")) policies = "default fifo16"
np = words(policies)
set multiplot layout 1, np title "isgx: reclaim time per evicted page by phase, measured pass (ns)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set grid ytics
set yrange [0:*]
set xtics rotate by -30
set key below horizontal font ",9"
f(p) = sprintf("%s/plot-phases-%s.dat", run, p)
has(x) = system(sprintf("test -s '%s' && echo 1 || echo 0", x)) + 0
do for [pol in policies] {
    set title pol
    if (has(f(pol))) {
        plot for [c=2:8] f(pol) using c:xtic(1) title columnheader(c)
    } else {
        set label 1 "no data" at graph 0.5, 0.5 center
        plot [0:1][0:1] -1 notitle
        unset label 1
    }
}
unset multiplot
