// TableCheck's streaming half: every row of the table against the reference, the next rows read
// while the last are compared (docs/ARCHITECTURE.md, Checking a table).
#include "TableCheck.h"

#include "core/NumberText.h"
#include "core/PositionalTable.h"
#include "core/ThreadPools.h"
#include "core/check/CheckDiagnosis.h"
#include "core/check/ReferenceTable.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

constexpr std::size_t kChunksInFlight = 3;
constexpr std::size_t kRowsNamed = 16; // deviating rows kept by number
// Rows a part of a chunk takes at least: the kernel anchors each part's first row with a sine
// and a cosine per pair, which a part of this many rows pays for many times over.
constexpr std::int64_t kPartRows = PositionalTable::kAnchorRows;

// What one part of the work found; merged in order, so the result is the same whatever the
// threads.
struct Tally
{
    double maxError = -1.0;
    std::int64_t worstRow = -1;
    std::int64_t worstColumn = -1;
    std::vector<float> columnMax;
    std::vector<std::int64_t> columnDeviations;
    std::vector<std::int64_t> deviatingRows; // increasing
    std::int64_t deviatingCells = 0;
    std::int64_t nonFiniteRow = -1;
    std::int64_t nonFiniteColumn = -1;
    bool nonFiniteIsNan = false;

    explicit Tally(std::int64_t cols)
        : columnMax(std::size_t(cols), 0.0f)
        , columnDeviations(std::size_t(cols), 0)
    { }
};

// Compares the reference's tile with the table's rows (row r at rows + (r - row0) * cols).
void compareTile(const ReferenceTable::Tile &t, const float *rows, std::int64_t row0, std::int64_t cols,
                 const ReferenceSpec &spec, const CellTolerance &tolerance, Tally &tally)
{
    const auto relative = float(tolerance.relative);
    const auto absolute = float(tolerance.absolute);
    thread_local std::vector<float> t_limit;
    const bool growing = !tolerance.perPosition.empty();
    for (std::int64_t r = 0; r < t.rows; ++r) {
        const std::int64_t row = t.row0 + r;
        const float *table = rows + (row - row0) * cols + t.col0;
        const float *ref = t.values + r * t.stride;
        float *columnMax = tally.columnMax.data() + t.col0;
        const float *extra = nullptr;
        if (growing) {
            // Float32 angles: the allowed error grows with the position.
            t_limit.resize(std::size_t(t.cols));
            const double position = std::fabs(double(spec.position(row)));
            for (std::int64_t c = 0; c < t.cols; ++c)
                t_limit[std::size_t(c)] = float(tolerance.perPosition[std::size_t(t.col0 + c)] * position);
            extra = t_limit.data();
        }
        float rowMax = 0.0f;
        int over = 0;
        for (std::int64_t c = 0; c < t.cols; ++c) {
            const float e = std::fabs(table[c] - ref[c]);
            const float limit = relative * std::fabs(ref[c]) + absolute + (extra ? extra[c] : 0.0f);
            columnMax[c] = columnMax[c] < e ? e : columnMax[c];
            rowMax = rowMax < e ? e : rowMax;
            over |= !(e <= limit);
        }
        if (double(rowMax) > tally.maxError) {
            for (std::int64_t c = 0; c < t.cols; ++c) {
                if (std::fabs(table[c] - ref[c]) == rowMax) {
                    tally.maxError = rowMax;
                    tally.worstRow = row;
                    tally.worstColumn = t.col0 + c;
                    break;
                }
            }
        }
        if (!over)
            continue;
        // The rare path: which cells, and whether one is not a number.
        for (std::int64_t c = 0; c < t.cols; ++c) {
            const float e = std::fabs(table[c] - ref[c]);
            const float limit = relative * std::fabs(ref[c]) + absolute + (extra ? extra[c] : 0.0f);
            if (e <= limit)
                continue;
            if (!std::isfinite(table[c]) && tally.nonFiniteRow < 0) {
                tally.nonFiniteRow = row;
                tally.nonFiniteColumn = t.col0 + c;
                tally.nonFiniteIsNan = std::isnan(table[c]);
            }
            ++tally.columnDeviations[std::size_t(t.col0 + c)];
            ++tally.deviatingCells;
        }
        if (tally.deviatingRows.empty() || tally.deviatingRows.back() != row)
            tally.deviatingRows.push_back(row);
    }
}

