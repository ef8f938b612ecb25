// TableCheck's streaming half: every row of the table against the reference, the next rows read
// while the last are compared (docs/ARCHITECTURE.md, Checking a table).
#include "TableCheck.h"

#include "check/CompareSimd.h"
#include "check/TableReference.h"
#include "check/TableSample.h"
#include "check/TableStreamProbe.h"
#include "core/MemoryBudget.h"
#include "core/PositionalTable.h"
#include "core/ThreadPools.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

constexpr std::size_t kRowsNamed = 16; // deviating rows kept by number
// The cells moved a decision needs, and the share of them holding exact values past which the
// table is not float32 angles.
constexpr std::int64_t kMinMoved = 256;
constexpr double kExactShare = 0.1;
// The rows a thread takes at once: the kernel anchors a block's first row with a sine and a
// cosine per pair, which a block of this many rows pays for many times over.
constexpr std::int64_t kBlockRows = PositionalTable::kAnchorRows;

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
    // The deviating cell with the largest |error|: the cell a diagnosis names, which the largest
    // error of all may not be (a fast column's float32 angles allow more than a slow one's).
    float deviationError = -1.0f;
    std::int64_t deviationRow = -1;
    std::int64_t deviationColumn = -1;
    // Against the exact angles, of a float32-angle match: cells float32 angles move, and of them
    // those that hold the exact value.
    ExactProbe probed;
    std::int64_t nonFiniteRow = -1;
    std::int64_t nonFiniteColumn = -1;
    bool nonFiniteIsNan = false;
    // Of a float32-angle match, in the first and the last rows (Bands): the largest |error| of the
    // cells within the tolerance, what float32 angles predict there, the exact angles' tolerance.
    double firstError = 0.0, firstPredicted = 0.0;
    double lastError = 0.0, lastPredicted = 0.0, lastExact = 0.0;
    std::int64_t firstCells = 0, firstBeyond = 0;

    explicit Tally(std::int64_t cols)
        : columnMax(std::size_t(cols), 0.0f)
        , columnDeviations(std::size_t(cols), 0)
    { }
};

// Below `x` or equal to it, the nearest float.
float floatBelow(double x)
{
    const auto f = float(x);
    return double(f) > x ? std::nextafter(f, 0.0f) : f;
}

// The float32 angles' allowance per unit of position of each column, each rounded down: the kernel's
// limit perColumn[c] * |position| (CompareSimd's GrowingLimit) is then never above the stream's
// float(perPosition[c] * |position|), so that a cell beyond the one is beyond the other, and the rows
// it says are over are then judged cell by cell exactly (compareTile). Empty without float32 angles
// or where cells carry their own rounding, whose limits are laid out per cell (extraLimits).
std::vector<float> growingLimits(const CellTolerance &tolerance, const TableRows &rows)
{
    std::vector<float> out;
    if (rows.hasCellRounding())
        return out;
    for (const double perPosition : tolerance.perPosition)
        out.push_back(floatBelow(perPosition));
    return out;
}

// A cell's allowed error beyond relative |reference| + absolute in a row at `position`, as the
// stream allows it in float: with float32 angles it grows with the position.
float growingLimit(const CellTolerance &tolerance, std::int64_t column, double position)
{
    return float(tolerance.perPosition[std::size_t(column)] * position);
}

// The allowed error beyond relative |reference| + absolute of `count` rows of a tile from row
// `row` on, into `limit`, of a table whose cells carry their own rounding: a cell of a text table
// written with fewer digits than the others is allowed its own rounding, and with float32 angles
// the limit grows with the position.
void extraLimits(const TableReference::Tile &t, std::int64_t row, int count, const TableReference &reference,
                 const CellTolerance &tolerance, const TableRows &rows, std::vector<float> &limit)
{
    limit.assign(std::size_t(count * t.cols), 0.0f);
    if (!tolerance.perPosition.empty()) {
        for (int r = 0; r < count; ++r) {
            const double position = std::fabs(double(reference.position(row + r)));
            for (std::int64_t c = 0; c < t.cols; ++c)
                limit[std::size_t(r * t.cols + c)] = growingLimit(tolerance, t.col0 + c, position);
        }
    }
    if (rows.hasCellRounding()) {
        thread_local std::vector<float> t_rounding;
        t_rounding.assign(limit.size(), 0.0f);
        rows.addCellRounding(row, count, t.col0, t.cols, t_rounding.data());
        for (std::size_t i = 0; i < limit.size(); ++i)
            limit[i] += float(kCellRoundingMargin) * t_rounding[i];
    }
}

