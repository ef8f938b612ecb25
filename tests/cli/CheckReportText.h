#pragma once

// A `posenc check --json` report (CliRun::checked's, its exit code as "exit") in words for a
// failure's message: its mistakes' ids, and one line of exit, verdict, mistakes and diagnosis.
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace CheckReportText {

inline QStringList mistakesOf(const QJsonObject &o)
{
    QStringList names;
    for (const QJsonValue &v : o[QStringLiteral("mistakes")].toArray())
        names.append(v.toString());
    return names;
}

inline QString shown(const QJsonObject &o)
{
    return QStringLiteral("exit %1, %2 [%3]: %4")
        .arg(o[QStringLiteral("exit")].toInt())
        .arg(o[QStringLiteral("verdict")].toString(), mistakesOf(o).join(QLatin1Char(',')),
             o[QStringLiteral("diagnosis")].toString());
}

} // namespace CheckReportText
