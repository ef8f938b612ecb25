#pragma once

#include <QString>

#include <functional>
#include <optional>

class QIODevice;

namespace posenc {

// Why a file could not be written; the message names both the path and the reason.
struct WriteError
{
    QString path;
    QString reason;

    QString toString() const;
};

// Writes a file whole or not at all: the content goes to a temporary file beside the target,
// which replaces the target only once `write` returned true and the whole content was written.
// `write` streams the content into the device and returns false on failure. A path that is a
// device or a pipe (/dev/null, a FIFO) is written to directly: it cannot be replaced, only fed.
std::optional<WriteError> writeAtomically(const QString &path, const std::function<bool(QIODevice &)> &write);

} // namespace posenc
