#include "io/NpzReader.h"

#include <QHash>
#include <QStringList>
#include <QtEndian>

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The zip format's records (PKWARE's APPNOTE.TXT, sections 4.3 and 4.5).
constexpr quint32 kLocalHeader = 0x04034b50;
constexpr quint32 kCentralHeader = 0x02014b50;
constexpr quint32 kEndOfDirectory = 0x06054b50;
constexpr quint32 kZip64Locator = 0x07064b50;
constexpr quint32 kZip64End = 0x06064b50;
constexpr qint64 kEndSize = 22;
constexpr qint64 kCentralSize = 46;
constexpr qint64 kLocalSize = 30;
constexpr qint64 kMaxComment = 0xffff;
constexpr quint16 kStored = 0;
constexpr quint16 kDeflated = 8;
// numpy's archives hold a few arrays; a directory of more, or larger, is no table's (a member's
// entry is 46 bytes and its name, a few dozen).
constexpr qint64 kMaxMembers = 1 << 16;
constexpr qint64 kMaxDirectoryBytes = qint64(64) << 20;

ReadError fileError(const ByteSource &source, const QString &reason)
{
    return ReadError {source.name(), reason};
}

template<typename T> T le(const char *bytes)
{
    return qFromLittleEndian<T>(bytes);
}

// The fields the ZIP64 extra field (id 1) replaces, in its order, where the 32-bit ones are full.
struct Sizes
{
    qint64 bytes;
    qint64 storedBytes;
    qint64 localOffset;
};

bool readZip64Extra(QByteArrayView extra, Sizes &sizes, bool bytesFull, bool storedFull, bool offsetFull)
{
    for (qsizetype at = 0; at + 4 <= extra.size();) {
        const quint16 id = le<quint16>(extra.data() + at);
        const quint16 length = le<quint16>(extra.data() + at + 2);
        if (at + 4 + length > extra.size())
            return false;
        if (id == 1) {
            qsizetype field = at + 4;
            const qsizetype end = field + length;
            for (auto [full, target] : {std::pair {bytesFull, &sizes.bytes}, std::pair {storedFull, &sizes.storedBytes},
                                        std::pair {offsetFull, &sizes.localOffset}}) {
                if (!full)
                    continue;
                if (field + 8 > end)
                    return false;
                const quint64 value = le<quint64>(extra.data() + field);
                if (value > quint64(std::numeric_limits<qint64>::max()))
                    return false;
                *target = qint64(value);
                field += 8;
            }
            return true;
        }
        at += 4 + length;
    }
    return !bytesFull && !storedFull && !offsetFull;
}

struct Directory
{
    qint64 entries = 0;
    qint64 offset = 0;
    qint64 size = 0;
};

// The end of the central directory, ZIP64's where the archive needs it.
ReadResult<Directory> findDirectory(ByteSource &source)
{
    const qint64 size = source.size();
    if (size < kEndSize)
        return fileError(
            source,
            u"the file is too short for a .npz file (%1 bytes; a zip archive has at least %2)"_s.arg(size).arg(
                kEndSize));
    const qint64 tail = std::min(size, kEndSize + kMaxComment);
    QByteArray bytes(tail, Qt::Uninitialized);
    if (!source.read(size - tail, tail, bytes.data()))
        return fileError(source, source.errorString());
    qint64 end = -1;
    for (qint64 at = tail - kEndSize; at >= 0; --at) {
        if (le<quint32>(bytes.constData() + at) == kEndOfDirectory
            && at + kEndSize + le<quint16>(bytes.constData() + at + 20) == tail) {
            end = at;
            break;
        }
    }
    if (end < 0)
        return fileError(source, u"no end of a zip archive's directory: not a .npz file, or cut short"_s);
    const char *e = bytes.constData() + end;
    if (le<quint16>(e + 4) != 0 || le<quint16>(e + 6) != 0)
        return fileError(source, u"the archive spans several disks, which numpy never writes"_s);
    Directory directory {le<quint16>(e + 10), le<quint32>(e + 16), le<quint32>(e + 12)};
    const bool zip64 = directory.entries == 0xffff || directory.offset == 0xffffffff || directory.size == 0xffffffff;
    const qint64 endAt = size - tail + end;
    if (zip64) {
        char locator[20];
        if (endAt < 20 || !source.read(endAt - 20, 20, locator) || le<quint32>(locator) != kZip64Locator)
            return fileError(source, u"the archive's directory needs ZIP64, and its locator is missing"_s);
        const quint64 recordAt = le<quint64>(locator + 8);
        char record[56];
        if (recordAt > quint64(endAt) || !source.read(qint64(recordAt), 56, record) || le<quint32>(record) != kZip64End)
            return fileError(source, u"the archive's ZIP64 end of directory is missing or outside the file"_s);
        const quint64 entries = le<quint64>(record + 32);
        const quint64 dirSize = le<quint64>(record + 40);
        const quint64 dirOffset = le<quint64>(record + 48);
        if (entries > quint64(kMaxMembers) || dirSize > quint64(size) || dirOffset > quint64(size))
            return fileError(source, u"the archive's ZIP64 directory is larger than the file"_s);
        directory = {qint64(entries), qint64(dirOffset), qint64(dirSize)};
    }
    if (directory.offset > endAt || directory.size > endAt - directory.offset)
        return fileError(
            source,
            u"the archive's directory (%1 bytes from byte %2) is outside the file (%3 bytes)"_s.arg(directory.size)
                .arg(directory.offset)
                .arg(size));
    if (directory.entries > kMaxMembers || directory.entries * kCentralSize > directory.size
        || directory.size > kMaxDirectoryBytes)
        return fileError(
            source,
            u"the archive's directory claims %1 members in %2 bytes"_s.arg(directory.entries).arg(directory.size));
    return directory;
}

