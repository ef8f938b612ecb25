// libFuzzer target: any bytes given to the .npy reader must give a matrix or a ReadError, never a
// crash, a hang, an out-of-bounds read or an allocation beyond what the bytes can hold.
#include "io/NpyReader.h"

#include <QByteArrayView>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace posenc;
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    MemoryByteSource source(bytes, QStringLiteral("fuzz.npy"));
    const auto array = NpyReader::inspect(source);
    if (!array)
        return 0;
    // A header that passed the checks describes exactly the bytes after it.
    const auto &shape = array->info.shape;
    std::int64_t elements = 1;
    for (const std::int64_t d : shape)
        elements *= d;
    if (elements * array->info.element->bytes != qint64(size) - array->dataOffset)
        __builtin_trap();

    const auto all = NpyReader::readMatrix(bytes, QStringLiteral("fuzz.npy"), RowSelection::all());
    if (all && (all->rows() != shape.at(0) || all->cols() != shape.at(1)))
        __builtin_trap();
    if (all && all->rows() > 0) {
        const std::int64_t last = all->rows() - 1;
        const auto some
            = NpyReader::readMatrix(bytes, QStringLiteral("fuzz.npy"), RowSelection::listed({last, 0, last / 2, last}));
        if (!some || some->rows() != 4)
            __builtin_trap();
        for (Eigen::Index c = 0; c < some->cols(); ++c) {
            // Bit patterns, so that NaNs compare too.
            if (std::memcmp(&some.value()(0, c), &all.value()(last, c), sizeof(float)) != 0
                || std::memcmp(&some.value()(1, c), &all.value()(0, c), sizeof(float)) != 0)
                __builtin_trap();
        }
    }
    return 0;
}
