#!/bin/bash
# Does a cached file's read speed depend on how it was written, or on the memory it landed on?
# (docs/measurements/performance.md, "tmpfs 64 KiB reads: the memory a file lands on"; an
# experiment, not a test.) Per round, three files of SIZE on /dev/shm, written three ways in an
# order that rotates from round to round (on /dev/shm, or in PARENT's page cache: /var/tmp is
# ext4 here):
#   dd     one sequential pass of dd bs=BS (a fresh file)
#   layout fio's own layout (--create_only, as bench-fio's fio jobs get their files), then
#          rewritten in place by dd bs=BS conv=notrunc (bench-fio's LAYOUT=written)
#   random fio rw=randwrite bs=BS over a fresh file: every block once, in random order, as a
#          pattern's random prepare writes it
# then each file is read by fio (psync, rw=randread, bs=BS, one job on core 0, RUNTIME seconds,
# invalidate=0) READS times, interleaved. Prints IOPS per file with the position it was created in.
#
# Usage: tools/dev/tmpfs-placement.sh
# Env:   ROUNDS=3 SIZE=512M BS=64k RUNTIME=3 READS=2 FIO=fio PARENT=/dev/shm
set -euo pipefail
ROUNDS=${ROUNDS:-3}
SIZE=${SIZE:-512M}
BS=${BS:-64k}
RUNTIME=${RUNTIME:-3}
READS=${READS:-2}
FIO=${FIO:-$(command -v fio || echo fio)}
PARENT=${PARENT:-/dev/shm}
DIR=$PARENT/pio-tmpfs-placement
[ -x "$FIO" ] || { echo "tmpfs-placement: fio not found (apt-get install fio)" >&2; exit 2; }
cleanup() { rm -rf "$DIR"; }
trap cleanup EXIT
METHODS=(dd layout random)
make_file() { # method path
  case $1 in
  dd) dd if=/dev/zero of="$2" bs="$BS" count=$(($(numfmt --from=iec "$SIZE") / $(numfmt --from=iec "${BS^^}"))) status=none ;;
  layout)
    "$FIO" --name=lay --filename="$2" --size="$SIZE" --bs="$BS" --rw=randread --ioengine=psync \
      --fallocate=none --create_only=1 >/dev/null
    dd if=/dev/zero of="$2" bs="$BS" count=$(($(numfmt --from=iec "$SIZE") / $(numfmt --from=iec "${BS^^}"))) \
      conv=notrunc status=none ;;
  random)
    "$FIO" --name=rnd --filename="$2" --size="$SIZE" --bs="$BS" --rw=randwrite --ioengine=psync \
      --fallocate=none >/dev/null ;;
  esac
}
read_iops() { # path
  "$FIO" --name=rd --filename="$1" --size="$SIZE" --bs="$BS" --rw=randread --ioengine=psync \
    --invalidate=0 --time_based=1 --runtime="$RUNTIME" --cpus_allowed=0 --output-format=json |
    /usr/bin/python3 -c 'import json,sys; print("%.0f" % json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}
echo "tmpfs-placement: $DIR ($(stat -f -c %T "$PARENT")) ROUNDS=$ROUNDS SIZE=$SIZE BS=$BS RUNTIME=$RUNTIME READS=$READS $("$FIO" --version)"
echo "load before: $(uptime | sed 's/.*load average: //')"
printf "%-6s %-8s %-9s %s\n" round method created "fio IOPS (each read)"
for round in $(seq "$ROUNDS"); do
  rm -rf "$DIR"
  mkdir -p "$DIR"
  order=()
  for k in 0 1 2; do order+=("${METHODS[$(((k + round - 1) % 3))]}"); done
  for m in "${order[@]}"; do make_file "$m" "$DIR/$m"; done
  declare -A got=()
  for _ in $(seq "$READS"); do
    for m in "${METHODS[@]}"; do got[$m]="${got[$m]:-} $(read_iops "$DIR/$m")"; done
  done
  for k in 0 1 2; do
    m=${order[$k]}
    printf "%-6s %-8s %-9s%s\n" "$round" "$m" "$((k + 1)) of 3" "${got[$m]}"
  done
  unset got
done
echo "load after: $(uptime | sed 's/.*load average: //')"
