#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// Typed reads of a config's JSON values (docs/ARCHITECTURE.md, Checking a model config). A value
// of the wrong type or out of every range a model could mean is a problem that names its key
// path ("text_config.rope_scaling.factor"), what it must be, and what it is; the read then gives
// nothing, so that the check goes on and reports every problem at once.
namespace posenc {

struct ConfigProblem
{
    QString key; // the key's path from the top of the file
    QString allowed; // what it must be: "a number in (1, 1e15]"
    QString got; // what it is, as JSON writes it (strings quoted), or what is wrong

    QString toString() const; // "rope_scaling.factor: must be a number >= 0.001; got \"4\""
    friend bool operator==(const ConfigProblem &, const ConfigProblem &) = default;
};

// One JSON object of the config and where it sits in the file.
class ConfigObject
{
public:
    ConfigObject(QJsonObject object, QString path, QList<ConfigProblem> *problems);

    const QJsonObject &json() const { return m_object; }
    QString path() const { return m_path; }
    // "rope_scaling.factor": the path of `key` in this object.
    QString pathOf(const QString &key) const;

    // Present and not null (Python's `None` is as good as absent for HF).
    bool has(const QString &key) const;
    bool contains(const QString &key) const { return m_object.contains(key); }

    // A finite number in [lo, hi] (JSON integers and decimals alike), or a problem.
    std::optional<double> number(const QString &key, double lo, double hi) const;
    // A whole number in [lo, hi] (8192 and 8192.0 alike, as Python's int() takes both).
    std::optional<std::int64_t> integer(const QString &key, std::int64_t lo, std::int64_t hi) const;
    std::optional<bool> boolean(const QString &key) const;
    std::optional<QString> string(const QString &key) const;
    // An object, or a problem; null gives nothing without a problem.
    std::optional<ConfigObject> object(const QString &key) const;
    // A list of numbers each in [lo, hi], at most `maxCount` of them.
    std::optional<std::vector<double>> numbers(const QString &key, double lo, double hi, qsizetype maxCount) const;
    // A list of whole numbers each in [lo, hi], at most `maxCount` of them.
    std::optional<std::vector<std::int64_t>> integers(const QString &key, std::int64_t lo, std::int64_t hi,
                                                      qsizetype maxCount) const;
    std::optional<QStringList> strings(const QString &key, qsizetype maxCount) const;

    // Records a problem with `key` of this object.
    void problem(const QString &key, const QString &allowed, const QString &got) const;

    // A value as JSON writes it, shortened: "\"4\"", "[1, 2]", "{...}".
    static QString jsonText(const QJsonValue &value);

private:
    QJsonObject m_object;
    QString m_path;
    QList<ConfigProblem> *m_problems;
};

} // namespace posenc
