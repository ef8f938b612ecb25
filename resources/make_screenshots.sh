#!/bin/sh
# Draws the screenshots installed in share/doc/posenc/screenshots from the current window, on
# Qt's offscreen platform, with settings of their own (the user's are neither read nor changed).
# Run before a release, from the source tree, with a built posenc:
#   resources/make_screenshots.sh [build/release/app/posenc]
set -eu
posenc=${1:-build/release/app/posenc}
screenshots=$(dirname "$0")/screenshots
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT

shoot() {
    XDG_CONFIG_HOME=$config QT_QPA_PLATFORM=offscreen "$posenc" --reset-settings "$@"
}

# The four linked views at the defaults: heatmap, curves, magnitudes and dropout.
shoot --screenshot "$screenshots/window.png"
# A wide model in the split layout (TensorFlow's): d_model 1024 over 4096 positions.
shoot --d-model 1024 --max-len 4096 --layout split --screenshot "$screenshots/split-layout.png"
