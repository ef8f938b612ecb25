#!/usr/bin/env bash
# The GUI thread's instructions per change of each view, for one or two builds, counted by valgrind's
# callgrind: unlike the wall-clock and processor times of interaction_runs.sh, the count does not
# move with the machine's load, so a shared or busy machine can still decide between two builds.
# Each view runs `posenc bench` (kernels and check at 64 x 64, no run at L 2^20) twice under
# callgrind, with A and then B changes, counting only the GUI thread inside the window's
# benchmark (InteractionBenchmark::run); the difference over B - A changes is the work of a change,
# the window's start and first exact views left out. The build must keep its symbols (a build
# tree's posenc does; the Debian package's is stripped). Minutes per view: the views' jobs run
# under valgrind too.
#
#   tests/bench/gui_instructions.sh POSENC [OTHER_POSENC] [views] [A] [B]
#
# views: sinusoidal,rope,alibi,t5,deberta,positions,check; A: 4; B: 14 (every tenth change waits for the
# views to be exact: B - A = 10 takes in one such wait, as the changes of a user's pauses do).
set -euo pipefail

first=$1
second=${2:-}
views=${3:-sinusoidal,rope,alibi,t5,deberta,positions,check}
a=${4:-4}
b=${5:-14}
command -v valgrind >/dev/null || { echo "gui_instructions.sh: valgrind is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The GUI thread's instructions of one run: thread 1's totals line of callgrind's output.
count() {
    local posenc=$1 view=$2 changes=$3 tag=$4
    local flags=(--interaction-changes 0 --view-changes "$changes")
    [ "$view" = sinusoidal ] && flags=(--interaction-changes "$changes" --view-changes 0)
    valgrind --tool=callgrind --separate-threads=yes --collect-atstart=no \
        --toggle-collect='posenc::InteractionBenchmark::run(posenc::InteractionBenchmark::Scenario const&, int)' \
        --callgrind-out-file="$out/$tag.%p" "$posenc" bench --json --repeats 1 --max-len 64 --d-model 64 \
        --scale-changes 0 --views "$view" "${flags[@]}" >"$out/$tag.json" 2>"$out/$tag.log"
    local made
    made=$(python3 -c "import json,sys; d=json.load(open('$out/$tag.json')); \
print(d.get('interaction_changes_$view', d.get('interaction_changes', 0)))")
    if [ "$made" != "$changes" ]; then
        echo "gui_instructions.sh: $posenc made $made of $changes changes of $view (see its bench's log)" >&2
        exit 1
    fi
    grep -h '^summary:' "$out"/$tag.*-01 | awk '{print $2}'
}

for view in ${views//,/ }; do
    line="$view:"
    n=0
    for posenc in $first $second; do
        n=$((n + 1))
        tag=$n-$view
        i=$(count "$posenc" "$view" "$a" "$tag-a")
        j=$(count "$posenc" "$view" "$b" "$tag-b")
        line+=$(python3 -c "print(f'  {($j - $i) / ($b - $a) / 1e6:8.2f} M instructions a change ($posenc)')")
    done
    echo "$line"
done
