#!/usr/bin/python3
"""Writes tests/data/mroperules/cases.json with torch itself (run by hand, not by the tests).

M-RoPE position ids, [3, B, L], of Qwen2-VL's and Qwen2.5-VL's get_rope_index (transformers 4.x) and
of the classes of mistake ports of it make, each case with the flags that declare its prompt and the
verdict and mistake id expected. The reference lines are copied from huggingface/transformers:
- models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index: text at
  torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx, a grid at
  torch.stack([t_index, h_index, w_index]) + text_len + st_idx with t_index =
  torch.arange(llm_grid_t).view(-1, 1).expand(-1, llm_grid_h * llm_grid_w).flatten(),
  st_idx = llm_pos_ids_list[-1].max() + 1; each row's real tokens (attention_mask == 1) laid out
  alone, the padding filled with 1 (position_ids[..., i, attention_mask[i] == 1] = llm_positions);
- models/qwen2_5_vl/modeling_qwen2_5_vl.py, Qwen2_5_VLModel.get_rope_index: time_tensor =
  expanded_range * second_per_grid_t * tokens_per_second, t_index = time_tensor.long().flatten()
  (second_per_grid_t a float tensor, tokens_per_second 2 as Qwen2.5-VL's vision_config).
The mistakes, as ports wrote them:
- second-per-grid: Qwen2-VL's t_index on a Qwen2.5-VL video (sgl-project/sglang#3674), or a
  second_per_grid other than the video's;
- mrope-temporal-rule: Qwen2.5-VL's time on a model declared Qwen2-VL;
- mrope-1d-positions: torch.arange(L) on all three axes (linkedin/Liger-Kernel#276);
- mrope-text-resume: st_idx advanced by the block's tokens (the 1-D count), not its largest id + 1;
- mrope-axis-offset: h_index and w_index without + text_len + st_idx;
- mrope-rope-deltas-lost: decode steps after the prompt at their cache position, where
  Qwen2VLModel.forward gives them cache_position + rope_deltas (delta = cache_position[0] +
  self.rope_deltas; rope_deltas = the prompt's largest id + 1 - its length), the delta a server
  lost between prefill and decode (sgl-project/sglang#8219).
Usage: /usr/bin/python3 tests/data/make_mrope_rules_fixture.py   (python3-torch from Debian)
"""
import json
import os

import torch

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mroperules")
MERGE, TPS = 2, 2


def get_rope_index(segments, rule="qwen2.5-vl", mistake=None):
    """One prompt's ids, [3, L]. segments: ('text', n) | ('image', T, H, W) | ('video', T, H, W, seconds)."""
    llm_pos_ids_list = []
    for seg in segments:
        st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
        if mistake == "text-resume" and llm_pos_ids_list:
            st_idx = torch.tensor(sum(p.shape[1] for p in llm_pos_ids_list))
        if seg[0] == "text":
            llm_pos_ids_list.append(torch.arange(seg[1]).view(1, -1).expand(3, -1) + st_idx)
            continue
        llm_grid_t, llm_grid_h, llm_grid_w = seg[1], seg[2] // MERGE, seg[3] // MERGE
        if rule == "qwen2.5-vl":
            second_per_grid_t = seg[4] if seg[0] == "video" else 0.0
            range_tensor = torch.arange(llm_grid_t).view(-1, 1)
            expanded_range = range_tensor.expand(-1, llm_grid_h * llm_grid_w)
            second_per_grid_t = torch.as_tensor(second_per_grid_t, dtype=torch.float32)
            time_tensor = expanded_range * second_per_grid_t * TPS
            t_index = time_tensor.long().flatten()
        else:
            t_index = torch.arange(llm_grid_t).view(-1, 1).expand(-1, llm_grid_h * llm_grid_w).flatten()
        h_index = torch.arange(llm_grid_h).view(1, -1, 1).expand(llm_grid_t, -1, llm_grid_w).flatten()
        w_index = torch.arange(llm_grid_w).view(1, 1, -1).expand(llm_grid_t, llm_grid_h, -1).flatten()
        block = torch.stack([t_index, h_index, w_index]) + st_idx
        if mistake == "axis-offset":
            block = torch.stack([t_index + st_idx, h_index, w_index])
        llm_pos_ids_list.append(block)
    ids = torch.cat(llm_pos_ids_list, dim=1)
    if mistake == "1d":
        ids = torch.arange(ids.shape[1]).view(1, -1).expand(3, -1)
    return ids


def decode(segments, steps, with_deltas):
    """The prompt's ids then `steps` decode steps', [3, L + steps]: each step's ids cache_position +
    rope_deltas on every axis (Qwen2VLModel.forward), or the cache position alone."""
    ids = get_rope_index(segments)
    length = ids.shape[1]
    rope_deltas = int(ids.max()) + 1 - length
    cache_position = torch.arange(length, length + steps)
    step = cache_position + (rope_deltas if with_deltas else 0)
    return torch.cat([ids, step.view(1, -1).expand(3, -1)], dim=1)


