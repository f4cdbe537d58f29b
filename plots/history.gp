# plots/history.gp: key metrics over the recorded runs of one config with
# the same settings, clean commits only (results/history/CONFIG.txt,
# bench/history plot); error bars: sd over the seeds of each run.  One
# panel per metric family, the legend beside the panels.
# gnuplot -e "run='DIR'; out='FILE.png'; config='NAME'"
set terminal pngcairo size 1400,1500 font ",10" noenhanced
set output out
if (!exists("config")) config = "?"
set multiplot layout 5,1 title sprintf("isgx: config %s over recorded runs (commit/date; same settings, clean commits)", config)
set grid
set key outside right font ",9"
set lmargin at screen 0.06
set rmargin at screen 0.66
set xtics rotate by -30
set offsets 0.3, 0.3, 0, 0
dat(n) = sprintf("%s/history-%s.dat", run, n)
cnt(n) = system(sprintf("cat '%s/history-%s.n'", run, n)) + 0
titles = "faults/MIN-at-usable-capacity(lower-is-better) swap-rate/gcm-floor-page-rate(higher-is-better) ETRACKs-per-evicted-page(lower-is-better) IPI-interrupted-CPUs-per-evicted-page(lower-is-better) p99-of-all-accesses/gcm-decrypt(lower-is-better)"
fams = "fmin swapfloor etrack ipicpu p99dec"
do for [i=1:5] {
    f = word(fams, i)
    t = word(titles, i)
    set title system(sprintf("echo '%s' | tr '-' ' '", t))
    n = cnt(f)
    if (n > 0) {
        plot for [j=1:n] dat(f) using 0:(column(2*j)):(column(2*j+1)):xtic(1) with yerrorlines title columnheader(2*j)
    } else {
        set label 1 "no data" at graph 0.5, 0.5 center
        plot [0:1][0:1] -1 notitle
        unset label 1
    }
}
unset multiplot
