#include "PositionIdsFile.h"

#include "io/ArrayRows.h"
#include "io/ByteSource.h"
#include "io/NpyReader.h"

#include "core/MemoryBudget.h"

#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc::PositionIdsFile {

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
    return Ids {info.shape, std::move(values.value()), path};
}

} // namespace posenc::PositionIdsFile
