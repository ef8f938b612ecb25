#include "RopeLayoutsModel.h"

#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeLayoutScore.h"
#include "core/rope/RopeText.h"
#include "render/data/LogSpacedPoints.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// <q, R(k) k> in both layouts at once, q at position 0: each pair's cosine and sine taken once.
struct BothLayouts
{
    BothLayouts(const Params &params, const RopeFrequencies::Table &table)
        : table(table)
        , half(RopeLayoutScore::rotated(RopeLayoutScore::lessonVector(params, true), 0.0, table, RopeLayout::Half))
        , interleaved(RopeLayoutScore::rotated(RopeLayoutScore::lessonVector(params, true), 0.0, table,
                                               RopeLayout::Interleaved))
        , key(RopeLayoutScore::lessonVector(params, false))
    {
        // The columns past the rotary dim pass in both layouts.
        for (std::size_t j = 2 * table.inv.size(); j < key.size(); ++j)
            passed += half[j] * key[j];
    }

    // {half, interleaved}
    std::pair<double, double> at(double k) const
    {
        const std::size_t h = table.inv.size();
        double sumHalf = passed, sumInterleaved = passed;
        const auto pair = [&](const std::vector<double> &q, std::size_t a, std::size_t b, double c, double s) {
            return q[a] * (key[a] * c - key[b] * s) + q[b] * (key[b] * c + key[a] * s);
        };
        for (std::size_t i = 0; i < h; ++i) {
            const double c = std::cos(k * table.inv[i]) * table.attentionFactor;
            const double s = std::sin(k * table.inv[i]) * table.attentionFactor;
            sumHalf += pair(half, i, i + h, c, s);
            sumInterleaved += pair(interleaved, 2 * i, 2 * i + 1, c, s);
        }
        return {sumHalf, sumInterleaved};
    }

    const RopeFrequencies::Table &table;
    std::vector<double> half, interleaved, key;
    double passed = 0.0;
};

} // namespace

std::optional<RopeLayoutsData> RopeLayoutsModel::compute(const Params &params, const std::atomic<bool> *cancel)
{
    const RopeFrequencies::Table table = RopeFrequencies::table(params);
    RopeLayoutsData data;
    data.layout = params.rope.layout;
    data.last = std::max<std::int64_t>(1, params.maxLen - 1);
    const std::int64_t affordable = std::max<std::int64_t>(
        64, kPairBudget / std::max<std::int64_t>(1, static_cast<std::int64_t>(table.inv.size())));
    data.every = std::min(kEveryDistance, affordable);
    data.sampled = std::min(kSampledDistances, affordable);
    data.headDim = params.rope.headDim;
    data.pairs = static_cast<std::int64_t>(table.inv.size());
    data.model = RopeText::modelText(params);
    data.scaling = RopeText::scalingText(params);
    const RopeLayout other = RopeLayoutScore::other(params.rope.layout);
    data.atZero = RopeLayoutScore::score(params, table, 0.0, 0.0, params.rope.layout);
    data.distance = logSpacedPoints(data.last, data.every, data.sampled);
    const BothLayouts both(params, table);
    data.own.reserve(data.distance.size());
    data.other.reserve(data.distance.size());
    for (qsizetype n = 0; n < data.distance.size(); ++n) {
        if (cancel && (n & 1023) == 0 && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        const auto [half, interleaved] = both.at(data.distance[n]);
        const bool isHalf = params.rope.layout == RopeLayout::Half;
        data.own.append(isHalf ? half : interleaved);
        data.other.append(isHalf ? interleaved : half);
    }
    for (const double k : kMarked)
        if (k <= static_cast<double>(data.last))
            data.marks.append({k, RopeLayoutScore::score(params, table, 0.0, k, params.rope.layout),
                               RopeLayoutScore::score(params, table, 0.0, k, other)});
    return data;
}

QString RopeLayoutsModel::name() const
{
    return u"rope-layouts"_s;
}

QString RopeLayoutsModel::title() const
{
    return u"RoPE layouts: half or interleaved"_s;
}

QString RopeLayoutsModel::summary() const
{
    return u"one query and one key (q_j = sin(j + 1), k_j = cos(2j + 1)) scored <q, R(k)k> over the distance k "
           "(log) with the pairs of the model's layout and with the other's (rotate_half's (i, i + h) or GPT-J's "
           "(2i, 2i + 1)): the same weights read in the wrong layout, k = 10 and 100 marked"_s;
}

QList<Quantity> RopeLayoutsModel::inputs(const FigureState &) const
{
    // The rotation's frequencies, its layout and max_len: what the rope-cos table reads.
    return {Quantity::RopeCos};
}

FigureResult RopeLayoutsModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = compute(request.engine->params(), &cancel);
    if (!data)
        return {};
    return {std::make_shared<const RopeLayoutsData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
