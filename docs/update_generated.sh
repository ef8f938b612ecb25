#!/bin/sh
# Writes what the docs show of the program, from the program itself (a built posenc): the README's
# picture of a lesson (docs/images/lesson.png, the window on Qt's offscreen platform with settings
# of its own: the user's are neither read nor changed), the table the README's fifth step checks
# (docs/examples/pe-from-1.csv), and the user guide's parts between their markers, the lessons'
# table and the reference (posenc help --generate guide; tst_helptexts fails while the guide's
# copy is not the program's).
# Run from the source tree whenever the window's look, a command or a parameter changes:
#   docs/update_generated.sh [build/release/app/posenc]
set -eu
posenc=${1:-build/release/app/posenc}
docs=$(dirname "$0")
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT

# The lesson on RoPE's long-context scalings, as a student opens it.
XDG_CONFIG_HOME=$config QT_QPA_PLATFORM=offscreen "$posenc" --reset-settings --lesson rope-scaling \
    --screenshot "$docs/images/lesson.png"
# A PE table whose positions start at 1, a common mistake that posenc check names.
"$posenc" table pe -o "$docs/examples/pe-from-1.csv" --force --d-model 16 --max-len 65 --positions 1:65
# The guide with each part the program writes (the lessons' table, the reference) replaced by the
# program's, between its markers.
guide=$docs/GUIDE.md
"$posenc" help --generate guide > "$config/generated.md"
awk -v generated="$config/generated.md" '
    BEGIN {
        while ((getline line < generated) > 0) {
            if (line ~ /^<!-- [a-z-]+ begins/) { name = substr(line, 6); sub(/ begins.*/, "", name) }
            part[name] = part[name] line "\n"
        }
    }
    /^<!-- [a-z-]+ begins/ {
        name = substr($0, 6); sub(/ begins.*/, "", name)
        if (!(name in part)) { print "update_generated.sh: the program writes no part " name > "/dev/stderr"; exit 1 }
        printf "%s", part[name]; skipping = 1; next
    }
    skipping && /^<!-- [a-z-]+ ends -->$/ { skipping = 0; next }
    !skipping { print }
' "$guide" > "$config/guide.md"
mv "$config/guide.md" "$guide"