// The first and the last rows of a table whose error a precision of float32 angles rests on: a
// sixteenth of the rows each, 1 to 1024 of them.
struct Bands
{
    std::int64_t firstEnd = 0; // rows [0, firstEnd)
    std::int64_t lastRow = 0; // rows [lastRow, rows)

    static Bands of(std::int64_t rows)
    {
        const std::int64_t band = std::clamp<std::int64_t>(rows / 16, 1, 1024);
        return {band, std::max<std::int64_t>(rows - band, band)};
    }
};

// How many times its allowance a cell's error must be to be a deviation no precision explains.
constexpr double kGrossBeyond = 16.0;

// Of a float32-angle match, a row of the first or last band: its cells within the tolerance, their
// |error| against the exact angles and what float32 angles predict (half the allowance, which
// doubles the prediction), against the exact angles' tolerance.
void bandEvidence(const float *cells, const float *ref, std::int64_t col0, std::int64_t count, double position,
                  const CellTolerance &tolerance, bool last, Tally &tally)
{
    double &worst = last ? tally.lastError : tally.firstError;
    double &predicted = last ? tally.lastPredicted : tally.firstPredicted;
    for (std::int64_t c = 0; c < count; ++c) {
        if (!std::isfinite(ref[c]))
            continue;
        const double exact = tolerance.relative * std::fabs(double(ref[c])) + tolerance.absolute;
        const double allowance = tolerance.perPosition[std::size_t(col0 + c)] * position;
        const double error = std::fabs(double(cells[c]) - double(ref[c]));
        // A cell far past every rounding (a block negated, cells overwritten) is a deviation of its
        // own, evidence neither for float32 angles nor against them: not counted.
        if (error > kGrossBeyond * (exact + allowance))
            continue;
        if (!last)
            ++tally.firstCells;
        if (!(error <= exact + allowance)) {
            tally.firstBeyond += last ? 0 : 1;
            continue;
        }
        worst = std::max(worst, error);
        predicted = std::max(predicted, exact + 0.5 * allowance);
        if (last)
            tally.lastExact = std::max(tally.lastExact, exact);
    }
}

// The kernel's terms of CellTolerance::heldFormat, where the tolerance has one.
std::optional<HeldValues> heldValues(const CellTolerance &tolerance)
{
    if (tolerance.heldFormat == ValueFormat::Float32)
        return std::nullopt;
    const FormatBits bits = formatBits(tolerance.heldFormat);
    return HeldValues {bits.mask, bits.least, bits.greatest, float(tolerance.heldRelative)};
}