// A member's data offset from its local header, checked against the file.
ReadResult<qint64> dataOffset(ByteSource &source, const QString &name, qint64 localOffset, qint64 storedBytes)
{
    char local[kLocalSize];
    if (localOffset > source.size() - kLocalSize || !source.read(localOffset, kLocalSize, local)
        || le<quint32>(local) != kLocalHeader)
        return fileError(source, u"member '%1' has no local header at byte %2"_s.arg(name).arg(localOffset));
    const qint64 start = localOffset + kLocalSize + le<quint16>(local + 26) + le<quint16>(local + 28);
    if (start > source.size() || storedBytes > source.size() - start)
        return fileError(source,
                         u"member '%1' (%2 bytes from byte %3) runs past the end of the file (%4 bytes)"_s.arg(name)
                             .arg(storedBytes)
                             .arg(start)
                             .arg(source.size()));
    return start;
}

} // namespace

namespace NpzReader {

bool hasMagic(QByteArrayView magic)
{
    return magic.size() >= 4 && le<quint32>(magic.data()) == kLocalHeader;
}

ReadResult<std::vector<NpzMember>> members(ByteSource &source)
{
    const auto found = findDirectory(source);
    if (!found)
        return found.error();
    const Directory &directory = found.value();
    QByteArray bytes(directory.size, Qt::Uninitialized);
    if (!source.read(directory.offset, directory.size, bytes.data()))
        return fileError(source, source.errorString());
    std::vector<NpzMember> members;
    QHash<QString, bool> seen;
    qint64 at = 0;
    for (qint64 i = 0; i < directory.entries; ++i) {
        const char *h = bytes.constData() + at;
        if (at > directory.size - kCentralSize || le<quint32>(h) != kCentralHeader)
            return fileError(source, u"the archive's directory is malformed at its member %1"_s.arg(i + 1));
        const quint16 flags = le<quint16>(h + 8);
        const quint16 method = le<quint16>(h + 10);
        const qint64 nameLength = le<quint16>(h + 28);
        const qint64 extraLength = le<quint16>(h + 30);
        const qint64 commentLength = le<quint16>(h + 32);
        if (nameLength + extraLength + commentLength > directory.size - at - kCentralSize)
            return fileError(source, u"the archive's directory is malformed at its member %1"_s.arg(i + 1));
        const QString file = QString::fromUtf8(h + kCentralSize, nameLength);
        Sizes sizes {le<quint32>(h + 24), le<quint32>(h + 20), le<quint32>(h + 42)};
        const QByteArrayView extra(h + kCentralSize + nameLength, extraLength);
        if (!readZip64Extra(extra, sizes, sizes.bytes == 0xffffffff, sizes.storedBytes == 0xffffffff,
                            sizes.localOffset == 0xffffffff))
            return fileError(source, u"member '%1' has a malformed ZIP64 field"_s.arg(file));
        at += kCentralSize + nameLength + extraLength + commentLength;
        // numpy names each array's member NAME.npy; anything else in the archive is not numpy's.
        if (!file.endsWith(u".npy"_s))
            continue;
        const QString name = file.chopped(4);
        // zipfile lets an archive hold one name twice (with a warning); np.load then lists it twice
        // and reads the last, so which array a name stands for cannot be told: malformed.
        if (std::exchange(seen[name], true))
            return fileError(source,
                             u"two members are named '%1': numpy writes each array once, and which one "
                             "the name stands for cannot be told"_s.arg(file));
        if (flags & 1)
            return fileError(source, u"member '%1' is encrypted"_s.arg(name));
        if (method != kStored && method != kDeflated)
            return fileError(
                source,
                u"member '%1' is compressed with method %2; numpy writes stored (0) or deflated (8)"_s.arg(name).arg(
                    method));
        if (method == kStored && sizes.storedBytes != sizes.bytes)
            return fileError(source,
                             u"member '%1' is stored, but its sizes differ (%2 and %3 bytes)"_s.arg(name)
                                 .arg(sizes.storedBytes)
                                 .arg(sizes.bytes));
        const auto start = dataOffset(source, name, sizes.localOffset, sizes.storedBytes);
        if (!start)
            return start.error();
        members.push_back(
            {name, method == kDeflated, start.value(), sizes.storedBytes, sizes.bytes, le<quint32>(h + 16)});
    }
    return members;
}

ReadResult<NpzMember> choose(const std::vector<NpzMember> &members, const std::optional<QString> &name,
                             const QString &path)
{
    const auto refuse = [&](const QString &reason) { return ReadError {path, reason, ReadError::Kind::Choice}; };
    QStringList names;
    for (std::size_t i = 0; i < members.size() && i < 8; ++i)
        names.append(members[i].name);
    QString some = names.join(u", "_s);
    if (members.size() > 8)
        some += u", ... (%1 in all)"_s.arg(members.size());
    if (members.empty())
        return refuse(u"the archive holds no array (no .npy member)"_s);
    if (!name) {
        if (members.size() == 1)
            return members.front();
        return refuse(u"the file holds %1 arrays (%2); choose one with FILE:NAME"_s.arg(members.size()).arg(some));
    }
    for (const NpzMember &member : members) {
        if (member.name == *name || member.name + u".npy"_s == *name)
            return member;
    }
    return refuse(u"there is no array named '%1'; the file holds %2"_s.arg(*name, some));
}

ReadResult<QByteArray> inflate(ByteSource &source, const NpzMember &member, qint64 maxBytes)
{
    if (member.bytes > maxBytes)
        return ReadError {
            source.name(),
            u"array '%1' inflates to %2 bytes, over the %3 bytes the memory budget leaves"_s.arg(member.name)
                .arg(member.bytes)
                .arg(maxBytes),
            ReadError::Kind::OverBudget};
    // One byte more than declared: a stream that fills it inflates past its size.
    QByteArray out(member.bytes + 1, Qt::Uninitialized);
    z_stream stream {};
    if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
        return fileError(source, u"zlib could not start inflating"_s);
    constexpr qint64 kChunk = qint64(1) << 20;
    QByteArray chunk(std::min(kChunk, std::max<qint64>(member.storedBytes, 1)), Qt::Uninitialized);
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    qint64 read = 0;
    QString problem;
    for (;;) {
        if (stream.avail_in == 0 && read < member.storedBytes) {
            const qint64 n = std::min<qint64>(chunk.size(), member.storedBytes - read);
            if (!source.read(member.dataOffset + read, n, chunk.data())) {
                problem = source.errorString();
                break;
            }
            read += n;
            stream.next_in = reinterpret_cast<Bytef *>(chunk.data());
            stream.avail_in = uInt(n);
        }
        const qint64 room = out.size() - qint64(stream.total_out);
        if (room == 0) {
            problem = u"it inflates past its declared %1 bytes"_s.arg(member.bytes);
            break;
        }
        stream.avail_out = uInt(std::min<qint64>(room, std::numeric_limits<uInt>::max()));
        const int status = ::inflate(&stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END)
            break;
        if (status == Z_BUF_ERROR && stream.avail_in == 0 && read == member.storedBytes) {
            problem = u"its deflated data ends before the stream does"_s;
            break;
        }
        if (status != Z_OK) {
            problem = u"its deflated data is corrupt (zlib: %1)"_s.arg(stream.msg ? QString::fromLatin1(stream.msg)
                                                                                  : QString::number(status));
            break;
        }
    }
    const qint64 total = qint64(stream.total_out);
    inflateEnd(&stream);
    if (problem.isEmpty() && total != member.bytes)
        problem = u"it inflates to %1 bytes, not the %2 its header says"_s.arg(total).arg(member.bytes);
    out.resize(member.bytes);
    if (problem.isEmpty()
        && crc32_z(0, reinterpret_cast<const Bytef *>(out.constData()), std::size_t(out.size())) != member.crc)
        problem = u"its CRC-32 does not match"_s;
    if (!problem.isEmpty())
        return fileError(source, u"array '%1': %2"_s.arg(member.name, problem));
    return out;
}

} // namespace NpzReader

MemberByteSource::MemberByteSource(ByteSource &archive, const NpzMember &member)
    : m_archive(archive)
    , m_member(member)
{ }

QString MemberByteSource::name() const
{
    return m_archive.name() + u':' + m_member.name;
}

bool MemberByteSource::readInside(qint64 offset, qint64 length, char *destination)
{
    if (m_archive.read(m_member.dataOffset + offset, length, destination))
        return true;
    setErrorString(m_archive.errorString());
    return false;
}

} // namespace posenc
