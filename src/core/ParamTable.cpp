#include "ParamTable.h"

#include "ClosedForms.h"
#include "NumberText.h"

#include "ParamUse.h"

#include "alibi/AlibiParamRows.h"
#include "deberta/DebertaParamRows.h"
#include "learned/LearnedParamRows.h"
#include "rope/RopeParamRows.h"
#include "sinusoidal/SinusoidalParamRows.h"
#include "t5/T5ParamRows.h"

#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::optional<std::int64_t> parseInt(const QString &text)
{
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(v) : std::nullopt;
}

// Any double, NaN and infinities included: the row's check reports those with the range.
std::optional<double> parseDouble(const QString &text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

QString indexList(const std::vector<std::int64_t> &values)
{
    if (values.empty())
        return u"none"_s;
    QStringList parts;
    for (const std::int64_t v : values)
        parts.append(QString::number(v));
    return parts.join(u',');
}

// Each number as the shortest text that reads back as the same double.
QString numberListText(const std::vector<double> &values)
{
    if (values.empty())
        return u"none"_s;
    QStringList parts;
    for (const double v : values)
        parts.append(NumberText::exact(v));
    return parts.join(u',');
}

QString tr(const char *text)
{
    return QCoreApplication::translate("ParamTable", text);
}

} // namespace

// --- ParamSpec --------------------------------------------------------------------------------

QString ParamSpec::text(const ParamValue &v) const
{
    return std::visit(
        [this](const auto &x) -> QString {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return kind == ParamKind::Matrix ? QString() : unsetText;
            else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>)
                return QString::number(x);
            else if constexpr (std::is_same_v<T, double>)
                return QString::number(x, 'g', 17);
            else if constexpr (std::is_same_v<T, bool>)
                return x ? u"true"_s : u"false"_s;
            else if constexpr (std::is_same_v<T, QString>)
                return x;
            else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
                return indexList(x);
            else if constexpr (std::is_same_v<T, std::vector<double>>)
                return numberListText(x);
            else
                return x.source;
        },
        v);
}

QString ParamSpec::text(const Params &params) const
{
    return text(value(params));
}

QString ParamSpec::helpLine() const
{
    if (!helpShowsDefault)
        return help;
    const ParamValue fallback = value(Params {});
    const auto *d = std::get_if<double>(&fallback);
    return u"%1 (default %2)"_s.arg(help, d ? NumberText::exact(*d) : text(fallback));
}

QString ParamSpec::flag() const
{
    if (kind == ParamKind::Switch)
        return u"--"_s + key;
    return u"--%1 %2"_s.arg(isFlag ? key : parentKey, valueName);
}

// --- Row builders ------------------------------------------------------------------------------

