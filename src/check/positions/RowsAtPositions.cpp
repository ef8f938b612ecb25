#include "RowsAtPositions.h"

#include "core/Params.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::RowsAtPositions {

namespace {

// A table in memory up to this size is read whole for the comparison; past it, row by row.
constexpr std::int64_t kWholeBytes = std::int64_t(64) << 20;
constexpr std::int64_t kChunkRows = 256;

class PositionRows final : public TableRows
{
public:
    PositionRows(std::shared_ptr<const TableRows> file, std::vector<std::int64_t> firstRow)
        : m_file(std::move(file))
        , m_firstRow(std::move(firstRow))
    { }

    std::int64_t rows() const override { return std::int64_t(m_firstRow.size()); }
    std::int64_t cols() const override { return m_file->cols(); }
    StoredType storedType() const override { return m_file->storedType(); }
    double textRounding() const override { return m_file->textRounding(); }
    bool hasCellRounding() const override { return m_file->hasCellRounding(); }
    void addCellRounding(std::int64_t row0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                         float *extra) const override
    {
        for (std::int64_t r = 0; r < count; ++r)
            m_file->addCellRounding(m_firstRow[std::size_t(row0 + r)], 1, col0, cols, extra + r * cols);
    }
    QString name() const override { return m_file->name(); }

    // Runs of consecutive file rows are read at once: a batch's first row usually holds them all.
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        std::int64_t r = 0;
        while (r < count) {
            const std::int64_t start = m_firstRow[std::size_t(row0 + r)];
            std::int64_t run = 1;
            while (r + run < count && m_firstRow[std::size_t(row0 + r + run)] == start + run)
                ++run;
            if (!m_file->read(start, run, out + r * cols(), error))
                return false;
            r += run;
        }
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_file;
    std::vector<std::int64_t> m_firstRow;
};

// The largest |row - reference| and its column, or nothing when every cell is within `tolerance`.
std::optional<std::pair<std::int64_t, double>> deviation(const float *row, const float *reference, std::int64_t cols,
                                                         const CellTolerance &tolerance, std::int64_t position)
{
    std::optional<std::pair<std::int64_t, double>> worst;
    for (std::int64_t c = 0; c < cols; ++c) {
        const double a = row[c], b = reference[c];
        if (a == b)
            continue;
        const double difference = std::isfinite(a - b) ? std::abs(a - b) : INFINITY;
        if (!(difference <= tolerance.limit(b, c, double(position))) && (!worst || difference > worst->second))
            worst = std::pair {c, difference};
    }
    return worst;
}

} // namespace

std::variant<Layout, QString> layout(const RowMatrixXf &ids, std::int64_t tableRows)
{
    const std::int64_t count = std::int64_t(ids.size());
    if (count != tableRows)
        return u"--position-ids: must hold one id per row of the table (%1 rows); got %2 ids"_s.arg(tableRows).arg(
            count);
    Layout result;
    result.ids.reserve(std::size_t(count));
    for (std::int64_t i = 0; i < ids.rows(); ++i) {
        for (std::int64_t j = 0; j < ids.cols(); ++j) {
            const float id = ids(i, j);
            if (!(id >= 0.0f) || id != std::floor(id) || !(double(id) < double(Params::kMaxLen)))
                return u"--position-ids: ids must be whole numbers in [0, 2^24) (the position of each row of the "
                       "table); got %1 at row %2"_s.arg(double(id))
                           .arg(result.ids.size());
            result.ids.push_back(std::int64_t(id));
        }
    }
    const auto [low, high] = std::minmax_element(result.ids.cbegin(), result.ids.cend());
    result.first = *low;
    const std::int64_t last = *high;
    if (last - result.first >= count)
        return u"--position-ids: ids %1..%2 span more positions than the table's %3 rows: the table must hold every "
               "position from its smallest id to its largest"_s.arg(result.first)
                   .arg(last)
                   .arg(count);
    result.firstRow.assign(std::size_t(last - result.first + 1), -1);
    for (std::size_t r = 0; r < result.ids.size(); ++r) {
        std::int64_t &first = result.firstRow[std::size_t(result.ids[r] - result.first)];
        if (first < 0)
            first = std::int64_t(r);
    }
    const auto missing = std::find(result.firstRow.cbegin(), result.firstRow.cend(), -1);
    if (missing != result.firstRow.cend())
        return u"--position-ids: no row is at position %1, between the smallest id %2 and the largest %3: the "
               "table must hold every position from its smallest id to its largest"_s.arg(
                   result.first + (missing - result.firstRow.cbegin()))
                   .arg(result.first)
                   .arg(last);
    return result;
}

std::shared_ptr<const TableRows> byPosition(std::shared_ptr<const TableRows> file, const Layout &layout)
{
    return std::make_shared<PositionRows>(std::move(file), layout.firstRow);
}

std::optional<Disagreement> compare(const TableRows &file, const Layout &layout, const CellTolerance &tolerance,
                                    const std::atomic<bool> *cancel, QString &error)
{
    const std::int64_t cols = file.cols();
    const std::int64_t positions = std::int64_t(layout.firstRow.size());
    // The rows by position, whole when small; else each read when a row needs it.
    std::vector<float> whole;
    if (positions * cols * std::int64_t(sizeof(float)) <= kWholeBytes) {
        whole.resize(std::size_t(positions * cols));
        for (std::int64_t p = 0; p < positions; ++p) {
            if (cancel && cancel->load())
                return std::nullopt;
            if (!file.read(layout.firstRow[std::size_t(p)], 1, whole.data() + p * cols, error))
                return std::nullopt;
        }
    }
    std::vector<float> single(static_cast<std::size_t>(cols));
    const auto rowAt = [&](std::int64_t index) -> const float * { // of position first + index
        if (!whole.empty())
            return whole.data() + index * cols;
        return file.read(layout.firstRow[std::size_t(index)], 1, single.data(), error) ? single.data() : nullptr;
    };
    std::optional<Disagreement> first;
    std::vector<float> chunk(std::size_t(kChunkRows * cols));
    const std::int64_t rows = file.rows();
    for (std::int64_t row0 = 0; row0 < rows; row0 += kChunkRows) {
        if (cancel && cancel->load())
            return std::nullopt;
        const std::int64_t count = std::min(kChunkRows, rows - row0);
        if (!file.read(row0, count, chunk.data(), error))
            return std::nullopt;
        for (std::int64_t r = 0; r < count; ++r) {
            const std::int64_t row = row0 + r, position = layout.ids[std::size_t(row)];
            const std::int64_t firstRow = layout.firstRow[std::size_t(position - layout.first)];
            if (firstRow == row)
                continue;
            const float *reference = rowAt(position - layout.first);
            if (!reference)
                return std::nullopt;
            const auto worst = deviation(chunk.data() + r * cols, reference, cols, tolerance, position);
            if (!worst)
                continue;
            if (!first)
                first = Disagreement {row, firstRow, position, worst->first, worst->second, 0, std::nullopt};
            ++first->rows;
        }
    }
    if (first && !whole.empty()) {
        std::vector<float> row(static_cast<std::size_t>(cols));
        if (!file.read(first->row, 1, row.data(), error))
            return std::nullopt;
        for (std::int64_t p = 0; p < positions && !first->holds; ++p) {
            if (!deviation(row.data(), whole.data() + p * cols, cols, tolerance, layout.first + p))
                first->holds = layout.first + p;
        }
    }
    return first;
}

} // namespace posenc::RowsAtPositions
