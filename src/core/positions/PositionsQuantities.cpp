// The positions' quantities (docs/ARCHITECTURE.md, Positions in practice), shared by every family:
// the batch's position ids, what each token sees of them against the reference's, and the
// query-key distances of a packed row under the chosen ids and mask.
#include "BatchIds.h"
#include "BatchParamRows.h"
#include "DocumentDistance.h"
#include "PositionEffect.h"

#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamTable.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QStringList kBatchKeys = {u"encoding"_s,       u"max-len"_s,      u"batch"_s, u"packed"_s,
                                u"attention-mask"_s, u"document-ids"_s, u"cache"_s, u"ids-choice"_s};
QStringList idReads()
{
    return kBatchKeys + BatchIds::promptKeys();
}

// What a token's score, term, temperature and chunk read: the ids, the model's shape and every
// family's rows (a family reads its own, and those it borrows, under its encoding).
QStringList effectReads()
{
    QStringList all = idReads() + QStringList {u"d-model"_s,    u"compose"_s,     u"pe-dims"_s,
                                               u"attn-scale"_s, u"floor-scale"_s, u"attention-chunk"_s};
    for (const FamilySpec &family : Families::all()) {
        for (const ParamSpec &row : family.rows()) {
            if (!all.contains(row.key))
                all.append(row.key);
        }
    }
    return all;
}

std::int64_t axesOf(const Params &p)
{
    return BatchIds::axesOf(p);
}

std::int64_t batchRows(const Params &p)
{
    return BatchLayout(p).rows();
}

// Why the batch has no ids for these parameters (a row that cuts the prompt's image), or nothing.
std::optional<QString> idsMissing(const Params &p)
{
    return BatchIds::problemOf(p);
}

std::uint64_t cells(const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
}

// "3 rows × 1,024, left padding, ids: reference".
QStringList batchParts(const Params &p)
{
    const BatchLayout layout(p);
    QString what = u"B = %1, L = %2"_s.arg(layout.rows()).arg(NumberText::compact(double(p.maxLen), 8));
    if (layout.cache() > 0)
        what += u", prefill %1"_s.arg(layout.cache());
    return {what, u"ids: %1"_s.arg(BatchParamRows::choiceWords().value(int(p.batch.ids)))};
}

double idBound(const Params &p)
{
    return double(std::max<std::int64_t>(1, p.maxLen));
}

} // namespace

QuantitySpec makePositionIdsQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::PositionIds;
    q.name = u"position-ids"_s;
    q.label = u"position id"_s;
    q.help = u"the batch's position ids [B, L] under --ids-choice (M-RoPE's [3·B, L], t then h then w), as\n"
             "              transformers computes them; the padding's are 1"_s;
    q.reads = idReads();
    q.tiling = Tiling::WholeRows;
    q.missing = idsMissing;
    q.shape = [](const Params &p) { return Shape {axesOf(p) * batchRows(p), p.maxLen}; };
    q.workCells = [](const Params &p, const Block &block) {
        return cells(block) + 6 * static_cast<std::uint64_t>(axesOf(p) * block.cols);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const BatchIds &ids = engine.source<BatchIds>();
        const std::int64_t rows = ids.layout().rows();
        const int axes = ids.axes();
        std::vector<std::int64_t> values(std::size_t(axes * block.cols));
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const std::int64_t axis = (block.row0 + r) / rows, b = (block.row0 + r) % rows;
            ids.ids(engine.params().batch.ids, b, block.col0, block.cols, values.data());
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(values[std::size_t(axis * block.cols + c)]);
        }
    };
    q.bound = idBound;
    q.parameters = batchParts;
    return q;
}

QuantitySpec makePositionEffectQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::PositionEffect;
    q.name = u"position-effect"_s;
    q.label = u"position effect"_s;
    q.help = u"one row per token of the batch (row b·L + column): whether it is real, its reference and chosen\n"
             "              ids, the family's score against its document's first token under each, their difference\n"
             "              and float32's, the term's ‖PE[chosen] − PE[reference]‖, Llama 4's temperature and chunk"_s;
    q.columnNames = PositionEffect::columnNames();
    q.reads = effectReads();
    q.tiling = Tiling::WholeRows;
    q.missing = idsMissing;
    q.shape = [](const Params &p) { return Shape {batchRows(p) * p.maxLen, PositionEffect::Columns}; };
    q.workCells = [](const Params &p, const Block &block) {
        return cells(block) + 2 * static_cast<std::uint64_t>(block.rows) * PositionEffect::Columns
            + 8 * static_cast<std::uint64_t>(std::max<std::int64_t>(p.dModel, 1));
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const PositionEffect &effect = engine.source<PositionEffect>();
        const std::int64_t columns = engine.params().maxLen;
        for (std::int64_t t = block.row0; t < block.rowEnd();) {
            const std::int64_t b = t / columns, c0 = t % columns;
            const std::int64_t count = std::min(block.rowEnd() - t, columns - c0);
            std::vector<double> values(std::size_t(PositionEffect::Columns * count));
            effect.values(b, c0, count, values.data());
            for (std::int64_t i = 0; i < count; ++i) {
                for (std::int64_t k = 0; k < block.cols; ++k)
                    out(t - block.row0 + i, k) = static_cast<float>(values[std::size_t((block.col0 + k) * count + i)]);
            }
            t += count;
        }
    };
    q.bound = idBound;
    q.parameters = batchParts;
    return q;
}

QuantitySpec makeDocumentDistanceQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::DocumentDistance;
    q.name = u"document-distance"_s;
    q.label = u"query − key distance"_s;
    q.help = u"each row's query-key distances id(q) − id(k) [B·L, L] under --ids-choice and its mask, NaN\n"
             "              where the mask hides the pair (the key after the query, padding, another document)"_s;
    // A model that attends both ways (BatchLayout::attendsBothWays: ALiBi's symmetric mask, T5's
    // encoder map, an encoder's attention row) keeps the pairs after the query.
    q.reads = kBatchKeys + QStringList {u"alibi"_s, u"t5-causal"_s, u"attention"_s};
    q.tiling = Tiling::Columns;
    q.missing = BatchIds::distancesProblem;
    q.shape = [](const Params &p) { return Shape {batchRows(p) * p.maxLen, p.maxLen}; };
    q.workCells = [](const Params &, const Block &block) { return cells(block); };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        // The ids the score reads: the columns for a family that reads none (DocumentDistance::readsColumns).
        const Params &p = engine.params();
        if (DocumentDistance::readsColumns(p))
            DocumentDistance::fill(DocumentDistance::readLayout(p), p.batch.ids, block, out);
        else
            DocumentDistance::fill(engine.source<BatchIds>().layout(), p.batch.ids, block, out);
    };
    q.bound = idBound;
    q.parameters = batchParts;
    return q;
}

} // namespace posenc
