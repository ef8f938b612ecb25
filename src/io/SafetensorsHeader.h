#pragma once

#include "io/TensorInfo.h"

#include <QByteArrayView>
#include <QString>

#include <optional>
#include <vector>

namespace posenc {

// One tensor of a safetensors file: what it is and where its bytes lie in the data section.
struct SafetensorsTensor
{
    TensorInfo info;
    qint64 begin = 0; // offsets relative to the start of the data section, as the file gives them
    qint64 end = 0;
};

// Checks a safetensors JSON header against the size of the data section that follows it: a JSON
// object of tensor entries {"dtype", "shape", "data_offsets"} and an optional "__metadata__"
// of strings; names unique; every size overflow-checked and equal to its offsets; offsets in
// order, contiguous, and covering the data section exactly. On success `tensors` holds the
// entries in the order of their data; otherwise the reason is returned.
std::optional<QString> parseSafetensorsHeader(QByteArrayView json, qint64 dataSize,
                                              std::vector<SafetensorsTensor> &tensors);

} // namespace posenc
