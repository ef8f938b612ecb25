// libFuzzer target: any bytes given to the .npz reader must give its arrays or a ReadError, never a
// crash, a hang, an out-of-bounds read or an allocation beyond the budget it is given.
#include "io/NpyReader.h"
#include "io/NpzReader.h"

#include <QByteArrayView>
#include <QString>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace posenc;
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    MemoryByteSource source(bytes, QStringLiteral("fuzz.npz"));
    const auto members = NpzReader::members(source);
    if (!members)
        return 0;
    // Each member lies inside the archive, as the reader promised.
    for (const NpzMember &member : members.value()) {
        if (member.dataOffset < 0 || member.storedBytes < 0 || member.dataOffset > qint64(size)
            || member.storedBytes > qint64(size) - member.dataOffset)
            __builtin_trap();
        if (!member.deflated) {
            MemberByteSource stored(source, member);
            const auto array = NpyReader::inspect(stored);
            if (array && array->dataOffset > member.bytes)
                __builtin_trap();
            continue;
        }
        // A budget of 16 MiB: a member that claims more is refused before anything is allocated.
        const auto inflated = NpzReader::inflate(source, member, qint64(16) << 20);
        if (!inflated)
            continue;
        if (inflated->size() != member.bytes)
            __builtin_trap();
        (void)NpyReader::readMatrix(inflated.value(), QStringLiteral("fuzz.npz:member"), RowSelection::all());
    }
    (void)NpzReader::choose(members.value(), std::nullopt, QStringLiteral("fuzz.npz"));
    return 0;
}
