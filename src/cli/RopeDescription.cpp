#include "RopeDescription.h"

#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/rope/RopeFrequencies.h"

#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::RopeDescription {

namespace {

Value valueOf(const std::optional<double> &value)
{
    return value ? Value(*value) : Value();
}

Value valueOf(const std::optional<std::int64_t> &value)
{
    return value ? Value(*value) : Value();
}

} // namespace

QStringList keys()
{
    QStringList list;
    for (const auto &entry : entries(Params {}))
        list.append(entry.first);
    return list;
}

QList<std::pair<QString, Value>> entries(const Params &params)
{
    const RopeFrequencies::Description d = RopeFrequencies::describe(params);
    return {
        {u"rope_type"_s, ParamText::get(params, u"rope-type"_s)},
        {u"rotary_dim"_s, d.rotaryDim},
        {u"attention_factor"_s, d.attentionFactor},
        {u"softmax_scale_factor"_s, d.softmaxScaleFactor},
        {u"logit_scale"_s, d.logitScale},
        {u"band_low"_s, valueOf(d.bandLow)},
        {u"band_high"_s, valueOf(d.bandHigh)},
        {u"band_low_used"_s, valueOf(d.bandLowUsed)},
        {u"band_high_used"_s, valueOf(d.bandHighUsed)},
        {u"pairs_kept"_s, valueOf(d.pairsKept)},
        {u"pairs_blended"_s, valueOf(d.pairsBlended)},
        {u"pairs_divided"_s, valueOf(d.pairsDivided)},
        {u"wavelength_min"_s, d.wavelengthMin},
        {u"wavelength_max"_s, d.wavelengthMax},
        {u"critical_dimension"_s, d.criticalDimension},
        {u"bf16_position_step"_s, d.bf16PositionStep},
        {u"fp16_position_step"_s, valueOf(d.fp16PositionStep)},
    };
}

QString text(const Value &value, bool json)
{
    if (std::holds_alternative<std::monostate>(value))
        return u"null"_s;
    if (const auto *word = std::get_if<QString>(&value))
        return json ? u"\"%1\""_s.arg(*word) : *word;
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return QString::number(*integer);
    return NumberText::exact(std::get<double>(value));
}

} // namespace posenc::RopeDescription
