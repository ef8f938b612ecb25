#pragma once

#include <QJsonObject>
#include <QString>

// What every --json object of the command line begins with (docs/ARCHITECTURE.md, Command line):
// its format, "posenc-" and the command ("posenc-check"), and the version of its keys, raised when
// a key changes its meaning or goes, as a session file's are. A script can tell what it reads.
namespace posenc::JsonOutput {

inline constexpr int kVersion = 1;
// posenc check's table and --apply objects: 2 since "mistakes" holds names on a mistake verdict
// alone, another verdict's in "guessed_mistakes".
inline constexpr int kCheckVersion = 2;

inline QString format(const QString &command)
{
    return QStringLiteral("posenc-") + command;
}

// The two keys as the text of a JSON object's first members: "\"format\": \"posenc-check\", \"version\": 1".
inline QString head(const QString &command, int version = kVersion)
{
    return QStringLiteral("\"format\": \"%1\", \"version\": %2").arg(format(command)).arg(version);
}

inline void stamp(QJsonObject &object, const QString &command)
{
    object[QStringLiteral("format")] = format(command);
    object[QStringLiteral("version")] = kVersion;
}

} // namespace posenc::JsonOutput
