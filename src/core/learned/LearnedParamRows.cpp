#include "LearnedParamRows.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::LearnedParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("LearnedParamRows", text);
}

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
    table.group = ParamGroup::Learned;
    table.kind = ParamKind::Matrix;
    table.valueName = u"FILE[:TENSOR]"_s;
    table.help = u"with --encoding learned: the trained position table, a matrix in a .npy or .safetensors file\n"
                 "      (TENSOR names one); row p is the vector added at position p"_s;
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
        if (!dOk || !lOk)
            return std::nullopt;
        const auto &m = p.learned.table->values;
        if (m.cols() != p.peColumns())
            return ParamError {u"position-table"_s, QString(),
                               u"the table has %1 columns; the model needs %2 (d_model%3)"_s.arg(m.cols())
                                   .arg(p.peColumns())
                                   .arg(p.compose == Compose::Concat ? u", or pe_dims in concat"_s : QString()),
                               std::nullopt};
        if (m.rows() < p.maxLen)
            return ParamError {u"position-table"_s, QString(),
                               u"the table has %1 rows; max_len needs at least %2"_s.arg(m.rows()).arg(p.maxLen),
                               std::nullopt};
        return std::nullopt;
    };
    table.idle = learnedIdle;
    table.formula = [](const Params &) {
        return tr("A trained position table P: the model adds row p of P at position p (GPT-2's wpe, "
                  "BERT's and RoBERTa's position_embeddings).");
    };
    rows.append(table);

    return rows;
}

} // namespace posenc::LearnedParamRows
