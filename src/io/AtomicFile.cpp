#include "io/AtomicFile.h"

#include "core/OneLine.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Why writing `file` failed, in the system's words. A write that the disk cuts short (a full
// disk, a file size limit) leaves no error on a QFileDevice: Qt returns the part that was
// written and forgets why the rest was not. Writing on asks again: first what is still
// buffered, else one more byte, straight to the system. That fails at once for the same
// reason, and this time Qt keeps it. The bytes go to the temporary file, which is discarded.
QString failureReason(QSaveFile &file)
{
    file.flush();
    if (file.error() == QFileDevice::NoError && file.write("", 1) == 1)
        file.flush();
    if (file.error() != QFileDevice::NoError)
        return file.errorString();
    return u"the content could not be written completely"_s;
}

} // namespace

QString WriteError::toString() const
{
    return oneLine(QString(path + u": "_s + reason));
}

std::optional<WriteError> writeAtomically(const QString &path, const std::function<bool(QIODevice &)> &write)
{
    // A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written to as it is: a file renamed
    // over it would replace the device itself, wherever the user may create files beside it.
    if (const QFileInfo info(path); info.exists() && !info.isFile() && !info.isDir()) {
        QFile device(path);
        // A FIFO no process reads would hold the open, the window's with it, until one does: opened
        // without waiting, it says so at once; read, it is written to as any pipe (blocking).
        struct stat st
        {
        };
        if (::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISFIFO(st.st_mode)) {
            const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0)
                return WriteError {path,
                                   errno == ENXIO ? u"a pipe no process reads; start its reader first"_s
                                                  : QString::fromLocal8Bit(std::strerror(errno))};
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            if (!device.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle)) {
                ::close(fd);
                return WriteError {path, device.errorString()};
            }
        } else if (!device.open(QIODevice::WriteOnly))
            return WriteError {path, device.errorString()};
        if (!write(device) || !device.flush())
            return WriteError {path,
                               device.error() != QFileDevice::NoError
                                   ? device.errorString()
                                   : u"the content could not be written completely"_s};
        return std::nullopt;
    }
    // A QSaveFile destroyed without commit() removes its temporary file, so every early
    // return below (and an exception thrown by `write`) leaves the target untouched.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return WriteError {path, file.errorString()};
    if (!write(file))
        return WriteError {path, failureReason(file)};
    // commit() writes what is still buffered: a full disk can show only here.
    if (!file.flush())
        return WriteError {path, failureReason(file)};
    if (!file.commit())
        return WriteError {path, file.errorString()};
    return std::nullopt;
}

} // namespace posenc
