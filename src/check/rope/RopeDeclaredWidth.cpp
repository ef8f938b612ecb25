#include "RopeDeclaredWidth.h"

#include "check/DeclaredShape.h"
#include "check/DeclaredWords.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"
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
    // The columns repeat as a RoPE table's of `cols` columns (c and c + cols / 2, or 2i and 2i + 1), in
    // either layout: the table's own is compared, one other than the declared named with it.
    const double tolerance = 4.0 * 0x1p-23 + 2.0 * e.table.textRounding();
    const std::optional<RopeLayout> layout = RopeFit::repeatedLayout(e.sample, e.framing, tolerance);
    if (!layout)
        return std::nullopt;
    Params own = declared;
    own.rope.layout = *layout;
    own.rope.partialRotaryFactor = 1.0;
    RopeFrequencies::setHeadDim(own, cols);
    if (!own.isValid() || RopeFrequencies::rotaryDim(own.rope) != cols)
        return std::nullopt;
    return own;
}

TableMatch named(TableMatch m, const Params &declared, const Params &own, bool layoutGiven)
{
    const std::int64_t cols = RopeFrequencies::rotaryDim(own.rope);
    const bool otherLayout = own.rope.layout != declared.rope.layout;
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
    if (!otherLayout)
        return DeclaredShape::named(std::move(m), {ApplyCheck::kRotaryDim}, words, u"rotary_dim %1"_s.arg(cols));
    // Both differ: both named, each with both values, the cells compared at the table's width and pairing.
    // The declared layout said as declared only where it was: a default taken is said as one.
    const QString layoutWords = layoutGiven
        ? u"; rope-layout: its pairs are %1, %2 are %3"_s.arg(ApplyPairs::layoutWords(own.rope.layout),
                                                              DeclaredWords::referenceOf(),
                                                              ApplyPairs::layoutWords(declared.rope.layout))
        : u"; rope-layout: its pairs are %1 %2 %3"_s.arg(ApplyPairs::layoutWords(own.rope.layout),
                                                          DeclaredWords::whereDefault(),
                                                          ApplyPairs::layoutWords(declared.rope.layout));
    return DeclaredShape::named(std::move(m), {ApplyCheck::kRotaryDim, ApplyPairs::kLayout}, words + layoutWords,
                                u"rotary_dim %1 in the %2 layout"_s.arg(cols).arg(
                                    own.rope.layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s));
}

CheckDeclaration declarationAt(const TableEvidence &e, const Params &own)
{
    CheckDeclaration d = e.declared;
    d.params = own;
    d.keys.removeAll(u"rope-layout"_s);
    return d;
}

} // namespace posenc::RopeDeclaredWidth
