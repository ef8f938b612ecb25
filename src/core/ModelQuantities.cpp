// The quantities every family shares: the position term, the embeddings, X, Y, the mask and
// the position term's similarity (docs/ARCHITECTURE.md, "The quantity table").
#include "Engine.h"
#include "FamilySpec.h"
#include "ModelInput.h"
#include "NumberText.h"
#include "ParamTable.h"
#include "Statistics.h"
#include "StreamStore.h"
#include "TitleText.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What a position term's table reads: the family, the model's shape, and the rows of each family
// that adds a term (FamilySpec::term), its own and those it borrows: a family's term reads
// no other family's rows.
const QStringList &positionReads()
{
    static const QStringList keys = [] {
        QStringList all = {u"encoding"_s, u"d-model"_s, u"max-len"_s, u"compose"_s, u"pe-dims"_s};
        const auto add = [&all](const QList<ParamSpec> &rows, const QStringList &only) {
            for (const ParamSpec &row : rows) {
                if ((only.isEmpty() || only.contains(row.key)) && !all.contains(row.key))
                    all.append(row.key);
            }
        };
        for (const FamilySpec &family : Families::all()) {
            if (!family.hasPositionTerm())
                continue;
            add(family.rows(), {});
            for (const BorrowedRows &b : family.borrows)
                add(Families::spec(b.family).rows(), b.keys);
        }
        return all;
    }();
    return keys;
}
// What s*E reads: the encoding (whether a term takes columns in concat) and the embeddings' own.
const QStringList kEmbeddingReads = {u"encoding"_s, u"d-model"_s, u"max-len"_s,    u"compose"_s, u"pe-dims"_s,
                                     u"scale"_s,    u"init"_s,    u"embeddings"_s, u"tokens"_s,  u"seed"_s};
const QStringList kDropoutReads = {u"dropout"_s, u"dropout-mode"_s, u"special"_s, u"seq-len"_s, u"eval"_s};

QStringList unite(const QStringList &a, const QStringList &b)
{
    QStringList all = a;
    for (const QString &key : b) {
        if (!all.contains(key))
            all.append(key);
    }
    return all;
}

std::optional<QString> always(const Params &)
{
    return std::nullopt;
}

std::optional<QString> needsPositionTerm(const Params &params)
{
    if (params.hasPositionTerm())
        return std::nullopt;
    const QString instead = Families::insteadOfTerm(params.encoding);
    return u"encoding %1 adds no position term%2"_s.arg(Families::word(params.encoding),
                                                        instead.isEmpty() ? QString() : u": "_s + instead);
}

std::uint64_t blockCells(const Params &, const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
}

// A row computed aside, written to the block's row `dst`: streamed past the caches when the
// engine streams the block.
void writeRow(const std::vector<float> &row, float *dst, bool streaming)
{
    if (streaming)
        streamCopy(dst, row.data(), static_cast<std::int64_t>(row.size()));
    else
        std::copy(row.begin(), row.end(), dst);
}

Shape modelShape(const Params &params)
{
    return {params.maxLen, params.dModel};
}

double one(const Params &)
{
    return 1.0;
}

// The position term's: ±1 for a formula's sines and cosines, a loaded table's own largest value
// (FamilyTerm::largest: GPT-2's wpe on ±1 was all dark red, RoBERTa's all white).
double termBound(const Params &params)
{
    const FamilySpec &family = Families::spec(params.encoding);
    const auto largest = family.term && family.term->largest ? family.term->largest(params) : std::nullopt;
    return largest.value_or(1.0);
}

// X's bound: the PE's and three standard deviations of s·E, added in the sum; s·E's alone where
// the family adds no term (RoPE's, ALiBi's X is s·E: Llama 4 Scout's σ 0.014 on ±1.1 was drawn
// white).
double inputBound(const Params &params)
{
    const double embedding = Quantities::embeddingBound(params);
    if (!params.hasPositionTerm())
        return embedding;
    const double term = termBound(params);
    return params.compose == Compose::Sum ? term + embedding : std::max(term, embedding);
}

// "s = √d = 22.63, σ = 1".
QString embeddingText(const Params &params)
{
    return u"%1, %2"_s.arg(TitleText::scaleText(params), TitleText::sigmaText(params));
}

// X's and Y's parameters: the table, where its parts sit, the embeddings and the PE's variant.
QStringList modelParts(const Params &params)
{
    QStringList parts {TitleText::tableText(params)};
    if (params.concatenates())
        parts.append(TitleText::composeText(params));
    parts.append(embeddingText(params));
    if (const QString variant = TitleText::peVariantText(params); !variant.isEmpty())
        parts.append(variant);
    return parts;
}

