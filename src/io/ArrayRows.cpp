#include "io/ArrayRows.h"

#include <QByteArray>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr qint64 kChunkElements = qint64(1) << 18;

// Reads runs of consecutive elements through one reused buffer and hands them on as float32.
class ChunkedElements
{
public:
    ChunkedElements(ByteSource &source, const ArrayLayout &layout)
        : m_source(source)
        , m_layout(layout)
    { }

    // Calls sink(offset in the run, values, count) for each chunk of elements [first, first + count).
    template<typename Sink> bool forEachChunk(qint64 first, qint64 count, Sink sink)
    {
        const qint64 bytes = m_layout.element.bytes;
        const qint64 chunk = std::min(kChunkElements, count);
        if (qint64(m_floats.size()) < chunk) {
            m_bytes.resize(chunk * bytes);
            m_floats.resize(static_cast<std::size_t>(chunk));
        }
        for (qint64 done = 0; done < count;) {
            const qint64 n = std::min(chunk, count - done);
            if (!m_source.read(m_layout.dataOffset + (first + done) * bytes, n * bytes, m_bytes.data()))
                return false;
            m_layout.element.toFloat(m_bytes.constData(), n, m_floats.data());
            sink(done, static_cast<const float *>(m_floats.data()), n);
            done += n;
        }
        return true;
    }

private:
    ByteSource &m_source;
    const ArrayLayout &m_layout;
    QByteArray m_bytes;
    std::vector<float> m_floats;
};

// (source row, destination row) pairs, sorted by source row so that reads move forward.
std::vector<std::pair<std::int64_t, std::int64_t>> sortedRows(const RowSelection &selection, std::int64_t rows)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    const std::int64_t n = selection.rowCount(rows);
    pairs.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t source
            = selection.mode == RowSelection::Mode::Listed ? selection.rows[static_cast<std::size_t>(i)] : i;
        pairs.emplace_back(source, i);
    }
    if (selection.mode == RowSelection::Mode::Listed)
        std::stable_sort(pairs.begin(), pairs.end());
    return pairs;
}

bool readRowMajor(ChunkedElements &reader, const ArrayLayout &layout,
                  const std::vector<std::pair<std::int64_t, std::int64_t>> &pairs, RowMatrixXf &out)
{
    const std::int64_t cols = layout.cols;
    for (std::size_t i = 0; i < pairs.size();) {
        // A run of consecutive source rows is one contiguous stretch of the file.
        std::size_t j = i + 1;
        while (j < pairs.size() && pairs[j].first == pairs[j - 1].first + 1)
            ++j;
        const bool ok = reader.forEachChunk(
            pairs[i].first * cols, qint64(j - i) * cols, [&](qint64 at, const float *values, qint64 count) {
                for (qint64 k = 0; k < count;) {
                    const qint64 row = (at + k) / cols;
                    const qint64 col = (at + k) % cols;
                    const qint64 length = std::min(cols - col, count - k);
                    float *target = out.row(pairs[i + std::size_t(row)].second).data() + col;
                    std::memcpy(target, values + k, static_cast<std::size_t>(length) * sizeof(float));
                    k += length;
                }
            });
        if (!ok)
            return false;
        i = j;
    }
    return true;
}

bool readColumnMajor(ChunkedElements &reader, const ArrayLayout &layout,
                     const std::vector<std::pair<std::int64_t, std::int64_t>> &pairs, RowMatrixXf &out)
{
    const std::int64_t low = pairs.front().first;
    const std::int64_t high = pairs.back().first + 1;
    for (std::int64_t c = 0; c < layout.cols; ++c) {
        std::size_t next = 0;
        const bool ok
            = reader.forEachChunk(c * layout.rows + low, high - low, [&](qint64 at, const float *values, qint64 count) {
                  const std::int64_t end = low + at + count;
                  for (; next < pairs.size() && pairs[next].first < end; ++next)
                      out(pairs[next].second, c) = values[pairs[next].first - low - at];
              });
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

std::optional<QString> checkSelection(const RowSelection &selection, std::int64_t rows)
{
    switch (selection.mode) {
    case RowSelection::Mode::All:
        return std::nullopt;
    case RowSelection::Mode::First:
        if (selection.count < 0 || selection.count > rows)
            return u"the first %1 rows were asked for, but the matrix has %2"_s.arg(selection.count).arg(rows);
        return std::nullopt;
    case RowSelection::Mode::Listed:
        for (const std::int64_t r : selection.rows) {
            if (r < 0 || r >= rows)
                return u"row %1 was asked for, but the matrix has rows 0..%2"_s.arg(r).arg(rows - 1);
        }
        return std::nullopt;
    }
    return std::nullopt;
}

ReadResult<RowMatrixXf> readArrayRows(ByteSource &source, const ArrayLayout &layout, const RowSelection &selection)
{
    if (const auto refused = checkSelection(selection, layout.rows))
        return ReadError {source.name(), *refused, ReadError::Kind::Choice};
    // A matrix without cells may still declare 2^62 rows: answer before anything is sized by them.
    const std::int64_t n = selection.rowCount(layout.rows);
    if (n == 0 || layout.cols == 0)
        return RowMatrixXf(n, layout.cols);
    const auto pairs = sortedRows(selection, layout.rows);
    RowMatrixXf out(n, layout.cols);
    ChunkedElements reader(source, layout);
    const bool ok
        = layout.fortranOrder ? readColumnMajor(reader, layout, pairs, out) : readRowMajor(reader, layout, pairs, out);
    if (!ok)
        return ReadError {source.name(), u"cannot read the data: %1"_s.arg(source.errorString())};
    return out;
}

} // namespace posenc
