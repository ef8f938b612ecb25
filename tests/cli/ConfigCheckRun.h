#pragma once

// What the tests of `posenc check --config` share: the real configs of tests/data/configs, a
// check run as JSON, and the float64 formulas the RoPE numbers are compared with.
#include "CliRun.h"
#include "support/TestFiles.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace ConfigCheckRun {

using namespace Qt::StringLiterals;
using CliRun::posenc;
using CliRun::Run;

inline const double kPi = std::numbers::pi;

inline QString fixture(const QString &name)
{
    return QStringLiteral(POSENC_CONFIGS) + u'/' + name + u".json"_s;
}

struct Checked
{
    Run run;
    QJsonObject json;

    QJsonObject layer(const QString &type) const
    {
        for (const QJsonValue &l : json.value(u"layers"_s).toArray()) {
            if (l.toObject().value(u"layer_type"_s).toString() == type)
                return l.toObject();
        }
        return {};
    }
    QStringList layerTypes() const
    {
        QStringList types;
        for (const QJsonValue &l : json.value(u"layers"_s).toArray())
            types.append(l.toObject().value(u"layer_type"_s).toString());
        return types;
    }
    // "severity id" of every finding, sorted.
    QStringList findings() const
    {
        QStringList list;
        for (const QJsonValue &f : json.value(u"findings"_s).toArray())
            list.append(f.toObject().value(u"severity"_s).toString() + u' ' + f.toObject().value(u"id"_s).toString());
        list.removeDuplicates();
        list.sort();
        return list;
    }
    QString message(const QString &id) const
    {
        for (const QJsonValue &f : json.value(u"findings"_s).toArray()) {
            if (f.toObject().value(u"id"_s).toString() == id)
                return f.toObject().value(u"message"_s).toString();
        }
        return {};
    }
};

inline Checked checkJson(const QString &path, const QStringList &more = {})
{
    Checked c;
    c.run = posenc(QStringList {u"check"_s, u"--config"_s, path, u"--json"_s} + more);
    c.json = QJsonDocument::fromJson(c.run.out.toUtf8()).object();
    return c;
}

inline QString writeConfig(const QTemporaryDir &dir, const QString &name, const QJsonObject &config)
{
    const QString path = dir.filePath(name + u".json"_s);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(QJsonDocument(config).toJson());
    return path;
}

inline bool near(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

// pair i's wavelength 2 pi theta^(2i/r): llama3's bands (kept below original/high, divided above
// original/low, blended between), counted from float64 here.
inline std::array<int, 3> llama3Bands(double theta, int rotary, double original, double low, double high)
{
    std::array<int, 3> bands {0, 0, 0};
    for (int i = 0; i < rotary / 2; ++i) {
        const double wavelength = 2.0 * kPi * std::pow(theta, 2.0 * i / rotary);
        if (wavelength < original / high)
            ++bands[0];
        else if (wavelength > original / low)
            ++bands[2];
        else
            ++bands[1];
    }
    return bands;
}

// Liu et al. 2023's critical dimension, 2 ceil((r/2) log_theta(L0 / 2 pi)), clamped to [0, r].
inline int criticalDimension(int rotary, double theta, double context)
{
    const double turns = rotary / 2.0 * std::log(context / (2.0 * kPi)) / std::log(theta);
    return int(std::clamp(2.0 * std::ceil(turns), 0.0, double(rotary)));
}

} // namespace ConfigCheckRun
