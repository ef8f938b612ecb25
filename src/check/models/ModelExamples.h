#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <utility>

// Real models' config.json files compiled into the program (src/check/models/examples/, their
// sources in its README): the examples the layer-stack, query-scale and head-map figures and the
// lesson "One model, many layers" draw, by name ("llama-4-scout").
namespace posenc::ModelExamples {

struct Example
{
    QString name; // the file's name without .json: a figure's "config" option
    QString title; // the model, as the file's "_model" names it
    QJsonObject config;
};

// Every example, by name.
const QList<Example> &all();
// The example called `name`, the name of the preset of the same model ("glm-4-5"), or the name it
// had before ("glm-4.5", "deepseek-v3.2-exp", "qwen3-next"); none for another name.
const Example *find(const QString &name);
// The names, joined for a message: "deepseek-v3, gemma-3-4b, ...".
QString names();
// The files as compiled in, name and bytes (ModelData.cpp, generated).
QList<std::pair<QString, QByteArray>> files();

} // namespace posenc::ModelExamples
