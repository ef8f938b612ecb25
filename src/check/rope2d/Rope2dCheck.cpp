// 2-D RoPE's facet of posenc check (FamilyCheck.h): its cos and sin tables of a patch grid.
#include "check/FamilyCheck.h"

#include "check/rope/CosSinCache.h"
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
    // The axial style's (RoPE-ViT's and SAM 2's compute_axial_cis) turns neighbouring columns: its
    // cos of the frequencies stands for it with each column read for both of a pair.
    check.tensors.tableWidth = [](const Params &p) -> std::optional<std::pair<std::int64_t, bool>> {
        if (p.rope2d.style == Rope2dStyle::Pixtral || p.rope2d.style == Rope2dStyle::QwenVit
            || p.rope2d.style == Rope2dStyle::Hunyuan)
            return std::pair {p.rope.headDim, false};
        if (p.rope2d.style == Rope2dStyle::Axial)
            return std::pair {p.rope.headDim, true};
        return std::nullopt;
    };
    // A complex freqs_cis (SAM 2's compute_axial_cis: cat(polar(1, t_x w), polar(1, t_y w))) dumped as
    // torch.view_as_real, which posenc reads as cat(real, imaginary): its cos and sin halves, each the
    // frequencies' cos or sin widened to the table of adjacent pairs it rotates, declared or not (a
    // complex cache turns neighbouring columns: apply_rotary_enc's view_as_complex).
    PairedTablesReading cosSin;
    cosSin.tables = {u"rope2d-cos"_s, u"rope2d-sin"_s};
    cosSin.holds = CosSinCache::holds;
    cosSin.half = [](std::shared_ptr<const TableRows> rows, int index, bool) {
        return CosSinCache::half(std::move(rows), index == 1, true);
    };
    cosSin.combine = [](TableMatch cos, TableMatch sin, std::int64_t pairs, bool) {
        return CosSinCache::combine(std::move(cos), std::move(sin), pairs, true);
    };
    check.tensors.paired = std::move(cosSin);
    // `--expect rope-2d` with no flag of the width: head_dim the table's (FLUX's axes_dim, which
    // sum to it, keep theirs).
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        if (params.rope2d.style != Rope2dStyle::Flux)
            params.rope.headDim = std::clamp<std::int64_t>(cols, 1, RopeParams::kMaxHeadDim);
    };
    return check;
}

} // namespace posenc
