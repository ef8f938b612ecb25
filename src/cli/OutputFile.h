#pragma once

#include <QCommandLineOption>
#include <QString>

#include <optional>

namespace posenc {

// What `-o FILE` may replace. A file the user already has is kept unless the command line says
// --force: a script that names the wrong path loses nothing. A directory or an unwritable path
// is left to the writer, which names the reason.
namespace OutputFile {

QCommandLineOption forceOption();

// The refusal, naming the path, when `path` is an existing file and `force` is not set.
std::optional<QString> refusal(const QString &path, bool force);

} // namespace OutputFile

} // namespace posenc
