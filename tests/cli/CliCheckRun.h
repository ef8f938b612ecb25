#pragma once

// `posenc check FILE --json --quiet FLAGS` as the command-line tests of the check run it: the table
// written whole to the test's own directory first, the verdict read back from the JSON.
#include "CliRun.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>

namespace CliCheck {

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString shown; // standard output and standard error, for a failure's message

    QString verdict() const { return json[QStringLiteral("verdict")].toString(); }
    QJsonArray mistakes() const { return json[QStringLiteral("mistakes")].toArray(); }
    QString diagnosis() const { return json[QStringLiteral("diagnosis")].toString(); }
    QString all() const { return QString::fromUtf8(QJsonDocument(json).toJson()); }
};

// `bytes` as the file `name` of `dir`, or an empty path where it could not be written whole.
inline QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString file = dir.filePath(name);
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return {};
    return file;
}

inline Checked checkFile(const QString &file, const QStringList &flags)
{
    const CliRun::Run run = CliRun::posenc(
        QStringList {QStringLiteral("check"), file, QStringLiteral("--json"), QStringLiteral("--quiet")} + flags);
    return {run.exitCode, QJsonDocument::fromJson(run.out.toUtf8()).object(), run.out + run.err};
}

// A check's JSON in one line, for a failure's message: its exit, verdict, mistakes and diagnosis.
inline QString shown(const QJsonObject &o)
{
    return QStringLiteral("exit %1, %2, %3: %4")
        .arg(o[QStringLiteral("exit")].toInt())
        .arg(o[QStringLiteral("verdict")].toString(),
             QString::fromUtf8(QJsonDocument(o[QStringLiteral("mistakes")].toArray()).toJson(QJsonDocument::Compact)),
             o[QStringLiteral("diagnosis")].toString());
}

// Whether the check said `mistake` and named each of `ids` among its mistakes.
inline bool named(const QJsonObject &o, const QStringList &ids)
{
    const QJsonArray mistakes = o[QStringLiteral("mistakes")].toArray();
    return o[QStringLiteral("verdict")].toString() == QStringLiteral("mistake")
        && std::all_of(ids.begin(), ids.end(), [&](const QString &id) { return mistakes.contains(id); });
}

// The table `bytes` checked as t.npy of `dir`.
inline Checked check(const QTemporaryDir &dir, const QByteArray &bytes, const QStringList &flags)
{
    return checkFile(write(dir, QStringLiteral("t.npy"), bytes), flags);
}

} // namespace CliCheck
