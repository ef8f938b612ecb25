#include "MropeTableReference.h"

#include "core/PositionalTable.h"
#include "core/mrope/MropeRotation.h"
#include "core/positions/BatchLayout.h"

#include <algorithm>
#include <cmath>

namespace posenc {

namespace {

// Tiles of the stream's run of rows, which its reads of the table are multiples of.
constexpr std::int64_t kMropeTileRows = PositionalTable::kRunRows;

std::int64_t largestId(const MropeIds &id)
{
    return std::max({id.t, id.h, id.w});
}

} // namespace

void MropeTurns::fill(bool cosine, const MropeIds *ids, std::int64_t rows, std::int64_t col0, std::int64_t cols,
                      float *out, std::int64_t stride) const
{
    std::vector<double> values(static_cast<std::size_t>(pairs()));
    for (std::int64_t r = 0; r < rows; ++r) {
        const double axis[3] = {double(ids[r].t), double(ids[r].h), double(ids[r].w)};
        for (std::size_t j = 0; j < values.size(); ++j) {
            const double angle = axis[axes[j]] * inv[j];
            values[j] = amplitude * (cosine ? std::cos(angle) : std::sin(angle));
        }
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto pair = static_cast<std::size_t>(pairOf(col0 + c));
            if (columnAxes.empty()) {
                out[r * stride + c] = static_cast<float>(values[pair]);
                continue;
            }
            const double angle = axis[columnAxes[static_cast<std::size_t>(col0 + c)]] * inv[pair];
            out[r * stride + c] = static_cast<float>(amplitude * (cosine ? std::cos(angle) : std::sin(angle)));
        }
    }
}

MropeTurns mropeTurns(const Params &params, const MropeLayout &layout)
{
    const MropeRotation rotation(params, layout);
    MropeTurns turns;
    turns.axes = rotation.axes();
    turns.inv = rotation.inverseFrequencies();
    turns.amplitude = rotation.attentionFactor();
    turns.half = params.rope.layout == RopeLayout::Half;
    return turns;
}

MropePromptReference::MropePromptReference(const Params &params, bool cosine, MropeIdMistake mistake,
                                           std::vector<int> columnAxes, MropeRowIds rowIds)
    : m_layout(std::make_shared<const MropeLayout>(params))
    , m_turns(mropeTurns(params, *m_layout))
    , m_cosine(cosine)
    , m_mistake(mistake)
    , m_padding(std::max<std::int64_t>(rowIds.leftPadding, 0))
    , m_rowIds(rowIds)
{
    m_turns.columnAxes = std::move(columnAxes);
}

std::int64_t MropePromptReference::position(std::int64_t row) const
{
    MropeIds id;
    ids(row, 1, &id);
    return largestId(id);
}

void MropePromptReference::ids(std::int64_t row0, std::int64_t count, MropeIds *out) const
{
    const std::int64_t padding = std::clamp<std::int64_t>(m_padding - row0, 0, count);
    for (std::int64_t i = 0; i < padding; ++i)
        out[i] = MropeIds {MropeTokenKind::Text, BatchLayout::kPaddingId, BatchLayout::kPaddingId,
                           BatchLayout::kPaddingId};
    if (padding < count)
        realIds(row0 + padding - m_padding, count - padding, out + padding);
}

std::int64_t mropeLeftPadding(const Params &params, std::int64_t rows)
{
    const auto parsed = BatchLayout::parseLengths(params.batch.lengths);
    const auto *lengths = std::get_if<BatchLayout::Lengths>(&parsed);
    if (params.batch.lengths.isEmpty() || !lengths || lengths->side != BatchLayout::Side::Left
        || lengths->lengths.size() != 1)
        return 0;
    return std::max<std::int64_t>(rows - lengths->lengths.front(), 0);
}

