#pragma once

#include "core/Block.h"
#include "io/ArrayRows.h"
#include "io/ByteSource.h"
#include "io/ReadError.h"
#include "io/SafetensorsHeader.h"
#include "io/TensorInfo.h"

#include <QByteArrayView>

#include <vector>

namespace posenc {

// A .safetensors file whose header has been checked against the file: its tensors, in the
// order of their data, and where the data section starts.
struct SafetensorsFile
{
    std::vector<SafetensorsTensor> tensors;
    qint64 dataStart = 0;

    std::vector<TensorInfo> infos() const;
};

namespace SafetensorsReader {

// The format's own limit on the header (the reference implementation refuses larger ones).
constexpr qint64 kMaxHeaderLength = 100'000'000;

// Reads and checks the header: its length against the file, then every tensor's dtype, shape
// and offsets (see parseSafetensorsHeader). Reads nothing of the data.
ReadResult<SafetensorsFile> inspect(ByteSource &source);

// The tensor called `name`; an empty name chooses the only tensor of a file that holds one.
ReadResult<SafetensorsTensor> choose(const SafetensorsFile &file, const QString &name, const QString &path);

// The tensor `name` checked to be a matrix of a loadable dtype, and where its elements lie.
ReadResult<MatrixInFile> inspectMatrix(ByteSource &source, const QString &name);

// The selected rows of the 2-D tensor `name` (F16, BF16, F32 or F64), converted to float32.
ReadResult<RowMatrixXf> readMatrix(ByteSource &source, const QString &name, const RowSelection &selection);

// The same from a buffer, for the fuzz targets and tests; `path` stands for the file's path.
ReadResult<RowMatrixXf> readMatrix(QByteArrayView bytes, const QString &path, const QString &name,
                                   const RowSelection &selection);

} // namespace SafetensorsReader

} // namespace posenc
