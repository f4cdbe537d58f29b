# plots/faults-vs-min.gp: faults / Belady-MIN against WS/EPC, one panel per
# pattern, one line per policy.  gnuplot -e "run='DIR'; out='FILE.png'; patterns='...'; policies='...'"
set terminal pngcairo size 1400,900 font ",10"
set output out
set multiplot layout 2,3 title "isgx: faults relative to Belady's MIN (lower is better; 1 = optimal)"
set xlabel "working set / EPC"
set ylabel "faults / MIN faults"
set grid
set key top left
if (!exists("patterns")) patterns = "zipf loop uniform hotcold scan"
if (!exists("policies")) policies = "default fifo16"
do for [pat in patterns] {
    set title pat
    plot for [pol in policies] sprintf("%s/plot-%s-%s.dat", run, pat, pol) \
        using 1:2 with linespoints title pol
}
unset multiplot
