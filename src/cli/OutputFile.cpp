#include "OutputFile.h"

#include "io/AtomicFile.h"
#include "io/MemoryFiles.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc::OutputFile {

namespace {

const QString kStandardOutput = u"-"_s;

} // namespace

CommandOption outputOption(const QString &extensions)
{
    return {
        {u"o"_s, u"output"_s},
        u"FILE"_s,
        u"where to write: a file ending in %1, written whole or not at all; - for standard output, with --format"_s.arg(
            extensions),
        {},
        true};
}

CommandOption forceOption()
{
    return {{u"force"_s}, {}, u"replace FILE if it exists (without it the run is refused, exit 3, the file kept)"_s};
}

CommandOption formatOption(const QStringList &names)
{
    return {{u"format"_s},
            u"FORMAT"_s,
            u"%1: the format of -o -, or instead of FILE's extension"_s.arg(names.join(u", "_s)),
            names};
}

bool isStandardOutput(const QString &path)
{
    return path == kStandardOutput;
}

std::optional<QString> refusal(const QString &path, bool force)
{
    if (force || isStandardOutput(path) || MemoryFiles::output(path) || !QFileInfo(path).isFile())
        return std::nullopt;
    return u"%1: the file exists; give --force to replace it"_s.arg(path);
}

std::optional<QString> terminalRefusal(const QString &path, const QString &format, bool binary)
{
    if (!isStandardOutput(path) || !binary || !isatty(STDOUT_FILENO))
        return std::nullopt;
    return u"-o -: standard output is a terminal, and %1 is binary; send it to a file or a pipe "
           "(-o - | ...)"_s.arg(format);
}

std::optional<QString> write(const QString &path, const std::function<bool(QIODevice &)> &write)
{
    // Bytes the Python module takes (MemoryFiles): kept whole or not at all, as a file is.
    if (QByteArray *kept = MemoryFiles::output(path)) {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!write(buffer))
            return u"%1: the output could not be written"_s.arg(path);
        *kept = std::move(bytes);
        return std::nullopt;
    }
    if (!isStandardOutput(path)) {
        if (const auto failed = writeAtomically(path, write))
            return failed->toString();
        return std::nullopt;
    }
    // What was printed before through C's stdout goes first.
    std::fflush(stdout);
    QFile out;
    if (!out.open(STDOUT_FILENO, QIODevice::WriteOnly, QFileDevice::DontCloseHandle))
        return u"standard output: %1"_s.arg(out.errorString());
    if (!write(out) || !out.flush())
        return u"standard output: %1"_s.arg(out.error() != QFileDevice::NoError ? out.errorString()
                                                                                : u"the output could not be written"_s);
    return std::nullopt;
}

} // namespace posenc::OutputFile
