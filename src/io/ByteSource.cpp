#include "io/ByteSource.h"

#include "io/StandardInput.h"

#include <QFileInfo>

#include <cstring>

using namespace Qt::StringLiterals;

namespace posenc {

bool ByteSource::read(qint64 offset, qint64 length, char *destination)
{
    // Written so that no sum can overflow: offset <= size and length <= size - offset.
    if (offset < 0 || length < 0 || offset > size() || length > size() - offset) {
        m_error = u"%1 bytes from byte %2 are outside the file (%3 bytes)"_s.arg(length).arg(offset).arg(size());
        return false;
    }
    if (m_cancel && m_cancel->load(std::memory_order_relaxed)) {
        m_error = u"the read was cancelled"_s;
        return false;
    }
    return length == 0 || readInside(offset, length, destination);
}

MemoryByteSource::MemoryByteSource(QByteArrayView bytes, const QString &name)
    : m_bytes(bytes)
    , m_name(name)
{ }

bool MemoryByteSource::readInside(qint64 offset, qint64 length, char *destination)
{
    std::memcpy(destination, m_bytes.data() + offset, static_cast<std::size_t>(length));
    return true;
}

FileByteSource::FileByteSource(const QString &path)
    : m_file(path)
    , m_name(path)
{ }

QString openRegularFile(QFile &file)
{
    // "-": standard input, held in a regular file (StandardInput).
    const auto where = StandardInput::file(file.fileName());
    if (!where)
        return where.error().reason;
    file.setFileName(where.value());
    const QFileInfo info(file.fileName());
    if (!info.exists())
        return u"no such file"_s;
    // A directory, a pipe or a device has no size to check lengths against.
    if (!info.isFile())
        return u"not a regular file"_s;
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return file.errorString();
    return {};
}

bool FileByteSource::open()
{
    const QString error = openRegularFile(m_file);
    if (!error.isEmpty()) {
        setErrorString(error);
        return false;
    }
    m_size = m_file.size();
    return true;
}

bool FileByteSource::readInside(qint64 offset, qint64 length, char *destination)
{
    if (!m_file.seek(offset)) {
        setErrorString(u"cannot seek to byte %1: %2"_s.arg(offset).arg(m_file.errorString()));
        return false;
    }
    qint64 done = 0;
    while (done < length) {
        const qint64 got = m_file.read(destination + done, length - done);
        if (got <= 0) {
            setErrorString(got < 0 ? m_file.errorString()
                                   : u"the file ended at byte %1 while it was being read"_s.arg(offset + done));
            return false;
        }
        done += got;
    }
    return true;
}

} // namespace posenc