// Chunks of rows read ahead by a thread of their own into a few buffers that the comparing
// threads hand back.
class ReadAhead
{
public:
    ReadAhead(const TableRows &table, std::int64_t chunkRows, const std::atomic<bool> *cancel)
        : m_table(table)
        , m_chunkRows(chunkRows)
        , m_cancel(cancel)
    {
        for (auto &buffer : m_buffers)
            buffer.resize(std::size_t(chunkRows * table.cols()));
        m_thread = std::thread([this] { run(); });
    }
    ~ReadAhead()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    ReadAhead(const ReadAhead &) = delete;
    ReadAhead &operator=(const ReadAhead &) = delete;

    // Chunk k's rows once read, or null when reading failed (`error()`) or was stopped.
    const float *wait(std::int64_t k)
    {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [&] { return m_read > k || !m_error.isEmpty() || m_stop; });
        return m_read > k ? m_buffers[std::size_t(k) % kChunksInFlight].data() : nullptr;
    }
    // Chunk k's buffer may take a later chunk.
    void release(std::int64_t k)
    {
        {
            std::lock_guard lock(m_mutex);
            m_released = k + 1;
        }
        m_wake.notify_all();
    }
    QString error()
    {
        std::lock_guard lock(m_mutex);
        return m_error;
    }

private:
    void run()
    {
        const std::int64_t chunks = (m_table.rows() + m_chunkRows - 1) / m_chunkRows;
        for (std::int64_t k = 0; k < chunks; ++k) {
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&] { return m_stop || k - m_released < std::int64_t(kChunksInFlight); });
                if (m_stop)
                    return;
            }
            if (m_cancel && m_cancel->load(std::memory_order_relaxed))
                return;
            const std::int64_t row0 = k * m_chunkRows;
            const std::int64_t rows = std::min(m_chunkRows, m_table.rows() - row0);
            QString error;
            const bool ok = m_table.read(row0, rows, m_buffers[std::size_t(k) % kChunksInFlight].data(), error);
            {
                std::lock_guard lock(m_mutex);
                if (ok)
                    m_read = k + 1;
                else
                    m_error = error.isEmpty() ? u"the rows could not be read"_s : error;
            }
            m_wake.notify_all();
            if (!ok)
                return;
        }
    }

    const TableRows &m_table;
    const std::int64_t m_chunkRows;
    const std::atomic<bool> *m_cancel;
    std::vector<float> m_buffers[kChunksInFlight];
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::int64_t m_read = 0; // chunks read
    std::int64_t m_released = 0; // chunks whose buffers were handed back
    bool m_stop = false;
    QString m_error;
    std::thread m_thread;
};

std::int64_t chunkRowsFor(std::int64_t cols, const StreamOptions &options)
{
    const auto rowBytes = sizeof(float) * std::uint64_t(std::max<std::int64_t>(cols, 1));
    return std::max<std::int64_t>(1, std::int64_t(options.chunkBytes / rowBytes));
}

} // namespace

std::uint64_t streamBytes(std::int64_t cols, const StreamOptions &options)
{
    const std::uint64_t chunk = std::uint64_t(chunkRowsFor(cols, options)) * std::uint64_t(cols) * sizeof(float);
    return kChunksInFlight * chunk;
}

