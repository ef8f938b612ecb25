"""Real bugs in reading a learned table of positions (a model's position_embeddings weight): the rows a
sequence gathers taken from the wrong offset. Each function follows the buggy and the fixed code it
cites; the weight is seeded (a learned table's values are no formula's), saved beside the dumps as
<slug>.reference.npy, the declared reference (`--expect learned --position-table`)."""
import numpy as np
import torch


def learned_weight(rows, dim, seed):
    """An nn.Embedding weight (normal init, scaled as BERT's initializer_range 0.02), seeded."""
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(rows, dim, generator=generator, dtype=torch.float32) * 0.02)


def create_position_ids_from_input_ids(input_ids, padding_idx, past_key_values_length=0):
    """transformers src/transformers/models/roberta/modeling_roberta.py
    create_position_ids_from_input_ids, verbatim."""
    mask = input_ids.ne(padding_idx).int()
    incremental_indices = (torch.cumsum(mask, dim=1).type_as(mask) + past_key_values_length) * mask
    return incremental_indices.long() + padding_idx


def sentence_transformers_roberta_flattened():
    """huggingface/sentence-transformers#3879: with flash attention the batch was flattened and
    DataCollatorWithFlattening's position_ids (0, 1, ... per sequence) were passed to XLM-R, whose
    embeddings read position_embeddings(position_ids) and expect padding_idx + 1 + n
    (create_position_ids_from_input_ids, padding_idx 1); the fix offsets them by padding_idx + 1. One
    sequence of 32 tokens, a 66 x 64 weight (XLM-R's 514 x 768, smaller): the 32 rows gathered,
    [1, 32, 64]."""
    weight = learned_weight(66, 64, 3879)
    input_ids = torch.arange(5, 37)[None]  # no padding token (padding_idx 1)
    fixed_ids = create_position_ids_from_input_ids(input_ids, padding_idx=1)
    buggy_ids = torch.arange(32)[None]
    assert fixed_ids.tolist() == (buggy_ids + 2).tolist()
    embed = torch.nn.functional.embedding
    return {"buggy": embed(buggy_ids, weight).numpy(), "fixed": embed(fixed_ids, weight).numpy(),
            "reference": weight.numpy()}


def labml_vit_cls_position():
    """labmlai/annotated_deep_learning_paper_implementations#221 ("fix cls_token bug in vit"),
    labml_nn/transformers/vit/__init__.py VisionTransformer.forward: the positional embeddings
    (LearnedPositionalEmbeddings: x + positional_encodings[:x.shape[0]]) were added to the patches
    before the [CLS] token was concatenated, so the patches took rows 0 .. N - 1 (row 0 the class
    token's) and the class token none; the fix concatenates first, the patches taking rows 1 .. N.
    A 7 x 7 patch grid, d_model 64, max_len 60: the rows added to the 49 patches, [49, 64] (the
    weight's [max_len, 1, d_model] saved as [60, 64])."""
    weight = learned_weight(60, 64, 221)
    patches = 49
    return {"buggy": weight[:patches].numpy(), "fixed": weight[1:patches + 1].numpy(), "reference": weight.numpy()}


def _mlx_vlm_bicubic(grid, out_h, out_w):
    """mlx_vlm/models/kernels.py bicubic_interpolate before mlx-vlm#1241 (align_corners False), its Metal
    kernel in float32: source (o + 0.5) / out * in - 0.5, the four taps floor(x) - 1 .. floor(x) + 2
    clamped to the grid, Keys' cubic with a = -0.5, the sum divided by the weights' sum. grid [C, H, W]."""
    f32 = np.float32
    a = f32(-0.5)

    def cubic(x):
        x = f32(abs(x))
        x2, x3 = f32(x * x), f32(x * x * x)
        if x <= 1:
            return f32((a + 2) * x3 - (a + 3) * x2 + 1)
        if x < 2:
            return f32(a * x3 - 5 * a * x2 + 8 * a * x - 4 * a)
        return f32(0)

    channels, in_h, in_w = grid.shape
    out = np.zeros((channels, out_h, out_w), dtype=f32)
    for yo in range(out_h):
        y_in = f32(f32(f32(f32(yo) + f32(0.5)) / f32(out_h)) * f32(in_h)) - f32(0.5)
        y0 = int(np.floor(y_in))
        yf = f32(y_in - f32(y0))
        for xo in range(out_w):
            x_in = f32(f32(f32(f32(xo) + f32(0.5)) / f32(out_w)) * f32(in_w)) - f32(0.5)
            x0 = int(np.floor(x_in))
            xf = f32(x_in - f32(x0))
            result = np.zeros(channels, dtype=f32)
            weight_sum = f32(0)
            for i in range(-1, 3):
                yp = max(0, min(y0 + i, in_h - 1))
                wy = cubic(f32(yf - f32(i)))
                for j in range(-1, 3):
                    xp = max(0, min(x0 + j, in_w - 1))
                    w = f32(wy * cubic(f32(xf - f32(j))))
                    result = (result + grid[:, yp, xp] * w).astype(f32)
                    weight_sum = f32(weight_sum + w)
            out[:, yo, xo] = (result / weight_sum).astype(f32) if weight_sum > 0 else result
    return out


def mlxvlm_moonvit_bicubic():
    """Blaizzy/mlx-vlm#1241: mlx_vlm/models/kernels.py bicubic_interpolate used Keys' cubic (a = -0.5)
    where torch's F.interpolate(mode="bicubic") takes A = -0.75, which Kimi-VL's MoonViT resizes its
    learned position grid with (Learnable2DInterpPosEmb.forward: F.interpolate(weight.permute((2, 0, 1))
    .unsqueeze(0), size=shape, mode="bicubic"), then .permute((1, 2, 0)).flatten(end_dim=1)). A 16 x 16
    grid of 32 (MoonViT's 64 x 64 x 1152, smaller) resized to a 10 x 12 patch grid: [120, 32]; the grid
    at its own size, weight.flatten(end_dim=1), [256, 32], is the reference."""
    weight = learned_weight(256, 32, 1241).view(16, 16, 32)
    fixed = torch.nn.functional.interpolate(weight.permute((2, 0, 1)).unsqueeze(0), size=(10, 12), mode="bicubic")
    fixed = fixed.squeeze(0).permute((1, 2, 0)).flatten(end_dim=1)
    buggy = _mlx_vlm_bicubic(weight.permute((2, 0, 1)).numpy(), 10, 12)
    buggy = torch.from_numpy(buggy).permute((1, 2, 0)).flatten(end_dim=1)
    return {"buggy": buggy.numpy(), "fixed": fixed.numpy(), "reference": weight.flatten(end_dim=1).numpy()}
