// The rows of the parameter table's dropout and run groups (docs/ARCHITECTURE.md, "The parameter
// table"): dropout's probability, mode, special rows, sequence length and evaluation mode; the
// seed and the memory budget.
#include "SharedParamRows.h"

#include "NumberText.h"
#include "ParamUse.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::SharedParamRows {

namespace {

using Code = IdleReason::Code;
using ParamUse::drawsEmbeddings;
using ParamUse::drawsMask;

QString dropoutTr(const char *text)
{
    return QCoreApplication::translate("ParamTable", text);
}

std::optional<IdleReason> idleBecause(Code code, const QString &why)
{
    return IdleReason {code, why};
}

QString modeName(const Params &params)
{
    return ParamTable::find(u"dropout-mode"_s)->text(params);
}

std::optional<IdleReason> specialIdle(const Params &params)
{
    if (params.dropoutMode != DropoutMode::ProtectSpecial)
        return idleBecause(
            Code::NotProtectSpecial,
            dropoutTr("only dropout mode protect-special reads it; the mode is %1.").arg(modeName(params)));
    if (!params.training)
        return idleBecause(Code::EvaluationMode, dropoutTr("evaluation mode (eval) drops nothing."));
    if (params.dropout == 0.0)
        return idleBecause(Code::NothingDropped, dropoutTr("dropout 0 drops nothing, so no row needs protecting."));
    return std::nullopt;
}

// masked-fill zeroes the rows from seq_len on, in training and evaluation alike; protect-special
// counts its negative positions back from seq_len.
std::optional<IdleReason> seqLenIdle(const Params &params)
{
    if (params.dropoutMode == DropoutMode::MaskedFill)
        return std::nullopt;
    if (params.dropoutMode != DropoutMode::ProtectSpecial)
        return idleBecause(
            Code::NoRowsToResolve,
            dropoutTr("only dropout mode masked-fill (its padding rows) and protect-special (its positions counted "
                      "from the end) read it; the mode is %1.")
                .arg(modeName(params)));
    if (const auto idle = specialIdle(params))
        return idle;
    const bool fromEnd
        = std::any_of(params.special.begin(), params.special.end(), [](std::int64_t s) { return s < 0; });
    if (fromEnd)
        return std::nullopt;
    return idleBecause(
        Code::NoRowsToResolve,
        dropoutTr("protect-special reads it only for a special position counted from the end (a negative one); "
                  "special is %1.")
            .arg(ParamTable::find(u"special"_s)->text(params)));
}

QString seedDraws(const Params &params)
{
    const bool e = drawsEmbeddings(params);
    const bool m = drawsMask(params);
    if (e && m)
        return dropoutTr("the embeddings E and the mask M");
    if (e)
        return dropoutTr("only the embeddings E: no mask is drawn");
    if (m)
        return dropoutTr("only the mask M: E comes from the loaded matrix");
    return dropoutTr("nothing");
}

// Why no mask is drawn: evaluation mode, or a p that keeps or drops every cell.
QString noMaskReason(const Params &params)
{
    if (!params.training)
        return dropoutTr("evaluation mode draws no mask");
    return params.dropout >= 1.0 ? dropoutTr("dropout 1 drops every cell whatever the draw")
                                 : dropoutTr("dropout 0 keeps every cell");
}

} // namespace

namespace {

ParamSpec dropoutRow()
{
    ParamSpec dropout
        = ParamRows::numberRow(u"dropout"_s, ParamGroup::Dropout, [](Params &p) -> double & { return p.dropout; });
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
            return idleBecause(Code::EvaluationMode, dropoutTr("evaluation mode (eval) drops nothing."));
        return std::nullopt;
    };
    dropout.formula = [](const Params &p) {
        QString text
            = dropoutTr("p in Y = M ⊙ X / (1 − p), M ~ Bernoulli(1 − p): each cell is zeroed with probability p "
                        "and the survivors are scaled by 1/(1 − p), so that E[Y] = X.");
        text += p.dropout < 1.0 ? dropoutTr(" Now 1/(1 − p) = %1.").arg(NumberText::compact(1.0 / (1.0 - p.dropout), 5))
                                : dropoutTr(" p = 1 zeroes every cell, and nothing is divided by zero.");
        return text;
    };
    return dropout;
}

