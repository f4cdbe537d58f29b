# plots/swap-rate.gp: pages evicted + loaded per second of the measured
# pass over the page rate of the same boot's gcm encrypt + decrypt floors,
# against the measured footprint / usable EPC, per pattern and policy;
# error bars: sd over the seeds.
# gnuplot -e "run='DIR'; out='FILE.png'; patterns='...'; policies='...'; plotdir='plots'"
set terminal pngcairo size 1400,900 font ",10" noenhanced
set output out
if (!exists("plotdir")) plotdir = "plots"
load plotdir.'/colors.gp'
if (!exists("patterns")) patterns = "zipf loop uniform hotcold scan"
if (!exists("policies")) policies = "default fifo16"
pats = system(sprintf("for p in %s; do echo ${p%%%%@*}; done | awk '!s[$0]++' | tr '\\n' ' '", patterns))
np = words(pats)
set multiplot layout (np > 4 ? 2 : 1), (np > 4 ? (np + 1) / 2 : np) title "isgx: swap rate (evicted + loaded pages/s) / gcm floor page rate, same boot (higher is better); mean and sd over seeds"
set xlabel "measured footprint / usable EPC"
set ylabel "swap rate / floor"
set grid
set key top left
set offsets 0.05, 0.05, 0, 0
set yrange [0:*]
file(pat, pol) = sprintf("%s/plot-%s-%s.dat", run, pat, pol)
has(f) = system(sprintf("test -s '%s' && echo 1 || echo 0", f)) + 0
do for [pat in pats] {
    set title pat
    cmd = ""
    do for [pol in policies] {
        if (has(file(pat, pol))) {
            cmd = cmd . sprintf("%s'%s' using 2:6:7 with yerrorlines lw 2 pt 7 lc rgb %d title '%s'", \
                                (cmd eq "" ? "" : ", "), file(pat, pol), pcolor(pol), pol)
        }
    }
    if (cmd eq "") {
        set label 1 "no data" at graph 0.5, 0.5 center
        cmd = "[0:1][0:1] -1 notitle"
    }
    eval "plot " . cmd
    unset label 1
}
unset multiplot
