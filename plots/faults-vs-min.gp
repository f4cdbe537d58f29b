# plots/faults-vs-min.gp: faults / Belady's MIN at the usable capacity
# against the measured pass's footprint / the usable EPC, one panel per
# pattern, one line per policy; error bars: sd over the seeds.  The y axis
# starts at 1 (optimal).
# gnuplot -e "run='DIR'; out='FILE.png'; patterns='...'; policies='...'; plotdir='plots'"
set terminal pngcairo size 1400,900 font ",10" noenhanced
set output out
if (!exists("plotdir")) plotdir = "plots"
load plotdir.'/colors.gp'
if (!exists("patterns")) patterns = "zipf loop uniform hotcold scan"
if (!exists("policies")) policies = "default fifo16"
# loop@1.25 and loop@2 are one pattern: its ratios are the points.
pats = system(sprintf("for p in %s; do echo ${p%%%%@*}; done | awk '!s[$0]++' | tr '\\n' ' '", patterns))
np = words(pats)
set multiplot layout (np > 4 ? 2 : 1), (np > 4 ? (np + 1) / 2 : np) title "isgx: faults / Belady's MIN at the usable EPC (lower is better; 1 = optimal); mean and sd over seeds"
set xlabel "measured footprint / usable EPC"
set ylabel "faults / MIN (usable)"
set grid
set key top left
set offsets 0.05, 0.05, 0, 0
set yrange [1:*]
file(pat, pol) = sprintf("%s/plot-%s-%s.dat", run, pat, pol)
has(f) = system(sprintf("test -s '%s' && echo 1 || echo 0", f)) + 0
do for [pat in pats] {
    set title pat
    cmd = ""
    do for [pol in policies] {
        if (has(file(pat, pol))) {
            cmd = cmd . sprintf("%s'%s' using 2:4:5 with yerrorlines lw 2 pt 7 lc rgb %d title '%s'", \
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
