#include "CheckReport.h"

#include "check/CheckDiagnosis.h"
#include "check/FamilyCheck.h"
#include "check/PositionWindows.h"
#include "check/VerdictNames.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::CheckReport {

namespace {

QString quotedJson(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray {text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

// A config's number as it reads back: a whole one written out (1000000, not 1e+06).
QString configNumber(double v)
{
    if (std::abs(v) < 1e15 && v == std::floor(v))
        return QString::number(static_cast<qint64>(v));
    return NumberText::exact(v);
}

// The relative part of a tolerance as the stream uses it: of an exact reference whose values the
// table's format holds (CellTolerance::heldFormat), float32's part at those and the format's
// elsewhere.
QString relativeWords(const CellTolerance &t)
{
    const QString relative = NumberText::compact(t.relative, 3);
    if (t.heldFormat == ValueFormat::Float32)
        return u"%1 of |reference|"_s.arg(relative);
    const QString format = t.heldFormat == ValueFormat::Float16 ? u"float16"_s : u"bfloat16"_s;
    return u"%1 of |reference| where %2 holds the reference, %3 elsewhere"_s.arg(NumberText::compact(t.heldRelative, 3),
                                                                                 format, relative);
}

} // namespace

QString storedWords(StoredType stored)
{
    switch (stored) {
    case StoredType::Float64:
        return u"float64"_s;
    case StoredType::Float32:
        return u"float32"_s;
    case StoredType::Float16:
        return u"float16"_s;
    case StoredType::BFloat16:
        return u"bfloat16"_s;
    case StoredType::Integer:
        return u"integers"_s;
    case StoredType::Text:
        return u"text"_s;
    }
    return {};
}

QStringList tableLines(const TableMatch &m, const TableRows &table)
{
    QStringList lines;
    lines.append(u"table: %1, %2 x %3, %4"_s.arg(table.name())
                     .arg(table.rows())
                     .arg(table.cols())
                     .arg(storedWords(table.storedType())));
    lines.append(u"verdict: "_s + CheckWords::verdictWithNames(m.verdict, m.mistakes));
    if (!m.correctAgainst.isEmpty())
        lines.append(u"equals: "_s + m.correctAgainst);
    if (!m.table.isEmpty())
        lines.append(u"encoding: "_s + m.table);
    if (!m.referenceText.isEmpty())
        lines.append(u"reference: "_s + m.referenceText);
    if (m.precision) {
        QString precision = CheckWords::precision(*m.precision, m.rounding);
        if (*m.precision == TablePrecision::Float32Angles && m.angleEvidence)
            precision += u" (%1)"_s.arg(CheckDiagnosis::angleEvidence(*m.angleEvidence));
        lines.append(u"precision: "_s + precision);
    }
    if (m.firstPositionRow) {
        // The first row that holds a position (rows above it are padding), and what each row holds.
        const std::int64_t offset = m.positionOffset.value_or(0);
        const QString holds = offset == 0 ? u"r"_s : u"r %1 %2"_s.arg(offset < 0 ? u"-"_s : u"+"_s).arg(std::abs(offset));
        lines.append(u"first position row: %1 (row r holds position %2)"_s.arg(*m.firstPositionRow).arg(holds));
    }
    if (m.positions)
        lines.append(u"positions: "_s + PositionWindows::line(*m.positions));
    if (m.maxAbsError)
        lines.append(
            u"max |error|: %1 at row %2, column %3 (tolerance %4 + %5%6)"_s.arg(NumberText::compact(*m.maxAbsError, 3))
                .arg(m.worstRow.value_or(-1))
                .arg(m.worstColumn.value_or(-1))
                .arg(relativeWords(m.tolerance), NumberText::compact(m.tolerance.absolute, 3),
                     m.tolerance.perPosition.empty() ? QString() : u" + the float32 angles' rounding"_s));
    if (!m.deviations.isEmpty())
        lines.append(u"deviating: "_s + m.deviations);
    lines.append(u"diagnosis: "_s + m.diagnosis);
    for (const QString &note : m.notes)
        lines.append(u"note: "_s + note);
    return lines;
}

QString configValueText(const ConfigValue &value, bool json)
{
    if (std::holds_alternative<std::monostate>(value))
        return u"null"_s;
    if (const auto *word = std::get_if<QString>(&value))
        return json ? quotedJson(*word) : *word;
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return QString::number(*integer);
    if (const auto *flag = std::get_if<bool>(&value))
        return *flag ? u"true"_s : u"false"_s;
    if (const auto *list = std::get_if<std::vector<double>>(&value)) {
        QStringList words;
        for (const double v : *list)
            words.append(json && !std::isfinite(v) ? u"null"_s : configNumber(v));
        return json ? u"["_s + words.join(u", "_s) + u"]"_s : words.join(u", "_s);
    }
    const double number = std::get<double>(value);
    return json && !std::isfinite(number) ? u"null"_s : configNumber(number);
}

QString layerRuns(const std::vector<std::int64_t> &layers)
{
    QStringList parts;
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t j = i;
        while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1)
            ++j;
        parts.append(j == i ? QString::number(layers[i]) : u"%1-%2"_s.arg(layers[i]).arg(layers[j]));
        i = j + 1;
    }
    return parts.join(u", "_s);
}

