#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from data/ and fuzz/fixtures/: the instance files the project
# ships, small CSV and settings files, and the solutions of every method on the fixtures
# (written by the release binary). The corpus is not committed; libFuzzer grows it.
set -euo pipefail
cd "$(dirname "$0")/.."
C=fuzz/corpus
F=fuzz/fixtures
V=target/release/vcalloc
[ -x "$V" ] || cargo build --release --quiet
seed() { mkdir -p "$C/$1"; cp "${@:2}" "$C/$1/"; }

seed vcsched_json data/vcsched-demo.json $F/vcsched.json
mkdir -p $C/vcsched_csv
printf 'cpu,mem,name\n0.5,0.3,a\n0.25,0.6,b\n# comment\n\n1,0.1,c\n' > $C/vcsched_csv/header.csv
printf '0.9,0.2\n0.1,0.8\n0.5,0.5\n' > $C/vcsched_csv/plain.csv
seed periodic_json $F/periodic.json
seed bpplib_txt data/bpplib/Falkenauer_t60_00.txt data/bpplib/Falkenauer_u120_00.txt
seed vbp data/vbp/*.vbp
seed cbp data/cbp/*.cbp
seed packing_json $F/binpacking.json $F/socbp.json
seed swf data/pcec/toy-kth-header-9jobs.swf data/pcec/lublin-head-200.swf
gzip -dc data/pcec/lcg-head-300.swf.gz | head -60 > $C/swf/lcg-head-60.swf
head -80 data/market/lublin_256.swf > $C/swf/lublin-256-head-80.swf
seed evolving_json $F/evolving.json
seed pcec_json $F/pcec.json $F/pms.json
seed market_json $F/rebalance.json $F/scenario.json

mkdir -p $C/solution_json $C/settings
for p in vcsched periodic evolving pcec rebalance binpacking socbp; do
  for m in $($V methods "$p" | awk '/^  methods:/{f=1;next} /^  [a-z]/{f=0} f && /^    [a-z0-9-]+ /{print $1}'); do
    $V solve "$p" "$F/$p.json" --method "$m" \
      --time-limit 5 --output "$C/solution_json/$p-$m.json" >/dev/null 2>&1 || true
  done
done
printf '{}' > $C/settings/empty.json
printf '{"seed": 3, "highs": {"threads": 1, "mip_rel_gap": 0.0001}, "avg_phase": false}' > $C/settings/vcsched.json
printf '{"cg": {"smoothing": 0.5, "max_iterations": 100}, "bp": {"root_dive": false}}' > $C/settings/cg.json
printf 'limited_expand = 2\nrigid_path = "fit"\n[bound]\nmax_nodes = 10\n' > $C/settings/evolving.toml
printf '{"epsilon": 0.0, "error_norm": "vm_cap", "migrations": 2, "milp_seconds": 1}' > $C/settings/market.json
printf '{"xf_threshold": 10, "bins": 5, "fluid_window": 1000}' > $C/settings/pcec.json
for t in $(ls $C); do echo "$t: $(ls $C/$t | wc -l) seeds"; done
