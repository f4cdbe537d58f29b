# plots/latency-load.gp: issue 12's fault latency against load.  One point
# per single-thread wsgen run (every seed): the faulting accesses' p99 over
# the gcm decrypt of a 4 KiB page of the same repeat (filled) and their p50
# (small, hollow) against the run's refault rate (pages loaded per second
# of the measured pass); one colour per policy, one shape per pattern and
# ratio.  bench/summarize RUN writes the data: RUN/plot-latload-POLICY.dat.
# gnuplot -e "run='DIR'; out='FILE.png'; policies='...'; plotdir='plots'"
set terminal pngcairo size 1400,900 font ",10" noenhanced
set output out
if (!exists("plotdir")) plotdir = "plots"
load plotdir.'/colors.gp'
if (!exists("policies")) policies = "default fifo16"
file(pol) = sprintf("%s/plot-latload-%s.dat", run, pol)
has(f) = system(sprintf("test -s '%s' && echo 1 || echo 0", f)) + 0
# The patterns (PATTERN@RATIO) of the policies' files, in order of appearance.
files = ""
do for [pol in policies] { if (has(file(pol))) { files = files . " '" . file(pol) . "'" } }
pats = (files eq "") ? "" : \
    system(sprintf("awk '!/^#/ && NF >= 5 && !s[$4 \"@\" $5]++ { print $4 \"@\" $5 }' %s | tr '\\n' ' '", files))
# Point types: filled for p99, the same shape hollow for p50.
filled = "7 5 9 11 13 1 2 3 15"
hollow = "6 4 8 10 12 1 2 3 14"
ptf(i) = word(filled, (i - 1) % words(filled) + 1) + 0
pth(i) = word(hollow, (i - 1) % words(hollow) + 1) + 0
sel(pr) = (strcol(4) . "@" . strcol(5)) eq pr
set title "isgx: faulting accesses' latency against the refault rate (wsgen, one point per run and seed; filled: p99, small hollow: p50)"
set xlabel "refault rate: pages loaded per second of the measured pass (log scale)"
set ylabel "faulting access latency / gcm decrypt of a 4 KiB page, same boot (log scale)"
set logscale xy
# The runs' rates often span less than a decade: zoom on them, with tics
# at 1, 1.5, 2, 3, 5 and 7 of every decade.
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set xtics ()
do for [e = 0:7] { do for [m in "1 1.5 2 3 5 7"] { set xtics add (sprintf("%g", m * 10.0 ** e) m * 10.0 ** e) } }
set grid xtics ytics
set key outside right top spacing 1.2
# Keep the target line in view whatever the data.
set yrange [*<1:10<*]
set arrow 1 from graph 0, first 5 to graph 1, first 5 nohead dt 2 lw 2 lc rgb "black" front
set label 2 "issue 12 target: p99 <= 5 gcm decrypts" at graph 0.01, first 5 offset 0, 0.8 left front
cmd = ""
if (files ne "") {
    do for [pol in policies] {
        if (has(file(pol))) {
            do for [i = 1:words(pats)] {
                pr = word(pats, i)
                cmd = cmd . sprintf("%s'%s' using 1:(sel('%s') ? $2 : NaN) with points pt %d ps 1.4 lc rgb %d notitle", \
                                    (cmd eq "" ? "" : ", "), file(pol), pr, ptf(i), pcolor(pol))
                cmd = cmd . sprintf(", '%s' using 1:(sel('%s') ? $3 : NaN) with points pt %d ps 0.7 lc rgb %d notitle", \
                                    file(pol), pr, pth(i), pcolor(pol))
            }
        }
    }
    # The key: the policies' colours, then the patterns' shapes.
    do for [pol in policies] {
        if (has(file(pol))) {
            cmd = cmd . sprintf(", NaN with points pt 7 ps 1.4 lc rgb %d title '%s'", pcolor(pol), pol)
        }
    }
    do for [i = 1:words(pats)] {
        cmd = cmd . sprintf(", NaN with points pt %d ps 1.4 lc rgb 'black' title '%s'", ptf(i), word(pats, i))
    }
}
if (cmd eq "") {
    set label 1 "no data" at graph 0.5, 0.5 center
    cmd = "[100:10000][0.1:1000] -1 notitle"
}
eval "plot " . cmd
