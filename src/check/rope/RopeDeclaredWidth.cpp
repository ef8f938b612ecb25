#include "RopeDeclaredWidth.h"

#include "check/DeclaredShape.h"
#include "check/DeclaredWords.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/RopeFit.h"
#include "core/rope/RopeFrequencies.h"

#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::RopeDeclaredWidth {

std::optional<Params> atOwnWidth(const TableEvidence &e, const Params &declared)
{
    const std::int64_t cols = e.cols();
    if (cols < 2 || cols % 2 != 0 || cols > RopeParams::kMaxHeadDim || declared.rope.type == RopeType::Proportional)
        return std::nullopt;
    // The columns repeat as a RoPE table's of `cols` columns (c and c + cols / 2, or 2i and 2i + 1).
    const double tolerance = 4.0 * 0x1p-23 + 2.0 * e.table.textRounding();
    const std::optional<RopeLayout> layout = RopeFit::repeatedLayout(e.sample, e.framing, tolerance);
    if (!layout || *layout != declared.rope.layout)
        return std::nullopt;
    Params own = declared;
    own.rope.partialRotaryFactor = 1.0;
    RopeFrequencies::setHeadDim(own, cols);
    if (!own.isValid() || RopeFrequencies::rotaryDim(own.rope) != cols)
        return std::nullopt;
    return own;
}

TableMatch named(TableMatch m, const Params &declared, std::int64_t cols)
{
    const std::int64_t rotary = RopeFrequencies::rotaryDim(declared.rope);
    const QString declaredWords = declared.rope.partialRotaryFactor == 1.0
        ? u"rotary_dim %1 (head_dim %1)"_s.arg(rotary)
        : u"rotary_dim %1 (head_dim %2 x partial_rotary_factor %3)"_s.arg(rotary)
              .arg(declared.rope.headDim)
              .arg(declared.rope.partialRotaryFactor);
    const QString words = u"rotary-dim: the table is the RoPE table of rotary_dim %1 (%1 columns, each pair's two "
                          "columns alike), %4 is %2 (%3 columns)"_s.arg(cols)
                              .arg(declaredWords)
                              .arg(rotary)
                              .arg(DeclaredWords::referenceOf());
    return DeclaredShape::named(std::move(m), {ApplyCheck::kRotaryDim}, words, u"rotary_dim %1"_s.arg(cols));
}

} // namespace posenc::RopeDeclaredWidth
