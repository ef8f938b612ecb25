#include "PositionIdsFile.h"

#include "io/ArrayRows.h"
#include "io/ByteSource.h"
#include "io/NpyReader.h"

#include "core/MemoryBudget.h"

#include <QStringList>

#include <cmath>
#include <numeric>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::PositionIdsFile {

namespace {

// Float32 holds every whole number below 2^24 exactly, and no id past it is read as it was written.
constexpr double kExactIds = 16777216.0;

// The cell's index as the file's shape counts it: [c], [b, c] or [axis, b, c].
QString cellIndex(const std::vector<std::int64_t> &shape, std::int64_t row, std::int64_t col)
{
    QStringList index;
    std::int64_t rest = row;
    for (std::size_t axis = shape.size() - 1; axis-- > 0;) {
        index.prepend(QString::number(rest % shape[axis]));
        rest /= shape[axis];
    }
    index.append(QString::number(col));
    return u"["_s + index.join(u", "_s) + u"]"_s;
}

// The first value no position id can be: NaN or an infinity (the file's fault, as in a table), or
// a number of magnitude 2^24 or more, or a fraction, which a cast to float32 or to an integer would
// change silently (1.5 read as 2, 2^63 + 5 as -2^63, NaN as -1) into an id the file does not hold.
std::optional<ReadError> notAnId(const RowMatrixXf &values, const std::vector<std::int64_t> &shape, const QString &path)
{
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
        for (Eigen::Index c = 0; c < values.cols(); ++c) {
            const double v = values(r, c);
            if (std::isnan(v) || std::isinf(v))
                return ReadError {path,
                                  u"the id at %1 is %2; position ids are whole numbers"_s.arg(
                                      cellIndex(shape, r, c), std::isnan(v) ? u"NaN"_s : u"%1"_s.arg(v))};
            if (std::abs(v) >= kExactIds)
                return ReadError {path,
                                  u"the id at %1 has a magnitude of 2^24 (16777216) or more; position ids are whole "
                                  "numbers below it, which float32 holds exactly"_s.arg(cellIndex(shape, r, c)),
                                  ReadError::Kind::Choice};
            if (v != std::floor(v))
                return ReadError {path,
                                  u"the id at %1 is %2, not a whole number; position ids are whole numbers"_s.arg(
                                      cellIndex(shape, r, c), QString::number(v, 'g', 9)),
                                  ReadError::Kind::Choice};
        }
    }
    return std::nullopt;
}

} // namespace

ReadResult<Ids> read(const QString &path, std::uint64_t memoryBudget)
{
    FileByteSource file(path);
    if (!file.open())
        return ReadError {path, u"cannot open the file: %1"_s.arg(file.errorString())};
    const auto array = NpyReader::inspect(file);
    if (!array)
        return array.error();
    const TensorInfo &info = array->info;
    const std::size_t rank = info.shape.size();
    if (rank < 1 || rank > 3)
        return ReadError {
            path,
            u"the array is %1-D, shape %2; position ids are [L], [B, L] or M-RoPE's [3, B, L]"_s.arg(rank).arg(
                info.shapeText(true)),
            ReadError::Kind::Choice};
    if (!info.element)
        return ReadError {path, u"its dtype %1 cannot be read"_s.arg(info.dtype), ReadError::Kind::Choice};
    if (array->fortranOrder && rank == 3)
        return ReadError {path, u"a 3-D array in Fortran order; save it in C order"_s, ReadError::Kind::Choice};
    const std::int64_t cols = info.shape.back();
    const std::int64_t rows
        = std::accumulate(info.shape.begin(), info.shape.end() - 1, std::int64_t(1), std::multiplies<>());
    if (const auto refused
        = MemoryBudget::check(std::uint64_t(rows) * std::uint64_t(cols), memoryBudget, u"the position ids"_s))
        return ReadError {path, *refused, ReadError::Kind::OverBudget};
    ArrayLayout layout {array->dataOffset, rows, cols, *info.element, array->fortranOrder};
    auto values = readArrayRows(file, layout, RowSelection::all());
    if (!values)
        return values.error();
    if (const auto refused = notAnId(values.value(), info.shape, path))
        return *refused;
    return Ids {info.shape, std::move(values.value()), path};
}

} // namespace posenc::PositionIdsFile
