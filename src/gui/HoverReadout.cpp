#include "HoverReadout.h"

#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/TrContext.h"

using namespace Qt::StringLiterals;

namespace posenc::HoverReadout {

namespace {

const QString kSeparator = u"  ·  "_s;

constexpr TrContext tr {"HoverReadout"};

// The quantities whose cells the readout of a cell already shows.
bool isCellPart(std::optional<Quantity> quantity)
{
    return quantity && Quantities::spec(*quantity).cellTerm;
}

// The words of a column of the position term, alone: its family's, where it words its columns.
QString termColumnText(const Params &params, std::int64_t peColumn)
{
    const FamilySpec &family = Families::spec(params.encoding);
    if (family.term && family.term->columnWords)
        return family.term->columnWords(params, peColumn);
    return tr("PE column %1").arg(peColumn);
}

QString columnText(const Params &params, const Cell &c)
{
    if (!params.concatenates())
        return tr("position %1, column %2").arg(c.position).arg(c.column);
    if (c.peColumn)
        return tr("position %1, column %2 of X = [s·E | PE]: PE column %3")
            .arg(c.position)
            .arg(c.column)
            .arg(*c.peColumn);
    return tr("position %1, column %2 of X = [s·E | PE]: s·E, no PE").arg(c.position).arg(c.column);
}

QString xText(const Cell &c)
{
    if (c.peColumn && c.embeddingColumn)
        return tr("X = s·E + PE = %1").arg(NumberText::compact(c.x, 6));
    return (c.peColumn ? tr("X = PE = %1") : tr("X = s·E = %1")).arg(NumberText::compact(c.x, 6));
}

QString yText(const Params &params, const Cell &c)
{
    using Rule = DropoutMask::RowRule;
    if (c.rule == Rule::Zero)
        return tr("padding row (position ≥ seq_len %1), zeroed by masked-fill: Y = 0").arg(params.sequenceLength());
    if (c.rule == Rule::PassThrough)
        return (params.training ? tr("special row, passed untouched: Y = X = %1") : tr("evaluation mode: Y = X = %1"))
            .arg(NumberText::compact(c.y, 6));
    const bool kept = c.mask >= 0.5f;
    const QString bit = kept ? tr("kept (M = 1)") : tr("dropped (M = 0)");
    const QString y = NumberText::compact(c.y, 6);
    if (params.dropoutMode == DropoutMode::Embedding) {
        if (!c.embeddingColumn)
            return tr("%1: embedding mode leaves the PE, Y = PE = %2").arg(bit, y);
        if (!c.peColumn)
            return kept ? tr("%1: Y = s·E/(1 − p) = %2").arg(bit, y) : tr("%1: Y = 0").arg(bit);
        return (kept ? tr("%1: Y = s·E/(1 − p) + PE = %2") : tr("%1: Y = PE = %2")).arg(bit, y);
    }
    if (params.dropoutMode == DropoutMode::Positional) {
        if (!c.peColumn)
            return tr("%1: pe mode leaves s·E, Y = s·E = %2").arg(bit, y);
        if (!c.embeddingColumn)
            return kept ? tr("%1: Y = PE/(1 − p) = %2").arg(bit, y) : tr("%1: Y = 0").arg(bit);
        return (kept ? tr("%1: Y = s·E + PE/(1 − p) = %2") : tr("%1: Y = s·E = %2")).arg(bit, y);
    }
    return kept ? tr("%1: Y = X/(1 − p) = %2").arg(bit, y) : tr("%1: Y = 0").arg(bit);
}

QStringList cellParts(const Params &params, const Cell &c)
{
    QStringList parts = {columnText(params, c)};
    if (c.peColumn)
        parts << c.termWords;
    if (c.embeddingColumn)
        parts << tr("s·E = %1 × %2 = %3")
                     .arg(NumberText::compact(c.scale, 6), NumberText::compact(c.embedding, 6),
                          NumberText::compact(c.scaledEmbedding, 6));
    parts << xText(c) << yText(params, c);
    return parts;
}

} // namespace

std::int64_t xColumnOf(const Params &params, std::int64_t column, bool columnIsPe)
{
    return columnIsPe && params.concatenates() ? column + params.embeddingColumns() : column;
}

std::optional<std::int64_t> peColumnOf(const Params &params, std::int64_t xColumn)
{
    const std::int64_t pe = !params.concatenates() ? xColumn : xColumn - params.embeddingColumns();
    if (pe < 0 || pe >= params.peColumns())
        return std::nullopt;
    return pe;
}

std::optional<Cell> cell(const Engine &engine, std::int64_t position, std::int64_t column)
{
    const Params &params = engine.params();
    const Shape shape = engine.shape(Quantity::Input);
    if (position < 0 || position >= shape.rows || column < 0 || column >= shape.cols)
        return std::nullopt;
    Cell c;
    c.position = position;
    c.column = column;
    c.peColumn = peColumnOf(params, column);
    if (column < params.embeddingColumns())
        c.embeddingColumn = column;
    RowMatrixXf value(1, 1);
    const auto at = [&](Quantity quantity, std::int64_t col) {
        engine.computeBlock(quantity, {position, 1, col, 1}, value);
        return value(0, 0);
    };
    if (c.peColumn) {
        c.pe = at(Quantity::Pe, *c.peColumn);
        // Each family words a cell of its own term (FamilyTerm::cellWords): what it computes it from.
        const FamilySpec &family = Families::spec(params.encoding);
        c.termWords = family.term && family.term->cellWords
            ? family.term->cellWords(params, position, *c.peColumn, c.pe)
            : QStringList {tr("PE = %1").arg(NumberText::compact(c.pe, 6))};
    }
    c.scale = params.scale();
    if (c.embeddingColumn) {
        engine.embeddings().fill({position, 1, *c.embeddingColumn, 1}, value);
        c.embedding = value(0, 0);
        c.scaledEmbedding = at(Quantity::Embedding, *c.embeddingColumn);
    }
    c.x = at(Quantity::Input, column);
    c.mask = at(Quantity::Mask, column);
    c.y = at(Quantity::Output, column);
    c.rule = engine.dropoutMask().rowRule(position);
    return c;
}

QString format(const Engine &engine, const HoverPoint &point)
{
    const Params &params = engine.params();
    QStringList parts;
    std::optional<Cell> c;
    if (point.hasPosition && point.column)
        c = cell(engine, point.position, xColumnOf(params, *point.column, point.columnIsPe));
    if (c) {
        parts = cellParts(params, *c);
    } else {
        if (point.hasPosition)
            parts << tr("position %1").arg(point.position);
        if (point.column) {
            parts << tr("column %1").arg(*point.column);
            const auto pe = point.columnIsPe ? std::optional(*point.column) : peColumnOf(params, *point.column);
            if (pe && *pe < params.peColumns())
                parts << termColumnText(params, *pe);
            else
                parts << tr("no PE in this column");
        }
    }
    if (point.value && !(c && isCellPart(point.quantity)))
        parts << u"%1 = %2"_s.arg(point.valueName.isEmpty() ? tr("value") : point.valueName,
                                  NumberText::compact(*point.value, 6));
    else if (!point.value && !point.valueName.isEmpty())
        parts << point.valueName; // the figure's reading in its words: each curve's value at the cursor
    return parts.join(kSeparator);
}

} // namespace posenc::HoverReadout
