#pragma once

#include "check/ModelConfigCheck.h"

#include <QJsonObject>
#include <QString>

#include <variant>

// A model config a figure or a command is asked for, by the name of one of the example configs
// compiled in (ModelExamples: "llama-4-scout") or by a path to a config.json, read and checked
// (docs/ARCHITECTURE.md, Model knowledge): the layer-stack, query-scale and head-map figures and
// the command line's --config read it here.
namespace posenc::ConfigSource {

struct Loaded
{
    QString name; // the model as the file names it ("_model"), or the file's name
    QString source; // the example's name, or the path given
    ConfigCheck check;
    QJsonObject config; // as read: the keys the check reads no parameter from (ConfigDropout's)
};

// Why a config cannot be used, in one line: the path and why it cannot be read or is no model
// config (`unreadable`), or a value no model could mean, named with its key and range.
struct Refusal
{
    QString message;
    bool unreadable = false;
};

// What `nameOrPath` names: an example when no file of that name exists.
std::variant<Loaded, Refusal> load(const QString &nameOrPath);
// What a config option takes, in words, for a message.
QString allowed();

} // namespace posenc::ConfigSource
