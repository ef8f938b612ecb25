#include "io/StandardInput.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc::StandardInput {

namespace {

const QString kName = u"-"_s;

QString systemReason()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// Standard input as a regular file: where it is when it is one, read from its start; else its
// bytes copied into a temporary file whose name is removed at once, reached through /proc while
// this process holds it open.
struct Spool
{
    QString path;
    QString error;
    std::unique_ptr<QTemporaryFile> copy;

    Spool()
    {
        struct stat info
        {
        };
        if (::fstat(STDIN_FILENO, &info) != 0) {
            error = u"standard input cannot be read: %1"_s.arg(systemReason());
            return;
        }
        if (S_ISREG(info.st_mode) && ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0
            && QFileInfo(u"/proc/self/fd/0"_s).isFile()) {
            path = u"/proc/self/fd/0"_s;
            return;
        }
        copy = std::make_unique<QTemporaryFile>(QDir::tempPath() + u"/posenc-stdin-XXXXXX"_s);
        if (!copy->open()) {
            error = u"standard input cannot be copied into %1: %2"_s.arg(QDir::tempPath(), copy->errorString());
            return;
        }
        constexpr qint64 kChunk = qint64(1) << 20;
        QByteArray chunk(kChunk, Qt::Uninitialized);
        for (;;) {
            const ssize_t got = ::read(STDIN_FILENO, chunk.data(), std::size_t(kChunk));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                error = u"standard input cannot be read: %1"_s.arg(systemReason());
                return;
            }
            if (got == 0)
                break;
            if (copy->write(chunk.constData(), got) != got) {
                error = u"standard input cannot be copied into %1: %2"_s.arg(QDir::tempPath(), copy->errorString());
                return;
            }
        }
        if (!copy->flush()) {
            error = u"standard input cannot be copied into %1: %2"_s.arg(QDir::tempPath(), copy->errorString());
            return;
        }
        // No name is left behind, whatever ends the process, where /proc reaches the open file.
        const QString held = u"/proc/self/fd/%1"_s.arg(copy->handle());
        if (QFileInfo(held).isFile() && QFile::remove(copy->fileName())) {
            copy->setAutoRemove(false);
            path = held;
        } else {
            path = copy->fileName();
        }
    }
};

const Spool &spool()
{
    static const Spool read; // once, from the first reader that asks, whatever its thread
    return read;
}

} // namespace

bool names(const QString &path)
{
    return path == kName;
}

ReadResult<QString> file(const QString &path)
{
    if (!names(path))
        return path;
    const Spool &input = spool();
    if (!input.error.isEmpty())
        return ReadError {path, input.error};
    return input.path;
}

QString suffix(const QString &path)
{
    if (!names(path))
        return QFileInfo(path).suffix().toLower();
    const auto where = file(path);
    QFile input(where ? where.value() : QString());
    if (!where || !input.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = input.read(16);
    if (head.startsWith("\x93NUMPY"))
        return u"npy"_s;
    // .safetensors: a little-endian u64 header length, then the header's JSON object.
    if (head.size() >= 9 && head[8] == '{') {
        quint64 length = 0;
        for (int i = 7; i >= 0; --i)
            length = (length << 8) | quint8(head[i]);
        if (length > 0 && length <= quint64(input.size() - 8))
            return u"safetensors"_s;
    }
    if (head.trimmed().startsWith('{'))
        return u"json"_s;
    return u"csv"_s;
}

} // namespace posenc::StandardInput
