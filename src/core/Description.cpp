#include "Description.h"

#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/alibi/AlibiSlopes.h"
#include "core/deberta/DebertaBuckets.h"
#include "core/rope/RopeFrequencies.h"
#include "core/t5/T5Buckets.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <type_traits>

using namespace Qt::StringLiterals;

namespace posenc::Description {

namespace {

Value describedValue(const std::optional<double> &value)
{
    return value ? Value(*value) : Value();
}

Value describedValue(const std::optional<std::int64_t> &value)
{
    return value ? Value(*value) : Value();
}

Entries alibiEntries(const Params &params)
{
    const AlibiSlopes::Description d = AlibiSlopes::describe(params);
    return {
        {u"heads"_s, d.heads},
        {u"head"_s, d.head},
        {u"mask"_s, ParamText::get(params, u"alibi"_s)},
        {u"slope"_s, d.slope},
        {u"slopes"_s, d.slopes},
        {u"geometric_heads"_s, d.geometricHeads},
        {u"interleaved_heads"_s, d.interleavedHeads},
        {u"half_weight_distance"_s, d.halfWeightDistance},
        {u"farthest_bias"_s, d.farthestBias},
    };
}

Entries t5Entries(const Params &params)
{
    const T5Buckets::Description d = T5Buckets::describe(params);
    return {
        {u"buckets"_s, d.buckets},
        {u"max_distance"_s, d.maxDistance},
        {u"direction"_s, d.bidirectional ? u"bidirectional"_s : u"causal"_s},
        {u"side_buckets"_s, d.sideBuckets},
        {u"max_exact"_s, d.maxExact},
        {u"log_bucket_starts"_s, d.logBucketStarts},
        {u"empty_buckets"_s, d.emptyBuckets},
        {u"last_bucket_start"_s, d.lastBucketStart},
    };
}

Entries debertaEntries(const Params &params)
{
    const DebertaBuckets::Description d = DebertaBuckets::describe(params);
    return {
        {u"buckets"_s, d.buckets},
        {u"max_position"_s, d.maxPosition},
        {u"mid"_s, d.mid},
        {u"log_start"_s, d.logStart},
        {u"bucket_at_max_position"_s, d.bucketAtMaxPosition},
        {u"bucket_at_max_len"_s, d.bucketAtMaxLen},
        {u"capped"_s, d.capped},
    };
}

// RoPE's keys in the order of the table, which --help lists too.
Entries ropeEntries(const Params &params)
{
    const RopeFrequencies::Description d = RopeFrequencies::describe(params);
    return {
        {u"rope_type"_s, ParamText::get(params, u"rope-type"_s)},
        {u"rotary_dim"_s, d.rotaryDim},
        {u"attention_factor"_s, d.attentionFactor},
        {u"softmax_scale_factor"_s, d.softmaxScaleFactor},
        {u"logit_scale"_s, d.logitScale},
        {u"band_low"_s, describedValue(d.bandLow)},
        {u"band_high"_s, describedValue(d.bandHigh)},
        {u"band_low_used"_s, describedValue(d.bandLowUsed)},
        {u"band_high_used"_s, describedValue(d.bandHighUsed)},
        {u"pairs_kept"_s, describedValue(d.pairsKept)},
        {u"pairs_blended"_s, describedValue(d.pairsBlended)},
        {u"pairs_divided"_s, describedValue(d.pairsDivided)},
        {u"wavelength_min"_s, d.wavelengthMin},
        {u"wavelength_max"_s, d.wavelengthMax},
        {u"critical_dimension"_s, d.criticalDimension},
        {u"bf16_position_step"_s, d.bf16PositionStep},
        {u"fp16_position_step"_s, describedValue(d.fp16PositionStep)},
    };
}

// A list's items joined by ',' in text (as the parameters' lists are written), in [] in JSON.
template<typename T> QString listText(const std::vector<T> &items, bool json)
{
    QStringList parts;
    for (const T &item : items) {
        if constexpr (std::is_same_v<T, double>)
            parts.append(json ? jsonNumber(item) : NumberText::exact(item));
        else
            parts.append(QString::number(item));
    }
    return json ? u"["_s + parts.join(u", "_s) + u"]"_s : parts.join(u',');
}

} // namespace

// The keys of the encoding's family, or none for a family without derived numbers.
std::optional<Entries> entries(const Params &params)
{
    switch (params.encoding) {
    case Encoding::Rope:
        return ropeEntries(params);
    case Encoding::Alibi:
        return alibiEntries(params);
    case Encoding::T5:
        return t5Entries(params);
    case Encoding::Deberta:
        return debertaEntries(params);
    case Encoding::Sinusoidal:
    case Encoding::Learned:
    case Encoding::None:
        break;
    }
    return std::nullopt;
}

QStringList keys(Encoding encoding)
{
    Params params;
    params.encoding = encoding;
    QStringList list;
    for (const auto &entry : entries(params).value_or(Entries()))
        list.append(entry.first);
    return list;
}

QString jsonNumber(double value)
{
    return std::isfinite(value) ? NumberText::exact(value) : u"null"_s;
}

QString jsonString(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray {text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

// The value as text: JSON's where `json`, else the same without the quotes of a word.
QString text(const Value &value, bool json)
{
    if (std::holds_alternative<std::monostate>(value))
        return u"null"_s;
    if (const auto *word = std::get_if<QString>(&value))
        return json ? jsonString(*word) : *word;
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return QString::number(*integer);
    if (const auto *truth = std::get_if<bool>(&value))
        return *truth ? u"true"_s : u"false"_s;
    if (const auto *numbers = std::get_if<std::vector<double>>(&value))
        return listText(*numbers, json);
    if (const auto *integers = std::get_if<std::vector<std::int64_t>>(&value))
        return listText(*integers, json);
    const double number = std::get<double>(value);
    return json ? jsonNumber(number) : NumberText::exact(number);
}

} // namespace posenc::Description
