#include "ConfigContext.h"

#include "core/NumberText.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

ConfigContext::ConfigContext(const QJsonObject &config, ConfigCheck &check)
    : top(config, QString(), &check.problems)
    , text(config, QString(), &check.problems)
    , result(check)
{ }

void ConfigContext::find(const QString &id, const QString &message, const QString &layerType)
{
    // The same words twice (a default read for each layer type) are said once.
    const QString key = id + QChar(0x1f) + layerType + QChar(0x1f) + message;
    if (m_said.contains(key))
        return;
    m_said.insert(key);
    const ConfigFinding finding = ConfigFindings::make(id, message, layerType);
    if (finding.severity == Severity::Error)
        m_errorTypes.insert(layerType);
    result.findings.append(finding);
}

void ConfigContext::implicitDefault(const QString &key, const QString &value)
{
    find(u"implicit-default"_s, u"%1 is absent: HF's %2 takes %3"_s.arg(text.pathOf(key), model.configClass, value));
}

bool ConfigContext::errorFor(const QString &layerType) const
{
    return m_errorTypes.contains(QString()) || m_errorTypes.contains(layerType);
}

std::int64_t ConfigContext::integerOr(const QStringList &keys, std::int64_t lo, std::int64_t hi, std::int64_t fallback,
                                      bool warn)
{
    for (const QString &key : keys) {
        if (text.has(key))
            return text.integer(key, lo, hi).value_or(fallback);
    }
    if (warn)
        implicitDefault(keys.constFirst(), QString::number(fallback));
    return fallback;
}

namespace ConfigText {

QString number(double v)
{
    if (std::abs(v) < 1e15 && v == std::floor(v))
        return QString::number(static_cast<qint64>(v));
    return NumberText::exact(v);
}

QString quote(const QString &word)
{
    return ConfigObject::jsonText(QJsonValue(word));
}

QString keyList(const QStringList &keys)
{
    // Anchored as a whole: PCRE's $ would also match before a final newline.
    static const QRegularExpression plain(QRegularExpression::anchoredPattern(u"[A-Za-z0-9_.-]{1,64}"_s));
    QStringList words;
    for (const QString &k : keys.mid(0, 8))
        words.append(plain.match(k).hasMatch() ? k : quote(k));
    if (keys.size() > 8)
        words.append(u"%1 more"_s.arg(keys.size() - 8));
    return words.join(u", "_s);
}

QString layerList(const std::vector<std::int64_t> &layers, std::int64_t total)
{
    QStringList words;
    for (const std::int64_t l : layers)
        words.append(QString::number(l));
    return u"%1 (%2 of %3)"_s.arg(words.join(u", "_s)).arg(layers.size()).arg(total);
}

} // namespace ConfigText

std::vector<std::int64_t> layerRange(std::int64_t n)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < n; ++i)
        v.push_back(i);
    return v;
}

Params configParams(std::int64_t hidden, std::int64_t positions)
{
    Params p;
    p.dModel = std::clamp<std::int64_t>(hidden, 1, Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(positions, 1, Params::kMaxLen);
    return p;
}

void settleLayer(ConfigContext &context, ConfigLayer &layer, const QHash<QString, QString> &sources)
{
    const QList<ParamError> errors = layer.params.validate();
    if (errors.isEmpty())
        return;
    if (context.errorFor(layer.layerType)) {
        layer.described = false;
        return;
    }
    for (const ParamError &e : errors) {
        QString key = sources.value(e.key);
        if (key.isEmpty())
            key = context.text.pathOf(QString(e.key).replace(u'-', u'_'));
        // A value already refused for its type is not refused again for its absence.
        const bool known = std::any_of(context.result.problems.cbegin(), context.result.problems.cend(),
                                       [&](const ConfigProblem &p) { return p.key == key; });
        if (known)
            continue;
        QString got = e.given.value_or(u"nothing"_s);
        // A number the file holds past 2^53 is said as the double read, with how far the file's may be.
        if (bool number = false; std::abs(got.toDouble(&number)) >= 0x1p53 && number)
            got = ConfigObject::jsonText(QJsonValue(got.toDouble()));
        if (!e.problem.isEmpty())
            got += u" ("_s + e.problem + u')';
        context.result.problems.append(ConfigProblem {key, e.allowed.isEmpty() ? e.problem : e.allowed, got});
    }
    layer.described = false;
}

} // namespace posenc
