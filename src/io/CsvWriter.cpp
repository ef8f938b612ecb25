#include "io/CsvWriter.h"

#include <QIODevice>

#include <charconv>
#include <cmath>

namespace posenc {

namespace {

constexpr qsizetype chunkBytes = qsizetype(1) << 20;
// Room for any shortest float32 text (at most 15 characters: sign, 9 digits, point, exponent).
constexpr qsizetype maxValueBytes = 32;

void appendValue(QByteArray &out, float value)
{
    // to_chars would print a negative NaN as "-nan", which not every reader accepts.
    if (std::isnan(value)) {
        out.append("nan");
        return;
    }
    char text[maxValueBytes];
    const auto [end, error] = std::to_chars(text, text + sizeof(text), value);
    Q_ASSERT(error == std::errc());
    out.append(text, end - text);
}

} // namespace

bool writeCsvTo(QIODevice &device, const ConstBlockRef &table, const QStringList &columns, WorkProgress *progress,
                const std::atomic<bool> *cancel)
{
    Q_ASSERT(columns.size() == table.cols());
    if (!writeCsvHeader(device, columns))
        return false;
    if (progress)
        progress->expect(table.rows());
    return writeCsvRows(device, table, progress, cancel);
}

bool writeCsvHeader(QIODevice &device, const QStringList &columns)
{
    const QByteArray header = columns.join(u',').toUtf8() + '\n';
    return device.write(header) == header.size();
}

bool writeCsvRows(QIODevice &device, const ConstBlockRef &table, WorkProgress *progress,
                  const std::atomic<bool> *cancel)
{
    QByteArray chunk;
    chunk.reserve(chunkBytes + maxValueBytes);
    const auto flushIfFull = [&] {
        if (chunk.size() < chunkBytes)
            return true;
        if (cancel && cancel->load(std::memory_order_relaxed))
            return false;
        const bool written = device.write(chunk) == chunk.size();
        chunk.resize(0); // unlike clear(), keeps the reserved capacity
        return written;
    };
    for (Eigen::Index r = 0; r < table.rows(); ++r) {
        for (Eigen::Index c = 0; c < table.cols(); ++c) {
            if (c > 0)
                chunk.append(',');
            appendValue(chunk, table(r, c));
            if (!flushIfFull())
                return false;
        }
        chunk.append('\n');
        if (!flushIfFull())
            return false;
        if (progress)
            progress->advance(1);
    }
    return device.write(chunk) == chunk.size();
}

std::optional<WriteError> writeCsv(const QString &path, const ConstBlockRef &table, const QStringList &columns)
{
    return writeAtomically(path, [&](QIODevice &device) { return writeCsvTo(device, table, columns); });
}

} // namespace posenc
