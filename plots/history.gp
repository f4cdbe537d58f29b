# plots/history.gp: key metrics over the recorded runs of a config
# (results/history/CONFIG.txt, bench/history plot), error bars: sd over
# the repeats of each run.  gnuplot -e "run='DIR'; out='FILE.png'; config='NAME'"
set terminal pngcairo size 1400,1000 font ",10" noenhanced
set output out
if (!exists("config")) config = "?"
set multiplot layout 3,1 title sprintf("isgx: config %s over recorded runs (commit/date)", config)
set grid
set key outside right
set lmargin at screen 0.06
set rmargin at screen 0.80
set xtics rotate by -30
set offsets 0.3, 0.3, 0, 0
dat(n) = sprintf("%s/history-%s.dat", run, n)
cnt(n) = system(sprintf("cat '%s/history-%s.n'", run, n)) + 0
set title "faults / Belady's MIN (lower is better)"
n = cnt("fmin")
plot for [i=1:n] dat("fmin") using 0:(column(2*i)):(column(2*i+1)):xtic(1) with yerrorlines title columnheader(2*i)
set title "swap-in rate / gcm floor page rate (higher is better)"
n = cnt("swapfloor")
plot for [i=1:n] dat("swapfloor") using 0:(column(2*i)):(column(2*i+1)):xtic(1) with yerrorlines title columnheader(2*i)
set title "ETRACK and IPI'd CPUs per evicted page (lower is better)"
n = cnt("tracking")
plot for [i=1:n] dat("tracking") using 0:(column(2*i)):(column(2*i+1)):xtic(1) with yerrorlines title columnheader(2*i)
unset multiplot
