#pragma once

#include "io/ByteSource.h"
#include "io/ReadError.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace posenc {

// One array of a .npz file: a member of the zip archive numpy's savez writes ("pos.npy"), stored
// or deflated (savez_compressed), checked against the archive's size.
struct NpzMember
{
    QString name; // as numpy names it, without ".npy"
    bool deflated = false;
    qint64 dataOffset = 0; // of the member's bytes (a .npy file once inflated) in the archive
    qint64 storedBytes = 0; // in the archive
    qint64 bytes = 0; // of the .npy file
    quint32 crc = 0;
};

// A .npz file (a zip archive of .npy files, numpy.savez and savez_compressed), read as hostile
// input (docs/ARCHITECTURE.md, Checking a table): the central directory, ZIP64 included, is
// parsed within bounds checked against the size; a stored member is read where it lies, a
// deflated one inflated by zlib within a budget and its CRC-32 checked.
namespace NpzReader {

// Whether `magic` (the first bytes) starts a zip archive.
bool hasMagic(QByteArrayView magic);

// Every member that is a .npy file, in the archive's order; reads the directory and each member's
// local header only.
ReadResult<std::vector<NpzMember>> members(ByteSource &source);

// The member named `name` ("pos" or "pos.npy"), or the only one when no name is given.
ReadResult<NpzMember> choose(const std::vector<NpzMember> &members, const std::optional<QString> &name,
                             const QString &path);

// A deflated member inflated: the .npy file's bytes. Refused (ReadError::Kind::OverBudget) when
// they would pass `maxBytes`, before anything is allocated.
ReadResult<QByteArray> inflate(ByteSource &source, const NpzMember &member, qint64 maxBytes);

} // namespace NpzReader

// The bytes of a stored member as a source of their own, for NpyReader.
class MemberByteSource final : public ByteSource
{
public:
    MemberByteSource(ByteSource &archive, const NpzMember &member);
    QString name() const override;
    qint64 size() const override { return m_member.bytes; }

protected:
    bool readInside(qint64 offset, qint64 length, char *destination) override;

private:
    ByteSource &m_archive;
    NpzMember m_member;
};

} // namespace posenc
