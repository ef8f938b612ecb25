// 2-D RoPE's facet of posenc check (FamilyCheck.h): its cos and sin tables of a patch grid.
#include "check/FamilyCheck.h"

#include "check/rope2d/Rope2dTableCheck.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeRope2dCheck()
{
    FamilyCheck check;
    check.table = Rope2dTableCheck::hypothesis();
    // Its rows are a patch grid's, each at a (row, column) id pair (--grid, --position-ids [L, 2]), not
    // at positions of one sequence.
    check.rowsAtPositions = false;
    // Pixtral's and the Qwen ViT's tables are HF's head wide, rotate_half's halves repeated: a
    // cache of half their width stands for them (TensorShapes::widened).
    check.tensors.tableWidth = [](const Params &p) -> std::optional<std::pair<std::int64_t, bool>> {
        if (p.rope2d.style == Rope2dStyle::Pixtral || p.rope2d.style == Rope2dStyle::QwenVit
            || p.rope2d.style == Rope2dStyle::Hunyuan)
            return std::pair {p.rope.headDim, false};
        return std::nullopt;
    };
    // `--expect rope-2d` with no flag of the width: head_dim the table's (FLUX's axes_dim, which
    // sum to it, keep theirs).
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        if (params.rope2d.style != Rope2dStyle::Flux)
            params.rope.headDim = std::clamp<std::int64_t>(cols, 1, RopeParams::kMaxHeadDim);
    };
    return check;
}

} // namespace posenc
