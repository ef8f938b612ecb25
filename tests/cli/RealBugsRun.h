#pragma once
// posenc check on a bug of the real-bug corpus (tests/data/realbugs, issue 56) as its manifest.json
// declares it: the fixed output never a mistake undeclared and the manifest's verdict declared, the
// buggy one never correct declared, its mistake named where asked. tst_clirealbugs and
// tst_cliheldoutbugs (the held-out round's bugs) share it.
#include "CliRun.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace RealBugsRun {

const QString kSource = QStringLiteral(POSENC_SOURCE_DIR);

// The manifest's name of a mistake where posenc's id differs.
const QHash<QString, QString> kIds {{u"longrope-factors"_s, u"longrope-factor-set"_s},
                                    {u"frequency-exponent"_s, u"freq-shift"_s},
                                    {u"sin-cos-order"_s, u"flip-sin-to-cos"_s},
                                    {u"sign-flipped"_s, u"relative-position-reversed"_s}};


inline QJsonObject bugOf(const QString &slug)
{
    QFile file(kSource + u"/tests/data/realbugs/manifest.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    for (const QJsonValue &bug : QJsonDocument::fromJson(file.readAll())[u"bugs"_s].toArray()) {
        if (bug[u"slug"_s].toString() == slug)
            return bug.toObject();
    }
    return {};
}

// The manifest's paths are the repository's: made absolute.
inline QString absolute(const QString &path)
{
    return path.startsWith(u"tests/"_s) ? kSource + u"/"_s + path : path;
}

inline QStringList declaredFlags(const QJsonObject &bug)
{
    QStringList flags;
    const QString line = bug[u"reference"_s][u"posenc_flags"_s].toString();
    for (const QString &word : line.split(QRegularExpression(u"\\s+"_s), Qt::SkipEmptyParts))
        flags.append(absolute(word));
    return flags;
}

inline QJsonObject checked(const QJsonObject &bug, const QString &which, bool declared)
{
    QStringList arguments {u"check"_s, absolute(bug[u"files"_s][which].toString()), u"--json"_s};
    if (declared)
        arguments += declaredFlags(bug);
    const CliRun::Run run = CliRun::posenc(arguments);
    QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    o[u"exit"_s] = run.exitCode;
    o[u"stderr"_s] = run.err;
    return o;
}

inline QString shown(const QJsonObject &o)
{
    return u"exit %1, verdict %2, mistakes %3: %4 %5"_s.arg(o[u"exit"_s].toInt())
        .arg(o[u"verdict"_s].toString(),
             QString::fromUtf8(QJsonDocument(o[u"mistakes"_s].toArray()).toJson(QJsonDocument::Compact)),
             o[u"diagnosis"_s].toString().left(300), o[u"stderr"_s].toString());
}


// The fixed output never a mistake undeclared, and the manifest's verdict against its declared
// reference; the buggy one never correct against it, its mistake named where `named` says (the
// manifest's key, or posenc's id for it). The buggy output's check is returned for more checks;
// a failed comparison leaves QTest::currentTestFailed() set.
inline QJsonObject verdictsHold(const QJsonObject &bug, bool declarable, bool named)
{
    [&] {
        const QJsonObject fixedUndeclared = checked(bug, u"fixed"_s, false);
        QVERIFY2(fixedUndeclared[u"verdict"_s].toString() != u"mistake"_s, qPrintable(shown(fixedUndeclared)));
        QVERIFY2(fixedUndeclared[u"exit"_s].toInt() != 2, qPrintable(shown(fixedUndeclared)));
    }();
    if (!declarable || QTest::currentTestFailed())
        return {}; // the declared flags state another reference: neither verdict is the manifest's
    QJsonObject buggy;
    [&] {
        const QJsonObject fixedDeclared = checked(bug, u"fixed"_s, true);
        QVERIFY2(fixedDeclared[u"verdict"_s].toString() == bug[u"expected"_s][u"fixed"_s].toString(),
                 qPrintable(shown(fixedDeclared)));
        buggy = checked(bug, u"buggy"_s, true);
        QVERIFY2(buggy[u"verdict"_s].toString() != u"correct"_s, qPrintable(shown(buggy)));
        QVERIFY2(buggy[u"exit"_s].toInt() != 2, qPrintable(shown(buggy)));
        if (named) {
            const QString mistake = bug[u"expected"_s][u"buggy"_s][u"mistake"_s].toString();
            const QString id = kIds.value(mistake, mistake);
            QVERIFY2(buggy[u"mistakes"_s].toArray().contains(id), qPrintable(id + u": "_s + shown(buggy)));
        }
    }();
    return buggy;
}

} // namespace RealBugsRun
