# IO500's score (hpc/io500 src/main.c calc_score) over a run of conf/io500.conf: the bandwidth
# score is the geometric mean of the ior phases in GiB/s, the metadata score the geometric mean
# of the mdtest and find phases in kIOPS, each phase weighing the same, and the score is
# sqrt(bandwidth x metadata). ior-rnd4K-easy-read is not scored, as in IO500. pio-io500 prints
# the same figures as IO500's result summary (docs/guides/io500.md).
Name "IO500"
Units GiB/s kIOPS
Combine geomean
# pattern         mode      size   weight
segmented         write     *      1      # ior-easy-write
simple_strided    write     *      1      # ior-hard-write
segmented         read      *      1      # ior-easy-read
simple_strided    read      *      1      # ior-hard-read
random_offsets    *         *      0      # ior-rnd4K-easy-read: listed, not scored
metadata          *         *      8      # the 8 mdtest and find phases, shared equally