Verification verify(const TableMatch &match, const TableRows &table, const StreamOptions &options)
{
    Verification v;
    if (!match.reference)
        return v;
    const ReferenceSpec &spec = *match.reference;
    const ReferenceTable reference(spec);
    const std::int64_t cols = table.cols();
    const std::int64_t rows = table.rows();
    const std::int64_t chunkRows = chunkRowsFor(cols, options);
    const int threads = options.threads > 0 ? options.threads : QThread::idealThreadCount();
    v.columnMax.assign(std::size_t(cols), 0.0f);
    v.columnDeviations.assign(std::size_t(cols), 0);
    if (options.progress)
        options.progress->expect(rows);

    ReadAhead reader(table, chunkRows, options.cancel);
    const std::int64_t chunks = (rows + chunkRows - 1) / chunkRows;
    for (std::int64_t k = 0; k < chunks; ++k) {
        const float *chunk = reader.wait(k);
        if (!chunk) {
            if (options.cancel && options.cancel->load())
                v.cancelled = true;
            else
                v.error = reader.error();
            return v;
        }
        const std::int64_t row0 = k * chunkRows;
        const std::int64_t count = std::min(chunkRows, rows - row0);
        // Parts of whole anchor runs of rows where the chunk has them, else of columns.
        const std::int64_t byRows = std::max<std::int64_t>(1, count / kPartRows);
        const bool splitRows = byRows >= threads || cols < 2 * 64;
        const std::int64_t parts = splitRows ? byRows : std::min<std::int64_t>(threads, cols / 64);
        std::vector<Tally> tallies(static_cast<std::size_t>(parts), Tally(cols));
        const bool finished = forEachTile(parts, threads, options.cancel, [&](std::int64_t part) {
            Block block {row0, count, 0, cols};
            if (splitRows) {
                block.row0 = row0 + count * part / parts;
                block.rows = row0 + count * (part + 1) / parts - block.row0;
            } else {
                // Even column bounds keep an interleaved pair's two columns together.
                block.col0 = (cols * part / parts) & ~std::int64_t(1);
                block.cols = (part + 1 == parts ? cols : (cols * (part + 1) / parts) & ~std::int64_t(1)) - block.col0;
            }
            Tally &tally = tallies[std::size_t(part)];
            reference.forEachTile(block, [&](const ReferenceTable::Tile &t) {
                compareTile(t, chunk, row0, cols, spec, match.tolerance, tally);
            });
        });
        reader.release(k);
        if (!finished) {
            v.cancelled = true;
            return v;
        }
        // Merged in part order: rows, then columns, as one thread would have found them.
        std::vector<std::int64_t> chunkRowsDeviating;
        for (const Tally &t : tallies) {
            if (t.nonFiniteRow >= 0) {
                v.error = u"row %1, column %2 holds %3; a table of positions holds finite numbers"_s.arg(t.nonFiniteRow)
                              .arg(t.nonFiniteColumn)
                              .arg(t.nonFiniteIsNan ? u"NaN"_s : u"an infinity"_s);
                return v;
            }
            if (t.worstRow >= 0 && (v.worstRow < 0 || t.maxError > v.maxAbsError)) {
                v.maxAbsError = t.maxError;
                v.worstRow = t.worstRow;
                v.worstColumn = t.worstColumn;
            }
            for (std::int64_t c = 0; c < cols; ++c) {
                v.columnMax[std::size_t(c)] = std::max(v.columnMax[std::size_t(c)], t.columnMax[std::size_t(c)]);
                v.columnDeviations[std::size_t(c)] += t.columnDeviations[std::size_t(c)];
            }
            v.deviatingCells += t.deviatingCells;
            chunkRowsDeviating.insert(chunkRowsDeviating.end(), t.deviatingRows.begin(), t.deviatingRows.end());
        }
        std::sort(chunkRowsDeviating.begin(), chunkRowsDeviating.end());
        chunkRowsDeviating.erase(std::unique(chunkRowsDeviating.begin(), chunkRowsDeviating.end()),
                                 chunkRowsDeviating.end());
        v.deviatingRows += std::int64_t(chunkRowsDeviating.size());
        for (const std::int64_t r : chunkRowsDeviating) {
            if (v.someDeviatingRows.size() < kRowsNamed)
                v.someDeviatingRows.push_back(r);
        }
        if (!chunkRowsDeviating.empty())
            v.lastDeviatingRow = chunkRowsDeviating.back();
        for (std::int64_t r = row0; r < row0 + count; ++r)
            v.comparedRows += spec.compared(r);
        if (options.progress)
            options.progress->advance(count);
    }
    return v;
}

