#pragma once

#include "core/Block.h"
#include "io/ArrayRows.h"
#include "io/ByteSource.h"
#include "io/ReadError.h"
#include "io/SafetensorsHeader.h"
#include "io/TensorInfo.h"

#include <QByteArrayView>

#include <optional>
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

// The header's limit. The reference implementation allows 100 MB, but Qt's JSON DOM and the list
// of tensors cost up to ~17 times the header's bytes (a header of the smallest entries), so a
// hostile 100 MB header would cost gigabytes. Real headers are small: ~150 bytes per tensor, so
// GPT-2 (~150 tensors) needs ~20 KB and a single-file SDXL (~2,500) ~400 KB; 4 MiB leaves room
// for ~25,000 such tensors or a large '__metadata__', and bounds the cost to ~70 MB.
constexpr qint64 kMaxHeaderLength = qint64(4) << 20;

// Reads and checks the header: its length against the file, then every tensor's dtype, shape
// and offsets (see parseSafetensorsHeader). Reads nothing of the data.
ReadResult<SafetensorsFile> inspect(ByteSource &source);

// The tensor called `name` (any string, "" too); no name chooses the only tensor of a file that
// holds one.
ReadResult<SafetensorsTensor> choose(const SafetensorsFile &file, const std::optional<QString> &name,
                                     const QString &path);

// The tensor `name` checked to be a matrix of a loadable dtype, and where its elements lie.
ReadResult<MatrixInFile> inspectMatrix(ByteSource &source, const std::optional<QString> &name);

// The selected rows of the 2-D tensor `name` (F16, BF16, F32 or F64), converted to float32.
ReadResult<RowMatrixXf> readMatrix(ByteSource &source, const std::optional<QString> &name,
                                   const RowSelection &selection);

// The same from a buffer, for the fuzz targets and tests; `path` stands for the file's path.
ReadResult<RowMatrixXf> readMatrix(QByteArrayView bytes, const QString &path, const std::optional<QString> &name,
                                   const RowSelection &selection);

} // namespace SafetensorsReader

} // namespace posenc
