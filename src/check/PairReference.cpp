#include "PairReference.h"

#include "core/PositionalTable.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace posenc {

namespace {

// Round to nearest, ties to even, of a non-negative integer to a float format with
// `mantissaBits` explicit bits (no overflow: the callers keep positions within the format).
std::int64_t roundedPosition(std::int64_t p, int mantissaBits)
{
    if (p < (std::int64_t(2) << mantissaBits))
        return p;
    const int exponent = std::bit_width(static_cast<std::uint64_t>(p)) - 1;
    const std::int64_t step = std::int64_t(1) << (exponent - mantissaBits);
    const std::int64_t low = p / step * step;
    const std::int64_t rest = p - low;
    if (2 * rest > step || (2 * rest == step && (low / step) % 2 == 1))
        return low + step;
    return low;
}

// Columns a run of the kernel's holds on average, at least, for the runs to be copied whole.
constexpr std::int64_t kShortestRun = 4;

// A sink that calls `body` by reference: one pointer, which std::function keeps in place, where a
// lambda of several captures would be allocated at every kernel run (a search makes thousands).
template<typename Body> auto byReference(const Body &body)
{
    return [&body](const PositionalTable::Tile &t) { body(t); };
}

} // namespace

bool PairReferenceSpec::isPadding(std::int64_t row) const
{
    return std::binary_search(paddingRows.begin(), paddingRows.end(), row);
}

double PairReferenceSpec::frequency(std::int64_t column) const
{
    const std::int64_t pair = columns[static_cast<std::size_t>(column)].pair;
    return pair < 0 ? 0.0 : schedule.w[static_cast<std::size_t>(pair)];
}

PairReference::PairReference(PairReferenceSpec spec)
    : m_spec(std::move(spec))
{
    if (m_spec.kernelLayout) {
        m_kernel = std::make_shared<const PositionalTable>(m_spec.cols(), m_spec.schedule, *m_spec.kernelLayout,
                                                           m_spec.angles);
    } else {
        // Sines of every pair in columns [0, P), cosines in [P, 2P), gathered into the table's:
        // only the span of them the table reads (a RoPE cos table, its cosines).
        const std::int64_t pairs = m_spec.schedule.pairs();
        m_kernel = std::make_shared<const PositionalTable>(2 * pairs, m_spec.schedule, Layout::Split, m_spec.angles);
        std::int64_t first = 2 * pairs, last = -1;
        for (const ReferenceColumn &c : m_spec.columns) {
            if (c.pair < 0)
                continue;
            const std::int64_t k = c.isCos ? pairs + c.pair : c.pair;
            first = std::min(first, k);
            last = std::max(last, k);
        }
        m_kernelCol0 = last < 0 ? 0 : first;
        m_kernelCols = last < 0 ? 0 : last + 1 - first;
        m_source.resize(m_spec.columns.size());
        for (std::size_t j = 0; j < m_spec.columns.size(); ++j) {
            const ReferenceColumn &c = m_spec.columns[j];
            m_source[j] = std::int32_t(c.pair < 0 ? m_kernelCols : (c.isCos ? pairs + c.pair : c.pair) - m_kernelCol0);
        }
        // The runs of columns whose sources follow one another, the zero columns in none.
        for (std::size_t j = 0; j < m_source.size(); ++j) {
            const std::int64_t from = m_source[j];
            if (from == m_kernelCols)
                continue;
            if (!m_runs.empty() && m_runs.back().col + m_runs.back().length == std::int64_t(j)
                && m_runs.back().source + m_runs.back().length == from)
                ++m_runs.back().length;
            else
                m_runs.push_back({std::int64_t(j), from, 1});
        }
        m_gatherByRuns = std::int64_t(m_runs.size()) * kShortestRun <= m_spec.cols();
    }
}

PairReference::~PairReference() = default;