def batch(prompts, side, width):
    """Rows of prompts padded at one side to width, as get_rope_index with the attention mask: [3, B, width]."""
    out = torch.ones(3, len(prompts), width, dtype=torch.int64)
    for b, ids in enumerate(prompts):
        n = ids.shape[1]
        if side == "left":
            out[:, b, width - n:] = ids
        else:
            out[:, b, :n] = ids
    return out


def prompt_flag(segments):
    parts = []
    for s in segments:
        if s[0] == "text":
            parts.append("text:%d" % s[1])
        elif s[0] == "image":
            parts.append("image:%dx%dx%d" % s[1:4])
        else:
            parts.append("video:%dx%dx%d@%g" % s[1:5])
    return ",".join(parts)


def case(name, ids, flags, verdict, mistakes):
    return {"name": name, "shape": list(ids.shape), "ids": ids.flatten().tolist(), "flags": flags,
            "verdict": verdict, "mistakes": mistakes}


def main():
    video = [("text", 6), ("video", 4, 16, 16, 2.0), ("text", 10)]
    image = [("text", 5), ("image", 1, 12, 16), ("text", 9)]
    mixed = [("text", 4), ("image", 1, 4, 6), ("text", 3), ("video", 3, 4, 4, 1.5), ("text", 2)]
    q25 = ["--vision-positions", "qwen2.5-vl"]
    q2 = ["--vision-positions", "qwen2-vl"]
    cases = []
    for label, segs in (("video", video), ("image", image), ("mixed", mixed)):
        flags = ["--prompt", prompt_flag(segs)] + q25
        cases.append(case("%s reference" % label, get_rope_index(segs)[:, None, :], flags, "correct", []))
        cases.append(case("%s 1-D" % label, get_rope_index(segs, mistake="1d")[:, None, :], flags, "mistake",
                          ["mrope-1d-positions"]))
        cases.append(case("%s text resumes at the token count" % label,
                          get_rope_index(segs, mistake="text-resume")[:, None, :], flags, "mistake",
                          ["mrope-text-resume"]))
        cases.append(case("%s h and w without the start" % label,
                          get_rope_index(segs, mistake="axis-offset")[:, None, :], flags, "mistake",
                          ["mrope-axis-offset"]))
    for label, segs in (("image", image), ("mixed", mixed)):
        flags = ["--prompt", prompt_flag(segs)] + q25
        cases.append(case("%s and 4 decode steps" % label, decode(segs, 4, True)[:, None, :], flags, "correct", []))
        cases.append(case("%s and 4 decode steps without rope_deltas" % label, decode(segs, 4, False)[:, None, :],
                          flags, "mistake", ["mrope-rope-deltas-lost"]))
    for label, segs in (("video", video), ("mixed", mixed)):
        flags = ["--prompt", prompt_flag(segs)] + q25
        cases.append(case("%s Qwen2-VL's grid index" % label, get_rope_index(segs, rule="qwen2-vl")[:, None, :],
                          flags, "mistake", ["second-per-grid"]))
        other = [s if s[0] != "video" else s[:4] + (3.0,) for s in segs]
        cases.append(case("%s at second_per_grid 3" % label, get_rope_index(other)[:, None, :], flags, "mistake",
                          ["second-per-grid"]))
        other = [s if s[0] != "video" else s[:4] + (1.3,) for s in segs]  # trunc(k * 2.6): no whole step
        cases.append(case("%s at second_per_grid 1.3" % label, get_rope_index(other)[:, None, :], flags, "mistake",
                          ["second-per-grid"]))
        cases.append(case("%s Qwen2.5-VL's time declared Qwen2-VL" % label, get_rope_index(segs)[:, None, :],
                          ["--prompt", prompt_flag(segs)] + q2, "mistake", ["mrope-temporal-rule"]))
        cases.append(case("%s Qwen2.5-VL's time, no rule declared" % label, get_rope_index(segs)[:, None, :],
                          ["--prompt", prompt_flag(segs)], "unknown", []))
    # A padded batch of two rows of the mixed prompt and a shorter text-led prefix of it.
    short = mixed[:3]
    n_long, n_short = get_rope_index(mixed).shape[1], get_rope_index(short).shape[1]
    for side in ("left", "right"):
        flags = ["--prompt", prompt_flag(mixed), "--batch", "%s:%d,%d" % (side, n_long, n_short),
                 "--max-len", str(n_long)] + q25
        ref = batch([get_rope_index(mixed), get_rope_index(short)], side, n_long)
        cases.append(case("batch %s reference" % side, ref, flags, "correct", []))
        for mistake, mid in (("1d", "mrope-1d-positions"), ("text-resume", "mrope-text-resume"),
                             ("axis-offset", "mrope-axis-offset")):
            ids = batch([get_rope_index(mixed, mistake=mistake), get_rope_index(short, mistake=mistake)], side,
                        n_long)
            cases.append(case("batch %s %s" % (side, mistake), ids, flags, "mistake", [mid]))
    os.makedirs(HERE, exist_ok=True)
    with open(os.path.join(HERE, "cases.json"), "w") as f:  # one case a line
        f.write('{"source": "tests/data/make_mrope_rules_fixture.py", "cases": [\n')
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
