#!/usr/bin/python3
"""Writes tests/data/positions/torch_position_ids.json with torch itself (run by hand, not by the tests).

Each case holds the position ids the reference computes for a batch, by the reference's own torch
operations (CPU, torch 1.13 from Debian), so tst_positionids compares BatchIds with the reference's
output and not with a re-derivation of it. The full transformers package is not installed: the few
lines each case needs are copied from huggingface/transformers (main), cited at each:
- generation with left and right padding, src/transformers/generation/utils.py,
  GenerationMixin.prepare_inputs_for_generation, step 4: position_ids = attention_mask.long().cumsum(-1)
  - 1, then position_ids.masked_fill_(attention_mask == 0, 1);
- decoding after a prefill: the same, each step after _update_model_kwargs_for_generation's
  attention_mask = torch.cat([attention_mask, attention_mask.new_ones((B, 1))], dim=-1) and
  cache_position = cache_position[-1:] + num_new_tokens (the initial cache_position
  torch.ones_like(input_ids[0, :]).cumsum(0) - 1), the ids sliced to the step's one token (step 5);
- packing, src/transformers/data/data_collator.py, DataCollatorWithFlattening.__call__:
  batch["position_ids"] += list(range(len(input_ids))) per example; and where the varlen attention
  reads the documents from, src/transformers/modeling_flash_attention_utils.py,
  prepare_fa_kwargs_from_position_ids (indices_q = (position_ids == position_ids.min()).nonzero(),
  cu_seq_lens_q = cat(indices_q, [len])), and src/transformers/masking_utils.py,
  find_packed_sequence_indices ((diff(position_ids, prepend=first - 1) != 1).cumsum(-1));
- Qwen2-VL, src/transformers/models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index
  (4.x, with an attention mask: each row's real tokens laid out alone, the padding 1, rope_deltas =
  max + 1 - len(row); without vision, the mask's cumsum - 1 on the three axes and rope_deltas from
  the row's largest id, the padding's 1 included), and Qwen2VLModel.forward at a decode step:
  position_ids = arange(seq_length) + cache_position[0] + rope_deltas, expanded to the three axes;
  and Qwen2VLTextModel.forward, which expands 2-D ids (a pack's, from the collator) to the three
  axes: position_ids[None, ...].expand(3, position_ids.shape[0], -1).
Each case names the posenc parameters that describe the same batch.
Usage: /usr/bin/python3 tests/data/make_position_ids_fixture.py   (python3-torch from Debian)
"""
import json
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))

# Qwen2-VL's token ids (config.json of Qwen/Qwen2-VL-7B-Instruct).
VISION_START, VISION_END, IMAGE_PAD = 151652, 151653, 151655


def generation_ids(attention_mask):
    # transformers, generation/utils.py, prepare_inputs_for_generation, step 4.
    position_ids = attention_mask.long().cumsum(-1) - 1
    position_ids.masked_fill_(attention_mask == 0, 1)
    return position_ids


def padded_mask(lengths, width, side):
    mask = torch.zeros((len(lengths), width), dtype=torch.long)
    for i, n in enumerate(lengths):
        if side == "left":
            mask[i, width - n:] = 1
        else:
            mask[i, :n] = 1
    return mask


def generate_ids(lengths, prefill, total, side):
    """The ids of each column: the prefill's, then one decode step a column."""
    attention_mask = padded_mask(lengths, prefill, side)
    ids = generation_ids(attention_mask)
    columns = [ids]
    cache_position = torch.ones_like(attention_mask[0, :]).cumsum(0) - 1  # _get_initial_cache_position
    cache_positions = [cache_position]
    for _ in range(total - prefill):
        # _update_model_kwargs_for_generation
        attention_mask = torch.cat([attention_mask, attention_mask.new_ones((attention_mask.shape[0], 1))], dim=-1)
        cache_position = cache_position[-1:] + 1
        step = generation_ids(attention_mask)[:, -1:]  # step 5: the last input_ids.shape[1] = 1 ids
        columns.append(step)
        cache_positions.append(cache_position)
    return torch.cat(columns, dim=1), torch.cat(cache_positions)


def collator_ids(documents):
    # transformers, data/data_collator.py, DataCollatorWithFlattening.__call__ (return_position_ids).
    batch = {"position_ids": []}
    for sample in documents:
        input_ids = list(range(100, 100 + sample))
        batch["position_ids"] += list(range(len(input_ids)))
    return torch.tensor([batch["position_ids"]], dtype=torch.int64)


def varlen_starts(position_ids):
    # transformers, modeling_flash_attention_utils.py, prepare_fa_kwargs_from_position_ids.
    position_ids = position_ids.reshape(-1)
    indices_q = (position_ids == position_ids.min()).nonzero().view(-1)
    return torch.cat((indices_q.to(dtype=torch.int32), torch.tensor(position_ids.size(), dtype=torch.int32)))


def packed_sequence_indices(position_ids):
    # transformers, masking_utils.py, find_packed_sequence_indices.
    first_dummy_value = position_ids[:, :1] - 1
    position_diff = torch.diff(position_ids, prepend=first_dummy_value, dim=-1)
    return (position_diff != 1).cumsum(-1)


