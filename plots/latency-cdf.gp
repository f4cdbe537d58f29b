# plots/latency-cdf.gp: fault-latency CDF per policy, from the module's
# log2 histogram (all runs of the policy, every repeat) and, when the run
# had perf_record=1, from perf's fault_begin/fault_end pairs.
# gnuplot -e "run='DIR'; out='FILE.png'; policies='...'"
set terminal pngcairo size 1000,650 font ",10" noenhanced
set output out
if (!exists("policies")) policies = "default fifo16"
set title "isgx: enclave fault latency, cumulative (all runs of a policy)"
set xlabel "fault handling time (ns, log scale)"
set ylabel "fraction of faults"
set logscale x
set format x "10^{%L}"
set termoption enhanced
set grid
set key bottom right
set yrange [0:1.02]
hist(p) = sprintf("%s/plot-latency-%s.dat", run, p)
perf(p) = sprintf("%s/plot-perflat-%s.dat", run, p)
has(f) = system(sprintf("test -s '%s' && echo 1 || echo 0", f)) + 0
cmd = ""
do for [i=1:words(policies)] {
    p = word(policies, i)
    cmd = cmd . sprintf("%s'%s' using 1:2 with steps lw 2 lc %d title '%s (debugfs histogram, bucket bounds)'", \
                        (cmd eq "" ? "" : ", "), hist(p), i, p)
    if (has(perf(p))) {
        cmd = cmd . sprintf(", '%s' using 1:2 with lines dt 2 lw 2 lc %d title '%s (perf, exact)'", perf(p), i, p)
    }
}
eval "plot " . cmd