QList<std::pair<QString, QString>> layerSchemeEntries(const ConfigLayer &layer, bool json)
{
    QList<std::pair<QString, QString>> list;
    list.append({u"layer_type"_s, json ? quotedJson(layer.layerType) : layer.layerType});
    QStringList indices;
    for (const std::int64_t l : layer.layers)
        indices.append(QString::number(l));
    list.append({u"layers"_s,
                 json ? u"["_s + indices.join(u", "_s) + u"]"_s
                      : u"%1 (%2)"_s.arg(layerRuns(layer.layers)).arg(layer.layers.size())});
    const QString encoding
        = layer.scheme.encoding.isEmpty() ? ParamText::toString(layer.params.encoding) : layer.scheme.encoding;
    list.append({u"encoding"_s, json ? quotedJson(encoding) : encoding});
    for (const auto &[key, value] : schemeEntries(layer.scheme))
        list.append({key, configValueText(value, json)});
    return list;
}

QList<std::pair<QString, QString>> layerEntries(const ConfigLayer &layer, bool json)
{
    const QList<std::pair<QString, QString>> scheme = layerSchemeEntries(layer, json);
    QList<std::pair<QString, QString>> list = scheme.mid(0, 3); // its type, layers and encoding
    list.append({u"described"_s, layer.described ? u"true"_s : u"false"_s});
    for (const auto &[key, value] : layer.values)
        list.append({key, configValueText(value, json)});
    list.append(scheme.mid(3));
    list.append(layerNumbers(layer, json));
    return list;
}

namespace {

// Which count critical_dimension is, and over which context (RopeFrequencies::describe): Liu et al.
// 2023's at the original context a model names, or, where it names none and scales its pairs, the
// pairs as it runs them within max_len, with Liu's count of its unscaled pairs beside it. Vicuna
// 7B v1.5 16k (linear x4, max_position_embeddings 4096, no original) printed 72 with no word of
// it, where the guide's formula at max_len gives 92.
QString criticalDimensionRule(const Params &params)
{
    const Params rope = params.encoding == Encoding::Rope ? params : RopeFrequencies::underRope(params);
    const RopeParams &r = rope.rope;
    const RopeFrequencies::Description d = RopeFrequencies::describe(rope);
    const QString formula = u"Liu et al. 2023, 2 ceil((r/2) log_theta(L0 / 2 pi))"_s;
    if (r.originalMaxLen)
        return u"%1 at L0 = original_max_position_embeddings %2: the pairs the model was trained on unscaled"_s.arg(
            formula, QString::number(*r.originalMaxLen));
    if (!d.criticalOfScaledPairs)
        return u"%1 at L0 = max_len %2 (no original_max_position_embeddings; the pairs are unscaled)"_s.arg(
            formula, QString::number(rope.maxLen));
    return u"no original_max_position_embeddings, so the pairs as the model runs them, scaled (%1) from position 0: "
           "the first dimension whose pair turns less than once within max_len %2; %3 at L0 = max_len %2, of the "
           "unscaled pairs: %4"_s
               .arg(RopeTypes::word(r.type) + (r.factor ? u", factor "_s + NumberText::exact(*r.factor) : QString()),
                    QString::number(rope.maxLen), formula)
               .arg(d.liuCriticalDimension);
}

// The rule beside critical_dimension, where the entries have one: a model's layer (check --config,
// describe --config or --preset), whose config names its original context or not.
void explainCriticalDimension(QList<std::pair<QString, QString>> &entries, const Params &params, bool json)
{
    const auto at = std::find_if(entries.begin(), entries.end(),
                                 [](const auto &entry) { return entry.first == u"critical_dimension"_s; });
    if (at == entries.end() || !params.isValid())
        return;
    const QString rule = criticalDimensionRule(params);
    const QString text = json
        ? QString::fromUtf8(QJsonDocument(QJsonArray {rule}).toJson(QJsonDocument::Compact)).chopped(1).mid(1)
        : rule;
    entries.insert(std::next(at), {u"critical_dimension_rule"_s, text});
}

} // namespace

