#include "io/AtomicFile.h"

#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace posenc {

QString WriteError::toString() const
{
    return path + u": "_s + reason;
}

std::optional<WriteError> writeAtomically(const QString &path, const std::function<bool(QIODevice &)> &write)
{
    // A QSaveFile destroyed without commit() removes its temporary file, so every early
    // return below (and an exception thrown by `write`) leaves the target untouched.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return WriteError {path, file.errorString()};
    if (!write(file)) {
        if (file.error() != QFileDevice::NoError)
            return WriteError {path, file.errorString()};
        return WriteError {path, u"the content could not be written completely"_s};
    }
    if (!file.commit())
        return WriteError {path, file.errorString()};
    return std::nullopt;
}

} // namespace posenc
