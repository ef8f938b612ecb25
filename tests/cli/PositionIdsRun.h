#pragma once

// posenc check --position-ids and its batch flags, run as a user would: the torch-recorded fixture's
// cases (tests/data/make_position_ids_fixture.py), ids files written for a test, the verdict read
// from --json. Shared by the command line's tests of positions.
#include "CliRun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace PositionIdsRun {

inline QJsonObject fixtureCase(const QString &name)
{
    QFile file(QStringLiteral(POSENC_POSITION_IDS));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the fixture");
    for (const QJsonValue &c : QJsonDocument::fromJson(file.readAll()).object().value(u"cases"_s).toArray())
        if (c.toObject().value(u"name"_s).toString() == name)
            return c.toObject();
    qFatal("no case %s", qPrintable(name));
}

// The case's ids as rows of floats: [B, L], or M-RoPE's [3, B, L] as [3·B, L].
inline std::vector<std::vector<float>> idsOf(const QJsonObject &c)
{
    std::vector<std::vector<float>> rows;
    const QJsonArray ids = c.value(u"ids"_s).toArray();
    const auto add = [&rows](const QJsonArray &row) {
        std::vector<float> r;
        for (const QJsonValue &v : row)
            r.push_back(float(v.toDouble()));
        rows.push_back(r);
    };
    for (const QJsonValue &v : ids) {
        if (v.toArray().first().isArray()) {
            for (const QJsonValue &row : v.toArray())
                add(row.toArray());
        } else {
            add(v.toArray());
        }
    }
    return rows;
}

inline QStringList flagsOf(const QJsonObject &c)
{
    QStringList flags;
    const QJsonObject params = c.value(u"params"_s).toObject();
    for (auto it = params.begin(); it != params.end(); ++it)
        flags << u"--"_s + it.key() << it.value().toString();
    return flags;
}

inline QString write(const QTemporaryDir &dir, const QString &name, const std::vector<std::vector<float>> &rows)
{
    std::vector<float> values;
    for (const auto &r : rows)
        values.insert(values.end(), r.begin(), r.end());
    const QString path = dir.filePath(name);
    if (!CliRun::writeNpy(path, qint64(rows.size()), qint64(rows.front().size()), values))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

inline CliRun::Run check(const QString &ids, const QStringList &batch, bool json = false)
{
    QStringList arguments {u"check"_s, u"--position-ids"_s, ids};
    arguments += batch;
    if (json)
        arguments << u"--json"_s;
    return CliRun::posenc(arguments);
}

// The verdict named in the JSON output, and its mistakes.
inline std::pair<QString, QStringList> verdictOf(const CliRun::Run &run)
{
    const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QStringList mistakes;
    for (const QJsonValue &m : o.value(u"mistakes"_s).toArray())
        mistakes.append(m.toString());
    return {o.value(u"verdict"_s).toString(), mistakes};
}

// The paper's sinusoid of width 16 at each of `ids` (Vaswani et al. 2017, section 3.5: sin and cos
// of p / 10000^(2i/d) interleaved), in float64 and stored as float32: a forward pass's PE rows.
inline std::vector<std::vector<float>> sinusoidRows(const std::vector<int> &ids)
{
    constexpr int d = 16;
    std::vector<std::vector<float>> rows;
    for (const int p : ids) {
        std::vector<float> row;
        for (int i = 0; i < d / 2; ++i) {
            const double angle = p / std::pow(10000.0, 2.0 * i / d);
            row.push_back(float(std::sin(angle)));
            row.push_back(float(std::cos(angle)));
        }
        rows.push_back(row);
    }
    return rows;
}

// A packed row of documents of these lengths, each counted from 0 (the flattening collator's ids).
inline std::vector<int> restarted(const std::vector<int> &lengths)
{
    std::vector<int> ids;
    for (const int n : lengths)
        for (int p = 0; p < n; ++p)
            ids.push_back(p);
    return ids;
}

inline CliRun::Run checkTable(const QString &table, const QString &ids, bool json = true)
{
    QStringList arguments {u"check"_s, table, u"--position-ids"_s, ids};
    if (json)
        arguments << u"--json"_s;
    return CliRun::posenc(arguments);
}

// The fixture's left-padded batch: mask row b, and its real tokens.
const std::vector<std::vector<int>> kLeftMask
    = {{0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 1, 1, 1}};

} // namespace PositionIdsRun
