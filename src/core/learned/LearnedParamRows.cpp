#include "LearnedParamRows.h"

#include "core/TrContext.h"

using namespace Qt::StringLiterals;

namespace posenc::LearnedParamRows {

namespace {

constexpr TrContext tr {"LearnedParamRows"};

std::optional<IdleReason> learnedIdle(const Params &params)
{
    return ParamRows::otherEncoding(params, Encoding::Learned);
}

} // namespace

QList<ParamSpec> rows()
{
    QList<ParamSpec> rows;

    ParamSpec table;
    table.key = u"position-table"_s;
    table.group = ParamGroup::Family;
    table.kind = ParamKind::Matrix;
    table.valueName = u"FILE[:TENSOR]"_s;
    table.help = u"with --encoding learned: the trained position table, a matrix in a .npy or .safetensors file\n"
                 "      (TENSOR names one); row position-offset + p is the vector added at position p"_s;
    table.helpShowsDefault = false;
    table.label = u"position table"_s;
    table.controlText = u"Load…"_s;
    table.value = [](const Params &p) {
        return p.learned.table ? ParamValue(MatrixValue {p.learned.table, p.learned.table->source})
                               : ParamValue(std::monostate {});
    };
    table.assign = [](Params &, const ParamValue &) {};
    table.parse = [](const QString &t) -> std::optional<ParamValue> { return ParamValue(MatrixValue {nullptr, t}); };
    table.allowed = [](const Params &) { return u"a readable .npy or .safetensors file"_s; };
    table.check = [](const Params &p) -> std::optional<ParamError> {
        if (p.encoding != Encoding::Learned)
            return std::nullopt;
        if (!p.learned.table)
            return ParamError {u"position-table"_s, QString(),
                               u"is needed by encoding learned: the trained table to read positions from"_s,
                               std::nullopt};
        const bool dOk = p.dModel >= 1 && p.dModel <= Params::kMaxDModel;
        const bool lOk = p.maxLen >= 1 && p.maxLen <= Params::kMaxLen;
        const bool offsetOk = p.learned.offset >= 0 && p.learned.offset <= Params::kMaxPositionOffset;
        if (!dOk || !lOk || !offsetOk)
            return std::nullopt;
        const auto &m = p.learned.table->values;
        if (m.cols() != p.peColumns())
            return ParamError {u"position-table"_s, QString(),
                               u"the table has %1 columns; the model needs %2 (d_model%3)"_s.arg(m.cols())
                                   .arg(p.peColumns())
                                   .arg(p.compose == Compose::Concat ? u", or pe_dims in concat"_s : QString()),
                               std::nullopt};
        if (m.rows() < p.learned.offset + p.maxLen)
            return ParamError {
                u"position-table"_s, QString(),
                u"the table has %1 rows; position offset %2 and max_len %3 need at least %4"_s.arg(m.rows())
                    .arg(p.learned.offset)
                    .arg(p.maxLen)
                    .arg(p.learned.offset + p.maxLen),
                std::nullopt};
        return std::nullopt;
    };
    table.idle = learnedIdle;
    table.formula = [](const Params &) {
        return tr("A trained position table P: the model adds row p + offset of P at position p (GPT-2's wpe, "
                  "BERT's and RoBERTa's position_embeddings).");
    };
    rows.append(table);

    ParamSpec offset = ParamRows::integer(
        u"position-offset"_s, ParamGroup::Family, [](Params &p) -> std::int64_t & { return p.learned.offset; },
        [](const Params &) { return std::pair<std::int64_t, std::int64_t>(0, Params::kMaxPositionOffset); });
    offset.help = u"the row of the position table that holds position 0: 2 for RoBERTa, XLM-R, BART and OPT"_s;
    offset.label = u"position offset"_s;
    offset.controlMin = 0;
    offset.controlMax = Params::kMaxPositionOffset;
    offset.idle = learnedIdle;
    offset.formula = [](const Params &p) {
        QString text = tr("The row of the position table that holds position 0. RoBERTa, XLM-R, BART and OPT start "
                          "at 2: rows 0 and 1 belong to padding and are never used.");
        if (p.learned.offset > 0)
            text += tr(" Now rows 0 … %1 are shown, marked, and never used.").arg(p.learned.offset - 1);
        return text;
    };
    rows.append(offset);
    return rows;
}

} // namespace posenc::LearnedParamRows
