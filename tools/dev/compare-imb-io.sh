#!/bin/sh
# Runs IMB-IO and pio-harness's IMB-IO family side by side, interleaved (IMB, pio, IMB, pio, ...),
# on files in DIR, and prints the ratio table of t (tools/dev/compare_imb.py,
# docs/reference/imb.md).
#   tools/dev/compare-imb-io.sh IMB-IO PIO-HARNESS DIR [ranks] [rounds] [benchmarks...]
# IMB-IO writes its file (IMB_out) in its working directory, so it runs in DIR; pio gets
# TestFile DIR/pio-imb-io. Both with -msglen of $LENGTHS (default up to 4 MiB, where IMB-IO's own
# default goes to 16 MiB) and -npmin ranks. IMB runs with -iter 50,16,10, the guide's IMB-IO
# counts (settings_io.h: MSGSPERSAMPLE 50, OVERALL_VOL 16 MB, MSGS_NONAGGR 10) that pio uses by
# default (IMB 2019+ builds IMB-IO with IMB-MPI1's 1000, 40 MB, 100). Blocking writes run in both
# modes (one pio block per mode). Output in $OUT (default ./compare-imb-io.out); the median
# counts rows of at least $MIN_BYTES (65536). Needs only an IMB-IO binary; the tests never run it.
set -eu
imb=${1:?IMB-IO binary}; pio=${2:?pio-harness binary}; dir=${3:?directory for the files}
np=${4:-2}; rounds=${5:-5}
shift 3; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
benchmarks=${*:-S_Write_indv S_Read_indv P_Write_indv P_Read_indv P_Write_expl P_Read_expl \
P_Write_shared P_Read_shared P_Write_priv P_Read_priv C_Write_indv C_Read_indv C_Write_expl \
C_Read_expl C_Write_shared C_Read_shared Open_Close}
out=${OUT:-./compare-imb-io.out}
lengths=${LENGTHS:-0 1024 65536 1048576 4194304}
mpiexec=${MPIEXEC:-mpiexec}
mkdir -p "$out"
[ -d "$dir" ] || { echo "compare-imb-io.sh: $dir is not a directory" >&2; exit 2; }
out=$(cd "$out" && pwd); imb=$(cd "$(dirname "$imb")" && pwd)/$(basename "$imb")
printf '%s\n' $lengths > "$out/lengths"
conf="$out/pio.conf"
{
  echo "TestFile $dir/pio-imb-io"
  for b in $benchmarks; do
    modes="-"
    case "$b" in *_Write_*|*_write_*) modes="aggregate non-aggregate" ;; esac
    for mode in $modes; do
      extra=""; [ "$mode" != - ] && extra="  Mode $mode\n"
      printf "<ap_module>\n  ModuleName %s\n  MsgLengths %s\n  NpMin %s\n$extra</ap_module>\n" \
        "$b" "$lengths" "$np"
    done
  done
} > "$conf"
i=1
while [ "$i" -le "$rounds" ]; do
  (cd "$dir" && $mpiexec -n "$np" "$imb" -npmin "$np" -iter 50,16,10 \
    -msglen "$out/lengths" $(echo $benchmarks)) > "$out/imb.$i.txt"
  $mpiexec -n "$np" "$pio" -c "$conf" -r "$out/pio.$i.json" > "$out/pio.$i.txt"
  i=$((i + 1))
done
exec /usr/bin/python3 "$(dirname "$0")/compare_imb.py" --min-bytes "${MIN_BYTES:-65536}" \
  --imb "$out"/imb.*.txt --pio "$out"/pio.*.json
