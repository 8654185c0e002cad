#!/usr/bin/env bash
# A smoke of the main job on a fresh clone (run by .ci/run): a short `train`
# with a tiny budget must write metrics and a checkpoint, and a second run
# with more steps must resume after the first one's step, not start over.
set -euo pipefail
cd "$(dirname "$0")/.."
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
args=(--data-dir "$data" --budget 40 --eval-tasks 1 --time-limit 0)

npx frognano train "${args[@]}" --steps 1 > "$data/first.out" 2> "$data/first.err" || { cat "$data/first.err"; exit 1; }
run="$data/runs/default"
test -s "$run/metrics.jsonl" || { echo "smoke: no metrics.jsonl after the first run"; exit 1; }
test -s "$run/policy.json" || { echo "smoke: no policy.json checkpoint after the first run"; exit 1; }
grep -q '^trained 1 step' "$data/first.out" || { echo "smoke: the first run did not report 1 step"; cat "$data/first.out"; exit 1; }

npx frognano train "${args[@]}" --steps 2 > "$data/second.out" 2> "$data/second.err" || { cat "$data/second.err"; exit 1; }
grep -q 'resuming run "default" after step 1' "$data/second.err" || { echo "smoke: the second run did not resume"; cat "$data/second.err"; exit 1; }
test "$(wc -l < "$run/metrics.jsonl")" -eq 2 || { echo "smoke: expected 2 metrics lines after resuming"; cat "$run/metrics.jsonl"; exit 1; }
# The run's attempts are kept, and the dashboard serves them from the installed package.
npx frognano gc --data-dir "$data" --dry-run | grep -Eq '^default +stopped +[1-9]' || { echo "smoke: gc lists no attempts of the run"; exit 1; }
# Its own process group: npx runs the server as a child, which killing npx alone left running.
setsid npx frognano serve --data-dir "$data" --port 0 2> "$data/serve.err" &
serve=$!
url=""
for _ in $(seq 100); do url="$(grep -o 'http://[^ ]*' "$data/serve.err" || true)"; [ -n "$url" ] && break; sleep 0.2; done
node -e 'fetch(process.argv[1] + "api/runs").then((r) => r.json()).then((runs) => process.exit(runs.some((r) => r.name === "default" && r.attempts > 0) ? 0 : 1))' "$url" \
  || { kill -- -"$serve"; echo "smoke: the dashboard does not list the run"; cat "$data/serve.err"; exit 1; }
kill -- -"$serve"
echo "smoke: train wrote metrics and a checkpoint, and resumed ($(head -1 "$data/second.out")); the dashboard lists the run"
