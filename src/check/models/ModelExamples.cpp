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
    // An example is named as the preset of its model ("glm-4-5"); these three were named otherwise
    // once, and sessions and lessons saved then still name them so.
    static const QList<std::pair<QString, QString>> former {{u"glm-4.5"_s, u"glm-4-5"_s},
                                                             {u"deepseek-v3.2-exp"_s, u"deepseek-v3-2-exp"_s},
                                                             {u"qwen3-next"_s, u"qwen3-next-80b"_s}};
    QString wanted = name;
    for (const auto &[was, is] : former) {
        if (name == was)
            wanted = is;
    }
    for (const Example &e : all()) {
        if (e.name == wanted)
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
