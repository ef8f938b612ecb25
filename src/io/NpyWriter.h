#pragma once

#include "io/AtomicFile.h"
#include "io/ConstBlockRef.h"

#include "core/WorkProgress.h"

#include <QByteArray>
#include <QIODevice>
#include <QString>

#include <atomic>
#include <cstdint>
#include <optional>

namespace posenc {

// The .npy preamble around a header dict: magic, version, little-endian header length, the
// dict, then spaces and '\n' so that the data starts at a multiple of 64 bytes (numpy's
// _wrap_header rule). Version 1.0, or 2.0 when the header does not fit 1.0's 16-bit length.
QByteArray wrapNpyHeader(const QByteArray &dict);

// The whole preamble of a C-order little-endian float32 array of shape (rows, cols).
QByteArray npyHeader(std::int64_t rows, std::int64_t cols);

// The table's cells as little-endian float32, row after row, through a bounded buffer (a table of
// any size costs at most one chunk of extra memory), each row counted in `progress`: the data of
// a .npy and of a .safetensors file alike; false when the device refused them, or when `cancel`
// was set (polled between chunks).
bool writeLittleEndianRows(QIODevice &device, const ConstBlockRef &table, WorkProgress *progress = nullptr,
                           const std::atomic<bool> *cancel = nullptr);

// Writes `table` as a .npy file, atomically, converting to little-endian in bounded chunks.
std::optional<WriteError> writeNpy(const QString &path, const ConstBlockRef &table);
// The same bytes to `device` (a pipe, a file being written atomically), each row counted in
// `progress`; false when the device refused them, or when `cancel` was set (polled between chunks).
bool writeNpyTo(QIODevice &device, const ConstBlockRef &table, WorkProgress *progress = nullptr,
                const std::atomic<bool> *cancel = nullptr);

} // namespace posenc
