#!/usr/bin/env bash
# docs/ARCHITECTURE.md, Performance: the window's answer to a change, view by view, for two builds
# run in turn (old, new, old, new, ...) so that the machine's drift falls on both alike. Each run is
# `posenc bench --json --views VIEWS` (its kernels at --repeats 1, no run at L 2^20); the table
# gives, per view and run, the p95 from a change to every view repainted (interaction_p95_ms), the
# GUI thread's processor time per change (interaction_gui_cpu_p50_ms), the p95 from a change to
# every view exact (interaction_settled_p95_ms), the longest the event loop was away
# (interaction_gui_max_stall_ms) and the most processor time the GUI thread spent between two ticks
# of its timer (interaction_gui_max_busy_ms: a stall far longer was the machine's, not the window's),
# then the median of the runs and new/old. Take the numbers on a quiet machine: each run also writes
# and checks a 4 GiB table (check_over_read's).
#
#   tests/bench/interaction_runs.sh OLD_POSENC NEW_POSENC [runs] [views] [changes]
#
# runs: 5; views: sinusoidal,rope,alibi,t5,deberta,check; changes: --view-changes (100). A build
# without --views (before it existed) is run with its defaults, and reports what it knew. With
# KEEP=DIR the runs' JSON stay in DIR (old-1.json, new-1.json, ...) for the note.
set -euo pipefail

old=$1
new=$2
runs=${3:-5}
views=${4:-sinusoidal,rope,alibi,t5,deberta,check}
changes=${5:-100}
if [[ -n ${KEEP:-} ]]; then
    out=$KEEP
    mkdir -p "$out"
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi

run() {
    local posenc=$1 file=$2
    if "$posenc" bench --help | grep -q -- '--views'; then
        "$posenc" bench --json --repeats 1 --scale-changes 0 --views "$views" --view-changes "$changes" >"$file"
    else
        "$posenc" bench --json --repeats 1 --scale-changes 0 >"$file"
    fi
}

for i in $(seq 1 "$runs"); do
    for which in old new; do
        posenc=$old
        [ "$which" = new ] && posenc=$new
        echo "run $i of $runs: $which ($posenc)" >&2
        run "$posenc" "$out/$which-$i.json"
    done
done

python3 - "$out" "$runs" "$views" <<'PY'
import json, statistics, sys

out, runs, views = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")

def value(which, i, key):
    with open(f"{out}/{which}-{i}.json") as f:
        data = json.load(f)
    # The sinusoid's run at L 8192 is the one every build reports, unsuffixed.
    if key.endswith("_sinusoidal") and key not in data:
        key = key[: -len("_sinusoidal")]
    return data.get(key)

def median(numbers):
    known = [n for n in numbers if n is not None]
    return statistics.median(known) if known else None

def row(label, numbers, against=None):
    cells = " ".join(f"{n:8.2f}" if n is not None else "       -" for n in numbers)
    m = median(numbers)
    text = f"  {label:<30} {cells}   median {m:8.2f}" if m is not None else f"  {label:<30} {cells}   median        -"
    if against is not None and m is not None and against:
        text += f"   new/old {m / against:5.2f}"
    print(text)

keys = (("p95 ms", "interaction_p95_ms"), ("GUI CPU p50 ms", "interaction_gui_cpu_p50_ms"),
        ("settled p95 ms", "interaction_settled_p95_ms"), ("longest stall ms", "interaction_gui_max_stall_ms"),
        ("longest busy CPU ms", "interaction_gui_max_busy_ms"))
for view in views:
    print(f"{view}:")
    for name, key in keys:
        olds = [value("old", i, f"{key}_{view}") for i in range(1, runs + 1)]
        news = [value("new", i, f"{key}_{view}") for i in range(1, runs + 1)]
        row(f"{name}, old", olds)
        row(f"{name}, new", news, median(olds))
PY