ParamSpec modeRow()
{
    ParamSpec mode = ParamRows::choice(u"dropout-mode"_s, ParamGroup::Dropout, &Params::dropoutMode,
                                       {u"sum"_s, u"embedding"_s, u"pe"_s, u"protect-special"_s, u"masked-fill"_s});
    mode.help = u"where dropout acts"_s;
    mode.label = u"dropout mode"_s;
    mode.formula = [](const Params &p) {
        QString text
            = dropoutTr("Where dropout acts:<br>sum: Y = dropout(s·E + PE) (the paper, PyTorch, TensorFlow)<br>"
                        "embedding: Y = dropout(s·E) + PE: the positions survive every drop<br>"
                        "pe: Y = dropout(PE) + s·E: the tokens survive every drop, the positions are dropped<br>"
                        "protect-special: as sum, but the special rows pass untouched<br>"
                        "masked-fill: X.masked_fill(attention_mask == 0, 0), then dropout: the padding rows "
                        "p ≥ seq_len are zeroed and nothing is protected");
        if (!p.training)
            text += dropoutTr("<br>In evaluation mode only masked-fill changes Y: it still zeroes the padding rows.");
        return text;
    };
    return mode;
}

ParamSpec specialRow()
{
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
        return dropoutTr(
                   "The rows protect-special passes untouched, neither dropped nor rescaled: Y<sub>p</sub> = "
                   "X<sub>p</sub>. 0 is [CLS]; a negative position counts back from the end of the sequence: −1 is "
                   "seq_len − 1, where [SEP] sits. Now rows %1.")
            .arg(rows.isEmpty() ? dropoutTr("none") : rows.join(u", "_s));
    };
    return special;
}

ParamSpec seqLenRow()
{
    ParamSpec seqLen = ParamRows::optionalInteger(
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
        return dropoutTr(
                   "n, the length of the sequence: positions p ≥ n are padding. masked-fill zeroes them, as "
                   "X.masked_fill(attention_mask == 0, 0) does; protect-special counts its negative positions back "
                   "from n. auto: n = max_len; now n = %1.")
            .arg(p.sequenceLength());
    };
    return seqLen;
}

ParamSpec evalRow()
{
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
        return dropoutTr(
            "Evaluation mode, as model.eval(): dropout is the identity, Y = X; masked-fill still zeroes the "
            "padding rows.");
    };
    return eval;
}

} // namespace

QList<ParamSpec> dropout()
{
    return {dropoutRow(), modeRow(), specialRow(), seqLenRow(), evalRow()};
}

QList<ParamSpec> run()
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
        return idleBecause(Code::NothingRandom,
                           dropoutTr("nothing is random now: the embeddings come from the loaded matrix and %1.")
                               .arg(noMaskReason(p)));
    };
    seed.formula = [](const Params &p) {
        return dropoutTr(
                   "The seed of E ~ N(0, σ²) and of the dropout mask M: cell (p, j) is a pure function of (seed, p, "
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
        // Any budget above 0 GiB holds a byte at least (1e-300 GiB was refused as "got 0").
        if (const auto *d = std::get_if<double>(&v))
            p.memoryBudget = std::max<std::uint64_t>(*d > 0.0 ? 1 : 0,
                                                     static_cast<std::uint64_t>(std::llround(std::ldexp(*d, 30))));
    };
    // The budget's range is checked as it is read: a value outside it has no byte count to keep.
    budget.parse = [](const QString &t) -> std::optional<ParamValue> {
        const auto v = ParamRows::parseNumber(t);
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
        return dropoutTr(
            "The largest allocation one request may make; a larger one is refused with its cells and GiB.");
    };
    rows.append(budget);
    return rows;
}

} // namespace posenc::SharedParamRows