namespace ParamRows {

QString integerRange(std::int64_t lo, std::int64_t hi, const QString &note)
{
    return u"an integer in [%1, %2]%3"_s.arg(lo).arg(hi).arg(note);
}

ParamSpec integer(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                  std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds, QString note)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Integer;
    s.valueName = u"N"_s;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *i = std::get_if<std::int64_t>(&v))
            field(p) = *i;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (const auto v = parseInt(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.bounds = bounds;
    s.allowed = [bounds, note](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return integerRange(lo, hi, note);
    };
    s.check = [field, bounds, note, key = s.key](const Params &p) -> std::optional<ParamError> {
        const auto [lo, hi] = bounds(p);
        const std::int64_t v = field(const_cast<Params &>(p));
        if (v >= lo && v <= hi)
            return std::nullopt;
        return ParamError {key, integerRange(lo, hi, note), QString(), QString::number(v)};
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec choiceOf(QString key, ParamGroup group, std::function<int(const Params &)> get,
                   std::function<void(Params &, int)> set, QStringList words)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Choice;
    s.valueName = words.join(u'|');
    s.choices = words;
    s.value = [get, words](const Params &p) { return ParamValue(words.value(get(p))); };
    s.assign = [set, words](Params &p, const ParamValue &v) {
        if (const auto *w = std::get_if<QString>(&v); w && words.contains(*w))
            set(p, static_cast<int>(words.indexOf(*w)));
    };
    s.parse = [words](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (words.contains(w))
            return ParamValue(w);
        return std::nullopt;
    };
    s.allowed = [words](const Params &) { return u"one of %1"_s.arg(words.join(u", "_s)); };
    s.check = [](const Params &) { return std::nullopt; };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec optionalNumber(QString key, ParamGroup group, std::function<std::optional<double> &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::OptionalNumber;
    s.valueName = u"F|unset"_s;
    s.unsetText = u"unset"_s;
    s.value = [field](const Params &p) {
        const auto &v = field(const_cast<Params &>(p));
        return v ? ParamValue(*v) : ParamValue(std::monostate {});
    };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (std::holds_alternative<std::monostate>(v))
            field(p).reset();
        else if (const auto *d = std::get_if<double>(&v))
            field(p) = *d;
    };
    // Any double, NaN and infinities included: the row's check reports those with the range.
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (w.isEmpty() || w == u"unset"_s)
            return ParamValue(std::monostate {});
        if (const auto v = parseDouble(w))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec numberList(QString key, ParamGroup group, std::function<std::vector<double> &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::NumberList;
    s.valueName = u"LIST|none"_s;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<double>>(&v))
            field(p) = *list;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (auto v = parseNumberList(t, RopeParams::kMaxHeadDim / 2))
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

std::optional<std::vector<double>> parseNumberList(const QString &text, std::int64_t maxCount)
{
    std::vector<double> values;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed == u"none"_s)
        return values;
    const QStringList items = trimmed.split(u',');
    if (items.size() > maxCount)
        return std::nullopt;
    for (const QString &item : items) {
        const auto v = ParamTable::parseFinite(item);
        if (!v || !(*v > 0.0))
            return std::nullopt;
        values.push_back(*v);
    }
    return values;
}

std::optional<IdleReason> otherEncoding(const Params &params, Encoding family)
{
    if (params.encoding == family)
        return std::nullopt;
    const ParamSpec *encoding = ParamTable::find(u"encoding"_s);
    return IdleReason {IdleReason::Code::OtherEncoding,
                       tr("only encoding %1 reads it; the encoding is %2.")
                           .arg(encoding->choices.value(static_cast<int>(family)), encoding->text(params))};
}

} // namespace ParamRows

// --- The common rows -----------------------------------------------------------------------------

namespace {

using ParamRows::integer;
using Code = IdleReason::Code;

std::optional<IdleReason> idleAs(Code code, const QString &why)
{
    return IdleReason {code, why};
}

using ParamUse::drawsEmbeddings;
using ParamUse::drawsMask;

std::optional<IdleReason> noEmbeddingColumns(const Params &params)
{
    if (params.embeddingColumns() == 0)
        return idleAs(Code::NoEmbeddingColumns, tr("concat with pe_dims = d_model leaves no column for s·E."));
    return std::nullopt;
}

std::optional<IdleReason> embeddingsFromFile(const Params &params)
{
    if (params.embeddings)
        return idleAs(
            Code::EmbeddingsFromFile,
            tr("the embeddings are the rows of %1, not random; File > Use random embeddings brings "
               "N(0, σ²) back.")
                .arg(params.embeddings->source.isEmpty() ? tr("the loaded matrix") : params.embeddings->source));
    return noEmbeddingColumns(params);
}

std::optional<IdleReason> noPositionTerm(const Params &params)
{
    if (params.encoding == Encoding::None)
        return idleAs(Code::NoPositionTerm, tr("encoding none adds no position term to compose with s·E."));
    if (params.encoding == Encoding::Rope)
        return idleAs(Code::NoPositionTerm,
                      tr("encoding rope adds no position term to compose with s·E: it rotates queries and keys."));
    if (!params.hasPositionTerm())
        return idleAs(Code::NoPositionTerm,
                      tr("encoding %1 adds no position term to compose with s·E: it acts on the attention scores.")
                          .arg(ParamTable::find(u"encoding"_s)->text(params)));
    return std::nullopt;
}

QString modeName(const Params &params)
{
    return ParamTable::find(u"dropout-mode"_s)->text(params);
}

std::optional<IdleReason> specialIdle(const Params &params)
{
    if (params.dropoutMode != DropoutMode::ProtectSpecial)
        return idleAs(Code::NotProtectSpecial,
                      tr("only dropout mode protect-special reads it; the mode is %1.").arg(modeName(params)));
    if (!params.training)
        return idleAs(Code::EvaluationMode, tr("evaluation mode (eval) drops nothing."));
    if (params.dropout == 0.0)
        return idleAs(Code::NothingDropped, tr("dropout 0 drops nothing, so no row needs protecting."));
    return std::nullopt;
}

// masked-fill zeroes the rows from seq_len on, in training and evaluation alike; protect-special
// counts its negative positions back from seq_len.
std::optional<IdleReason> seqLenIdle(const Params &params)
{
    if (params.dropoutMode == DropoutMode::MaskedFill)
        return std::nullopt;
    if (params.dropoutMode != DropoutMode::ProtectSpecial)
        return idleAs(Code::NoRowsToResolve,
                      tr("only dropout mode masked-fill (its padding rows) and protect-special (its positions counted "
                         "from the end) read it; the mode is %1.")
                          .arg(modeName(params)));
    if (const auto idle = specialIdle(params))
        return idle;
    const bool fromEnd
        = std::any_of(params.special.begin(), params.special.end(), [](std::int64_t s) { return s < 0; });
    if (fromEnd)
        return std::nullopt;
    return idleAs(Code::NoRowsToResolve,
                  tr("protect-special reads it only for a special position counted from the end (a negative one); "
                     "special is %1.")
                      .arg(ParamTable::find(u"special"_s)->text(params)));
}

// The embedding's expected squared norm against the position term's: what s and sigma balance.
QString balance(const Params &params)
{
    const double s = params.scale();
    const QString pe
        = tr("‖PE<sub>p</sub>‖² ≈ %1").arg(NumberText::compact(ClosedForms::peNormSquared(params.peColumns()), 5));
    if (params.embeddings)
        return pe;
    const double e = ClosedForms::embeddingNormSquared(s, params.sigma(), params.embeddingColumns());
    return tr("E‖s·E<sub>p</sub>‖² = s²σ²·%1 = %2 against %3")
        .arg(params.embeddingColumns())
        .arg(NumberText::compact(e, 5))
        .arg(pe);
}

QString seedDraws(const Params &params)
{
    const bool e = drawsEmbeddings(params);
    const bool m = drawsMask(params);
    if (e && m)
        return tr("the embeddings E and the mask M");
    if (e)
        return tr("only the embeddings E: no mask is drawn");
    if (m)
        return tr("only the mask M: E comes from the loaded matrix");
    return tr("nothing");
}

// Why no mask is drawn: evaluation mode, or a p that keeps or drops every cell.
QString noMaskReason(const Params &params)
{
    if (!params.training)
        return tr("evaluation mode draws no mask");
    return params.dropout >= 1.0 ? tr("dropout 1 drops every cell whatever the draw")
                                 : tr("dropout 0 keeps every cell");
}

// A number field that takes any finite number in the row's range; NaN and infinities parse, so
// that the check refuses them with the range.
ParamSpec numberRow(QString key, ParamGroup group, std::function<double &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Number;
    s.valueName = u"NUMBER"_s;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *d = std::get_if<double>(&v))
            field(p) = *d;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (const auto v = parseDouble(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec optionalInteger(QString key, ParamGroup group, std::function<std::optional<std::int64_t> &(Params &)> field,
                          std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds, QString note)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::OptionalInteger;
    s.valueName = u"N|auto"_s;
    s.value = [field](const Params &p) {
        const auto &v = field(const_cast<Params &>(p));
        return v ? ParamValue(*v) : ParamValue(std::monostate {});
    };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (std::holds_alternative<std::monostate>(v))
            field(p).reset();
        else if (const auto *i = std::get_if<std::int64_t>(&v))
            field(p) = *i;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (t.trimmed() == u"auto"_s)
            return ParamValue(std::monostate {});
        if (const auto v = parseInt(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.bounds = bounds;
    s.allowed = [bounds, note](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return u"auto or "_s + ParamRows::integerRange(lo, hi, note);
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec matrixRow(QString key, ParamGroup group, QString valueName, QString help)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Matrix;
    s.valueName = std::move(valueName);
    s.help = std::move(help);
    s.helpShowsDefault = false;
    s.assign = [](Params &, const ParamValue &) {};
    s.parse = [](const QString &t) -> std::optional<ParamValue> { return ParamValue(MatrixValue {nullptr, t}); };
    s.allowed = [](const Params &) { return u"a readable .npy or .safetensors file"_s; };
    s.check = [](const Params &) { return std::nullopt; };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

} // namespace

namespace ParamTable {

QList<ParamSpec> modelRows()
{
    QList<ParamSpec> rows;

    ParamSpec dModel = integer(
        u"d-model"_s, ParamGroup::Model, [](Params &p) -> std::int64_t & { return p.dModel; },
        [](const Params &) { return std::pair<std::int64_t, std::int64_t>(1, Params::kMaxDModel); });
    dModel.help = u"model width d: columns of every table"_s;
    dModel.label = u"d_model"_s;
    dModel.controlMin = 0;
    dModel.controlMax = Params::kMaxDModel;
    dModel.slider = SliderScale::Linear;
    dModel.sliderMax = 4096;
    dModel.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (p.embeddings)
            return idleAs(
                Code::SetByMatrix,
                tr("d_model comes from the loaded matrix (%1 columns); File > Use random embeddings frees it.")
                    .arg(p.embeddings->values.cols()));
        if (p.encoding == Encoding::Learned && p.learned.table)
            return idleAs(
                Code::SetByMatrix,
                tr("d_model comes from the position table (%1 columns).").arg(p.learned.table->values.cols()));
        return std::nullopt;
    };
    dModel.formula = [](const Params &) {
        return tr("d, the model width: columns j = 0 … d−1 of every table. Pair i of the PE turns at "
                  "w<sub>i</sub> = b<sup>−2i/d</sup>, i = 0 … ⌈d/2⌉−1, and ‖PE<sub>p</sub>‖² = d/2.");
    };
    rows.append(dModel);

    ParamSpec maxLen = integer(
        u"max-len"_s, ParamGroup::Model, [](Params &p) -> std::int64_t & { return p.maxLen; },
        [](const Params &) { return std::pair<std::int64_t, std::int64_t>(1, Params::kMaxLen); });
    maxLen.help = u"positions L: rows 0..L-1 of every table"_s;
    maxLen.label = u"max_len"_s;
    maxLen.controlMin = 0;
    maxLen.controlMax = Params::kMaxLen;
    maxLen.slider = SliderScale::Log2;
    maxLen.sliderMax = 240;
    maxLen.formula = [](const Params &) { return tr("L, the positions p = 0 … L−1: the rows of every table."); };
    rows.append(maxLen);

    ParamSpec encoding
        = ParamRows::choice(u"encoding"_s, ParamGroup::Model, &Params::encoding,
                            {u"sinusoidal"_s, u"learned"_s, u"none"_s, u"rope"_s, u"alibi"_s, u"t5"_s, u"deberta"_s});
    encoding.help = u"the position term: the sinusoidal table, a learned table read from a file, none (NoPE); or no\n"
                    "      term but queries and keys rotated by position (rope), or a bias on the attention scores:\n"
                    "      alibi (linear in the distance), t5 (buckets of key - query), deberta (log buckets)"_s;
    encoding.label = u"encoding"_s;
    encoding.formula = [](const Params &) {
        return tr("The position term added to the token embeddings:<br>sinusoidal: PE = sin, cos(p·w<sub>i</sub>) "
                  "(Vaswani et al. 2017)<br>learned: row p + offset of a trained table read from a file (GPT-2, "
                  "BERT, RoBERTa)<br>none: no position term, X = s·E (NoPE)<br>rope: no term added, X = s·E; each "
                  "head's query "
                  "and key are rotated by position, pair i by p·θ<sub>i</sub> (Su et al. 2021; Llama, Qwen, "
                  "Mistral)<br>alibi: no term added; head k adds −m<sub>k</sub>·(i − j) to query i's score of key "
                  "j (Press et al. 2022; BLOOM, MPT, Falcon-RW, Baichuan-13B, Jina-BERT-v2)<br>t5: no term added; "
                  "each head adds a learned scalar per bucket of j − i, exact near and logarithmic far (Raffel et "
                  "al. 2020; T5, Flan-T5, mT5, Chronos)<br>deberta: no term added; log buckets of i − j index the "
                  "relative embeddings of its disentangled attention (He et al. 2021; DeBERTa-v2, DeBERTa-v3)");
    };
    rows.append(encoding);
    return rows;
}

namespace {

// The most a custom s or sigma may be: s·E stays far inside float32 even divided by 1 - p for any
// p < 1 a double holds (1e308 made every cell infinite).
constexpr double kMaxEmbeddingFactor = 1e6;

// "[0, 1000000]": a custom scale's or sigma's range.
QString embeddingFactorRange()
{
    return u"[0, %1]"_s.arg(QString::number(kMaxEmbeddingFactor, 'f', 0));
}

} // namespace

QList<ParamSpec> embeddingRows()
{
    QList<ParamSpec> rows;

    ParamSpec scale;
    scale.key = u"scale"_s;
    scale.group = ParamGroup::Embeddings;
    scale.kind = ParamKind::ChoiceOrNumber;
    scale.valueName = u"sqrt|NUMBER"_s;
    scale.help = u"embedding scale s in X = s*E + PE: sqrt(d_model), 1 or any number"_s;
    scale.label = u"scale"_s;
    scale.choices = {u"1"_s, u"sqrt"_s};
    scale.choiceLabels = {u"1"_s, u"sqrt(d)"_s};
    scale.customLabel = u"custom"_s;
    scale.assignCustom = [](Params &p, double v) {
        p.scaleKind = ScaleKind::Custom;
        p.customScale = v;
    };
    scale.value = [](const Params &p) {
        switch (p.scaleKind) {
        case ScaleKind::One:
            return ParamValue(u"1"_s);
        case ScaleKind::Sqrt:
            return ParamValue(u"sqrt"_s);
        case ScaleKind::Custom:
            break;
        }
        return ParamValue(p.customScale);
    };
    scale.assign = [](Params &p, const ParamValue &v) {
        if (const auto *w = std::get_if<QString>(&v)) {
            if (*w == u"sqrt"_s)
                p.scaleKind = ScaleKind::Sqrt;
            else if (*w == u"1"_s) {
                p.scaleKind = ScaleKind::One;
                p.customScale = 1.0;
            }
        } else if (const auto *d = std::get_if<double>(&v)) {
            p.scaleKind = *d == 1.0 ? ScaleKind::One : ScaleKind::Custom;
            p.customScale = *d;
        }
    };
    scale.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (t.trimmed() == u"sqrt"_s)
            return ParamValue(u"sqrt"_s);
        if (const auto v = parseDouble(t))
            return *v == 1.0 ? ParamValue(u"1"_s) : ParamValue(*v);
        return std::nullopt;
    };
    scale.allowed = [](const Params &) { return u"sqrt, 1 or a number in "_s + embeddingFactorRange(); };
    scale.check = [](const Params &p) -> std::optional<ParamError> {
        if (p.scaleKind == ScaleKind::Custom && !(p.customScale >= 0.0 && p.customScale <= kMaxEmbeddingFactor))
            return ParamError {u"scale"_s, u"1, sqrt or a number in "_s + embeddingFactorRange(), QString(),
                               NumberText::exact(p.customScale)};
        return std::nullopt;
    };
    scale.idle = noEmbeddingColumns;
    scale.formula = [](const Params &p) {
        return tr("s in X = s·E + PE: 1, √d (the paper, section 3.4) or a custom number; now s = %1. It sets the "
                  "balance: %2.")
            .arg(NumberText::compact(p.scale(), 5), balance(p));
    };
    rows.append(scale);

    ParamSpec customScale
        = numberRow(u"custom-scale"_s, ParamGroup::Embeddings, [](Params &p) -> double & { return p.customScale; });
    customScale.isFlag = false;
    customScale.label = u"scale (custom)"_s;
    customScale.objectName = u"scale"_s;
    customScale.valueName = u"NUMBER"_s;
    customScale.parentKey = u"scale"_s;
    customScale.allowed = [](const Params &) { return u"a number in "_s + embeddingFactorRange(); };
    customScale.check = [](const Params &) { return std::nullopt; }; // scale's own check covers it
    customScale.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (p.scaleKind != ScaleKind::Custom)
            return idleAs(
                Code::NotCustomScale,
                tr("only a custom scale reads it; the scale is %1.").arg(ParamTable::find(u"scale"_s)->text(p)));
        return noEmbeddingColumns(p);
    };
    customScale.formula
        = [](const Params &) { return tr("A custom s in X = s·E + PE: a number in %1.").arg(embeddingFactorRange()); };
    rows.append(customScale);

    ParamSpec init;
    init.key = u"init"_s;
    init.group = ParamGroup::Embeddings;
    init.kind = ParamKind::ChoiceOrNumber;
    init.valueName = u"normal|scaled-normal|keras-uniform|SIGMA"_s;
    init.help = u"random embeddings N(0, sigma^2): sigma 1, d^-1/2 or SIGMA; or Keras' U(-0.05, 0.05)"_s;
    init.label = u"init"_s;
    init.choices = {u"normal"_s, u"scaled-normal"_s, u"keras-uniform"_s};
    init.choiceLabels = {u"normal (σ 1)"_s, u"scaled-normal (σ d^-1/2)"_s, u"keras-uniform (U ±0.05)"_s};
    init.customLabel = u"custom σ"_s;
    init.assignCustom = [](Params &p, double v) {
        p.init = InitKind::Custom;
        p.customSigma = v;
    };
    init.value = [](const Params &p) {
        switch (p.init) {
        case InitKind::Normal:
            return ParamValue(u"normal"_s);
        case InitKind::ScaledNormal:
            return ParamValue(u"scaled-normal"_s);
        case InitKind::KerasUniform:
            return ParamValue(u"keras-uniform"_s);
        case InitKind::Custom:
            break;
        }
        return ParamValue(p.customSigma);
    };
    init.assign = [](Params &p, const ParamValue &v) {
        if (const auto *w = std::get_if<QString>(&v)) {
            if (*w == u"normal"_s)
                p.init = InitKind::Normal;
            else if (*w == u"scaled-normal"_s)
                p.init = InitKind::ScaledNormal;
            else if (*w == u"keras-uniform"_s)
                p.init = InitKind::KerasUniform;
        } else if (const auto *d = std::get_if<double>(&v)) {
            p.init = InitKind::Custom;
            p.customSigma = *d;
        }
    };
    init.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (w == u"normal"_s || w == u"scaled-normal"_s || w == u"keras-uniform"_s)
            return ParamValue(w);
        if (const auto v = parseDouble(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    init.allowed = [](const Params &) {
        return u"normal, scaled-normal, keras-uniform or a sigma in "_s + embeddingFactorRange();
    };
    init.check = [](const Params &p) -> std::optional<ParamError> {
        if (p.init == InitKind::Custom && !(p.customSigma >= 0.0 && p.customSigma <= kMaxEmbeddingFactor))
            return ParamError {u"init"_s,
                               u"normal, scaled-normal, keras-uniform or a sigma in "_s + embeddingFactorRange(),
                               QString(), NumberText::exact(p.customSigma)};
        return std::nullopt;
    };
    init.idle = embeddingsFromFile;
    init.formula = [](const Params &p) {
        return tr("σ in E ~ N(0, σ²): 1 (nn.Embedding's default), d<sup>−1/2</sup> (fairseq) or a custom σ; "
                  "or E ~ U(−0.05, 0.05), Keras' Embedding default (σ = 0.05/√3); now σ = %1.")
            .arg(NumberText::compact(p.sigma(), 5));
    };
    rows.append(init);

    ParamSpec customSigma
        = numberRow(u"custom-sigma"_s, ParamGroup::Embeddings, [](Params &p) -> double & { return p.customSigma; });
    customSigma.isFlag = false;
    customSigma.label = u"init (custom σ)"_s;
    customSigma.objectName = u"sigma"_s;
    customSigma.valueName = u"SIGMA"_s;
    customSigma.parentKey = u"init"_s;
    customSigma.allowed = [](const Params &) { return u"a number in "_s + embeddingFactorRange(); };
    customSigma.check = [](const Params &) { return std::nullopt; }; // init's own check covers it
    customSigma.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = embeddingsFromFile(p))
            return idle;
        if (p.init != InitKind::Custom)
            return idleAs(Code::NotCustomInit,
                          tr("only a custom init reads it; the init is %1.").arg(ParamTable::find(u"init"_s)->text(p)));
        return std::nullopt;
    };
    customSigma.formula
        = [](const Params &) { return tr("A custom σ in E ~ N(0, σ²): a number in %1.").arg(embeddingFactorRange()); };
    rows.append(customSigma);

    ParamSpec compose
        = ParamRows::choice(u"compose"_s, ParamGroup::Embeddings, &Params::compose, {u"sum"_s, u"concat"_s});
    compose.help = u"X = s*E + PE, or [s*E | PE] with the PE in the last pe-dims columns"_s;
    compose.label = u"compose"_s;
    compose.helpShowsDefault = false;
    compose.idle = noPositionTerm;
    compose.formula = [](const Params &) {
        return tr("sum: X = s·E + PE, both in every column.<br>concat: X = [s·E | PE], s·E in the first d − k "
                  "columns and the PE of a k-column table in the last k.");
    };
    rows.append(compose);

    ParamSpec peDims = optionalInteger(
        u"pe-dims"_s, ParamGroup::Embeddings, [](Params &p) -> std::optional<std::int64_t> & { return p.peDims; },
        [](const Params &p) { return std::pair<std::int64_t, std::int64_t>(0, p.dModel); }, u" (d_model)"_s);
    peDims.help = u"PE columns of concat (auto: d_model/2)"_s;
    peDims.label = u"pe_dims"_s;
    peDims.controlMin = -1;
    peDims.controlMax = Params::kMaxDModel;
    peDims.allowed = [](const Params &) { return u"auto or an integer in [0, d_model]"_s; };
    peDims.check = [](const Params &p) -> std::optional<ParamError> {
        const bool dOk = p.dModel >= 1 && p.dModel <= Params::kMaxDModel;
        if (p.compose == Compose::Concat && p.peDims && dOk && (*p.peDims < 0 || *p.peDims > p.dModel))
            return ParamError {u"pe-dims"_s, u"an integer in [0, %1] (d_model)"_s.arg(p.dModel), QString(),
                               QString::number(*p.peDims)};
        return std::nullopt;
    };
    peDims.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = noPositionTerm(p))
            return idle;
        if (p.compose != Compose::Concat)
            return idleAs(Code::NotConcat, tr("only compose concat has PE columns of its own; compose is sum."));
        return std::nullopt;
    };
    peDims.formula = [](const Params &p) {
        QString text = tr("k in X = [s·E | PE]: the PE's columns, the last k of X; auto: k = ⌊d/2⌋.");
        if (p.compose == Compose::Concat)
            text += tr(" Now X's columns %1 … %2 hold the PE.").arg(p.dModel - p.peColumns()).arg(p.dModel - 1);
        return text;
    };
    rows.append(peDims);

    ParamSpec embeddings
        = matrixRow(u"embeddings"_s, ParamGroup::Embeddings, u"FILE[:TENSOR]"_s,
                    u"token embeddings from a matrix: .npy (f2/f4/f8/integers, any byte order, C or Fortran order)\n"
                    "      or .safetensors (F16/BF16/F32/F64, TENSOR names one); d_model comes from its columns and\n"
                    "      row p is the embedding at position p (the first max_len rows)"_s);
    embeddings.label = u"embeddings"_s;
    embeddings.controlText = u"Load…"_s;
    embeddings.value = [](const Params &p) {
        return p.embeddings ? ParamValue(MatrixValue {p.embeddings, p.embeddings->source})
                            : ParamValue(std::monostate {});
    };
    embeddings.check = [](const Params &p) -> std::optional<ParamError> {
        const bool dOk = p.dModel >= 1 && p.dModel <= Params::kMaxDModel;
        const bool lOk = p.maxLen >= 1 && p.maxLen <= Params::kMaxLen;
        if (!p.embeddings || !dOk || !lOk)
            return std::nullopt;
        const std::int64_t wantCols = p.embeddingColumns();
        const auto &m = p.embeddings->values;
        if (m.cols() != wantCols)
            return ParamError {
                u"embeddings"_s, QString(),
                u"the matrix has %1 columns; the model needs %2 (d_model%3)"_s.arg(m.cols()).arg(wantCols).arg(
                    p.concatenates() ? u" - pe_dims"_s : QString()),
                std::nullopt};
        if (m.rows() < p.maxLen)
            return ParamError {u"embeddings"_s, QString(),
                               u"the matrix has %1 rows; max_len needs at least %2"_s.arg(m.rows()).arg(p.maxLen),
                               std::nullopt};
        return std::nullopt;
    };
    embeddings.formula = [](const Params &) { return tr("E, the rows of a real model's embedding matrix."); };
    rows.append(embeddings);

    ParamSpec tokens
        = matrixRow(u"tokens"_s, ParamGroup::Embeddings, u"LIST"_s,
                    u"with --embeddings: the rows to use instead, in order, e.g. 0,464,5:9 (max_len: their "
                    "count)"_s);
    tokens.label = u"tokens"_s;
    tokens.value = [](const Params &p) {
        return p.embeddings && !p.embeddings->tokens.isEmpty()
            ? ParamValue(MatrixValue {p.embeddings, p.embeddings->tokens})
            : ParamValue(std::monostate {});
    };
    tokens.formula = [](const Params &) { return tr("The rows of the loaded matrix, in order."); };
    rows.append(tokens);
    return rows;
}

QList<ParamSpec> dropoutRows()
{
    QList<ParamSpec> rows;

    ParamSpec dropout = numberRow(u"dropout"_s, ParamGroup::Dropout, [](Params &p) -> double & { return p.dropout; });
    dropout.kind = ParamKind::Probability;
    dropout.valueName = u"P"_s;
    dropout.help = u"dropout probability p in [0, 1]"_s;
    dropout.label = u"dropout"_s;
    dropout.slider = SliderScale::Linear;
    dropout.sliderMax = 1000;
    dropout.allowed = [](const Params &) { return u"a probability in [0, 1]"_s; };
    dropout.check = [](const Params &p) -> std::optional<ParamError> {
        if (!(p.dropout >= 0.0 && p.dropout <= 1.0)) // also refuses NaN
            return ParamError {u"dropout"_s, u"a probability in [0, 1]"_s, QString(), NumberText::exact(p.dropout)};
        return std::nullopt;
    };
    dropout.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (!p.training)
            return idleAs(Code::EvaluationMode, tr("evaluation mode (eval) drops nothing."));
        return std::nullopt;
    };
    dropout.formula = [](const Params &p) {
        QString text = tr("p in Y = M ⊙ X / (1 − p), M ~ Bernoulli(1 − p): each cell is zeroed with probability p "
                          "and the survivors are scaled by 1/(1 − p), so that E[Y] = X.");
        text += p.dropout < 1.0 ? tr(" Now 1/(1 − p) = %1.").arg(NumberText::compact(1.0 / (1.0 - p.dropout), 5))
                                : tr(" p = 1 zeroes every cell, and nothing is divided by zero.");
        return text;
    };
    rows.append(dropout);

    ParamSpec mode = ParamRows::choice(u"dropout-mode"_s, ParamGroup::Dropout, &Params::dropoutMode,
                                       {u"sum"_s, u"embedding"_s, u"protect-special"_s, u"masked-fill"_s});
    mode.help = u"where dropout acts"_s;
    mode.label = u"dropout mode"_s;
    mode.formula = [](const Params &p) {
        QString text = tr("Where dropout acts:<br>sum: Y = dropout(s·E + PE) (the paper, PyTorch, TensorFlow)<br>"
                          "embedding: Y = dropout(s·E) + PE: the positions survive every drop<br>"
                          "protect-special: as sum, but the special rows pass untouched<br>"
                          "masked-fill: X.masked_fill(attention_mask == 0, 0), then dropout: the padding rows "
                          "p ≥ seq_len are zeroed and nothing is protected");
        if (!p.training)
            text += tr("<br>In evaluation mode only masked-fill changes Y: it still zeroes the padding rows.");
        return text;
    };
    rows.append(mode);

    ParamSpec special;
    special.key = u"special"_s;
    special.group = ParamGroup::Dropout;
    special.kind = ParamKind::IndexList;
    special.valueName = u"LIST|none"_s;
    special.help = u"positions protect-special leaves untouched; negative counts from the end"_s;
    special.label = u"special"_s;
    special.value = [](const Params &p) { return ParamValue(p.special); };
    special.assign = [](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<std::int64_t>>(&v))
            p.special = *list;
    };
    special.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (auto v = ParamTable::parseIndexList(t))
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    special.allowed = [](const Params &) {
        return u"none or a list of at most %1 positions such as 0,-1 or 0:4, each in [-seq_len, seq_len - 1]"_s.arg(
            ParamTable::kMaxIndexListLength);
    };
    special.check = [](const Params &p) -> std::optional<ParamError> {
        const bool lOk = p.maxLen >= 1 && p.maxLen <= Params::kMaxLen;
        const bool seqOk = !p.seqLen || (*p.seqLen >= 1 && *p.seqLen <= p.maxLen);
        if (!lOk || !seqOk)
            return std::nullopt; // max-len or seq-len is refused first
        const std::int64_t n = p.sequenceLength();
        for (const std::int64_t s : p.special) {
            if (s < -n || s >= n)
                return ParamError {
                    u"special"_s,
                    u"positions in [%1, %2] (negative counts from the end of the sequence of %3)"_s.arg(-n)
                        .arg(n - 1)
                        .arg(n),
                    QString(), QString::number(s)};
        }
        return std::nullopt;
    };
    special.idle = specialIdle;
    special.formula = [](const Params &p) {
        QStringList rows;
        for (const std::int64_t row : p.specialRows())
            rows << QString::number(row);
        if (rows.size() > 8)
            rows = rows.mid(0, 8) << u"…"_s;
        return tr("The rows protect-special passes untouched, neither dropped nor rescaled: Y<sub>p</sub> = "
                  "X<sub>p</sub>. 0 is [CLS]; a negative position counts back from the end of the sequence: −1 is "
                  "seq_len − 1, where [SEP] sits. Now rows %1.")
            .arg(rows.isEmpty() ? tr("none") : rows.join(u", "_s));
    };
    rows.append(special);

    ParamSpec seqLen = optionalInteger(
        u"seq-len"_s, ParamGroup::Dropout, [](Params &p) -> std::optional<std::int64_t> & { return p.seqLen; },
        [](const Params &p) { return std::pair<std::int64_t, std::int64_t>(1, p.maxLen); }, u" (max_len)"_s);
    seqLen.help = u"sequence length; masked-fill zeroes positions >= N (auto: max_len)"_s;
    seqLen.label = u"seq_len"_s;
    seqLen.controlMin = 0;
    seqLen.controlMax = Params::kMaxLen;
    seqLen.allowed = [](const Params &) { return u"auto or an integer in [1, max_len]"_s; };
    seqLen.check = [](const Params &p) -> std::optional<ParamError> {
        const bool lOk = p.maxLen >= 1 && p.maxLen <= Params::kMaxLen;
        if (p.seqLen && lOk && (*p.seqLen < 1 || *p.seqLen > p.maxLen))
            return ParamError {u"seq-len"_s, u"an integer in [1, %1] (max_len)"_s.arg(p.maxLen), QString(),
                               QString::number(*p.seqLen)};
        return std::nullopt;
    };
    seqLen.idle = seqLenIdle;
    seqLen.formula = [](const Params &p) {
        return tr("n, the length of the sequence: positions p ≥ n are padding. masked-fill zeroes them, as "
                  "X.masked_fill(attention_mask == 0, 0) does; protect-special counts its negative positions back "
                  "from n. auto: n = max_len; now n = %1.")
            .arg(p.sequenceLength());
    };
    rows.append(seqLen);

    ParamSpec eval;
    eval.key = u"eval"_s;
    eval.group = ParamGroup::Dropout;
    eval.kind = ParamKind::Switch;
    eval.valueName = u"true|false"_s;
    eval.help = u"evaluation mode: dropout is the identity"_s;
    eval.label = u"eval"_s;
    eval.controlText = u"evaluation mode (model.eval())"_s;
    eval.helpShowsDefault = false;
    eval.value = [](const Params &p) { return ParamValue(!p.training); };
    eval.assign = [](Params &p, const ParamValue &v) {
        if (const auto *b = std::get_if<bool>(&v))
            p.training = !*b;
    };
    eval.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed().toLower();
        if (w == u"true"_s || w == u"1"_s || w == u"yes"_s)
            return ParamValue(true);
        if (w == u"false"_s || w == u"0"_s || w == u"no"_s)
            return ParamValue(false);
        return std::nullopt;
    };
    eval.allowed = [](const Params &) { return u"true or false"_s; };
    eval.check = [](const Params &) { return std::nullopt; };
    eval.idle = [](const Params &) { return std::nullopt; };
    eval.formula = [](const Params &) {
        return tr("Evaluation mode, as model.eval(): dropout is the identity, Y = X; masked-fill still zeroes the "
                  "padding rows.");
    };
    rows.append(eval);
    return rows;
}

