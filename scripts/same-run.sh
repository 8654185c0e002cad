#!/usr/bin/env bash
# Same seed, same run: a short seeded `train` with --workers 1 and with
# --workers 2 must write the same metrics.jsonl, timings (ms) and test-cache
# counts (cache) aside. About 10 minutes on 2 cores. Usage:
#   scripts/same-run.sh [extra train flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${SAME_RUN_DIR:-$(mktemp -d -t fn-same-run-XXXXXX)}"
mkdir -p "$out"
flags=(--steps 3 --budget 80 --eval-tasks 4 --time-limit 0 --seed 3 "$@")
for w in 1 2; do
  echo "train --workers $w ${flags[*]} (data in $out/w$w)" >&2
  node bin/frognano.js train --data-dir "$out/w$w" --workers "$w" "${flags[@]}" > "$out/w$w.log" 2>&1 \
    || { tail -20 "$out/w$w.log" >&2; exit 1; }
done
node -e '
const fs = require("node:fs");
const read = (p) => fs.readFileSync(p, "utf8").trim().split("\n").map((l) => { const m = JSON.parse(l); delete m.ms; delete m.cache; return JSON.stringify(m); });
const [a, b] = process.argv.slice(1).map(read);
const differ = a.length !== b.length || a.some((l, i) => l !== b[i]);
console.log(`${a.length} and ${b.length} steps: metrics ${differ ? "DIFFER" : "identical"} (ms and cache left out)`);
process.exit(differ ? 1 : 0);
' "$out/w1/runs/default/metrics.jsonl" "$out/w2/runs/default/metrics.jsonl"