QList<std::pair<QString, QString>> layerNumbers(const ConfigLayer &layer, bool json)
{
    QList<std::pair<QString, QString>> list;
    const std::optional<Description::Entries> entries = layerDescription(layer);
    for (const QString &key : Description::keys(layer.params.encoding)) {
        Description::Value value;
        for (const auto &[k, v] : entries.value_or(Description::Entries())) {
            if (k == key)
                value = v;
        }
        list.append({key, Description::text(value, json)});
    }
    explainCriticalDimension(list, layer.params, json);
    return list;
}

QList<std::pair<QString, ConfigValue>> schemeEntries(const LayerScheme &s)
{
    const auto optionalInt = [](const std::optional<std::int64_t> &v) { return v ? ConfigValue(*v) : ConfigValue(); };
    const bool attention = s.headDim > 0;
    const QueryScale &q = s.query;
    QList<std::pair<QString, ConfigValue>> list {
        {u"rotary_place"_s, s.rotaryPlace.isEmpty() ? ConfigValue() : ConfigValue(s.rotaryPlace)},
        {u"attention_head_dim"_s, attention ? ConfigValue(s.headDim) : ConfigValue()},
        {u"sliding_window"_s, optionalInt(s.window)},
        {u"window_each_side"_s, s.window ? ConfigValue(s.windowBothSides) : ConfigValue()},
        {u"chunk_size"_s, optionalInt(s.chunk)},
        {u"query_scale"_s, q.isNone() ? ConfigValue() : ConfigValue(q.words())},
        {u"query_scale_from"_s, q.isNone() ? ConfigValue() : ConfigValue(q.firstRise())},
        {u"query_scale_at_rise"_s, q.isNone() ? ConfigValue() : ConfigValue(q.at(q.firstRise()))},
        {u"softmax_scale"_s, s.softmaxScale ? ConfigValue(*s.softmaxScale) : ConfigValue()},
        {u"softmax_scale_formula"_s, s.softmaxWords.isEmpty() ? ConfigValue() : ConfigValue(s.softmaxWords)},
    };
    if (s.indexerHeadDim > 0) {
        list.append({u"indexer_head_dim"_s, s.indexerHeadDim});
        list.append({u"indexer_rotary_dim"_s, s.indexerRotaryDim});
        list.append({u"indexer_layout"_s, s.indexerLayout});
    }
    return list;
}

std::optional<Description::Entries> layerDescription(const ConfigLayer &layer)
{
    if (!layer.described || !layer.params.isValid())
        return std::nullopt;
    std::optional<Description::Entries> entries = Description::entries(layer.params);
    // The softmax factor is the model's: yarn's get_mscale(f, mscale_all_dim)^2 only where its
    // attention applies it (DeepSeek's MLA), 1 where it keeps head_dim^-0.5 (Ministral 3).
    if (entries && FamilyChecks::of(layer.params.encoding).rotary && layer.scheme.headDim > 0
        && !layer.scheme.softmaxTakesMscale) {
        double attention = 1.0;
        for (auto &[key, value] : *entries) {
            if (key == u"attention_factor"_s)
                attention = std::get<double>(value);
            if (key == u"softmax_scale_factor"_s)
                value = 1.0;
            if (key == u"logit_scale"_s)
                value = attention * attention;
        }
    }
    return entries;
}

WindowParams windowParams(const ConfigLayer &layer)
{
    WindowParams out;
    out.params = layer.params;
    out.modelMaxLen = layer.params.maxLen;
    if (out.params.maxLen > kWindowMaxLen) {
        out.params.maxLen = kWindowMaxLen;
        out.capped = true;
    }
    return out;
}

Params referenceParams(const Params &current, const Params &matched)
{
    Params out = current;
    out.encoding = matched.encoding;
    out.dModel = matched.dModel;
    out.maxLen = matched.maxLen;
    Families::copyGroup(out, matched, matched.encoding);
    if (out.isValid())
        return out;
    Params alone = matched;
    alone.memoryBudget = current.memoryBudget;
    return alone;
}

} // namespace posenc::CheckReport