void conclude(TableMatch &match, const Verification &v)
{
    if (!match.reference)
        return;
    match.maxAbsError = v.maxAbsError;
    match.worstRow = v.worstRow;
    match.worstColumn = v.worstColumn;
    if (v.deviatingCells == 0)
        return;
    std::vector<std::int64_t> columns;
    for (std::size_t c = 0; c < v.columnDeviations.size(); ++c) {
        if (v.columnDeviations[c] > 0)
            columns.push_back(std::int64_t(c));
    }
    QString rows;
    if (v.deviatingRows <= std::int64_t(v.someDeviatingRows.size())) {
        rows = CheckDiagnosis::indexSet(v.someDeviatingRows, v.comparedRows, u"row"_s);
    } else {
        QStringList first;
        for (std::size_t i = 0; i < std::min<std::size_t>(v.someDeviatingRows.size(), 4); ++i)
            first.append(QString::number(v.someDeviatingRows[i]));
        rows = u"rows %1, ... %2 (%3 of %4)"_s.arg(first.join(u", "_s))
                   .arg(v.lastDeviatingRow)
                   .arg(v.deviatingRows)
                   .arg(v.comparedRows);
    }
    match.deviations = u"%1; %2"_s.arg(
        CheckDiagnosis::indexSet(columns, std::int64_t(v.columnDeviations.size()), u"column"_s), rows);
    if (match.verdict != CheckVerdict::Correct)
        return;
    // No mistake was named, yet cells deviate: the table is the reference but for them.
    match.verdict = CheckVerdict::Mistake;
    const QString where = u"row %1, column %2"_s.arg(v.worstRow).arg(v.worstColumn);
    match.diagnosis = v.deviatingCells == 1
        ? u"one cell deviates: %1 is off by %2 from %3; every other cell is within the rounding"_s.arg(
            where, NumberText::compact(v.maxAbsError, 3), match.referenceText)
        : u"%1 cells deviate from %2 beyond the rounding, the largest at %3 (off by %4)"_s.arg(v.deviatingCells)
              .arg(match.referenceText, where, NumberText::compact(v.maxAbsError, 3));
}

std::variant<ErrorBlock, QString> errorBlock(const TableMatch &match, const TableRows &table, const Block &block,
                                             const std::atomic<bool> *cancel)
{
    if (block.row0 < 0 || block.col0 < 0 || block.rowEnd() > table.rows() || block.colEnd() > table.cols())
        return u"rows %1..%2, columns %3..%4 are outside the table (%5 x %6)"_s.arg(block.row0)
            .arg(block.rowEnd() - 1)
            .arg(block.col0)
            .arg(block.colEnd() - 1)
            .arg(table.rows())
            .arg(table.cols());
    if (!match.reference)
        return u"this table has no reference to compare with"_s;
    ErrorBlock out;
    out.block = block;
    out.error.setZero(block.rows, block.cols);
    out.columnMax.assign(std::size_t(block.cols), 0.0f);
    const ReferenceTable reference(*match.reference);
    constexpr std::int64_t kRows = 256;
    std::vector<float> rows;
    for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += kRows) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return u"cancelled"_s;
        const std::int64_t count = std::min(kRows, block.rowEnd() - r0);
        rows.resize(std::size_t(count * table.cols()));
        QString error;
        if (!table.read(r0, count, rows.data(), error))
            return error;
        reference.forEachTile({r0, count, block.col0, block.cols}, [&](const ReferenceTable::Tile &t) {
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const float *cells = rows.data() + (t.row0 - r0 + r) * table.cols() + t.col0;
                const float *ref = t.values + r * t.stride;
                for (std::int64_t c = 0; c < t.cols; ++c) {
                    const float e = std::fabs(cells[c] - ref[c]);
                    const std::int64_t column = t.col0 + c - block.col0;
                    out.error(t.row0 + r - block.row0, column) = e;
                    out.columnMax[std::size_t(column)] = std::max(out.columnMax[std::size_t(column)], e);
                }
            }
        });
    }
    return out;
}

QFuture<std::variant<ErrorBlock, QString>> errorBlockAsync(std::shared_ptr<const TableRows> table, TableMatch match,
                                                           Block block, std::shared_ptr<std::atomic<bool>> cancel)
{
    return QtConcurrent::run([table = std::move(table), match = std::move(match), block, cancel = std::move(cancel)] {
        return errorBlock(match, *table, block, cancel.get());
    });
}

} // namespace posenc::TableCheck
