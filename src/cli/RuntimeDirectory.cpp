#include "RuntimeDirectory.h"

#include <QDir>
#include <QFile>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A directory (not a link to one) of this user that only this user may enter, made so if
// it is ours but too open.
bool isPrivateDirectory(const QByteArray &path)
{
    struct stat info
    {
    };
    if (lstat(path.constData(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != geteuid())
        return false;
    return (info.st_mode & 0777) == 0700 || chmod(path.constData(), 0700) == 0;
}

} // namespace

QString ensureRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return qEnvironmentVariable("XDG_RUNTIME_DIR");
    const QString base = QDir::tempPath();
    QByteArray path = QFile::encodeName(u"%1/posenc-runtime-%2"_s.arg(base).arg(geteuid()));
    const bool made = mkdir(path.constData(), 0700) == 0 || errno == EEXIST;
    if (!made || !isPrivateDirectory(path)) {
        // Someone else's file or directory holds the name: a new directory only we can enter.
        path = QFile::encodeName(base + u"/posenc-runtime-XXXXXX"_s);
        if (!mkdtemp(path.data()))
            return {}; // Qt's own fallback then applies, with its warning
    }
    qputenv("XDG_RUNTIME_DIR", path);
    return QFile::decodeName(path);
}

} // namespace posenc