void PairReference::forEachKernelRun(std::int64_t row0, std::int64_t rows, const Block &block, const TileSink &sink,
                                     bool pieces) const
{
    std::int64_t position = m_spec.position(row0);
    if (m_spec.positionRounding != PositionRounding::None)
        position = roundedPosition(position, m_spec.positionRounding == PositionRounding::Float16 ? 10 : 7);
    if (m_spec.kernelLayout) {
        const auto own = [&](const PositionalTable::Tile &t) {
            sink(Tile {t.row0 - position + row0, t.rows, t.col0, t.cols, t.values, t.stride});
        };
        m_kernel->forEachTile({position, rows, block.col0, block.cols}, byReference(own));
        return;
    }
    const std::int64_t width = m_kernelCols;
    thread_local std::vector<float> t_out;
    if (width == 0) {
        t_out.assign(static_cast<std::size_t>(PositionalTable::kRunRows * block.cols), 0.0f);
        for (std::int64_t r = 0; r < rows; r += PositionalTable::kRunRows)
            sink(Tile {row0 + r, std::min(PositionalTable::kRunRows, rows - r), block.col0, block.cols, t_out.data(),
                       block.cols});
        return;
    }
    const std::int64_t blockEnd = block.col0 + block.cols;
    if (m_runs.size() == 1 && m_runs.front().col <= block.col0
        && m_runs.front().col + m_runs.front().length >= blockEnd) {
        // The block's columns are the kernel's own, in order (a table of the cosines alone): its
        // tiles as they are.
        const std::int64_t shift = m_runs.front().source - m_runs.front().col;
        const auto shifted = [&](const PositionalTable::Tile &t) {
            sink(Tile {t.row0 - position + row0, t.rows, t.col0 - m_kernelCol0 - shift, t.cols, t.values, t.stride});
        };
        m_kernel->forEachTile({position, rows, m_kernelCol0 + block.col0 + shift, block.cols}, byReference(shifted));
        return;
    }
    if (m_gatherByRuns && pieces) {
        // Each run's columns where the kernel's tile holds them, the zero columns a tile of zeros
        // each: no copy (RoPE's cat(cos, cos): the tile's cosines twice).
        const std::int32_t *source = m_source.data();
        const bool zeros
            = std::any_of(source + block.col0, source + blockEnd, [&](std::int32_t s) { return s == width; });
        if (zeros)
            t_out.assign(static_cast<std::size_t>(block.cols), 0.0f);
        const auto piece = [&](const PositionalTable::Tile &t) {
            const std::int64_t at = t.col0 - m_kernelCol0;
            for (const Run &run : m_runs) {
                const std::int64_t lo = std::max({run.col, block.col0, run.col + at - run.source});
                const std::int64_t hi = std::min({run.col + run.length, blockEnd, run.col + at + t.cols - run.source});
                if (lo < hi)
                    sink(Tile {t.row0 - position + row0, t.rows, lo, hi - lo,
                               t.values + (run.source + lo - run.col - at), t.stride});
            }
            if (!zeros || at + t.cols != width)
                return;
            for (std::int64_t c = block.col0; c < blockEnd;) {
                if (source[c] != width) {
                    ++c;
                    continue;
                }
                std::int64_t end = c + 1;
                while (end < blockEnd && source[end] == width)
                    ++end;
                sink(Tile {t.row0 - position + row0, t.rows, c, end - c, t_out.data(), 0});
                c = end;
            }
        };
        m_kernel->forEachTile({position, rows, m_kernelCol0, width}, byReference(piece));
        return;
    }
    t_out.assign(static_cast<std::size_t>(PositionalTable::kRunRows * block.cols), 0.0f);
    if (m_gatherByRuns) {
        // The table's columns as runs of the kernel's (RoPE's half layout, cat(cos, cos): two), each
        // copied a row at a time from the tile that holds it; the zero columns stay 0.
        const auto gather = [&](const PositionalTable::Tile &t) {
            const std::int64_t at = t.col0 - m_kernelCol0; // the tile's kernel columns [at, at + t.cols)
            for (const Run &run : m_runs) {
                const std::int64_t lo = std::max({run.col, block.col0, run.col + at - run.source});
                const std::int64_t hi = std::min({run.col + run.length, blockEnd, run.col + at + t.cols - run.source});
                if (lo >= hi)
                    continue;
                const float *from = t.values + (run.source + lo - run.col - at);
                float *to = t_out.data() + (lo - block.col0);
                for (std::int64_t r = 0; r < t.rows; ++r)
                    std::copy(from + r * t.stride, from + r * t.stride + (hi - lo), to + r * block.cols);
            }
            if (at + t.cols == width)
                sink(Tile {t.row0 - position + row0, t.rows, block.col0, block.cols, t_out.data(), block.cols});
        };
        m_kernel->forEachTile({position, rows, m_kernelCol0, width}, byReference(gather));
        return;
    }
    // Columns taken one at a time (an interleaved cos table, cos_0 cos_0 cos_1 cos_1 ...): the
    // kernel's columns the table reads, one run of rows at a time, a zero after them for the zero
    // columns; each table column then takes its source by index.
    thread_local std::vector<float> t_run;
    t_run.assign(static_cast<std::size_t>(PositionalTable::kRunRows * (width + 1)), 0.0f);
    const std::int32_t *source = m_source.data() + block.col0;
    const auto pick = [&](const PositionalTable::Tile &t) {
        const std::int64_t at = t.col0 - m_kernelCol0;
        for (std::int64_t r = 0; r < t.rows; ++r)
            std::copy(t.values + r * t.stride, t.values + r * t.stride + t.cols, t_run.data() + r * (width + 1) + at);
        if (at + t.cols != width)
            return;
        for (std::int64_t r = 0; r < t.rows; ++r) {
            const float *from = t_run.data() + r * (width + 1);
            float *to = t_out.data() + r * block.cols;
            for (std::int64_t c = 0; c < block.cols; ++c)
                to[c] = from[source[c]];
        }
        sink(Tile {t.row0 - position + row0, t.rows, block.col0, block.cols, t_out.data(), block.cols});
    };
    m_kernel->forEachTile({position, rows, m_kernelCol0, width}, byReference(pick));
}

void PairReference::forEachTile(const Block &block, const TileSink &sink) const
{
    forEachRun(block, sink, false);
}

void PairReference::forEachPiece(const Block &block, const TileSink &sink) const
{
    forEachRun(block, sink, true);
}

void PairReference::forEachRun(const Block &block, const TileSink &sink, bool pieces) const
{
    if (block.isEmpty())
        return;
    const std::int64_t end = block.rowEnd();
    const bool atIds = !m_spec.rowPositions.empty();
    std::int64_t row = std::max(block.row0, atIds ? std::int64_t(0) : m_spec.firstRow);
    const bool rounded = m_spec.positionRounding != PositionRounding::None;
    while (row < end) {
        if (!m_spec.compared(row)) {
            ++row;
            continue;
        }
        // A run of compared rows, ended by a padding row (or, at ids, by positions that do not go on
        // one by one); rounded positions go one row at a time.
        std::int64_t next = row + 1;
        while (!rounded && next < end && m_spec.compared(next)
               && (!atIds || m_spec.position(next) == m_spec.position(next - 1) + 1))
            ++next;
        forEachKernelRun(row, next - row, block, sink, pieces);
        row = next;
    }
}

} // namespace posenc
