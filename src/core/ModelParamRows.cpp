// The rows of the parameter table's model and embeddings groups (docs/ARCHITECTURE.md, "The
// parameter table"): the model's width, length and encoding, and the embeddings' scale, init,
// composition and loaded matrix.
#include "SharedParamRows.h"

#include "ClosedForms.h"
#include "FamilySpec.h"
#include "NumberText.h"

#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::SharedParamRows {

namespace {

using ParamRows::integer;
using Code = IdleReason::Code;

QString modelTr(const char *text)
{
    return QCoreApplication::translate("ParamTable", text);
}

std::optional<IdleReason> idleAs(Code code, const QString &why)
{
    return IdleReason {code, why};
}

std::optional<IdleReason> noEmbeddingColumns(const Params &params)
{
    if (params.embeddingColumns() == 0)
        return idleAs(Code::NoEmbeddingColumns, modelTr("concat with pe_dims = d_model leaves no column for s·E."));
    return std::nullopt;
}

std::optional<IdleReason> embeddingsFromFile(const Params &params)
{
    if (params.embeddings)
        return idleAs(
            Code::EmbeddingsFromFile,
            modelTr("the embeddings are the rows of %1, not random; File > Use random embeddings brings "
                    "N(0, σ²) back.")
                .arg(params.embeddings->source.isEmpty() ? modelTr("the loaded matrix") : params.embeddings->source));
    return noEmbeddingColumns(params);
}

// compose and pe-dims: what the family does instead of adding a term (FamilySpec::kind).
std::optional<IdleReason> noPositionTerm(const Params &params)
{
    if (params.hasPositionTerm())
        return std::nullopt;
    const QString instead = Families::insteadOfTerm(params.encoding);
    return idleAs(Code::NoPositionTerm,
                  modelTr("encoding %1 adds no position term to compose with s·E%2.")
                      .arg(Families::word(params.encoding), instead.isEmpty() ? QString() : u": "_s + instead));
}

// The embedding's expected squared norm against the position term's: what s and sigma balance.
QString balance(const Params &params)
{
    const double s = params.scale();
    const QString pe
        = modelTr("‖PE<sub>p</sub>‖² ≈ %1").arg(NumberText::compact(ClosedForms::peNormSquared(params.peColumns()), 5));
    if (params.embeddings)
        return pe;
    const double e = ClosedForms::embeddingNormSquared(s, params.sigma(), params.embeddingColumns());
    return modelTr("E‖s·E<sub>p</sub>‖² = s²σ²·%1 = %2 against %3")
        .arg(params.embeddingColumns())
        .arg(NumberText::compact(e, 5))
        .arg(pe);
}

// The encoding row: a word per family, and its help and formula from theirs, grouped by what the
// families do (FamilySpec::kind).
ParamSpec encodingRow()
{
    QStringList words;
    for (const FamilySpec &family : Families::all())
        words.append(family.word);
    ParamSpec encoding = ParamRows::choice(u"encoding"_s, ParamGroup::Model, &Params::encoding, words);
    const std::pair<FamilyKind, QString> kinds[] = {{FamilyKind::Term, u"the position term: "_s},
                                                    {FamilyKind::Rotation, u"or "_s},
                                                    {FamilyKind::ScoreBias, u"or a bias on the attention scores: "_s}};
    QStringList groups;
    for (const auto &[kind, intro] : kinds) {
        QStringList helps;
        for (const FamilySpec &family : Families::all()) {
            if (family.kind == kind)
                helps.append(family.help);
        }
        if (!helps.isEmpty())
            groups.append(intro + helps.join(u", "_s));
    }
    const QString help = groups.isEmpty() ? QString() : groups.first() + u"; "_s + groups.mid(1).join(u", "_s);
    encoding.help = ParamRows::wrapHelp(groups.size() > 1 ? help : groups.value(0));
    encoding.label = u"encoding"_s;
    encoding.formula = [](const Params &) {
        QString text = modelTr("The position term added to the token embeddings:");
        for (const FamilySpec &family : Families::all())
            text += u"<br>%1: %2"_s.arg(family.word, family.formula);
        return text;
    };
    return encoding;
}

} // namespace

QList<ParamSpec> model()
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
                modelTr("d_model comes from the loaded matrix (%1 columns); File > Use random embeddings frees it.")
                    .arg(p.embeddings->values.cols()));
        const FamilySpec &family = Families::spec(p.encoding);
        if (const auto columns = family.term && family.term->loadedColumns ? family.term->loadedColumns(p)
                                                                           : std::nullopt)
            return idleAs(Code::SetByMatrix, modelTr("d_model comes from the %1 (%2 columns).")
                                                 .arg(Families::tableRow(family).value_or(ParamSpec()).label)
                                                 .arg(*columns));
        return std::nullopt;
    };
    dModel.formula = [](const Params &) {
        return modelTr("d, the model width: columns j = 0 … d−1 of every table. Pair i of the PE turns at "
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
    maxLen.formula = [](const Params &) { return modelTr("L, the positions p = 0 … L−1: the rows of every table."); };
    rows.append(maxLen);

    rows.append(encodingRow());
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

ParamSpec scaleRow()
{
    ParamSpec scale;
    scale.key = u"scale"_s;
    scale.group = ParamGroup::Embeddings;
    scale.kind = ParamKind::ChoiceOrNumber;
    scale.valueName = u"sqrt|NUMBER"_s;
    scale.help = u"embedding scale s in X = s*E + PE: sqrt(d_model), 1 or any number in [0, 1000000]"_s;
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
        if (const auto v = ParamRows::parseNumber(t))
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
        return modelTr("s in X = s·E + PE: 1, √d (the paper, section 3.4) or a custom number; now s = %1. It sets the "
                       "balance: %2.")
            .arg(NumberText::compact(p.scale(), 5), balance(p));
    };
    return scale;
}

ParamSpec customScaleRow()
{
    ParamSpec customScale = ParamRows::numberRow(u"custom-scale"_s, ParamGroup::Embeddings,
                                                 [](Params &p) -> double & { return p.customScale; });
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
                modelTr("only a custom scale reads it; the scale is %1.").arg(ParamTable::find(u"scale"_s)->text(p)));
        return noEmbeddingColumns(p);
    };
    customScale.formula = [](const Params &) {
        return modelTr("A custom s in X = s·E + PE: a number in %1.").arg(embeddingFactorRange());
    };
    return customScale;
}

