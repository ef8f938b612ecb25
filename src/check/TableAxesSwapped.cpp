#include "TableAxesSwapped.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableAxesSwapped {

namespace {

// The most row pairs compared for one grid: a square grid's every row is streamed afterwards.
constexpr std::size_t kMostPairs = 4096;
// The rows the evidence needs at least (each equal to the reference's row at its point and not its
// own), and of their reference rows distinct ones at least two, of the first this many.
constexpr std::int64_t kLeastShared = 4;
constexpr std::size_t kDistinctRows = 8;

// The pairs (j, w) of a coordinate of an axis of n cells (index j) equal to one of an axis of m
// (index w), in the normalised coordinates of grid_sample: cell centres (2k + 1) / n - 1
// (align_corners=False), or the corners 2k / (n - 1) - 1 (align_corners=True).
std::vector<std::pair<std::int64_t, std::int64_t>> sharedCoordinates(std::int64_t n, std::int64_t m, bool corners)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> shared;
    for (std::int64_t j = 0; j < n; ++j) {
        if (corners) {
            if (n < 2 || m < 2 || (j * (m - 1)) % (n - 1) != 0)
                continue;
            shared.emplace_back(j, j * (m - 1) / (n - 1));
        } else {
            const std::int64_t q = (2 * j + 1) * m;
            if (q % n == 0 && (q / n) % 2 == 1)
                shared.emplace_back(j, (q / n - 1) / 2);
        }
    }
    return shared;
}

// Rows read once each, as they are asked for.
class RowCache
{
public:
    explicit RowCache(const TableRows &rows)
        : m_rows(rows)
    { }
    const std::vector<float> *row(std::int64_t r)
    {
        auto found = m_cache.find(r);
        if (found == m_cache.end()) {
            std::vector<float> values(std::size_t(m_rows.cols()));
            QString error;
            if (!m_rows.read(r, 1, values.data(), error))
                return nullptr;
            found = m_cache.emplace(r, std::move(values)).first;
        }
        return &found->second;
    }

private:
    const TableRows &m_rows;
    std::map<std::int64_t, std::vector<float>> m_cache;
};

bool sameRow(const std::vector<float> &a, const std::vector<float> &want, const CellTolerance &tolerance)
{
    for (std::size_t c = 0; c < a.size(); ++c) {
        const double w = want[c];
        if (!(double(a[c]) == w || std::fabs(double(a[c]) - w) <= tolerance.limit(w, std::int64_t(c), 0.0)))
            return false;
    }
    return true;
}

// The reference's rows in another order: row t is the reference's row order[t].
class RowsInOrder final : public DerivedRows
{
public:
    RowsInOrder(std::shared_ptr<const TableRows> rows, std::vector<std::int64_t> order)
        : DerivedRows(std::move(rows))
        , m_order(std::move(order))
    { }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t cols = m_rows->cols();
        for (std::int64_t r = 0; r < count; ++r) {
            if (!m_rows->read(m_order[std::size_t(row0 + r)], 1, out + r * cols, error))
                return false;
        }
        return true;
    }

private:
    std::vector<std::int64_t> m_order;
};

// The table's row and the reference's row at one point, for the swap of one grid: with
// `widthMajor` the table's row i·H + j samples (x, y) = (c_H(j), c_W(i)) (meshgrid "xy" of (ys, xs)
// stacked as (x, y)), else its row a·W + b samples (c_H(a), c_W(b)); the reference's row h·W + w
// samples (c_W(w), c_H(h)).
std::vector<std::pair<std::int64_t, std::int64_t>> pairsOf(std::int64_t height, std::int64_t width, bool corners,
                                                           bool widthMajor, std::int64_t &points)
{
    // (j, w): c_H(j) = c_W(w), and the same pairs give c_W(i) = c_H(h) read the other way.
    const auto shared = sharedCoordinates(height, width, corners);
    points = std::int64_t(shared.size() * shared.size());
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    for (const auto &[jx, wx] : shared) {
        for (const auto &[hy, iy] : shared) {
            // x: the table's coordinate of the H axis at index jx is the reference's w = wx; y: the
            // table's coordinate of the W axis at index iy is the reference's h = hy.
            const std::int64_t t = widthMajor ? iy * height + jx : jx * width + iy;
            const std::int64_t r = hy * width + wx;
            if (t != r)
                pairs.emplace_back(t, r);
        }
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

struct Tally
{
    bool holds = false;
    std::int64_t shared = 0;
    std::pair<std::int64_t, std::int64_t> first {0, 0};
};

Tally tally(const std::vector<std::pair<std::int64_t, std::int64_t>> &pairs, RowCache &mine, RowCache &theirs,
            const CellTolerance &tolerance)
{
    Tally t;
    // The reference's rows the evidence found, distinct ones only (a few): two equal rows of the
    // reference (padding's zeros) that a damaged table's rows happen to equal show no grid.
    std::vector<const std::vector<float> *> distinct;
    const std::size_t step = std::max<std::size_t>(1, pairs.size() / kMostPairs);
    for (std::size_t k = 0; k < pairs.size(); k += step) {
        const auto [row, at] = pairs[k];
        const auto *got = mine.row(row);
        const auto *want = theirs.row(at);
        const auto *own = theirs.row(row);
        if (!got || !want || !own || !sameRow(*got, *want, tolerance))
            return {};
        // Evidence only where the reference's two rows differ: the table's row is then not its own.
        if (!sameRow(*own, *want, tolerance)) {
            if (t.shared == 0)
                t.first = {row, at};
            ++t.shared;
            if (distinct.size() < kDistinctRows
                && std::none_of(distinct.begin(), distinct.end(),
                                [&](const std::vector<float> *seen) { return sameRow(*seen, *want, tolerance); }))
                distinct.push_back(want);
        }
    }
    t.holds = t.shared >= kLeastShared && distinct.size() >= 2;
    return t;
}

} // namespace

std::optional<Swap> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                         const CellTolerance &tolerance)
{
    const std::int64_t rows = table.rows();
    if (rows < 4 || reference->rows() != rows || reference->cols() != table.cols())
        return std::nullopt;
    RowCache mine(table), theirs(*reference);
    std::optional<Swap> best;
    std::vector<std::pair<std::int64_t, std::int64_t>> bestPairs;
    std::int64_t bestPoints = 0;
    for (std::int64_t height = 2; height <= rows / 2; ++height) {
        if (rows % height != 0)
            continue;
        const std::int64_t width = rows / height;
        for (const bool corners : {false, true}) {
            for (const bool widthMajor : {true, false}) {
                std::int64_t points = 0;
                const auto pairs = pairsOf(height, width, corners, widthMajor, points);
                if (pairs.size() < 2)
                    continue;
                const Tally t = tally(pairs, mine, theirs, tolerance);
                if (!t.holds || (best && t.shared <= best->shared))
                    continue;
                best = Swap {height, width, corners, widthMajor, t.shared, t.first.first, t.first.second, nullptr};
                bestPairs = pairs;
                bestPoints = points;
            }
        }
    }
    if (best && bestPoints == rows) {
        // Every row at a point of the reference's (a square grid read transposed): streamed whole,
        // the rows at their own point (the diagonal) as they are.
        std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
        for (std::int64_t r = 0; r < rows; ++r)
            order[std::size_t(r)] = r;
        for (const auto &[row, at] : bestPairs)
            order[std::size_t(row)] = at;
        best->reordered = std::make_shared<RowsInOrder>(reference, std::move(order));
    }
    return best;
}

