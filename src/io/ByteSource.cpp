#include "io/ByteSource.h"

#include "io/StandardInput.h"

#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

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

namespace {

// The text of the symbolic link at `path`, as it was written; empty when it is none.
QString linkText(const QString &path)
{
    QByteArray target(4096, Qt::Uninitialized);
    const ssize_t length = ::readlink(QFile::encodeName(path).constData(), target.data(), std::size_t(target.size()));
    return length > 0 ? QFile::decodeName(target.left(length)) : QString();
}

// The links from `path` on, as they are written, until one comes back (a -> b -> a); empty when
// the chain ends or runs past a few links without coming back.
QString linkLoop(const QString &path)
{
    constexpr int kMaxShown = 8;
    QStringList shown {QFileInfo(path).fileName()};
    QStringList seen {QDir::cleanPath(QFileInfo(path).absoluteFilePath())};
    for (int hop = 0; hop < kMaxShown; ++hop) {
        const QString text = linkText(seen.last());
        if (text.isEmpty())
            return {};
        shown.append(text);
        const QString next = QDir::cleanPath(QFileInfo(seen.last()).absoluteDir().absoluteFilePath(text));
        if (seen.contains(next))
            return shown.join(u" -> "_s);
        seen.append(next);
    }
    return {};
}

} // namespace

QString fileNameProblem(const QString &path)
{
    if (path.isEmpty())
        return u"an empty name"_s;
    if (path.contains(QChar(u'\0')))
        return u"the name holds the character U+0000, which no file name can"_s;
    return {};
}

QString absentFileReason(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat status
    {
    };
    if (::stat(native.constData(), &status) == 0)
        return u"no such file"_s; // when it was looked for: it is there now
    const int error = errno;
    if (error == ENOENT && ::lstat(native.constData(), &status) == 0 && S_ISLNK(status.st_mode))
        return u"a symbolic link to '%1', which does not exist"_s.arg(linkText(path));
    if (error == ENOENT)
        return u"no such file"_s;
    if (error == ELOOP) {
        const QString loop = linkLoop(path);
        return loop.isEmpty() ? u"too many levels of symbolic links"_s : u"a loop of symbolic links (%1)"_s.arg(loop);
    }
    QString reason = QString::fromLocal8Bit(std::strerror(error));
    if (!reason.isEmpty())
        reason[0] = reason[0].toLower();
    return reason;
}

QString notRegularFileReason(const QFileInfo &info)
{
    return info.isDir() ? u"a directory, not a regular file"_s : u"not a regular file (a pipe, a socket or a device)"_s;
}

QString openRegularFile(QFile &file)
{
    // "-": standard input, held in a regular file (StandardInput).
    if (QString problem = fileNameProblem(file.fileName()); !problem.isEmpty())
        return problem;
    const auto where = StandardInput::file(file.fileName());
    if (!where)
        return where.error().reason;
    file.setFileName(where.value());
    const QFileInfo info(file.fileName());
    if (!info.exists())
        return absentFileReason(file.fileName());
    // A directory, a pipe or a device has no size to check lengths against.
    if (!info.isFile())
        return notRegularFileReason(info);
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
