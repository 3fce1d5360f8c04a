# Shared by the tools/dev/bench-*.sh benchmarks (sourced, not run): sizes in bytes and mpiexec under
# a timeout. The sourcing script sets BENCH (its name, for messages), PY, CORES and TIMEOUT.

bytes_of() { # 64K, 1M, 256M, 1G -> bytes
  $PY -c 'import sys; s=sys.argv[1].upper(); m={"K":1<<10,"M":1<<20,"G":1<<30}
print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))' "$1"
}

# mpiexec under a timeout; MPICH's busy polling makes every sync cost a scheduler quantum when
# ranks exceed cores, so only those runs yield at once. Ranks that fit the cores are bound, one
# per core (BIND=0: not), so that one does not queue behind another's polling
# (docs/guides/running.md); every tool a bench launches through here is bound alike.
run_mpi() { # ranks command...
  local n=$1
  shift
  local env=() bind=()
  [ "$n" -gt "$CORES" ] && env=(MPIR_CVAR_POLLS_BEFORE_YIELD=1)
  [ "$n" -le "$CORES" ] && [ "${BIND:-1}" != 0 ] && bind=(-bind-to core)
  if ! env "${env[@]}" timeout -k 10 "$TIMEOUT" mpiexec "${bind[@]}" -n "$n" "$@"; then
    echo "$BENCH: failed or timed out after ${TIMEOUT}s: mpiexec -n $n $*" >&2
    exit 1
  fi
}

# Before a timed run: write back and discard what earlier runs left on the file system of `dir`
# (dirty pages, a deleted file's blocks), so that a run does not pay for the one before it.
settle() { # dir
  sync -f "$1" 2>/dev/null || sync
}
