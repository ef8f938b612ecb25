// libFuzzer target: any bytes given to the .safetensors reader must give a matrix or a ReadError,
// never a crash, a hang, an out-of-bounds read or an allocation beyond what the bytes can hold.
#include "io/SafetensorsReader.h"

#include <QByteArrayView>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace posenc;
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString path = QStringLiteral("fuzz.safetensors");
    MemoryByteSource source(bytes, path);
    const auto file = SafetensorsReader::inspect(source);
    if (!file)
        return 0;
    // A header that passed the checks has tensors that tile the data section exactly.
    qint64 covered = 0;
    for (const SafetensorsTensor &t : file->tensors) {
        if (t.begin != covered || t.end < t.begin)
            __builtin_trap();
        covered = t.end;
    }
    if (covered != qint64(size) - file->dataStart)
        __builtin_trap();

    for (const SafetensorsTensor &t : file->tensors) {
        const auto all = SafetensorsReader::readMatrix(bytes, path, t.info.name, RowSelection::all());
        if (all.ok() != (t.info.isMatrix() && t.info.element.has_value()))
            __builtin_trap();
        if (!all || all->rows() == 0)
            continue;
        const std::int64_t last = all->rows() - 1;
        const auto some = SafetensorsReader::readMatrix(bytes, path, t.info.name, RowSelection::listed({last, 0}));
        if (!some || some->rows() != 2)
            __builtin_trap();
        for (Eigen::Index c = 0; c < some->cols(); ++c) {
            if (std::memcmp(&some.value()(0, c), &all.value()(last, c), sizeof(float)) != 0)
                __builtin_trap();
        }
    }
    return 0;
}
