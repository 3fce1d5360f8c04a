# A visualisation code: reads a large dataset (frames of a scene, a mesh) in tiles or streams
# and plays it back; writes are rare. Justified in docs/guides/tools.md ("Profiles").
Name "visualisation (tiled playback)"
# pattern         mode      size        weight
tiled             read      *           5     # thesis §3.4.1: video walls, mpi-tile-io
tiled             re-read   *           3     # playing the same frames back again
unstructured_mesh read      *           3     # terrain and wire-frame models loaded
sequential        read      256K..1T    2     # streaming time steps in order
sequential        re-read   *           1
segmented         read      *           1     # one frame or domain per rank
tiled             write     *           1     # recording a scene
simple_strided    read      *           0.5