QList<ParamSpec> runRows()
{
    QList<ParamSpec> rows;

    ParamSpec seed;
    seed.key = u"seed"_s;
    seed.group = ParamGroup::Run;
    seed.kind = ParamKind::Unsigned;
    seed.valueName = u"N"_s;
    seed.help = u"seed of the random embeddings and the dropout mask"_s;
    seed.label = u"seed"_s;
    seed.controlText = u"New seed"_s;
    seed.controlMin = 0;
    seed.controlMax = 2147483647;
    seed.value = [](const Params &p) { return ParamValue(p.seed); };
    seed.assign = [](Params &p, const ParamValue &v) {
        if (const auto *u = std::get_if<std::uint64_t>(&v))
            p.seed = *u;
    };
    seed.parse = [](const QString &t) -> std::optional<ParamValue> {
        bool ok = false;
        const qulonglong v = t.trimmed().toULongLong(&ok);
        return ok ? std::optional<ParamValue>(ParamValue(std::uint64_t(v))) : std::nullopt;
    };
    seed.allowed = [](const Params &) { return u"an integer in [0, 18446744073709551615]"_s; };
    seed.check = [](const Params &) { return std::nullopt; };
    seed.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (drawsEmbeddings(p) || drawsMask(p))
            return std::nullopt;
        return idleAs(
            Code::NothingRandom,
            tr("nothing is random now: the embeddings come from the loaded matrix and %1.").arg(noMaskReason(p)));
    };
    seed.formula = [](const Params &p) {
        return tr("The seed of E ~ N(0, σ²) and of the dropout mask M: cell (p, j) is a pure function of (seed, p, "
                  "j), the same in every view and at any thread count. Now it draws %1.")
            .arg(seedDraws(p));
    };
    rows.append(seed);

    ParamSpec budget;
    budget.key = u"memory-budget"_s;
    budget.group = ParamGroup::Run;
    budget.kind = ParamKind::Number;
    budget.valueName = u"GIB"_s;
    budget.help = u"largest allocation one request may make, in GiB"_s;
    budget.label = u"memory budget"_s;
    budget.value = [](const Params &p) { return ParamValue(std::ldexp(static_cast<double>(p.memoryBudget), -30)); };
    budget.assign = [](Params &p, const ParamValue &v) {
        if (const auto *d = std::get_if<double>(&v))
            p.memoryBudget = static_cast<std::uint64_t>(std::llround(std::ldexp(*d, 30)));
    };
    // The budget's range is checked as it is read: a value outside it has no byte count to keep.
    budget.parse = [](const QString &t) -> std::optional<ParamValue> {
        const auto v = parseDouble(t);
        if (!v || !std::isfinite(*v) || *v <= 0.0 || *v > 1024.0 * 1024.0)
            return std::nullopt;
        return ParamValue(*v);
    };
    budget.allowed = [](const Params &) { return u"a number of GiB in (0, 1048576]"_s; };
    budget.check = [](const Params &p) -> std::optional<ParamError> {
        if (p.memoryBudget == 0)
            return ParamError {u"memory-budget"_s, u"greater than 0 GiB"_s, QString(), u"0"_s};
        return std::nullopt;
    };
    budget.idle = [](const Params &) { return std::nullopt; };
    budget.formula = [](const Params &) {
        return tr("The largest allocation one request may make; a larger one is refused with its cells and GiB.");
    };
    rows.append(budget);
    return rows;
}

