// libFuzzer target: any bytes given to the CSV reader of `posenc check` must give a table or a
// ReadError, never a crash, a hang, an out-of-bounds read or an allocation past its cell limit.
#include "io/CsvReader.h"

#include <QByteArrayView>
#include <QString>

#include <cmath>
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace posenc;
    constexpr std::int64_t kMaxCells = std::int64_t(1) << 16;
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    MemoryByteSource source(bytes, QStringLiteral("fuzz.csv"));
    const auto table = CsvReader::read(source, kMaxCells);
    if (!table) {
        if (table.error().reason.isEmpty())
            __builtin_trap();
        return 0;
    }
    // A table read holds finite numbers within its limit, in whole rows.
    const auto &values = table->values;
    if (values.size() > kMaxCells || (values.rows() > 0 && values.cols() == 0))
        __builtin_trap();
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values.data()[i]))
            __builtin_trap();
    }
    if (!(table->textRounding >= 0.0))
        __builtin_trap();
    return 0;
}
