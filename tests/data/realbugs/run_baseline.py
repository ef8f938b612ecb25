#!/usr/bin/python3
"""Runs `posenc check` on every buggy and fixed file of manifest.json, undeclared and with the
declared reference, and writes BASELINE.md: exit code, verdict, mistakes named or the refusal.

Usage: run_baseline.py POSENC ROOT OUT.md [LABEL]
  POSENC  the posenc binary; ROOT the folder the manifest's paths are relative to (a checkout, or a
  copy of its tests/data); OUT the Markdown file to write; LABEL what posenc was (a commit). Needs
  no numpy.
Example (the lead's build, which reads files under /tmp):
  cp -r tests/data/realbugs tests/data/configs /tmp/rb/tests/data/
  wt /work/main '/usr/bin/python3 /tmp/rb/tests/data/realbugs/run_baseline.py build/release/app/posenc /tmp/rb /tmp/rb/BASELINE.md'
"""
import json
import os
import re
import shlex
import subprocess
import sys

# The manifest's mistake keys (`expected.buggy.mistake`) are posenc's mistake ids where one names the
# bug (rope-layout, rotary-dim, positions-scaled, ...), else a word of the bug's own. ALIASES lists,
# for each key, the other ids that name it too; the summary's "naming the manifest's mistake" counts a
# run whose mistakes hold the key or one of them, id for id. Every id is checked against posenc's
# registry as `posenc help check --all` lists it, and a key no id names stops the run.
ALIASES = {
    "rope-type": ["rope-scaling-reversed"],
    "rope-theta": ["base"],
    "position-scale": ["positions-scaled", "position-divided", "scaled"],
    "rope-factor": ["position-divided", "scaled"],
    "attention-factor": ["attention-factor-missing"],
    "longrope-factors": ["longrope-factor", "longrope-factor-set", "longrope-factors-switched"],
    "rotary-dim-exponent": ["rotary-dim", "rotary-part-misplaced"],
    "rope-layout": ["rope-layout-swapped"],
    "position-ids": ["positions-out-of-order", "same-row", "positions-constant", "position-offset"],
    "rope2d-positions": ["grid"],
    "alibi-slopes": ["slope-not-get-slopes", "alibi-head-count"],
    "t5-bucket-clamp": ["t5-buckets", "t5-bucket-value-broken"],
    "t5-log-buckets": ["t5-buckets", "t5-bucket-value-broken"],
    "frequency-exponent": ["freq-shift", "exponent-column-index", "exponent-doubled", "exponent-halved",
                           "integer-division"],
    "sin-cos-order": ["sin-cos-swapped", "flip-sin-to-cos"],
    "sincos2d-grid-order": ["grid-axes-swapped"],
    "sign-flipped": ["relative-position-reversed"],
}
# Manifest keys that no id of posenc names (said so here, not a typo): a run never names them.
NO_ID = {}


def registry(posenc):
    """The words of `posenc help check --all`: every mistake id posenc names is among them."""
    proc = subprocess.run([posenc, "help", "check", "--all"], capture_output=True, text=True)
    return set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+|[a-z0-9]+", proc.stdout))


def names_of(bugs, words):
    """Each manifest key's ids: the key where it is one, and its ALIASES; every one in the registry."""
    names, unknown = {}, []
    for bug in bugs:
        key = bug["expected"]["buggy"]["mistake"]
        ids = ([key] if key in words else []) + ALIASES.get(key, [])
        unknown += [i for i in ALIASES.get(key, []) if i not in words]
        if not ids and key not in NO_ID:
            unknown.append(key)
        names[key] = ids
    if unknown:
        sys.exit("run_baseline.py: no mistake id of posenc's registry: " + ", ".join(sorted(set(unknown))))
    return names


def run(posenc, args, root):
    proc = subprocess.run([posenc, "check", "--json", "--quiet"] + args, capture_output=True, text=True)
    result = {"exit": proc.returncode, "verdict": "", "mistakes": [], "message": ""}
    try:
        data = json.loads(proc.stdout)
        result["verdict"] = data.get("verdict", "")
        result["mistakes"] = data.get("mistakes") or []
        result["message"] = data.get("diagnosis") or ""
    except ValueError:
        result["message"] = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[0] if (proc.stderr or proc.stdout) else ""
    result["message"] = result["message"].replace(root.rstrip("/") + "/", "")
    return result


def commands(bug, root, name):
    """(undeclared args, declared args) for the file `name` (buggy or fixed) of a bug."""
    files = {k: os.path.join(root, v) for k, v in bug["files"].items()}
    flags = shlex.split(bug["reference"]["posenc_flags"])
    flags = [os.path.join(root, f) if f.startswith("tests/data/") else f for f in flags]
    if "--apply" in flags:
        at = flags.index("--apply")
        rest = flags[:at] + flags[at + 2:]
        base = ["--apply", files["input"], files[name]]
        return base, base + rest
    return [files[name]], [files[name]] + flags