const QList<ParamSpec> &rows()
{
    // In the order of --help and of the controls: the model, each family's group, then what
    // every family shares.
    static const QList<ParamSpec> table = [] {
        QList<ParamSpec> all = modelRows();
        all += SinusoidalParamRows::rows();
        all += LearnedParamRows::rows();
        all += RopeParamRows::rows();
        all += AlibiParamRows::rows();
        all += T5ParamRows::rows();
        all += DebertaParamRows::rows();
        all += embeddingRows();
        all += dropoutRows();
        all += runRows();
        for (ParamSpec &row : all) {
            if (row.objectName.isEmpty()) {
                // "d-model" -> "dModel"
                const QStringList words = row.key.split(u'-');
                row.objectName = words.first();
                for (qsizetype i = 1; i < words.size(); ++i)
                    row.objectName += words[i].left(1).toUpper() + words[i].mid(1);
            }
            if (row.label.isEmpty())
                row.label = row.key;
        }
        return all;
    }();
    return table;
}

const ParamSpec *find(const QString &key)
{
    for (const ParamSpec &row : rows()) {
        if (row.key == key)
            return &row;
    }
    return nullptr;
}

QStringList flagKeys(bool withMatrices)
{
    QStringList keys;
    for (const ParamSpec &row : rows()) {
        if (row.isFlag && (withMatrices || row.kind != ParamKind::Matrix))
            keys.append(row.key);
    }
    return keys;
}

