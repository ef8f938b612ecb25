#include "FamilyWords.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QSet>

#include <atomic>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

struct Store
{
    QHash<QString, QJsonObject> files;
    std::atomic<bool> recording {false};
    QMutex mutex;
    QSet<QString> read; // "Alibi:rows/alibi/help", while recording
};

// The leaves below `object` (texts and lists), as paths from the file's top.
void leaves(const QJsonObject &object, const QString &path, QStringList &out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.value().isObject())
            leaves(it.value().toObject(), path + it.key() + u'/', out);
        else
            out.append(path + it.key());
    }
}

Store &store()
{
    static Store *s = [] {
        auto *made = new Store;
        for (const auto &[name, bytes] : FamilyWords::files()) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
            if (error.error != QJsonParseError::NoError || !document.isObject())
                qFatal("%sWords.json is not a JSON object: %s at %d", qPrintable(name), qPrintable(error.errorString()),
                       error.offset);
            made->files.insert(name, document.object());
        }
        return made;
    }();
    return *s;
}

} // namespace

FamilyWords::FamilyWords(const QString &name)
    : m_name(name)
{
    const auto it = store().files.constFind(name);
    if (it == store().files.constEnd())
        qFatal("No family has the words file %sWords.json", qPrintable(name));
    m_object = *it;
}

FamilyWords::FamilyWords(QString name, QString path, QJsonObject object)
    : m_name(std::move(name))
    , m_path(std::move(path))
    , m_object(std::move(object))
{ }

void FamilyWords::refuse(const QString &key, const char *what) const
{
    qFatal("%sWords.json has no %s at \"%s%s\"", qPrintable(m_name), what, qPrintable(m_path), qPrintable(key));
}

QJsonValue FamilyWords::at(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    if (Store &s = store(); s.recording.load(std::memory_order_relaxed) && !value.isObject()) {
        const QMutexLocker lock(&s.mutex);
        s.read.insert(m_name + u':' + m_path + key);
    }
    return value;
}

QString FamilyWords::text(const QString &key) const
{
    const QJsonValue value = at(key);
    if (!value.isString())
        refuse(key, "text");
    return value.toString();
}

QStringList FamilyWords::texts(const QString &key) const
{
    const QJsonValue value = at(key);
    QStringList list;
    for (const QJsonValue item : value.toArray()) {
        if (!item.isString())
            refuse(key, "list of texts");
        list.append(item.toString());
    }
    if (!value.isArray())
        refuse(key, "list of texts");
    return list;
}

QList<std::pair<QString, QString>> FamilyWords::meanings(const QString &key) const
{
    const QJsonValue value = at(key);
    QList<std::pair<QString, QString>> list;
    for (const QJsonValue item : value.toArray()) {
        const QJsonArray pair = item.toArray();
        if (pair.size() != 2 || !pair[0].isString() || !pair[1].isString())
            refuse(key, "list of [key, meaning]");
        list.append({pair[0].toString(), pair[1].toString()});
    }
    if (!value.isArray())
        refuse(key, "list of [key, meaning]");
    return list;
}

FamilyWords FamilyWords::part(const QString &key) const
{
    const QJsonValue value = at(key);
    if (!value.isObject())
        refuse(key, "object");
    return FamilyWords(m_name, m_path + key + u'/', value.toObject());
}

bool FamilyWords::has(const QString &key) const
{
    return m_object.contains(key);
}

void FamilyWords::recordReads()
{
    store().recording.store(true, std::memory_order_relaxed);
}

QStringList FamilyWords::names()
{
    QStringList list = store().files.keys();
    list.sort();
    return list;
}

QStringList FamilyWords::unread(const QString &name)
{
    Store &s = store();
    QStringList all;
    leaves(s.files.value(name), QString(), all);
    const QMutexLocker lock(&s.mutex);
    QStringList left;
    for (const QString &path : all)
        if (!s.read.contains(name + u':' + path))
            left.append(path);
    return left;
}

} // namespace posenc