std::optional<Swap> readExchanged(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                                  const CellTolerance &tolerance)
{
    const std::int64_t rows = table.rows();
    if (rows < 6 || reference->rows() != rows || reference->cols() != table.cols())
        return std::nullopt;
    RowCache mine(table), theirs(*reference);
    std::optional<Swap> best;
    for (std::int64_t height = 2; height < rows / 2; ++height) {
        const std::int64_t width = rows / height;
        if (rows % height != 0 || width == height)
            continue;
        const std::int64_t common = std::min(height, width);
        std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
        for (std::int64_t a = 1; a < common; ++a) {
            for (std::int64_t b = 0; b < common; ++b)
                pairs.emplace_back(a * height + b, a * width + b);
        }
        const Tally t = tally(pairs, mine, theirs, tolerance);
        if (!t.holds || (best && t.shared <= best->shared))
            continue;
        best = Swap {height, width, false, false, t.shared, t.first.first, t.first.second, nullptr, true};
    }
    return best;
}

QString words(const Swap &swap, std::int64_t rows)
{
    if (swap.exchanged) {
        const std::int64_t common = std::min(swap.height, swap.width);
        return u"the table lists the points of a %1 x %2 grid where the reference lists %2 x %1: the grid made "
               "with its two sizes exchanged (OpenPCDet#1587: create_2D_grid(x_size, y_size) where (y_size, x_size) "
               "is meant), its row a·%2 + b at the point (a, b) whose row in the reference is a·%1 + b; %3 of its "
               "%4 rows hold the reference's row of another index so (row %5 holds the reference's row %6), and "
               "the %7 rows of points past the reference's %8 x %8 common corner are not compared"_s
            .arg(swap.width)
            .arg(swap.height)
            .arg(swap.shared)
            .arg(rows)
            .arg(swap.firstRow)
            .arg(swap.firstReferenceRow)
            .arg(rows - common * common)
            .arg(common);
    }
    const QString grid = u"%1 x %2"_s.arg(swap.height).arg(swap.width);
    // What the rows show, then the known port that does it: no claim about how the reference was
    // made (a learned grid, a 2-D sin-cos), only that its points were taken as (y, x).
    const QString how = swap.widthMajor
        ? u"x and y exchanged (the reference's grid read transposed) and the patches listed %1 x %2, as "
          "grid_sample given "
          "stack(meshgrid(ys, xs, indexing=\"xy\")) samples (y where x goes: torchtitan#4244's _vision_pos_embed)"_s
              .arg(swap.width)
              .arg(swap.height)
        : u"x and y exchanged, the reference's grid read transposed (each (x, y) point taken as (y, x): meshgrid's "
          "\"ij\" and \"xy\" indexing confused, torchtitan#4244)"_s;
    const QString coordinates = swap.corners ? u"align_corners=True's corner coordinates"_s
                                             : u"align_corners=False's cell-centre coordinates"_s;
    const QString rest = swap.reordered
        ? u"every row is the reference's row of the transposed grid"_s
        : u"the other rows fall between the reference's points, so they are not compared"_s;
    return u"the table is the %1 grid sampled with %2: %3 of its %4 rows hold the reference's row of another "
           "patch instead of their own (row %5 holds the reference's row %6), at %7; %8"_s.arg(grid, how)
               .arg(swap.shared)
               .arg(rows)
               .arg(swap.firstRow)
               .arg(swap.firstReferenceRow)
               .arg(coordinates, rest);
}

} // namespace posenc::TableAxesSwapped