QStringList changedKeys(const Params &a, const Params &b)
{
    QStringList keys;
    for (const ParamSpec &row : rows()) {
        if (row.isFlag && !(row.value(a) == row.value(b)))
            keys.append(row.key);
    }
    return keys;
}

std::optional<std::vector<std::int64_t>> parseIndexList(const QString &text, std::int64_t maxCount)
{
    std::vector<std::int64_t> values;
    if (text.trimmed() == u"none"_s)
        return values;
    for (const QString &item : text.split(u',')) {
        if (item.contains(u':')) {
            const auto range = parseRange(item);
            std::int64_t length = 0;
            if (!range || range->first >= range->second || __builtin_sub_overflow(range->second, range->first, &length)
                || length > maxCount - std::int64_t(values.size()))
                return std::nullopt;
            for (std::int64_t v = range->first; v < range->second; ++v)
                values.push_back(v);
        } else {
            const auto v = parseInt(item);
            if (!v)
                return std::nullopt;
            if (std::int64_t(values.size()) >= maxCount)
                return std::nullopt;
            values.push_back(*v);
        }
    }
    return values;
}

std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(const QString &text)
{
    const QStringList parts = text.split(u':');
    if (parts.size() != 2)
        return std::nullopt;
    const auto a = parseInt(parts[0]);
    const auto b = parseInt(parts[1]);
    if (!a || !b)
        return std::nullopt;
    return std::pair {*a, *b};
}

std::optional<double> parseFinite(const QString &text)
{
    const auto v = parseDouble(text);
    return v && std::isfinite(*v) ? v : std::nullopt;
}

} // namespace ParamTable

} // namespace posenc
