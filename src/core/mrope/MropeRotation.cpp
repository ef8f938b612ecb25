#include "MropeRotation.h"

#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>
#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc {

namespace MropeAxes {

std::optional<QString> sectionProblem(const MropeParams &mrope, std::int64_t pairs)
{
    const std::vector<std::int64_t> &s = mrope.section;
    if (s.size() != 3)
        return u"three counts of pairs, t,h,w; it has %1"_s.arg(s.size());
    for (const std::int64_t count : s) {
        if (count < 0 || count > pairs)
            return u"three counts in [0, %1] (the rotary pairs)"_s.arg(pairs);
    }
    const std::int64_t sum = std::accumulate(s.begin(), s.end(), std::int64_t(0));
    if (!mrope.interleaved && sum != pairs)
        return u"t,h,w summing to the %1 rotary pairs (rotary_dim / 2); they sum to %2"_s.arg(pairs).arg(sum);
    return std::nullopt;
}

std::vector<int> axes(const MropeParams &mrope, std::int64_t pairs)
{
    std::vector<int> out(static_cast<std::size_t>(pairs), 0);
    const std::vector<std::int64_t> &s = mrope.section;
    if (mrope.interleaved) {
        for (std::int64_t j = 1; j < std::min(3 * s[1], pairs); j += 3)
            out[static_cast<std::size_t>(j)] = 1;
        for (std::int64_t j = 2; j < std::min(3 * s[2], pairs); j += 3)
            out[static_cast<std::size_t>(j)] = 2;
        return out;
    }
    std::int64_t j = s[0];
    for (int axis = 1; axis < 3; ++axis) {
        for (std::int64_t k = 0; k < s[static_cast<std::size_t>(axis)]; ++k, ++j)
            out[static_cast<std::size_t>(j)] = axis;
    }
    return out;
}

std::vector<std::int64_t> pairsPerAxis(const std::vector<int> &axes)
{
    std::vector<std::int64_t> counts(3, 0);
    for (const int axis : axes)
        ++counts[static_cast<std::size_t>(axis)];
    return counts;
}

std::int64_t fastestPair(const std::vector<int> &axes, int axis)
{
    for (std::size_t j = 0; j < axes.size(); ++j) {
        if (axes[j] == axis)
            return static_cast<std::int64_t>(j);
    }
    return -1;
}

} // namespace MropeAxes

MropeRotation::MropeRotation(const Engine &engine)
    : MropeRotation(engine.params(), engine.source<MropeLayout>())
{ }

MropeRotation::MropeRotation(const Params &params, const MropeLayout &layout)
    : m_layout(layout)
    , m_pairLayout(params.rope.layout)
{
    Params rotary = RopeFrequencies::underRope(params);
    rotary.maxLen = std::max<std::int64_t>(layout.maxId() + 1, 1);
    const RopeFrequencies::Table table = RopeFrequencies::table(rotary);
    m_inv = table.inv;
    m_attentionFactor = table.attentionFactor;
    m_axes = MropeAxes::axes(params.mrope, std::ssize(m_inv));
}

void MropeRotation::fillTable(bool cosine, const Block &block, BlockRef out) const
{
    const std::int64_t h = pairs();
    std::vector<MropeIds> ids(static_cast<std::size_t>(block.rows));
    m_layout.ids(block.row0, block.rows, ids.data());
    std::vector<double> values(static_cast<std::size_t>(h));
    // The pairs the block's columns need: half's column c holds pair c mod h, interleaved's c / 2.
    const auto pairOf = [&](std::int64_t c) { return m_pairLayout == RopeLayout::Half ? c % h : c / 2; };
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const MropeIds &id = ids[static_cast<std::size_t>(r)];
        const double axis[3] = {static_cast<double>(id.t), static_cast<double>(id.h), static_cast<double>(id.w)};
        for (std::int64_t j = 0; j < h; ++j) {
            const auto i = static_cast<std::size_t>(j);
            const double angle = axis[m_axes[i]] * m_inv[i];
            values[i] = m_attentionFactor * (cosine ? std::cos(angle) : std::sin(angle));
        }
        for (std::int64_t c = 0; c < block.cols; ++c)
            out(r, c) = static_cast<float>(values[static_cast<std::size_t>(pairOf(block.col0 + c))]);
    }
}

} // namespace posenc