// What X's label says it is: the scaled embeddings and the term, added or side by side; without
// a position term (NoPE), s·E alone.
QString inputText(const Params &params)
{
    return params.peColumns() == 0 ? u"s·E"_s : params.concatenates() ? u"[s·E | PE]"_s : u"s·E + PE"_s;
}

// The PE in X's columns, from the first of them on.
PeInCells peInModel(const Params &params, std::int64_t rowEnd)
{
    return {params.concatenates() ? params.embeddingColumns() : 0, rowEnd, false};
}

// Y's label: what the dropout mode does to X, and that evaluation or p = 0 leaves X as it is.
QString outputLabel(const Params &params)
{
    const bool dropping = params.training && params.dropout > 0.0;
    // masked-fill zeroes the padding rows (past seq_len) in training and in evaluation alike.
    if (params.dropoutMode == DropoutMode::MaskedFill && params.sequenceLength() < params.maxLen)
        return dropping ? u"Y = dropout(X, padding rows zeroed)"_s : u"Y = X, padding rows zeroed"_s;
    if (!dropping)
        return u"Y = X"_s;
    switch (params.dropoutMode) {
    case DropoutMode::Embedding:
        return params.concatenates() ? u"Y = [dropout(s·E) | PE]"_s : u"Y = dropout(s·E) + PE"_s;
    case DropoutMode::Positional:
        return params.concatenates() ? u"Y = [s·E | dropout(PE)]"_s : u"Y = dropout(PE) + s·E"_s;
    case DropoutMode::ProtectSpecial:
        return u"Y = dropout(X), special rows kept"_s;
    case DropoutMode::Sum:
    case DropoutMode::MaskedFill:
        break;
    }
    return u"Y = dropout(X)"_s;
}

} // namespace

QuantitySpec makePeQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Pe;
    q.name = u"pe"_s;
    q.label = u"PE"_s;
    q.help = u"the position term that enters X [max_len, d_model] (concat: [max_len, pe_dims]): the sinusoidal\n"
             "              table, or the learned table's rows from the offset on"_s;
    q.part = QuantityPart::Position;
    q.cellTerm = true;
    q.reads = positionReads();
    // The kernel takes a chunk of pairs through all of a block's rows at a time
    // (PositionalTable::fill), in the split layout too, where a pair's sine and cosine lie half a
    // row apart.
    q.tiling = Tiling::WholeRows;
    q.missing = needsPositionTerm;
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.peColumns()}; };
    q.workCells = blockCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        engine.positionTerm().fill(block, out, streaming);
    };
    q.bound = termBound;
    q.parameters = TitleText::positionTermParts;
    q.peCells = [](const Params &p) -> std::optional<PeInCells> { return PeInCells {0, p.maxLen, true}; };
    return q;
}

QuantitySpec makeEmbeddingQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Embedding;
    q.name = u"embedding"_s;
    q.label = u"s·E"_s;
    q.help = u"the scaled token embeddings s*E (concat: d_model - pe_dims columns)"_s;
    q.part = QuantityPart::Embedding;
    q.cellTerm = true;
    q.reads = kEmbeddingReads;
    q.missing = always;
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.embeddingColumns()}; };
    q.workCells = blockCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        const Embeddings &embeddings = engine.embeddings();
        const auto scale = static_cast<float>(engine.params().scale());
        std::vector<float> row(static_cast<std::size_t>(block.cols));
        for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
            embeddings.fill(Block {p, 1, block.col0, block.cols}, Eigen::Map<RowMatrixXf>(row.data(), 1, block.cols));
            for (float &v : row)
                v *= scale;
            writeRow(row, out.row(p - block.row0).data(), streaming);
        }
    };
    q.bound = Quantities::embeddingBound;
    q.parameters = [](const Params &p) {
        return QStringList {p.concatenates()
                                ? u"d − k = %1 columns (X's %2), L = %3"_s.arg(p.embeddingColumns())
                                      .arg(TitleText::columnsText(0, p.embeddingColumns()), NumberText::count(p.maxLen))
                                : TitleText::tableText(p),
                            embeddingText(p)};
    };
    return q;
}

QuantitySpec makeInputQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Input;
    q.name = u"input"_s;
    q.label = u"X = s·E + PE"_s;
    q.help = u"the model input X = s*E + PE (or the concatenation)"_s;
    q.part = QuantityPart::Model;
    q.cellTerm = true;
    q.reads = unite(positionReads(), kEmbeddingReads);
    // X goes through the columns in tiles of its own, and is written as a few sequential streams.
    q.tiling = Tiling::WholeRows;
    q.missing = always;
    q.shape = modelShape;
    q.workCells = blockCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        engine.modelInput().fill(Quantity::Input, block, out, streaming);
    };
    q.labelFor = [](const Params &p) { return u"X = "_s + inputText(p); };
    q.bound = inputBound;
    q.parameters = modelParts;
    q.peCells = [](const Params &p) -> std::optional<PeInCells> { return peInModel(p, p.maxLen); };
    return q;
}

