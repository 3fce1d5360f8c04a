#!/bin/sh
# Runs IMB-MPI1 and pio-harness's IMB-MPI1 family side by side, interleaved (IMB, pio, IMB,
# pio, ...), and prints the ratio table of t_avg (tools/compare_imb.py, docs/imb.md).
#   tools/compare-imb.sh IMB-MPI1 PIO-HARNESS [ranks] [rounds] [kernels...]
# IMB runs with -root_shift on -sync off (the IMB 3.2 definitions pio implements) and
# -msglen of the lengths below; pio with the same lengths and defaults. Output in $OUT
# (default ./compare-imb.out). Needs only an IMB binary; the tests never run this.
set -eu
imb=${1:?IMB-MPI1 binary}; pio=${2:?pio-harness binary}
np=${3:-2}; rounds=${4:-5}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
kernels=${*:-PingPong PingPing Sendrecv Exchange Allreduce Reduce Bcast Allgather Alltoall Barrier}
out=${OUT:-./compare-imb.out}
lengths=${LENGTHS:-0 1024 65536 1048576 4194304}
mpiexec=${MPIEXEC:-mpiexec}
mkdir -p "$out"
printf '%s\n' $lengths > "$out/lengths"
conf="$out/pio.conf"
{
  echo "TestFile $out/unused"
  for k in $kernels; do
    # IMB 2019 and later give every rank X bytes of an np X vector in Reduce_scatter; the
    # guide (and pio's default) splits X over the ranks (docs/imb.md).
    extra=""; [ "$k" = Reduce_scatter ] && extra="  ReduceScatter block\n"
    printf "<ap_module>\n  ModuleName %s\n  MsgLengths %s\n  NpMin %s\n$extra</ap_module>\n" \
      "$k" "$lengths" "$np"
  done
} > "$conf"
imb_list=$(echo $kernels | tr ' ' ',')
i=1
while [ "$i" -le "$rounds" ]; do
  "$mpiexec" -n "$np" "$imb" -npmin "$np" -root_shift on -sync off -msglen "$out/lengths" \
    $(echo $kernels) > "$out/imb.$i.txt"
  "$mpiexec" -n "$np" "$pio" -c "$conf" -r "$out/pio.$i.json" > "$out/pio.$i.txt"
  i=$((i + 1))
done
exec /usr/bin/python3 "$(dirname "$0")/compare_imb.py" --imb "$out"/imb.*.txt --pio "$out"/pio.*.json
