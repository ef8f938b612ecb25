#include "ModelExamples.h"

#include <QJsonDocument>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc::ModelExamples {

const QList<Example> &all()
{
    static const QList<Example> list = [] {
        QList<Example> examples;
        for (const auto &[name, bytes] : files()) {
            const QJsonObject config = QJsonDocument::fromJson(bytes).object();
            examples.append({name, config.value(u"_model"_s).toString(name), config});
        }
        return examples;
    }();
    return list;
}

const Example *find(const QString &name)
{
    for (const Example &e : all()) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

QString names()
{
    QStringList list;
    for (const Example &e : all())
        list.append(e.name);
    return list.join(u", "_s);
}

} // namespace posenc::ModelExamples
