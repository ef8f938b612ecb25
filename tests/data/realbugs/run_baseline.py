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
import shlex
import subprocess
import sys

# posenc's mistake words that name the mistake a bug's manifest entry expects (its key), for the
# summary's "named" count; a posenc word not listed here is still shown in the table.
NAMES = {
    "rope-type": ["rope-scaling", "rope-type", "llama3"],
    "rope-theta": ["rope-theta", "base"],
    "position-scale": ["position-divided", "scaled", "position-scale"],
    "rope-factor": ["rope-factor", "scaled", "position-divided", "rope-scaling"],
    "half-precision-angles": ["half-precision-angles"],
    "attention-factor": ["attention-factor"],
    "longrope-factors": ["longrope-factor"],
    "rotary-dim-exponent": ["rotary-dim-exponent", "rotary-dim", "rotary-part-misplaced"],
    "rope-layout": ["rope-layout"],
    "position-ids": ["same-row", "position", "positions-out-of-order"],
    "position-offset": ["position-offset"],
    "mrope-interleave-swapped": ["mrope-interleave-swapped"],
    "rope2d-positions": ["position", "grid"],
    "alibi-slopes": ["slope-not-get-slopes", "slope"],
    "slopes-head-order": ["head-order", "slope"],
    "t5-bucket-clamp": ["bucket"],
    "t5-log-buckets": ["bucket"],
    "frequency-exponent": ["exponent", "half-dim"],
    "sin-cos-order": ["sin-cos-swapped"],
    "sincos2d-grid-order": ["sincos2d", "grid"],
    "t5-causal": ["t5-causal"],
    "resize-method": ["resize-method"],
}


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


def named(bug, result):
    words = NAMES.get(bug["expected"]["buggy"]["mistake"], [])
    return any(any(w in m for w in words) for m in result["mistakes"])


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")[:160]


def main():
    posenc, root, out = sys.argv[1], sys.argv[2], sys.argv[3]
    label = sys.argv[4] if len(sys.argv) > 4 else posenc
    with open(os.path.join(root, "tests/data/realbugs/manifest.json"), encoding="utf-8") as handle:
        bugs = json.load(handle)["bugs"]
    rows, stats = [], {k: 0 for k in ("fixed_mistake_u", "fixed_mistake_d", "fixed_correct_d", "buggy_correct_u",
                                      "buggy_correct_d", "refused", "buggy_named_any", "buggy_named_expected",
                                      "runs")}
    for bug in bugs:
        for name in ("fixed", "buggy"):
            undeclared, declared = commands(bug, root, name)
            for mode, args in (("undeclared", undeclared), ("declared", declared)):
                r = run(posenc, args, root)
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
                    stats["buggy_named_expected"] += named(bug, r)
                rows.append((bug["slug"], name, mode, r["exit"], r["verdict"] or "-",
                             ", ".join(r["mistakes"]) or "-", r["message"]))
    write(out, bugs, rows, stats, label)


def write(out, bugs, rows, stats, label):
    n = len(bugs)
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
             f" naming the manifest's mistake: {stats['buggy_named_expected']} of {n}", "",
             "## Every run", "",
             "| bug | file | run | exit | verdict | mistakes named | diagnosis or refusal |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        lines.append("| " + " | ".join(cell(x) for x in row) + " |")
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
