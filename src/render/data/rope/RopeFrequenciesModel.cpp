#include "RopeFrequenciesModel.h"

#include "core/rope/RopeText.h"

#include "core/rope/RopeFrequencies.h"

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<std::pair<std::int64_t, std::int64_t>> RopeFrequenciesData::run(RopeBand band) const
{
    std::optional<std::pair<std::int64_t, std::int64_t>> found;
    for (qsizetype i = 0; i < bands.size(); ++i) {
        if (bands[i] != band)
            continue;
        if (!found)
            found = std::pair {std::int64_t(i), std::int64_t(i)};
        found->second = i;
    }
    return found;
}

RopeFrequenciesData RopeFrequenciesModel::compute(const Params &params)
{
    const RopeParams &rope = params.rope;
    const RopeFrequencies::Table table = RopeFrequencies::table(params);
    const RopeFrequencies::Description description = RopeFrequencies::describe(params);
    RopeFrequenciesData data;
    data.type = rope.type;
    data.pairs = static_cast<std::int64_t>(table.inv.size());
    const double turn = 2.0 * std::numbers::pi;
    for (std::size_t i = 0; i < table.inv.size(); ++i) {
        if (!(table.inv[i] > 0.0))
            continue; // proportional's tail: frequency 0, no wavelength
        data.pair.append(static_cast<double>(i));
        data.wavelength.append(turn / table.inv[i]);
        data.wavelengthBefore.append(turn / table.invBefore[i]);
    }
    if (rope.type == RopeType::Yarn || rope.type == RopeType::Llama3) {
        for (const double band : table.band) {
            if (rope.type == RopeType::Llama3)
                data.bands.append(band == 0.0 ? RopeBand::Kept : band == 1.0 ? RopeBand::Blended : RopeBand::Divided);
            else
                data.bands.append(band <= 0.0 ? RopeBand::Kept : band >= 1.0 ? RopeBand::Divided : RopeBand::Blended);
        }
    }
    if (rope.type == RopeType::Proportional && rope.partialRotaryFactor < 1.0) {
        // Partial rotary with the same F: int(F head_dim) columns, theta^(-2j / r') over them.
        const auto rotary = static_cast<std::int64_t>(static_cast<double>(rope.headDim) * rope.partialRotaryFactor);
        const double factor = rope.factor.value_or(1.0);
        for (std::int64_t j = 0; j < rotary / 2; ++j) {
            const double inv
                = std::pow(rope.theta, -2.0 * static_cast<double>(j) / static_cast<double>(rotary)) / factor;
            data.partialPair.append(static_cast<double>(j));
            data.partialWavelength.append(turn / inv);
        }
    }
    data.rampLow = description.bandLow;
    data.rampHigh = description.bandHigh;
    data.rampLowUsed = description.bandLowUsed;
    data.rampHighUsed = description.bandHighUsed;
    if (rope.type == RopeType::Llama3 && rope.originalMaxLen) {
        data.keptBelow = double(*rope.originalMaxLen) / rope.highFreqFactor;
        data.dividedAbove = double(*rope.originalMaxLen) / rope.lowFreqFactor;
    }
    data.originalGiven = rope.originalMaxLen.has_value();
    data.original = RopeText::originalContext(params);
    data.extended = params.maxLen;
    data.factor = rope.factor;
    data.criticalDimension = description.criticalDimension;
    data.attentionFactor = table.attentionFactor;
    data.logitScale = description.logitScale;
    data.scaling = RopeText::scalingText(params);
    data.model = RopeText::modelText(params);
    return data;
}

QString RopeFrequenciesModel::name() const
{
    return u"rope-frequencies"_s;
}

QString RopeFrequenciesModel::title() const
{
    return u"RoPE wavelengths"_s;
}

QString RopeFrequenciesModel::summary() const
{
    return u"the wavelength of each rotary pair for the rope type against the unscaled one (log), with the "
           "original and extended context, yarn's ramp or llama3's bands shaded and the critical dimension"_s;
}

QList<Quantity> RopeFrequenciesModel::inputs(const FigureState &) const
{
    return {Quantity::RopeFrequencies};
}

std::optional<TableRequest> RopeFrequenciesModel::table(const Params &params, const FigureState &) const
{
    // The whole rope-frequencies table: `posenc table rope-frequencies`.
    const Shape shape = Quantities::shape(Quantity::RopeFrequencies, params);
    return TableRequest {TableRequest::Cells, Quantity::RopeFrequencies, {0, shape.rows, 0, shape.cols}, {}};
}

FigureResult RopeFrequenciesModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const RopeFrequenciesData>(compute(request.engine->params())), std::nullopt};
}

} // namespace posenc