ParamSpec initRow()
{
    ParamSpec init;
    init.key = u"init"_s;
    init.group = ParamGroup::Embeddings;
    init.kind = ParamKind::ChoiceOrNumber;
    init.valueName = u"normal|scaled-normal|keras-uniform|SIGMA"_s;
    init.help = u"random embeddings N(0, sigma^2): sigma 1, d^-1/2 or SIGMA in [0, 1000000]; or Keras' U(-0.05, "
                "0.05)"_s;
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
        if (const auto v = ParamRows::parseNumber(t))
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
        return modelTr("σ in E ~ N(0, σ²): 1 (nn.Embedding's default), d<sup>−1/2</sup> (fairseq) or a custom σ; "
                       "or E ~ U(−0.05, 0.05), Keras' Embedding default (σ = 0.05/√3); now σ = %1.")
            .arg(NumberText::compact(p.sigma(), 5));
    };
    return init;
}

ParamSpec customSigmaRow()
{
    ParamSpec customSigma = ParamRows::numberRow(u"custom-sigma"_s, ParamGroup::Embeddings,
                                                 [](Params &p) -> double & { return p.customSigma; });
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
            return idleAs(
                Code::NotCustomInit,
                modelTr("only a custom init reads it; the init is %1.").arg(ParamTable::find(u"init"_s)->text(p)));
        return std::nullopt;
    };
    customSigma.formula = [](const Params &) {
        return modelTr("A custom σ in E ~ N(0, σ²): a number in %1.").arg(embeddingFactorRange());
    };
    return customSigma;
}

ParamSpec composeRow()
{
    ParamSpec compose
        = ParamRows::choice(u"compose"_s, ParamGroup::Embeddings, &Params::compose, {u"sum"_s, u"concat"_s});
    compose.help = u"X = s*E + PE, or [s*E | PE] with the PE in the last pe-dims columns"_s;
    compose.label = u"compose"_s;
    compose.helpShowsDefault = false;
    compose.idle = noPositionTerm;
    compose.formula = [](const Params &) {
        return modelTr("sum: X = s·E + PE, both in every column.<br>concat: X = [s·E | PE], s·E in the first d − k "
                       "columns and the PE of a k-column table in the last k.");
    };
    return compose;
}

ParamSpec peDimsRow()
{
    ParamSpec peDims = ParamRows::optionalInteger(
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
            return idleAs(Code::NotConcat, modelTr("only compose concat has PE columns of its own; compose is sum."));
        return std::nullopt;
    };
    peDims.formula = [](const Params &p) {
        QString text = modelTr("k in X = [s·E | PE]: the PE's columns, the last k of X; auto: k = ⌊d/2⌋.");
        if (p.compose == Compose::Concat)
            text += modelTr(" Now X's columns %1 … %2 hold the PE.").arg(p.dModel - p.peColumns()).arg(p.dModel - 1);
        return text;
    };
    return peDims;
}

ParamSpec embeddingsRow()
{
    ParamSpec embeddings = ParamRows::matrixRow(
        u"embeddings"_s, ParamGroup::Embeddings, u"FILE[:TENSOR]"_s,
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
    embeddings.formula = [](const Params &) { return modelTr("E, the rows of a real model's embedding matrix."); };
    return embeddings;
}

ParamSpec tokensRow()
{
    ParamSpec tokens
        = ParamRows::matrixRow(u"tokens"_s, ParamGroup::Embeddings, u"LIST"_s,
                               u"with --embeddings: the rows to use instead, in order, e.g. 0,464,5:9 (max_len: their "
                               "count)"_s);
    tokens.label = u"tokens"_s;
    tokens.value = [](const Params &p) {
        return p.embeddings && !p.embeddings->tokens.isEmpty()
            ? ParamValue(MatrixValue {p.embeddings, p.embeddings->tokens})
            : ParamValue(std::monostate {});
    };
    tokens.formula = [](const Params &) { return modelTr("The rows of the loaded matrix, in order."); };
    return tokens;
}

} // namespace

QList<ParamSpec> embeddings()
{
    return {scaleRow(),   customScaleRow(), initRow(),       customSigmaRow(),
            composeRow(), peDimsRow(),      embeddingsRow(), tokensRow()};
}

} // namespace posenc::SharedParamRows
