#!/usr/bin/env bash
# The time-limit figure of issue 36: every method of every family, on instances 10x the sizes of
# tests/it/limits.rs (vcsched 256 x 2,000 among them), under --time-limit S for each S given
# (default 1 5 20). Writes OUT/runs.csv (problem, method, instance, S, wall seconds, exit code,
# status, within S x 1.1 + 1 s) and prints, per S, the median and largest wall time and every
# overrun. Not a timed test: run it on a quiet machine (docs/results.md, "Time limits").
#
#   scripts/time-limits.sh OUT [S ...]        (VCALLOC=path/to/vcalloc; default target/release)
#   scripts/time-limits.sh OUT TERM|INT       the same solves, no limit: the signal after 3 s
#   ONLY="pcec periodic" scripts/time-limits.sh OUT 1 5    only these families' runs
#
# The signal mode writes OUT/signals.csv (problem, method, instance, signal, seconds from the
# signal to the exit, exit code, status, the written answer verifies, finished before the
# signal) and prints the slowest stop and every stop over 1 s, missing answer or failed verify.
set -u
out=${1:?usage: scripts/time-limits.sh OUT [S ...]}
shift
limits=("$@")
[ ${#limits[@]} -eq 0 ] && limits=(1 5 20)
B=${VCALLOC:-target/release/vcalloc}
mkdir -p "$out/instances" "$out/solutions"
I=$out/instances

gen() { # NAME ARGS...: generate once into $I/NAME
    local name=$1
    shift
    [ -s "$I/$name" ] || "$B" generate "$@" --output "$I/$name" -q || exit 2
}
gen vcsched.json vcsched --hosts 256 --jobs 2000 --slack 0.5 --cv-mem 0.75 --cv-cpu 0.75 --seed 1
# 1x: generating a 256 x 2,000 adaptation took over a minute and 2.3 GB (it places the staying tasks).
gen adapt.json vcsched --hosts 64 --jobs 500 --slack 0.3 --cv-mem 0.5 --cv-cpu 0.5 --seed 1 --adaptation 0.2
gen periodic.json periodic --tasks small --amplitude large --jobs 4000 --seed 1
gen evolving.json evolving --apps 150..200 --seed 1
gen evolving-milp.json evolving --apps 80..100 --steps 2..4 --duration 1..30 --step-nodes 1..12 --nodes 240 --seed 3
gen pcec.json pcec --seed 1 --pms 20 --vms-per-pm 20 --jobs 3000
gen pcec-enum.json pcec --seed 1 --jobs 8
# The same 3,000 jobs with the fluid LP bound (three windows of 1,000 jobs): see opts below.
[ -e "$I/pcec-fluid.json" ] || ln -s pcec.json "$I/pcec-fluid.json"
gen rebalance.json rebalance --seed 1 --nodes-min 200 --nodes-max 200
gen bins.json binpacking --items 5000 --seed 4
gen soc.json socbp --items 3000 --seed 4

runs=(
    "vcsched vcsched.json exact milp lp-bound gr sg gb sgb mcb1 mcb2 mcb3 mcb4 mcb5 mcb6 mcb7 mcb8 rrnd rrnz"
    "vcsched adapt.json adapt milp exact"
    "periodic periodic.json bfd mm mmm cg bp lower-bound"
    "evolving evolving.json rigid nox 2x 2x+c infx infx+c"
    "evolving evolving-milp.json exact"
    "pcec pcec.json ec pc ec-lb"
    "pcec pcec-enum.json enumerate"
    "pcec pcec-fluid.json ec"
    "rebalance rebalance.json keep tabu milp exact"
    "binpacking bins.json ffd bfd cg bp"
    "socbp soc.json ffd bfd cg bp"
)

# Options of a run beyond the method, by instance file.
opts() {
    case $1 in
    pcec-fluid.json) echo --lower-bound fluid ;;
    esac
}
# ONLY: the families to run (all when empty).
wanted() {
    [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]
}

if [ "${limits[0]}" = TERM ] || [ "${limits[0]}" = INT ]; then
    sig=${limits[0]}
    csv=$out/signals.csv
    [ -s "$csv" ] || echo "problem,method,instance,signal,stop_s,exit,status,verified,finished_first" >"$csv"
    for line in "${runs[@]}"; do
        read -r problem file methods <<<"$line"
        wanted "$problem" || continue
        # shellcheck disable=SC2207
        extra=($(opts "$file"))
        for m in $methods; do
            key="$problem,$m,$file,$sig,"
            grep -q "^$key" "$csv" && continue # resumable
            sol=$out/solutions/$problem-$m-$file-$sig.json
            rm -f "$sol"
            "$B" solve "$problem" "$I/$file" --method "$m" --time-limit 600 -q --output "$sol" "${extra[@]}" \
                >/dev/null 2>"$out/solutions/$problem-$m-$file-$sig.err" &
            pid=$!
            sleep 3
            first=1
            t0=$(date +%s.%N)
            kill -"$sig" "$pid" 2>/dev/null && first=0
            wait "$pid"
            code=$?
            t1=$(date +%s.%N)
            stop=$(echo "$t1 - $t0" | bc -l)
            [ "$first" = 1 ] && stop=0
            status=$(grep -o '"status": *"[a-z_]*"' "$sol" 2>/dev/null | head -1 | sed 's/.*"\([a-z_]*\)"$/\1/')
            verified=0
            "$B" verify "$I/$file" "$sol" -q >/dev/null 2>&1 && verified=1
            printf '%s%.3f,%s,%s,%s,%s\n' "$key" "$stop" "$code" "${status:-none}" "$verified" "$first" >>"$csv"
            printf '%-10s %-12s %-18s %s %6.2f s after the signal, exit %s %s verified %s\n' "$problem" "$m" "$file" "$sig" "$stop" "$code" "${status:-none}" "$verified"
        done
    done
    echo
    awk -F, 'NR > 1 && $4 == s' s="$sig" "$csv" | sort -t, -k5 -g | tail -1 |
        awk -F, '{ printf "slowest stop: %s %s %.2f s\n", $1, $2, $5 }'
    bad=$(awk -F, -v s="$sig" 'NR > 1 && $4 == s && ($5 > 1 || $8 != 1) { printf "%s/%s(%ss, exit %s, verified %s) ", $1, $2, $5, $6, $8 }' "$csv")
    echo "runs: $(awk -F, -v s="$sig" 'NR > 1 && $4 == s' "$csv" | wc -l), over 1 s or unverified: ${bad:-none}"
    exit 0
fi

csv=$out/runs.csv
[ -s "$csv" ] || echo "problem,method,instance,limit_s,wall_s,exit,status,within" >"$csv"
for s in "${limits[@]}"; do
    for line in "${runs[@]}"; do
        read -r problem file methods <<<"$line"
        wanted "$problem" || continue
        # shellcheck disable=SC2207
        extra=($(opts "$file"))
        for m in $methods; do
            key="$problem,$m,$file,$s,"
            grep -q "^$key" "$csv" && continue # resumable
            sol=$out/solutions/$problem-$m-$file-$s.json
            t0=$(date +%s.%N)
            "$B" solve "$problem" "$I/$file" --method "$m" --time-limit "$s" -q --output "$sol" "${extra[@]}" \
                >/dev/null 2>"$out/solutions/$problem-$m-$file-$s.err"
            code=$?
            t1=$(date +%s.%N)
            wall=$(echo "$t1 - $t0" | bc -l)
            status=$(grep -o '"status": *"[a-z_]*"' "$sol" 2>/dev/null | head -1 | sed 's/.*"\([a-z_]*\)"$/\1/')
            within=$(echo "$wall <= $s * 1.1 + 1" | bc -l)
            printf '%s%.3f,%s,%s,%s\n' "$key" "$wall" "$code" "${status:-none}" "$within" >>"$csv"
            printf '%-10s %-12s %-18s S=%-3s %7.2f s exit %s %s\n' "$problem" "$m" "$file" "$s" "$wall" "$code" "${status:-none}"
        done
    done
done

echo
echo "limit_s  runs  median_s  max_s  overruns (S x 1.1 + 1 s)  non-zero exits"
for s in "${limits[@]}"; do
    awk -F, -v s="$s" 'NR > 1 && $4 == s { print $5 }' "$csv" | sort -g >"$out/.w"
    n=$(wc -l <"$out/.w")
    med=$(awk -v n="$n" 'NR == int((n + 1) / 2) { print }' "$out/.w")
    max=$(tail -1 "$out/.w")
    over=$(awk -F, -v s="$s" 'NR > 1 && $4 == s && $8 != 1 { printf "%s/%s(%ss) ", $1, $2, $5 }' "$csv")
    bad=$(awk -F, -v s="$s" 'NR > 1 && $4 == s && $6 != 0 { printf "%s/%s(exit %s) ", $1, $2, $6 }' "$csv")
    printf '%7s  %4s  %8s  %5s  %s  %s\n' "$s" "$n" "$med" "$max" "${over:-none}" "${bad:-none}"
done
rm -f "$out/.w"