def get_rope_index(input_ids, image_grid_thw, attention_mask, spatial_merge_size=2):
    # transformers, models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index (images only),
    # line for line.
    image_token_id, video_token_id, vision_start_token_id = IMAGE_PAD, 151656, VISION_START
    mrope_position_deltas = []
    total_input_ids = input_ids
    position_ids = torch.ones(3, input_ids.shape[0], input_ids.shape[1], dtype=input_ids.dtype)
    image_index = 0
    for i, input_ids in enumerate(total_input_ids):
        input_ids = input_ids[attention_mask[i] == 1]
        vision_start_indices = torch.argwhere(input_ids == vision_start_token_id).squeeze(1)
        vision_tokens = input_ids[vision_start_indices + 1]
        image_nums = (vision_tokens == image_token_id).sum()
        input_tokens = input_ids.tolist()
        llm_pos_ids_list = []
        st = 0
        remain_images = image_nums
        for _ in range(image_nums):
            ed_image = input_tokens.index(image_token_id, st)
            t, h, w = image_grid_thw[image_index][0], image_grid_thw[image_index][1], image_grid_thw[image_index][2]
            image_index += 1
            remain_images -= 1
            ed = ed_image
            llm_grid_t, llm_grid_h, llm_grid_w = t.item(), h.item() // spatial_merge_size, w.item() // spatial_merge_size
            text_len = ed - st
            st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
            llm_pos_ids_list.append(torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx)
            t_index = torch.arange(llm_grid_t).view(-1, 1).expand(-1, llm_grid_h * llm_grid_w).flatten()
            h_index = torch.arange(llm_grid_h).view(1, -1, 1).expand(llm_grid_t, -1, llm_grid_w).flatten()
            w_index = torch.arange(llm_grid_w).view(1, 1, -1).expand(llm_grid_t, llm_grid_h, -1).flatten()
            llm_pos_ids_list.append(torch.stack([t_index, h_index, w_index]) + text_len + st_idx)
            st = ed + llm_grid_t * llm_grid_h * llm_grid_w
        if st < len(input_tokens):
            st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
            text_len = len(input_tokens) - st
            llm_pos_ids_list.append(torch.arange(text_len).view(1, -1).expand(3, -1) + st_idx)
        llm_positions = torch.cat(llm_pos_ids_list, dim=1).reshape(3, -1)
        position_ids[..., i, attention_mask[i] == 1] = llm_positions
        mrope_position_deltas.append(llm_positions.max() + 1 - len(total_input_ids[i]))
    mrope_position_deltas = torch.tensor(mrope_position_deltas).unsqueeze(1)
    return position_ids, mrope_position_deltas


def qwen2_vl_case(lengths, prefill, total):
    """A left-padded batch whose rows hold the first n tokens of text:3, image:1x4x4, text:4 (the
    third text token <|vision_start|>, the image's 4 merged patches, then <|vision_end|> and text)."""
    prompt = [101, 102, VISION_START] + [IMAGE_PAD] * 4 + [VISION_END, 103, 104, 105]
    rows, grids = [], []
    for n in lengths:
        row = [0] * (prefill - n) + prompt[:n]
        rows.append(row)
        if n >= 7:
            grids.append([1, 4, 4])
    input_ids = torch.tensor(rows, dtype=torch.long)
    attention_mask = padded_mask(lengths, prefill, "left")
    position_ids, rope_deltas = get_rope_index(input_ids, torch.tensor(grids, dtype=torch.long), attention_mask)
    return with_decode_steps(position_ids, rope_deltas, len(lengths), prefill, total)


def get_rope_index_text(attention_mask):
    # transformers, models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index, the branch
    # without vision (image_grid_thw and video_grid_thw None), with an attention mask, line for line:
    # rope_deltas from the largest id of the row, the padding's filled 1 among them.
    position_ids = attention_mask.long().cumsum(-1) - 1
    position_ids.masked_fill_(attention_mask == 0, 1)
    position_ids = position_ids.unsqueeze(0).expand(3, -1, -1)
    max_position_ids = position_ids.max(0, keepdim=False)[0].max(-1, keepdim=True)[0]
    mrope_position_deltas = max_position_ids + 1 - attention_mask.shape[-1]
    return position_ids, mrope_position_deltas


def qwen2_vl_text_case(lengths, prefill, total):
    """A left-padded batch of text alone (a row of one real token among them, where the padding's 1
    sets rope_deltas)."""
    position_ids, rope_deltas = get_rope_index_text(padded_mask(lengths, prefill, "left"))
    return with_decode_steps(position_ids, rope_deltas, len(lengths), prefill, total)


