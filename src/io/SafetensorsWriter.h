#pragma once

#include "io/ConstBlockRef.h"

#include "core/WorkProgress.h"

#include <QByteArray>
#include <QIODevice>
#include <QString>

#include <atomic>
#include <cstdint>

namespace posenc {

// The header of a .safetensors file holding one float32 tensor `name` of shape [rows, cols], as
// the safetensors format defines it (huggingface/safetensors, docs "Format"): the JSON header's
// length as a little-endian u64, then the JSON, padded with spaces so that the data starts at a
// multiple of 8 bytes, as the reference writer pads it.
QByteArray safetensorsHeader(const QString &name, std::int64_t rows, std::int64_t cols);

// `table` as that file, to `device` (a file being written atomically, a pipe), each row counted
// in `progress`; false when the device refused the bytes, or when `cancel` was set (polled
// between chunks).
bool writeSafetensorsTo(QIODevice &device, const ConstBlockRef &table, const QString &name,
                        WorkProgress *progress = nullptr, const std::atomic<bool> *cancel = nullptr);

} // namespace posenc
