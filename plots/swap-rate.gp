# plots/swap-rate.gp: swap-in throughput against WS/EPC per pattern and policy.
set terminal pngcairo size 1400,900 font ",10"
set output out
set multiplot layout 2,3 title "isgx: pages loaded (ELDU) per second of access time"
set xlabel "working set / EPC"
set ylabel "pages/s"
set grid
set key top left
if (!exists("patterns")) patterns = "zipf loop uniform hotcold scan"
if (!exists("policies")) policies = "default fifo16"
do for [pat in patterns] {
    set title pat
    plot for [pol in policies] sprintf("%s/plot-%s-%s.dat", run, pat, pol) \
        using 1:3 with linespoints title pol
}
unset multiplot
