#!/bin/sh
# Runs IMB-MPI1 or IMB-EXT and pio-harness's family of the same benchmarks side by side,
# interleaved (IMB, pio, IMB, pio, ...), and prints the ratio table of t (tools/dev/compare_imb.py,
# docs/reference/imb.md). IMB-IO: tools/dev/compare-imb-io.sh.
#   tools/dev/compare-imb.sh IMB-MPI1|IMB-EXT PIO-HARNESS [ranks] [rounds] [benchmarks...]
# The suite is the IMB binary's name (or SUITE=MPI1|EXT). IMB-MPI1 runs with -root_shift on
# -sync off (the IMB 3.2 definitions pio implements); both with -msglen of $LENGTHS and
# -npmin ranks; pio with the same lengths and its defaults, and for IMB-EXT's benchmarks with
# modes one block per mode (IMB runs both). Output in $OUT (default ./compare-imb.out); the
# median counts rows of at least $MIN_BYTES (MPI1 1024, EXT 65536). $PIO_DIRECTIVE, if set, is
# one more directive line in every pio block (e.g. "BufferAlignment page"). Needs only an IMB binary;
# the tests never run this.
set -eu
imb=${1:?IMB-MPI1 or IMB-EXT binary}; pio=${2:?pio-harness binary}
np=${3:-2}; rounds=${4:-5}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
case "${SUITE:-$(basename "$imb")}" in
  *EXT*) suite=EXT
    kernels=${*:-Unidir_Put Unidir_Get Bidir_Put Bidir_Get Accumulate Window}
    min_bytes=${MIN_BYTES:-65536} ;;
  *IO*) echo "compare-imb.sh: for IMB-IO use tools/dev/compare-imb-io.sh (it needs a directory)" >&2
    exit 2 ;;
  *) suite=MPI1
    kernels=${*:-PingPong PingPing Sendrecv Exchange Allreduce Reduce Bcast Allgather Alltoall Barrier}
    min_bytes=${MIN_BYTES:-1024} ;;
esac
# IMB skips what a run of this size cannot run ("invalid for 1 processes"); pio refuses it
# (exit 2), so neither gets it: the single and parallel transfers of EXT need two ranks.
if [ "$suite" = EXT ] && [ "$np" -lt 2 ]; then
  k1=""
  for k in $kernels; do case "$k" in Unidir_*|Bidir_*) ;; *) k1="$k1 $k" ;; esac; done
  kernels=$k1
fi
out=${OUT:-./compare-imb.out}
lengths=${LENGTHS:-0 1024 65536 1048576 4194304}
mpiexec=${MPIEXEC:-mpiexec}
mkdir -p "$out"
printf '%s\n' $lengths > "$out/lengths"
conf="$out/pio.conf"
{
  echo "TestFile $out/unused"
  for k in $kernels; do
    modes="-"
    [ "$suite" = EXT ] && [ "$k" != Window ] && modes="aggregate non-aggregate"
    for mode in $modes; do
      # IMB 2019 and later give every rank X bytes of an np X vector in Reduce_scatter; the
      # guide (and pio's default) splits X over the ranks (docs/reference/imb.md).
      extra=""
      [ "$k" = Reduce_scatter ] && extra="  ReduceScatter block\n"
      [ "$mode" != - ] && extra="  Mode $mode\n"
      [ -n "${PIO_DIRECTIVE:-}" ] && extra="$extra  $PIO_DIRECTIVE\n"
      printf "<ap_module>\n  ModuleName %s\n  MsgLengths %s\n  NpMin %s\n$extra</ap_module>\n" \
        "$k" "$lengths" "$np"
    done
  done
} > "$conf"
flags=""
[ "$suite" = MPI1 ] && flags="-root_shift on -sync off"
i=1
while [ "$i" -le "$rounds" ]; do
  $mpiexec -n "$np" "$imb" -npmin "$np" $flags -msglen "$out/lengths" \
    $(echo $kernels) > "$out/imb.$i.txt"
  $mpiexec -n "$np" "$pio" -c "$conf" -r "$out/pio.$i.json" > "$out/pio.$i.txt"
  i=$((i + 1))
done
exec /usr/bin/python3 "$(dirname "$0")/compare_imb.py" --min-bytes "$min_bytes" \
  --imb "$out"/imb.*.txt --pio "$out"/pio.*.json
