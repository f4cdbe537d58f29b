# plots/faults-vs-min.gp: faults / Belady-MIN against WS/EPC, one panel per
# pattern, one line per policy, error bars: sample standard deviation over
# the repeats.  gnuplot -e "run='DIR'; out='FILE.png'; patterns='...'; policies='...'"
set terminal pngcairo size 1400,900 font ",10" noenhanced
set output out
if (!exists("patterns")) patterns = "zipf loop uniform hotcold scan"
if (!exists("policies")) policies = "default fifo16"
np = words(patterns)
set multiplot layout (np > 3 ? 2 : 1), (np > 3 ? 3 : np) title "isgx: faults relative to Belady's MIN (lower is better; 1 = optimal); mean and sd over repeats"
set xlabel "working set / EPC"
set ylabel "faults / MIN faults"
set grid
set key top left
set offsets 0.1, 0.1, 0, 0
do for [pat in patterns] {
    set title pat
    plot for [pol in policies] sprintf("%s/plot-%s-%s.dat", run, pat, pol) \
        using 1:2:3 with yerrorlines title pol
}
unset multiplot
