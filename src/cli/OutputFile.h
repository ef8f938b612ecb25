#pragma once

#include "CommandOption.h"

#include <QIODevice>
#include <QString>

#include <functional>
#include <optional>

namespace posenc {

// Where `-o FILE` writes (docs/ARCHITECTURE.md, Command line). A file the user already has is
// kept unless the command line says --force: a script that names the wrong path loses nothing.
// A directory or an unwritable path is left to the writer, which names the reason. `-o -` is
// standard output, in the format --format names.
namespace OutputFile {

// -o, --output FILE: where to write; `extensions` in words (".npy, .csv or .safetensors").
CommandOption outputOption(const QString &extensions);
CommandOption forceOption();
// --format NAME, one of `names`: the format of `-o -`, or instead of FILE's extension.
CommandOption formatOption(const QStringList &names);

// Whether `path` names standard output ("-").
bool isStandardOutput(const QString &path);

// The refusal, naming the path, when `path` is an existing file and `force` is not set.
std::optional<QString> refusal(const QString &path, bool force);
// The refusal of `format`'s bytes on standard output when that is a terminal: binary data would
// garble it, and is surely not what was meant.
std::optional<QString> terminalRefusal(const QString &path, const QString &format, bool binary);

// Writes to `path` whole or not at all (writeAtomically), or to standard output as it comes:
// the message naming the path (or "standard output") and the system's reason when it failed.
std::optional<QString> write(const QString &path, const std::function<bool(QIODevice &)> &write);

} // namespace OutputFile

} // namespace posenc
