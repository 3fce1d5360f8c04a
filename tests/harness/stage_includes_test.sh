#!/bin/bash
# The harness's stages include only the stages below them (docs/architecture.md): guard, config,
# load, plan, report, run, in that order; no two files include each other; no module family
# reaches into another's folder. Usage: stage_includes_test.sh SOURCE_DIR
set -u
cd "$1" || exit 2
declare -A rank=([guard]=1 [config]=2 [load]=3 [plan]=4 [report]=5 [run]=6)
bad=0
for stage in "${!rank[@]}"; do
  for f in harness/"$stage"/*; do
    for inc in $(grep -ho '#include "[a-z]*/' "$f" | sed 's/#include "//; s|/||'); do
      if [ -n "${rank[$inc]:-}" ] && [ "${rank[$inc]}" -gt "${rank[$stage]}" ]; then
        echo "FAIL: $f (stage $stage) includes the higher stage $inc/"
        bad=1
      fi
    done
  done
done
for f in $(find harness -name '*.[ch]pp'); do
  own=${f#harness/}
  own=${own%.*}.hpp
  for inc in $(grep -ho '#include "[a-z]*/[a-z_]*\.hpp"' "$f" | sed 's/#include "//; s/"//'); do
    for other in harness/"$inc" harness/"${inc%.hpp}".cpp; do
      if [ -f "$other" ] && [ "${other%.*}" != "${f%.*}" ] && grep -q "#include \"$own\"" "$other"; then
        echo "FAIL: $f and $other include each other"
        bad=1
      fi
    done
  done
done
if grep -rn '#include "\.\./' modules; then
  echo "FAIL: a module file includes through ../ (a family links the shared libraries only)"
  bad=1
fi
[ "$bad" -eq 0 ] && echo "stage includes: every include runs down, none both ways"
exit "$bad"
