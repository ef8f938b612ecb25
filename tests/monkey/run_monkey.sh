#!/usr/bin/env bash
# The GUI monkey under Xvfb, by hand before a release (README, Tests):
#   tests/monkey/run_monkey.sh [MINUTES] [SEED] [OPTION...]   (default 10 minutes, seed 1)
# Fails when the window exits or crashes, when its event loop stalls over a second, or when
# anything reaches standard error (Qt's warnings included). Spans of the GUI thread's own work over
# 100 ms are logged as BUSY lines with the action before them, and counted at the end; each line on
# standard error from the GUI thread is logged too, as a STDERR line with its action and stack. Options after
# the seed go to the monkey (--busy-ms 60 logs the spans over 60 ms, to see what is near). POSENC_BUILD names the build
# directory (default build/release); the log goes to standard output.
set -uo pipefail
cd "$(dirname "$0")/../.."
minutes=${1:-10}
seed=${2:-1}
monkey=${POSENC_BUILD:-build/release}/tests/monkey/posenc_monkey
if [[ ! -x $monkey ]]; then
  echo "run_monkey.sh: $monkey is not built (cmake --build --preset release --target posenc_monkey)" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME=$scratch/config XDG_RUNTIME_DIR=$scratch/runtime
mkdir -p "$XDG_CONFIG_HOME" "$scratch/tmp" "$scratch/xvfb" && mkdir -m 700 "$XDG_RUNTIME_DIR"
# xvfb-run keeps its authority file in a directory of its TMPDIR, here outside the monkey's: a
# 10-minute run with it inside failed xvfb-run's clean-up (rm of that directory), and xvfb-run then
# exits 5 before it stops its Xvfb, which stayed running after the script.
TMPDIR=$scratch/xvfb xvfb-run -a -s '-screen 0 1366x768x24' env TMPDIR="$scratch/tmp" \
  "$monkey" --minutes "$minutes" --seed "$seed" "${@:3}" 2> "$scratch/stderr"
status=$?
failed=0
if [[ $status -ne 0 ]]; then
  echo "run_monkey.sh: the monkey exited with $status (1: a stall; 3: a hang; 5: xvfb-run's clean-up; over 128: a signal)"
  failed=1
fi
if [[ -s $scratch/stderr ]]; then
  echo "run_monkey.sh: standard error was not empty:"
  head -c 4000 "$scratch/stderr"
  failed=1
fi
[[ $failed -eq 0 ]] && echo "run_monkey.sh: $minutes minutes, seed $seed: no exit, no stall, no standard error"
exit $failed