// Compares the reference's tile with the table's rows (row r at rows + (r - row0) * cols), a
// kernel run of up to four rows at a time; `growing`, growingLimits' (empty: none).
void compareTile(const TableReference::Tile &t, const float *rows, std::int64_t row0, std::int64_t cols,
                 const TableReference &reference, const CellTolerance &tolerance, const TableRows &source,
                 const std::vector<float> &growing, const Bands &bands, Tally &tally)
{
    const auto relative = float(tolerance.relative);
    const auto absolute = float(tolerance.absolute);
    // An exact reference's own values of the format: held to float32's part (CellTolerance::heldFormat).
    const std::optional<HeldValues> held = heldValues(tolerance);
    thread_local std::vector<float> t_limit;
    const bool extraLimit = !tolerance.perPosition.empty() && growing.empty();
    GrowingLimit growth;
    growth.perColumn = growing.empty() ? nullptr : growing.data() + t.col0;
    for (std::int64_t r0 = 0; r0 < t.rows; r0 += RowsComparison::kMaxRows) {
        const int count = int(std::min<std::int64_t>(RowsComparison::kMaxRows, t.rows - r0));
        const float *table = rows + (t.row0 + r0 - row0) * cols + t.col0;
        const float *expected = t.values + r0 * t.stride;
        const float *extra = nullptr;
        if (extraLimit || source.hasCellRounding()) {
            extraLimits(t, t.row0 + r0, count, reference, tolerance, source, t_limit);
            extra = t_limit.data();
        }
        for (int r = 0; growth.perColumn && r < count; ++r)
            growth.rowScale[r] = floatBelow(std::fabs(double(reference.position(t.row0 + r0 + r))));
        const RowsComparison compared = compareRows(
            table, cols, expected, t.stride, count, tally.columnMax.data() + t.col0, t.cols, relative, absolute, extra,
            growth.perColumn ? &growth : nullptr, reference.holdsInfinities(), held ? &*held : nullptr);
        for (int r = 0; r < count; ++r) {
            const std::int64_t row = t.row0 + r0 + r;
            const float *cells = table + r * cols;
            const float *ref = expected + r * t.stride;
            const float rowMax = compared.rowMax[r];
            if (!tolerance.perPosition.empty() && (row < bands.firstEnd || row >= bands.lastRow)
                && reference.compared(row))
                bandEvidence(cells, ref, t.col0, t.cols, std::fabs(double(reference.position(row))), tolerance,
                             row >= bands.lastRow, tally);
            if (double(rowMax) > tally.maxError) {
                for (std::int64_t c = 0; c < t.cols; ++c) {
                    if ((cells[c] == ref[c] ? 0.0f : std::fabs(cells[c] - ref[c])) == rowMax) {
                        tally.maxError = rowMax;
                        tally.worstRow = row;
                        tally.worstColumn = t.col0 + c;
                        break;
                    }
                }
            }
            if (!compared.over[r])
                continue;
            // The rare path: which cells, and whether one is not a number; with a growing limit, the
            // kernel's lower one, each cell against the stream's own.
            const float *limits = extra ? extra + r * t.cols : nullptr;
            const double position = std::fabs(double(reference.position(row)));
            std::int64_t beyond = 0;
            for (std::int64_t c = 0; c < t.cols; ++c) {
                const float e = cells[c] == ref[c] ? 0.0f : std::fabs(cells[c] - ref[c]);
                const float more
                    = limits ? limits[c] : (growth.perColumn ? growingLimit(tolerance, t.col0 + c, position) : 0.0f);
                const float own = held && formatHolds(ref[c], tolerance.heldFormat) ? held->relative : relative;
                const float limit = std::isfinite(ref[c]) ? own * std::fabs(ref[c]) + absolute + more : 0.0f;
                if (e <= limit)
                    continue;
                ++beyond;
                // NaN is no number to compare, nor a float64 cell past float32's range (exit 3); an
                // infinity of a float32 or half table where the reference has none is a deviation
                // like any other, a mask's cells where no mask is meant.
                const bool unread
                    = std::isnan(cells[c]) || (std::isinf(cells[c]) && source.storedType() == StoredType::Float64);
                if (unread && tally.nonFiniteRow < 0) {
                    tally.nonFiniteRow = row;
                    tally.nonFiniteColumn = t.col0 + c;
                    tally.nonFiniteIsNan = std::isnan(cells[c]);
                }
                if (e > tally.deviationError) {
                    tally.deviationError = e;
                    tally.deviationRow = row;
                    tally.deviationColumn = t.col0 + c;
                }
                ++tally.columnDeviations[std::size_t(t.col0 + c)];
                ++tally.deviatingCells;
            }
            if (beyond > 0 && (tally.deviatingRows.empty() || tally.deviatingRows.back() != row))
                tally.deviatingRows.push_back(row);
        }
    }
}

