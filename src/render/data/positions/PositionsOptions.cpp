#include "PositionsOptions.h"

#include "core/positions/BatchLayout.h"
#include "core/positions/BatchParamRows.h"

#include <optional>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::PositionsOptions {

FigureOption row()
{
    FigureOption o;
    o.key = QString::fromUtf16(kRow);
    o.kind = FigureOption::Kind::Text;
    o.valueName = u"B"_s;
    o.help = u"the batch's row drawn, 0 .. B - 1; empty: the first with padding or documents"_s;
    o.resetsView = true;
    return o;
}

std::int64_t rowOf(const Params &params, const FigureState &state)
{
    bool ok = false;
    const std::int64_t given = state.option(QString::fromUtf16(kRow)).trimmed().toLongLong(&ok);
    if (ok)
        return given;
    // The window asks for each view's default row at every change: the last batch's row is kept per
    // thread (the rows depend on the batch's texts and files, its cache and max_len alone).
    struct Key
    {
        QString lengths, packed;
        const BatchTable *mask = nullptr, *documents = nullptr;
        std::int64_t cache = 0, maxLen = 0;
        bool operator==(const Key &) const = default;
    };
    const BatchParams &batch = params.batch;
    const Key key {batch.lengths, batch.packed, batch.mask.get(), batch.documents.get(), batch.cache, params.maxLen};
    thread_local std::optional<std::pair<Key, std::int64_t>> last;
    if (last && last->first == key)
        return last->second;
    // A table's pointer is kept only while the same table is held here.
    thread_local std::shared_ptr<const BatchTable> heldMask, heldDocuments;
    heldMask = batch.mask;
    heldDocuments = batch.documents;
    std::int64_t first = 0;
    const BatchLayout layout(params);
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        if (layout.row(b).size() > 1) {
            first = b;
            break;
        }
    }
    last = std::pair(key, first);
    return first;
}

QString defaultRow(const Params &params)
{
    return QString::number(rowOf(params, {}));
}

QList<ParamError> checkRow(const Params &params, const FigureState &state, const QString &figure)
{
    const QString text = state.option(QString::fromUtf16(kRow)).trimmed();
    if (text.isEmpty())
        return {};
    const std::int64_t rows = BatchLayout(params).rows();
    bool ok = false;
    const std::int64_t value = text.toLongLong(&ok);
    if (ok && value >= 0 && value < rows)
        return {};
    return {{QString::fromUtf16(kRow),
             u"an integer in [0, %1]: a row of the batch the %2 figure draws"_s.arg(rows - 1).arg(figure), QString(),
             ParamError::quoted(text)}};
}

FigureOption compare()
{
    FigureOption o;
    o.key = QString::fromUtf16(kCompare);
    o.kind = FigureOption::Kind::Choice;
    o.choices = BatchParamRows::choiceWords().mid(1);
    o.valueName = o.choices.join(u'|');
    o.help = u"the ids and mask drawn beside the reference's; default: --ids-choice, or restarted-without-block-mask "
             "where that is the reference"_s;
    return o;
}

IdsChoice compareOf(const Params &params, const FigureState &state)
{
    const QString text = state.option(QString::fromUtf16(kCompare));
    const qsizetype index = BatchParamRows::choiceWords().indexOf(text);
    if (index > 0)
        return IdsChoice(index);
    return params.batch.ids != IdsChoice::Reference ? params.batch.ids : IdsChoice::RestartedWithoutBlockMask;
}

QString defaultCompare(const Params &params)
{
    return BatchParamRows::choiceWords().value(int(compareOf(params, {})));
}

} // namespace posenc::PositionsOptions
