#include "RopeScalingsModel.h"

#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"

#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

Params RopeScalingsModel::paramsOf(const Params &params, RopeType type, double factor, std::int64_t original,
                                   std::int64_t extended)
{
    Params p = params;
    p.maxLen = extended;
    p.rope.type = type;
    if (type == params.rope.type)
        return p; // the model's own type as it is
    p.rope.factor = factor;
    p.rope.originalMaxLen = original;
    // yarn's mscale pair and explicit factors are the model's own where given; an explicit
    // attention factor belongs to its own type.
    if (type != RopeType::Yarn && type != RopeType::LongRope)
        p.rope.attentionFactor.reset();
    return p;
}

RopeScalingsData RopeScalingsModel::compute(const Params &params)
{
    const RopeParams &rope = params.rope;
    RopeScalingsData data;
    data.factorAssumed = !rope.factor;
    data.originalAssumed = !rope.originalMaxLen;
    data.original = RopeText::originalContext(params);
    // Without a factor: how far max_len stretches a given original context, else kAssumedFactor.
    const bool stretched = !data.originalAssumed && params.maxLen > data.original;
    data.factor = rope.factor.value_or(stretched ? double(params.maxLen) / double(data.original) : kAssumedFactor);
    // Stretched to max_len past a given original context; else to factor times the context.
    data.extended = !data.originalAssumed && params.maxLen > data.original
        ? params.maxLen
        : std::min<std::int64_t>(Params::kMaxLen,
                                 static_cast<std::int64_t>(std::llround(data.factor * double(data.original))));
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
