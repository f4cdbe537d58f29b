# plots/colors.gp: one colour per policy in every chart (loaded by the
# others: load plotdir.'/colors.gp').
pcolor(p) = (p eq "default") ? 0x0072B2 : \
            (p eq "fifo16") ? 0xD55E00 : \
            (p eq "seed") ? 0x009E73 : \
            (p eq "twolist") ? 0xCC79A7 : \
            (p eq "default+batch=16") ? 0x56B4E9 : 0x666666