QuantitySpec makeOutputQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Output;
    q.name = u"output"_s;
    q.label = u"Y = dropout(X)"_s;
    q.help = u"Y = dropout(X) for the chosen dropout mode"_s;
    q.part = QuantityPart::Model;
    q.cellTerm = true;
    q.reads = unite(unite(positionReads(), kEmbeddingReads), kDropoutReads);
    q.tiling = Tiling::WholeRows;
    q.missing = always;
    q.shape = modelShape;
    q.workCells = blockCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        engine.modelInput().fill(Quantity::Output, block, out, streaming);
    };
    q.labelFor = outputLabel;
    // Inverted dropout scales the kept cells by 1 / (1 - p); with everything dropped Y is the PE
    // in the embedding mode, s·E in the pe mode, else zero.
    q.bound = [](const Params &p) {
        if (!p.training || p.dropout <= 0.0 || (p.dropout >= 1.0 && p.dropoutMode == DropoutMode::Positional))
            return inputBound(p);
        return p.dropout < 1.0 ? inputBound(p) / (1.0 - p.dropout) : 1.0;
    };
    q.parameters = [](const Params &p) { return modelParts(p) << TitleText::dropoutText(p); };
    // E[Y] = X wherever a row is kept in expectation: inverted dropout, pass-through and
    // evaluation rows; masked-fill zeroes its padding, and p = 1 zeroes X (but keeps the PE of
    // the embedding variant).
    q.peCells = [](const Params &p) -> std::optional<PeInCells> {
        if (p.training && p.dropout >= 1.0 && p.dropoutMode != DropoutMode::Embedding)
            return std::nullopt;
        return peInModel(p,
                         p.dropoutMode == DropoutMode::MaskedFill ? std::min(p.maxLen, p.sequenceLength()) : p.maxLen);
    };
    return q;
}

QuantitySpec makeMaskQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Mask;
    q.name = u"mask"_s;
    q.label = u"mask (kept fraction)"_s;
    q.help = u"the keep mask of that dropout: 1 kept, 0 dropped"_s;
    q.part = QuantityPart::Model;
    q.cellTerm = true;
    q.reads = unite({u"encoding"_s, u"d-model"_s, u"max-len"_s, u"compose"_s, u"pe-dims"_s, u"seed"_s}, kDropoutReads);
    q.missing = always;
    q.shape = modelShape;
    q.workCells = blockCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        const DropoutMask &mask = engine.dropoutMask();
        // Concat's position columns in embedding mode (its s·E columns in pe mode) are kept whatever
        // the dice say (Y = PE, s·E there).
        const auto [first, end] = engine.params().droppableColumnsIn(block.col0, block.cols);
        std::vector<float> row(static_cast<std::size_t>(block.cols));
        for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
            mask.fillRow(p, block.col0, block.cols, row.data());
            std::fill(row.begin(), row.begin() + first, 1.0f);
            std::fill(row.begin() + end, row.end(), 1.0f);
            writeRow(row, out.row(p - block.row0).data(), streaming);
        }
    };
    // One cell is 1 or 0; a pixel that averages cells shows the kept fraction.
    q.labelFor = [](const Params &) { return u"mask (1 kept, 0 dropped)"_s; };
    q.bound = one;
    q.parameters = [](const Params &p) { return QStringList {TitleText::tableText(p), TitleText::dropoutText(p)}; };
    return q;
}

QuantitySpec makeSimilarityQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Similarity;
    q.name = u"similarity"_s;
    q.label = u"PE·PEᵀ"_s;
    q.help = u"S = PE . PE^T [max_len, max_len]"_s;
    q.part = QuantityPart::Other;
    q.reads = positionReads();
    q.tiling = Tiling::RowsOnly;
    q.missing = needsPositionTerm;
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.maxLen}; };
    // The position rows of both sides, in double.
    q.workCells = [](const Params &p, const Block &block) {
        return blockCells(p, block)
            + 4 * static_cast<std::uint64_t>(block.rows + block.cols) * static_cast<std::uint64_t>(p.peColumns());
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        Statistics::similarity(engine.positionTerm(), block, false, out);
    };
    // S = PE·PE^T spans ±k/2, its diagonal.
    q.bound = [](const Params &p) { return std::max(1.0, std::ceil(static_cast<double>(p.peColumns()) / 2.0)); };
    q.parameters = TitleText::positionTermParts;
    return q;
}

} // namespace posenc
