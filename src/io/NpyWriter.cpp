#include "io/NpyWriter.h"

#include <QIODevice>
#include <QtEndian>

#include <algorithm>
#include <limits>

namespace posenc {

namespace {

constexpr qsizetype npyAlignment = 64;
constexpr qsizetype chunkFloats = qsizetype(1) << 18;

// Length of the dict plus its padding and '\n', after a fixed part of magic (6 bytes),
// version (2) and the header length field (2 in version 1.0, 4 in 2.0). Like numpy, pads
// with 1..64 spaces (64 when already aligned), never 0.
qint64 paddedHeaderLength(qsizetype dictSize, qsizetype lengthFieldBytes)
{
    const qsizetype fixed = 6 + 2 + lengthFieldBytes;
    const qsizetype padding = npyAlignment - (fixed + dictSize + 1) % npyAlignment;
    return dictSize + padding + 1;
}

} // namespace

// Copies the rows into a bounded buffer (converted to little-endian) and writes it whenever
// it is full, so a table of any size costs at most one chunk of extra memory.
bool writeLittleEndianRows(QIODevice &device, const ConstBlockRef &table, WorkProgress *progress,
                           const std::atomic<bool> *cancel)
{
    const std::int64_t rows = table.rows();
    const std::int64_t cols = table.cols();
    const qsizetype bufferFloats = qsizetype(std::min<std::int64_t>(chunkFloats, rows * cols));
    if (bufferFloats == 0)
        return true;
    QByteArray buffer(bufferFloats * qsizetype(sizeof(float)), Qt::Uninitialized);
    qsizetype used = 0;
    const auto flush = [&] {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return false;
        const qint64 bytes = qint64(used) * qint64(sizeof(float));
        used = 0;
        return device.write(buffer.constData(), bytes) == bytes;
    };
    for (std::int64_t r = 0; r < rows; ++r) {
        const float *source = table.data() + r * table.outerStride();
        std::int64_t left = cols;
        while (left > 0) {
            const qsizetype count = qsizetype(std::min<std::int64_t>(left, bufferFloats - used));
            qToLittleEndian<float>(source, count, buffer.data() + used * qsizetype(sizeof(float)));
            used += count;
            source += count;
            left -= count;
            if (used == bufferFloats && !flush())
                return false;
        }
        if (progress)
            progress->advance(1);
    }
    return used == 0 || flush();
}

QByteArray wrapNpyHeader(const QByteArray &dict)
{
    qint64 headerLength = paddedHeaderLength(dict.size(), 2);
    const bool version1 = headerLength <= std::numeric_limits<quint16>::max();
    if (!version1)
        headerLength = paddedHeaderLength(dict.size(), 4);
    char length[4] = {};
    if (version1)
        qToLittleEndian<quint16>(quint16(headerLength), length);
    else
        qToLittleEndian<quint32>(quint32(headerLength), length);

    QByteArray out("\x93NUMPY", 6);
    out.append(version1 ? '\x01' : '\x02').append('\0').append(length, version1 ? 2 : 4);
    out.append(dict).append(QByteArray(headerLength - dict.size() - 1, ' ')).append('\n');
    return out;
}

QByteArray npyHeader(std::int64_t rows, std::int64_t cols)
{
    Q_ASSERT(rows >= 0 && cols >= 0);
    const QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(rows) + ", "
        + QByteArray::number(cols) + "), }";
    return wrapNpyHeader(dict);
}

bool writeNpyTo(QIODevice &device, const ConstBlockRef &table, WorkProgress *progress, const std::atomic<bool> *cancel)
{
    const QByteArray header = npyHeader(table.rows(), table.cols());
    if (progress)
        progress->expect(table.rows());
    return device.write(header) == header.size() && writeLittleEndianRows(device, table, progress, cancel);
}

std::optional<WriteError> writeNpy(const QString &path, const ConstBlockRef &table)
{
    return writeAtomically(path, [&](QIODevice &device) { return writeNpyTo(device, table); });
}

} // namespace posenc