// A part's tally into the verification's, the parts merged in order.
void mergeTally(const Tally &t, Verification &v, ExactProbe &probed, AngleEvidence &evidence)
{
    if (t.worstRow >= 0 && (v.worstRow < 0 || t.maxError > v.maxAbsError)) {
        v.maxAbsError = t.maxError;
        v.worstRow = t.worstRow;
        v.worstColumn = t.worstColumn;
    }
    for (std::size_t c = 0; c < v.columnMax.size(); ++c) {
        v.columnMax[c] = std::max(v.columnMax[c], t.columnMax[c]);
        v.columnDeviations[c] += t.columnDeviations[c];
    }
    v.deviatingCells += t.deviatingCells;
    probed += t.probed;
    evidence.firstError = std::max(evidence.firstError, t.firstError);
    evidence.firstPredicted = std::max(evidence.firstPredicted, t.firstPredicted);
    evidence.lastError = std::max(evidence.lastError, t.lastError);
    evidence.lastPredicted = std::max(evidence.lastPredicted, t.lastPredicted);
    evidence.lastExact = std::max(evidence.lastExact, t.lastExact);
    evidence.firstCells += t.firstCells;
    evidence.firstBeyond += t.firstBeyond;
    if (t.deviationRow >= 0 && double(t.deviationError) > v.deviationError) {
        v.deviationError = t.deviationError;
        v.deviationRow = t.deviationRow;
        v.deviationColumn = t.deviationColumn;
    }
}

// Rows each thread reads at a time: a piece of the second-level cache, so that the rows the
// kernel's tiles are compared with are still there; four at least, a kernel run's.
std::int64_t readRowsFor(std::int64_t cols, const StreamOptions &options)
{
    const auto rowBytes = sizeof(float) * std::uint64_t(std::max<std::int64_t>(cols, 1));
    const auto rows = std::int64_t(options.chunkBytes / rowBytes);
    return std::clamp<std::int64_t>(rows / PositionalTable::kRunRows * PositionalTable::kRunRows,
                                    PositionalTable::kRunRows, kBlockRows);
}

int threadsOf(const StreamOptions &options)
{
    return options.threads > 0 ? options.threads : std::max(1, QThread::idealThreadCount());
}

} // namespace

std::uint64_t streamBytes(std::int64_t cols, const StreamOptions &options)
{
    return std::uint64_t(threadsOf(options)) * std::uint64_t(readRowsFor(cols, options))
        * std::uint64_t(std::max<std::int64_t>(cols, 1)) * sizeof(float);
}

std::optional<QString> fitToBudget(const TableRows &table, std::uint64_t budget, StreamOptions &options)
{
    const std::int64_t cols = std::max<std::int64_t>(1, table.cols());
    // The sample reads whole rows, 16 of them at least; identify's stages copy it (identifyCells).
    const std::uint64_t identifying = identifyCells(table.rows(), cols, table.textRounding() > 0.0);
    while (options.chunkBytes > (std::uint64_t(1) << 16)
           && MemoryBudget::bytesFor(identifying) + streamBytes(cols, options) > budget)
        options.chunkBytes /= 2;
    const std::uint64_t cells = identifying + streamBytes(cols, options) / sizeof(float);
    return MemoryBudget::check(cells, budget, u"checking %1 (a sample and rows in flight)"_s.arg(table.name()));
}

namespace {
// `growthProbe`: whether a match of float32 angles whose error does not grow with the row is
// compared again with the exact angles (not for one whose exact angles already deviated).
Verification verifyWith(const TableMatch &match, const TableRows &table, const StreamOptions &options,
                        bool growthProbe = true);
} // namespace

// A cell is a deviation only beyond what a faithful computation at the table's precision gives
// (issue 56): a float32 (or narrower) table fitted with the exact angles whose streamed rows
// deviate is streamed again with float32 angles' tolerance (cellTolerance), which HF's float32
// inv_freq and a float32 table rounded to bfloat16 need at rows the sample did not hold.
Verification verify(const TableMatch &match, const TableRows &table, const StreamOptions &options)
{
    Verification v = verifyWith(match, table, options);
    const PairReference *pairs = match.reference ? match.reference->pairs() : nullptr;
    // A match of float32 angles compared again with the exact ones (its error flat) that deviates
    // there is one too: the exact angles do not explain it either.
    if (v.deviatingCells == 0 || v.cancelled || v.error || !pairs || (!match.tolerance.perPosition.empty() && !v.flat))
        return v;
    TableMatch widened = match;
    const CellTolerance angles = cellTolerance(ValueFormat::Float32, true, StoredType::Float32, 0.0, pairs->spec());
    widened.tolerance.perPosition = angles.perPosition;
    widened.tolerance.exactAngle = angles.exactAngle;
    widened.tolerance.angleRounding = angles.angleRounding;
    widened.tolerance.amplitude = angles.amplitude;
    // Its error must still grow with the position as float32 angles' does (flat noise within their
    // allowance is not theirs), and a table holding the exact angles' values where float32 angles
    // move them is not theirs either.
    Verification w = verifyWith(widened, table, options);
    if (w.deviatingCells != 0 || w.exactShare || w.cancelled || w.error)
        return v;
    w.float32Angles = widened.tolerance;
    return w;
}

