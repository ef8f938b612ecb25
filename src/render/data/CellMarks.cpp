#include "CellMarks.h"

#include "core/DropoutMask.h"

#include <algorithm>

namespace posenc::CellMarks {

std::vector<CellMark> ofOutput(const Params &params, const Block &block)
{
    const DropoutMask mask(params);
    // The embedding and pe variants drop one part alone: their dropped cells hold the other, a value.
    const bool dropsValues = mask.isActive() && dropoutTarget(params.dropoutMode) == DropoutTarget::Sum;
    std::vector<CellMark> marks(static_cast<std::size_t>(block.cells()), CellMark::None);
    std::vector<float> keep(static_cast<std::size_t>(block.cols));
    bool any = false;
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const std::int64_t position = block.row0 + r;
        const auto row = marks.begin() + static_cast<std::ptrdiff_t>(r * block.cols);
        switch (mask.rowRule(position)) {
        case DropoutMask::RowRule::Zero:
            std::fill(row, row + static_cast<std::ptrdiff_t>(block.cols), CellMark::Padding);
            any = true;
            break;
        case DropoutMask::RowRule::PassThrough:
            break;
        case DropoutMask::RowRule::Dropout:
            if (!dropsValues)
                break;
            mask.fillRow(position, block.col0, block.cols, keep.data());
            for (std::int64_t c = 0; c < block.cols; ++c) {
                if (keep[static_cast<std::size_t>(c)] == 0.0f) {
                    row[static_cast<std::ptrdiff_t>(c)] = CellMark::Dropped;
                    any = true;
                }
            }
            break;
        }
    }
    if (!any)
        marks.clear();
    return marks;
}

} // namespace posenc::CellMarks