void MropePromptReference::realIds(std::int64_t row0, std::int64_t count, MropeIds *out) const
{
    const std::int64_t shift = m_rowIds.shift;
    if (m_rowIds.textWindow()) {
        for (std::int64_t i = 0; i < count; ++i) {
            const std::int64_t id = *m_rowIds.window + row0 + i + shift;
            out[i] = MropeIds {MropeTokenKind::Text, id, id, id};
        }
        return;
    }
    // Row row0 + i is the sequence's token at cache position `first` + row0 + i.
    const std::int64_t first = m_rowIds.window.value_or(0) + row0;
    const MropeLayout &layout = *m_layout;
    const std::int64_t inPrompt = std::clamp<std::int64_t>(layout.tokens() - first, 0, count);
    if (inPrompt > 0)
        layout.ids(first, inPrompt, out);
    // Generated tokens: position_ids = cache_position + rope_deltas on all three axes.
    const std::int64_t delta = m_mistake == MropeIdMistake::DeltaLost ? 0 : layout.ropeDelta();
    for (std::int64_t i = inPrompt; i < count; ++i) {
        const std::int64_t id = first + i + delta;
        out[i] = MropeIds {MropeTokenKind::Text, id, id, id};
    }
    if (m_mistake == MropeIdMistake::AxesSwapped) {
        for (std::int64_t i = 0; i < inPrompt; ++i) {
            if (out[i].kind != MropeTokenKind::Text)
                std::swap(out[i].h, out[i].w);
        }
    }
    for (std::int64_t i = 0; shift != 0 && i < count; ++i) {
        out[i].t += shift;
        out[i].h += shift;
        out[i].w += shift;
    }
}

void MropePromptReference::forEachTile(const Block &block, const TileSink &sink) const
{
    std::vector<MropeIds> rowIds(static_cast<std::size_t>(kMropeTileRows));
    RowMatrixXf rows(kMropeTileRows, std::max<std::int64_t>(block.cols, 1));
    for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += kMropeTileRows) {
        const std::int64_t n = std::min(kMropeTileRows, block.rowEnd() - r0);
        ids(r0, n, rowIds.data());
        m_turns.fill(m_cosine, rowIds.data(), n, block.col0, block.cols, rows.data(), rows.cols());
        sink(Tile {r0, n, block.col0, block.cols, rows.data(), rows.cols()});
    }
}

MropeSampledReference::MropeSampledReference(MropeTurns turns, bool cosine, std::vector<std::int64_t> rows,
                                             std::vector<MropeIds> ids)
    : m_turns(std::move(turns))
    , m_cosine(cosine)
    , m_rows(std::move(rows))
    , m_ids(std::move(ids))
{ }

bool MropeSampledReference::compared(std::int64_t row) const
{
    return std::binary_search(m_rows.begin(), m_rows.end(), row);
}

std::int64_t MropeSampledReference::position(std::int64_t row) const
{
    const auto at = std::lower_bound(m_rows.begin(), m_rows.end(), row);
    if (at == m_rows.end() || *at != row)
        return 0;
    return largestId(m_ids[static_cast<std::size_t>(at - m_rows.begin())]);
}

void MropeSampledReference::forEachTile(const Block &block, const TileSink &sink) const
{
    RowMatrixXf rows(kMropeTileRows, std::max<std::int64_t>(block.cols, 1));
    auto at = std::lower_bound(m_rows.begin(), m_rows.end(), block.row0);
    while (at != m_rows.end() && *at < block.rowEnd()) {
        // A run of consecutive sampled rows, a tile at a time.
        std::int64_t n = 1;
        while (n < kMropeTileRows && at + n != m_rows.end() && *(at + n) == *at + n && *(at + n) < block.rowEnd())
            ++n;
        const std::size_t i = static_cast<std::size_t>(at - m_rows.begin());
        m_turns.fill(m_cosine, m_ids.data() + i, n, block.col0, block.cols, rows.data(), rows.cols());
        sink(Tile {*at, n, block.col0, block.cols, rows.data(), rows.cols()});
        at += n;
    }
}

} // namespace posenc
