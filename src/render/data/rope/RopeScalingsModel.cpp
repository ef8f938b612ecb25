#include "RopeScalingsModel.h"

#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"

#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeStretch.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

Params RopeScalingsModel::paramsOf(const Params &params, RopeType type, double factor, std::int64_t original,
                                   std::int64_t extended)
{
    RopeStretch::Stretch stretch;
    stretch.factor = factor;
    stretch.original = original;
    stretch.extended = extended;
    return RopeStretch::under(params, type, stretch);
}

RopeScalingsData RopeScalingsModel::compute(const Params &params)
{
    const RopeParams &rope = params.rope;
    RopeScalingsData data;
    const RopeStretch::Stretch stretch = RopeStretch::of(params);
    data.factorAssumed = stretch.factorAssumed;
    data.originalAssumed = stretch.originalAssumed;
    data.original = stretch.original;
    data.factor = stretch.factor;
    data.extended = stretch.extended;
    data.model = RopeText::modelText(params);
    const std::int64_t pairs = RopeFrequencies::rotaryDim(rope) / 2;
    const bool lists = std::ssize(rope.shortFactor) == pairs && std::ssize(rope.longFactor) == pairs;
    const double turn = 2.0 * std::numbers::pi;
    for (const RopeType type : {RopeType::Default, RopeType::Linear, RopeType::Dynamic, RopeType::Yarn,
                                RopeType::LongRope, RopeType::Llama3, RopeType::Proportional}) {
        if (type == RopeType::LongRope && !lists && rope.type != RopeType::LongRope) {
            data.left.append(u"longrope (no factor lists)"_s);
            continue;
        }
        const Params p = paramsOf(params, type, data.factor, data.original, data.extended);
        if (const QList<ParamError> problems = p.validate(); !problems.isEmpty()) {
            data.left.append(
                u"%1 (%2 %3)"_s.arg(RopeTypes::word(type), problems.front().key, problems.front().sentence()));
            continue;
        }
        const RopeFrequencies::Table table = RopeFrequencies::table(p);
        RopeScalingCurve curve;
        curve.type = type;
        curve.pairs = static_cast<std::int64_t>(table.inv.size());
        curve.attentionFactor = table.attentionFactor;
        curve.chosen = type == rope.type;
        for (std::size_t i = 0; i < table.inv.size(); ++i) {
            if (table.inv[i] > 0.0) {
                curve.pair.append(static_cast<double>(i));
                curve.wavelength.append(turn / table.inv[i]);
            }
        }
        data.curves.append(std::move(curve));
    }
    const auto curveOf = [&data](RopeType type) -> const RopeScalingCurve * {
        for (const RopeScalingCurve &curve : data.curves)
            if (curve.type == type)
                return &curve;
        return nullptr;
    };
    const RopeScalingCurve *linear = curveOf(RopeType::Linear);
    const RopeScalingCurve *proportional = curveOf(RopeType::Proportional);
    if (linear && proportional && linear->pair == proportional->pair) {
        data.proportionalIsLinear = true;
        for (qsizetype i = 0; i < linear->wavelength.size(); ++i)
            data.proportionalIsLinear = data.proportionalIsLinear
                && std::abs(linear->wavelength[i] - proportional->wavelength[i]) <= 1e-12 * linear->wavelength[i];
    }
    return data;
}

QString RopeScalingsModel::name() const
{
    return u"rope-scalings"_s;
}

QString RopeScalingsModel::title() const
{
    return u"RoPE scalings compared"_s;
}

QString RopeScalingsModel::summary() const
{
    return u"the wavelength of each rotary pair under every rope type (linear, dynamic, yarn, longrope with its "
           "factor lists, llama3, proportional) for the same model, against the default"_s;
}

QList<Quantity> RopeScalingsModel::inputs(const FigureState &) const
{
    return {Quantity::RopeFrequencies};
}

FigureResult RopeScalingsModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const RopeScalingsData>(compute(request.engine->params())), std::nullopt};
}

} // namespace posenc
