# plots/tracking.gp: ETRACKs and IPI'd CPUs per evicted page of the
# measured passes, per pattern and policy (mean and sd over ratios and
# seeds; build and warm-up not counted).
# gnuplot -e "run='DIR'; out='FILE.png'; policies='...'; plotdir='plots'"
set terminal pngcairo size 1300,550 font ",10" noenhanced
set output out
if (!exists("plotdir")) plotdir = "plots"
load plotdir.'/colors.gp'
if (!exists("policies")) policies = "default fifo16"
f(p) = sprintf("%s/plot-tracking-%s.dat", run, p)
has(x) = system(sprintf("test -s '%s' && echo 1 || echo 0", x)) + 0
# Only the policies with data (a multi-EPC run has no per-pattern series).
pols = ""
do for [p in policies] { if (has(f(p))) { pols = pols . " " . p } }
if (words(pols) == 0) {
    set label 1 "no data" at screen 0.5, 0.5 center
    plot [0:1][0:1] -1 notitle
    exit
}
policies = pols
np = words(policies)
set multiplot layout 1,2 title "isgx: ETRACK and IPI cost per evicted page, measured pass (lower is better)"
set grid ytics
set key top left
set xrange [-0.5:*]
set yrange [0:*]
set offsets 0, 0.5, 0, 0

dx(i) = (i - (np + 1) / 2.0) * 0.15
set title "ETRACKs per evicted page"
do for [c in "3 7"] {
    col = c + 0
    # The pattern names once, at the integer positions; the policies beside.
    plotcmd = sprintf("plot '%s' using 1:(NaN):xtic(2) notitle", f(word(policies, 1)))
    do for [i=1:np] {
        plotcmd = plotcmd . sprintf(", '%s' using ($1 + dx(%d)):%d:%d with yerrorbars pt 7 ps 1.3 lc rgb %d title '%s'", f(word(policies, i)), i, col, col + 1, pcolor(word(policies, i)), word(policies, i))
    }
    if (col == 7) { set title "CPUs interrupted (IPI) per evicted page" }
    eval plotcmd
}
unset multiplot
