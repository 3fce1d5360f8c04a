# A checkpoint-heavy simulation: every N time steps all ranks dump their share of the state,
# and read it back once per restart. Justified in docs/guides/tools.md ("Profiles").
Name "checkpoint-heavy simulation"
# pattern         mode      size        weight
flash_io          write     *           4     # FLASH's checkpoint and plot files (thesis §3.4.1)
segmented         write     1M..1T      3     # each rank dumps its contiguous domain
segmented         write     *           1
simple_strided    write     1M..1T      3     # interleaved records of distributed arrays
simple_strided    write     *           1
unstructured_mesh write     *           2     # mesh codes dumping per-vertex state
sequential        write     *           2     # file per process (b_eff_io pattern type 2)
simple_strided    re-write  *           1     # the next checkpoint over the previous one
segmented         re-write  *           1
flash_io          read      *           1     # restart: read once per job
segmented         read      *           1
simple_strided    read      *           0.5
