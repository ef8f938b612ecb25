#include "BiasCodeLessonNumbers.h"

#include "ModelTable.h"

#include "check/ModelConfigCheck.h"
#include "core/FamilySpec.h"
#include "core/positions/ScoreFromColumns.h"

#include <functional>

using namespace Qt::StringLiterals;

namespace posenc::BiasCodeLessonNumbers {

using namespace LessonNumbers;

namespace {

const QString kNoColumnsBias = u"not here: the model's code builds no score bias from the columns alone"_s;

// Whether the model's bias is built by code read here from the columns or the mask (a model's own
// remote code, read by a port, is not: its bias is unchecked).
bool biasFromColumns(const LessonModel &m)
{
    return Families::spec(m.params.encoding).kind == FamilyKind::ScoreBias && !m.source.startsWith(u"remote"_s)
        && ScoreFromColumns::builds(m.params.encoding);
}

// The model's row of the table: its config's model_type, else the row whose modeling file the
// source its numbers were read from cites first (a preset's "source" names models/bloom/...).
const ModelRow *rowOf(const LessonModel &m)
{
    if (m.config)
        return ModelTable::find(m.config->modelType);
    const ModelRow *first = nullptr;
    qsizetype firstAt = -1;
    for (const ModelRow &row : ModelTable::all()) {
        if (row.file.isEmpty() || row.file.startsWith(u"remote"_s))
            continue;
        const qsizetype at = m.source.indexOf(row.file);
        if (at >= 0 && (firstAt < 0 || at < firstAt))
            first = &row, firstAt = at;
    }
    return first;
}

// The row's words for `field` where it gives them and the model's family is the parameters'; else,
// for parameters of no model that says, every row's of the family's scheme, in the table's order.
QString wordsOf(const LessonModel &m, const QString &field)
{
    if (const ModelRow *row = rowOf(m); row && row->raw.contains(field))
        return row->raw.value(field).toString();
    const QString scheme = Families::word(m.params.encoding);
    QStringList words;
    for (const ModelRow &row : ModelTable::all()) {
        const QString text = row.raw.value(field).toString();
        if (row.scheme == scheme && !text.isEmpty() && !words.contains(text))
            words.append(text);
    }
    return words.join(u"; "_s);
}

Number ofField(const LessonModel &m, const QString &field)
{
    if (!biasFromColumns(m))
        return none(kNoColumnsBias);
    const QString words = wordsOf(m, field);
    return words.isEmpty() ? none(u"not here: the model table gives no %1 for the model"_s.arg(field)) : word(words);
}

} // namespace

QList<Entry> entries()
{
    return {
        Entry(u"bias_code"_s, u"where the code of a model of bias_from_columns builds its bias"_s,
              std::function<Number(const LessonModel &)>(
                  [](const LessonModel &m) { return ofField(m, u"bias_code"_s); })),
        // Why such a model has no varlen path: BLOOM's and MPT's code declares no flash attention;
        // Falcon's does, and FalconFlashAttention2.forward raises "`alibi` is not supported when
        // `use_flash_attn` is True" (models/falcon/modeling_falcon.py).
        Entry(u"bias_flash"_s, u"why the code of a model of bias_from_columns has no flash attention's varlen path"_s,
              std::function<Number(const LessonModel &)>(
                  [](const LessonModel &m) { return ofField(m, u"bias_flash"_s); })),
    };
}

} // namespace posenc::BiasCodeLessonNumbers