def named(names, bug, result):
    return any(m in names[bug["expected"]["buggy"]["mistake"]] for m in result["mistakes"])


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")[:160]


KEYS = ("fixed_mistake_u", "fixed_mistake_d", "fixed_correct_d", "buggy_correct_u", "buggy_correct_d", "refused",
        "buggy_named_any", "buggy_named_expected", "runs")


def count(stats, names, bug, name, mode, r):
    stats["runs"] += 1
    if r["exit"] == 2:
        stats["refused"] += 1
    m = mode[0]
    if name == "fixed" and r["verdict"] == "mistake":
        stats["fixed_mistake_" + m] += 1
    if name == "fixed" and mode == "declared" and r["verdict"] == "correct":
        stats["fixed_correct_d"] += 1
    if name == "buggy" and r["verdict"] == "correct":
        stats["buggy_correct_" + m] += 1
    if name == "buggy" and mode == "declared" and r["mistakes"]:
        stats["buggy_named_any"] += 1
        stats["buggy_named_expected"] += named(names, bug, r)


def main():
    posenc, root, out = sys.argv[1], sys.argv[2], sys.argv[3]
    label = sys.argv[4] if len(sys.argv) > 4 else posenc
    with open(os.path.join(root, "tests/data/realbugs/manifest.json"), encoding="utf-8") as handle:
        bugs = json.load(handle)["bugs"]
    names = names_of(bugs, registry(posenc))
    rows, stats = [], {k: 0 for k in KEYS}
    # Each held-out round's own counts, and the second round's bugs posenc's code had not cited.
    rounds = {r: {k: 0 for k in KEYS} for r in ("held-out", "held-out-2", "held-out-2 unseen")}
    for bug in bugs:
        for name in ("fixed", "buggy"):
            undeclared, declared = commands(bug, root, name)
            for mode, args in (("undeclared", undeclared), ("declared", declared)):
                r = run(posenc, args, root)
                count(stats, names, bug, name, mode, r)
                for key in (bug.get("round"), bug.get("round", "") + " unseen" if not bug.get("seen") else None):
                    if key in rounds:
                        count(rounds[key], names, bug, name, mode, r)
                rows.append((bug["slug"], name, mode, r["exit"], r["verdict"] or "-",
                             ", ".join(r["mistakes"]) or "-", r["message"]))
    write(out, bugs, rows, stats, label, rounds)


def write(out, bugs, rows, stats, label, rounds):
    n = len(bugs)
    sizes = {r: sum(1 for bug in bugs if bug.get("round") == r.split(" ")[0] and not (r.endswith("unseen") and bug.get("seen")))
             for r in rounds}
    lines = ["# What today's posenc says of the real-bug corpus", "",
             "Generated by `tests/data/realbugs/run_baseline.py` from `manifest.json` (" + str(n) + " bugs). Each file is",
             "checked twice: undeclared (`posenc check FILE`, or `--apply INPUT FILE`) and with the declared",
             "reference of the manifest (`posenc_flags`). `--json` gives the verdict and the mistakes; a refusal",
             "(exit 2) shows its message. Exit codes: 0 correct, 1 mistake, 2 invalid usage (refused), 5 variant,",
             "6 learned, 7 unknown. posenc: " + label + ".", "",
             "## Summary", "",
             f"- runs: {stats['runs']} ({n} bugs x buggy/fixed x undeclared/declared)",
             f"- refused (exit 2, most as a shape posenc does not read): {stats['refused']} of {stats['runs']}",
             f"- fixed outputs called mistake: {stats['fixed_mistake_u']} of {n} undeclared, {stats['fixed_mistake_d']} of {n} declared",
             f"- fixed outputs called correct with the reference declared: {stats['fixed_correct_d']} of {n}",
             f"- buggy outputs called correct: {stats['buggy_correct_u']} of {n} undeclared, {stats['buggy_correct_d']} of {n} declared",
             f"- buggy outputs with a mistake named, reference declared: {stats['buggy_named_any']} of {n};"
             f" naming the manifest's mistake: {stats['buggy_named_expected']} of {n}",
             ] + [f"- of them the {r} round's {sizes[r]} bugs (manifest `round`{'' if 'unseen' not in r else ', `seen` false'}): fixed outputs called"
                  f" mistake {h['fixed_mistake_u']} undeclared, {h['fixed_mistake_d']} declared; buggy outputs called correct"
                  f" declared {h['buggy_correct_d']}; a mistake named {h['buggy_named_any']} of {sizes[r]}, the manifest's"
                  f" {h['buggy_named_expected']} of {sizes[r]}" for r, h in rounds.items()] + ["",
             "## Every run", "",
             "| bug | file | run | exit | verdict | mistakes named | diagnosis or refusal |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append("| " + " | ".join(cell(x) for x in row) + " |")
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