namespace {

Verification verifyWith(const TableMatch &match, const TableRows &table, const StreamOptions &options, bool growthProbe)
{
    Verification v;
    if (!match.reference)
        return v;
    const TableReference &reference = *match.reference;
    // A match of float32 angles is probed for exact values: a table that holds them where float32
    // angles would move its cells (rows of exact values, then noise) is not float32 angles, however
    // wide their tolerance at far positions. Declared float32 angles keep theirs (anglesDeclared).
    const bool probing = !match.tolerance.perPosition.empty() && !match.tolerance.anglesDeclared;
    ExactProbe probed;
    const std::int64_t cols = table.cols();
    const std::int64_t rows = table.rows();
    const std::int64_t readRows = readRowsFor(cols, options);
    const int threads = threadsOf(options);
    // The evidence of float32 angles where the angle is the row's position times a frequency (a
    // PairReference): its error grows with the row. Another reference's angles (a 2-D table's
    // patch ids) do not grow so, and keep no evidence.
    const bool rowAngles = probing && reference.pairs() != nullptr;
    const Bands bands = rowAngles ? Bands::of(rows) : Bands {0, rows};
    AngleEvidence evidence;
    evidence.firstEnd = bands.firstEnd;
    evidence.lastRow = bands.lastRow;
    evidence.lastEnd = rows;
    v.columnMax.assign(std::size_t(cols), 0.0f);
    v.columnDeviations.assign(std::size_t(cols), 0);
    const std::vector<float> growing = growingLimits(match.tolerance, table);
    const ExactValuesProbe probe(match.tolerance, probing ? cols : 0);
    if (options.progress)
        options.progress->expect(rows);
    // Blocks of whole anchor runs of rows, a thread each: the kernel anchors a block's first row
    // once, and its tiles arrive row after row; the thread reads the table's rows a cache-sized
    // piece at a time as the tiles reach them, so reading and comparing go on together on every
    // core. A wave of a few blocks a thread at a time, merged in block order.
    const std::int64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
    const std::int64_t wave = std::int64_t(threads) * 4;
    for (std::int64_t first = 0; first < blocks; first += wave) {
        const std::int64_t count = std::min(wave, blocks - first);
        std::vector<Tally> tallies(static_cast<std::size_t>(count), Tally(cols));
        std::vector<QString> errors(static_cast<std::size_t>(count));
        const bool finished = forEachTile(count, threads, options.cancel, [&](std::int64_t k) {
            const std::int64_t row0 = (first + k) * kBlockRows;
            const std::int64_t blockRows = std::min(kBlockRows, rows - row0);
            Tally &tally = tallies[std::size_t(k)];
            QString &error = errors[std::size_t(k)];
            // The block's rows where they lie (a file's mapped pages, rowsHeld once compared), else
            // read into this thread's buffer a piece at a time.
            const float *lying = table.rowsInPlace(row0, blockRows);
            thread_local std::vector<float> t_rows;
            t_rows.resize(lying ? 0 : std::size_t(readRows * cols));
            const float *cells = lying ? lying : t_rows.data();
            const std::int64_t span = lying ? blockRows : readRows;
            std::int64_t held = lying ? row0 : -1; // the first row `cells` holds
            reference.forEachPiece({row0, blockRows, 0, cols}, [&](const TableReference::Tile &t) {
                if (!error.isEmpty())
                    return;
                if (held < 0 || t.row0 < held || t.row0 + t.rows > held + span) {
                    const std::int64_t n = std::min(readRows, row0 + blockRows - t.row0);
                    if (!table.read(t.row0, n, t_rows.data(), error)) {
                        if (error.isEmpty())
                            error = u"the rows could not be read"_s;
                        return;
                    }
                    held = t.row0;
                }
                compareTile(t, cells, held, cols, reference, match.tolerance, table, growing, bands, tally);
                if (probing && ExactValuesProbe::probes(t.row0))
                    tally.probed += probe.count(t, cells, held, cols, reference);
            });
            if (lying && error.isEmpty())
                table.rowsHeld(row0, blockRows, error);
            // A reference gathered from a split layout hands a row out in a tile per half: its
            // deviating rows, each once and in order.
            std::sort(tally.deviatingRows.begin(), tally.deviatingRows.end());
            tally.deviatingRows.erase(std::unique(tally.deviatingRows.begin(), tally.deviatingRows.end()),
                                      tally.deviatingRows.end());
        });
        if (!finished) {
            v.cancelled = true;
            return v;
        }
        std::vector<std::int64_t> waveRows;
        for (std::int64_t k = 0; k < count; ++k) {
            const Tally &t = tallies[std::size_t(k)];
            if (!errors[std::size_t(k)].isEmpty()) {
                v.error = errors[std::size_t(k)];
                return v;
            }
            if (t.nonFiniteRow >= 0) {
                v.error = u"row %1, column %2 holds %3; a table of positions holds finite numbers"_s.arg(t.nonFiniteRow)
                              .arg(t.nonFiniteColumn)
                              .arg(nonFiniteWords(t.nonFiniteIsNan ? NAN : INFINITY, table.storedType()));
                return v;
            }
            mergeTally(t, v, probed, evidence);
            waveRows.insert(waveRows.end(), t.deviatingRows.begin(), t.deviatingRows.end());
        }
        v.deviatingRows += std::int64_t(waveRows.size());
        for (const std::int64_t r : waveRows) {
            if (v.someDeviatingRows.size() < kRowsNamed)
                v.someDeviatingRows.push_back(r);
            v.deviatingRowRuns.add(r);
        }
        if (!waveRows.empty())
            v.lastDeviatingRow = waveRows.back();
        const std::int64_t end = std::min(rows, (first + count) * kBlockRows);
        for (std::int64_t r = first * kBlockRows; r < end; ++r)
            v.comparedRows += reference.compared(r);
        if (options.progress)
            options.progress->advance(end - first * kBlockRows);
    }
    if (!probing)
        return v;
    const bool exactValues = probed.moved >= kMinMoved && double(probed.exact) > kExactShare * double(probed.moved);
    // Cells rounded to float16 or bfloat16 hide float32 angles' growth under their own rounding:
    // there the error's shape is no evidence either way.
    const bool coarseCells = match.tolerance.relative > 0x1p-16;
    if (exactValues || (growthProbe && rowAngles && !coarseCells && evidence.contradicts())) {
        // Compared again with the exact angles' tolerance: the table holds the exact angles' values
        // where float32 angles would move them, or its error does not grow as theirs does.
        TableMatch exactMatch = match;
        exactMatch.tolerance.perPosition.clear();
        Verification w = verifyWith(exactMatch, table, options);
        if (exactValues)
            w.exactShare = double(probed.exact) / double(probed.moved);
        else
            w.flat = true;
        if (rowAngles)
            w.angleEvidence = evidence;
        return w;
    }
    if (rowAngles)
        v.angleEvidence = evidence;
    return v;
}

} // namespace

QFuture<Verification> verifyAsync(std::shared_ptr<const TableRows> table, TableMatch match, StreamOptions options,
                                  std::shared_ptr<std::atomic<bool>> cancel, std::shared_ptr<WorkProgress> progress)
{
    return QtConcurrent::run([table = std::move(table), match = std::move(match), options, cancel = std::move(cancel),
                              progress = std::move(progress)]() mutable {
        options.cancel = cancel.get();
        options.progress = progress.get();
        return verify(match, *table, options);
    });
}

} // namespace posenc::TableCheck