def with_decode_steps(position_ids, rope_deltas, batch_size, prefill, total):
    columns = [position_ids]
    cache_position = torch.arange(prefill)
    for _ in range(total - prefill):
        cache_position = cache_position[-1:] + 1
        # Qwen2VLModel.forward, decode: arange(seq_length) + cache_position[0] + rope_deltas.
        seq_length = 1
        delta = cache_position[0] + rope_deltas
        step = torch.arange(seq_length).view(1, -1).expand(batch_size, -1)
        step = step.add(delta.repeat_interleave(batch_size // delta.shape[0], dim=0))
        columns.append(step.unsqueeze(0).expand(3, -1, -1))
    return torch.cat(columns, dim=2), rope_deltas


def text_model_ids(position_ids):
    # transformers, models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLTextModel.forward: 2-D ids given
    # (a pack's, from the collator) are expanded to t, h and w.
    if position_ids.dim() == 2:
        position_ids = position_ids[None, ...].expand(3, position_ids.shape[0], -1)
    return position_ids


def main():
    cases = []
    for side in ("left", "right"):
        lengths, width = [5, 8, 3], 8
        ids = generation_ids(padded_mask(lengths, width, side))
        cases.append({"name": side + " padding", "params": {"batch": "%s:5,8,3" % side, "max-len": str(width)},
                      "mask": padded_mask(lengths, width, side).tolist(), "ids": ids.tolist()})
    # A mask with a hole: what a file may give.
    mask = torch.tensor([[0, 1, 1, 0, 1, 1], [1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 1]])
    cases.append({"name": "mask with a hole", "params": {"attention-mask": "mask", "max-len": "6"},
                  "mask": mask.tolist(), "ids": generation_ids(mask).tolist()})
    for side in ("left", "right"):
        ids, cache_position = generate_ids([5, 8, 3], 8, 11, side)
        cases.append({"name": "decode after a prefill, %s padding" % side,
                      "params": {"batch": "%s:5,8,3" % side, "cache": "8", "max-len": "11"},
                      "ids": ids.tolist(), "cache_position": cache_position.tolist()})
    for documents in ([3, 4, 2], [5, 1, 6, 2]):
        ids = collator_ids(documents)
        cases.append({"name": "packed %s" % ",".join(map(str, documents)),
                      "params": {"packed": ",".join(map(str, documents)), "max-len": str(sum(documents))},
                      "ids": ids.tolist(), "cu_seq_lens": varlen_starts(ids).tolist(),
                      "sequence_indices": packed_sequence_indices(ids).tolist()})
    ids, deltas = qwen2_vl_case([11, 7, 2], 12, 12)
    cases.append({"name": "qwen2-vl left padding",
                  "params": {"encoding": "mrope", "prompt": "text:3,image:1x4x4,text:4", "batch": "left:11,7,2",
                             "max-len": "12", "vision-positions": "qwen2-vl", "mrope-era": "v4"},
                  "ids": ids.tolist(), "rope_deltas": deltas.view(-1).tolist()})
    ids, deltas = qwen2_vl_case([11, 7, 2], 12, 15)
    cases.append({"name": "qwen2-vl decode after a prefill",
                  "params": {"encoding": "mrope", "prompt": "text:3,image:1x4x4,text:4", "batch": "left:11,7,2",
                             "cache": "12", "max-len": "15", "vision-positions": "qwen2-vl", "mrope-era": "v4"},
                  "ids": ids.tolist(), "rope_deltas": deltas.view(-1).tolist()})
    ids, deltas = qwen2_vl_text_case([5, 1, 3], 6, 9)
    cases.append({"name": "qwen2-vl text prompt, decode after a prefill",
                  "params": {"encoding": "mrope", "prompt": "text:6", "batch": "left:5,1,3", "cache": "6",
                             "max-len": "9", "vision-positions": "qwen2-vl", "mrope-era": "v4"},
                  "ids": ids.tolist(), "rope_deltas": deltas.view(-1).tolist()})
    # A pack of text documents: the flattening collator's ids, which Qwen2VLTextModel.forward expands
    # to the three axes (position_ids[None, ...].expand(3, position_ids.shape[0], -1)).
    ids = collator_ids([3, 4, 2])
    cases.append({"name": "qwen2-vl packed text 3,4,2",
                  "params": {"encoding": "mrope", "prompt": "text:9", "packed": "3,4,2", "max-len": "9",
                             "vision-positions": "qwen2-vl", "mrope-era": "v4"},
                  "ids": ids[None, ...].expand(3, ids.shape[0], -1).tolist()})
    # The same as the collator hands them to the model: [1, L], one id a token; "expanded" is what
    # Qwen2VLTextModel.forward makes of them for the rotary embedding.
    ids = collator_ids([5, 1, 6, 2])
    cases.append({"name": "qwen2-vl packed text 5,1,6,2, the collator's [1, L]",
                  "params": {"encoding": "mrope", "prompt": "text:14", "packed": "5,1,6,2", "max-len": "14",
                             "vision-positions": "qwen2-vl", "mrope-era": "v4"},
                  "ids": ids.tolist(), "expanded": text_model_ids(ids).tolist()})
    out = os.path.join(here, "positions", "torch_position_ids.json")
    with open(out, "w") as f:
        json.dump({"source": "huggingface/transformers main: generation/utils.py, data/data_collator.py, "
                             "modeling_flash_attention_utils.py, masking_utils.py, models/qwen2_vl/modeling_qwen2_vl.py",
                   "torch": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
