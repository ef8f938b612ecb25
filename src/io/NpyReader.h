#pragma once

#include "core/Block.h"
#include "io/ArrayRows.h"
#include "io/ByteSource.h"
#include "io/ReadError.h"
#include "io/TensorInfo.h"

#include <QByteArrayView>

namespace posenc {

// A .npy file (NEP 1, format versions 1.0, 2.0 and 3.0) whose preamble, header and data size
// have been checked against the file: what it holds and where its data starts.
struct NpyArray
{
    TensorInfo info;
    bool fortranOrder = false;
    qint64 dataOffset = 0;
};

namespace NpyReader {

// The header's limit: numpy itself refuses headers over 10000 bytes unless told otherwise.
constexpr qint64 kMaxHeaderLength = qint64(1) << 20;

// Reads the preamble and the header and checks every length against the source's size; reads
// nothing of the data and allocates nothing beyond the header (at most kMaxHeaderLength).
ReadResult<NpyArray> inspect(ByteSource &source);

// The file's array checked to be a matrix of a loadable dtype, and where its elements lie.
ReadResult<MatrixInFile> inspectMatrix(ByteSource &source);

// The selected rows of the file's 2-D array, converted to float32 (from f2, f4, f8, integers
// or bools, either byte order, C or Fortran order).
ReadResult<RowMatrixXf> readMatrix(ByteSource &source, const RowSelection &selection);

// The same from a buffer, for the fuzz targets and tests; `name` stands for the path.
ReadResult<RowMatrixXf> readMatrix(QByteArrayView bytes, const QString &name, const RowSelection &selection);

} // namespace NpyReader

} // namespace posenc
