#!/usr/bin/env bash
# docs/ARCHITECTURE.md, Performance: whole-process time of a 1200 x 800 heatmap PNG (L = 1024, d = 512)
# by `posenc export` against the same figure made with numpy and matplotlib's pcolormesh.
# Best of N runs of each, in the same run of this script; posenc must be at least twice as fast.
#
#   tests/bench/export_vs_matplotlib.sh [build/release/app/posenc] [runs]
#
# Needs python3-matplotlib (run by hand; not in .ci/packages).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
posenc=${1:-$here/../../build/release/app/posenc}
runs=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Debian's python3-matplotlib belongs to /usr/bin/python3, which a python3 earlier on PATH
# (a virtualenv, pyenv) may hide; $PYTHON chooses another.
python=""
for candidate in ${PYTHON:-} python3 /usr/bin/python3; do
    if "$candidate" -c 'import matplotlib, numpy' 2>/dev/null; then
        python=$candidate
        break
    fi
done
if [[ -z $python ]]; then
    echo "python3-matplotlib is needed: apt-get install python3-matplotlib" >&2
    exit 1
fi
# One untimed run of each fills the file caches (fonts, libraries, matplotlib's font cache).
"$posenc" export heatmap --d-model 512 --max-len 1024 --width 1200 --height 800 -o "$out/posenc.png"
"$python" "$here/matplotlib_heatmap.py" "$out/matplotlib.png"

# Best wall time of each, timed by python (monotonic clock, whole process with its start-up).
"$python" - "$runs" "$posenc" "$here/matplotlib_heatmap.py" "$out" <<'PY'
import subprocess, sys, time

runs, posenc, script, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
commands = {
    "posenc export heatmap": [posenc, "export", "heatmap", "--d-model", "512", "--max-len", "1024",
                              "--width", "1200", "--height", "800", "-o", out + "/posenc.png", "--force"],
    "matplotlib pcolormesh": [sys.executable, script, out + "/matplotlib.png"],
}
best = {}
for _ in range(runs):  # interleaved, so that both meet the same load of the machine
    for name, command in commands.items():
        start = time.monotonic()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        best[name] = min(best.get(name, float("inf")), time.monotonic() - start)
for name, seconds in best.items():
    print(f"{name:24s} 1200x800 PNG, L 1024, d 512: {seconds:.3f} s (best of {runs})")
ratio = best["matplotlib pcolormesh"] / best["posenc export heatmap"]
print(f"posenc is {ratio:.2f}x as fast as matplotlib (goal: at least 2x)")
sys.exit(0 if ratio >= 2 else 1)
PY
