#include "ConfigSource.h"

#include "check/models/ModelExamples.h"
#include "io/ModelConfigFile.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace posenc::ConfigSource {

std::variant<Loaded, Refusal> load(const QString &nameOrPath)
{
    Loaded loaded;
    loaded.source = nameOrPath;
    QJsonObject config;
    const ModelExamples::Example *example = ModelExamples::find(nameOrPath);
    if (example && !QFileInfo::exists(nameOrPath)) {
        config = example->config;
        loaded.name = example->title;
    } else {
        const ReadResult<QJsonObject> read = ModelConfigFile::read(nameOrPath);
        if (!read)
            return Refusal {read.error().toString(), true};
        config = read.value();
        loaded.name = config.value(u"_model"_s).toString(QFileInfo(nameOrPath).completeBaseName());
    }
    loaded.check = ModelConfig::check(config);
    loaded.config = config;
    if (loaded.check.modelType.isEmpty())
        return Refusal {u"%1: not a model config (%2)"_s.arg(nameOrPath, loaded.check.problems.value(0).got), true};
    if (!loaded.check.problems.isEmpty())
        return Refusal {u"%1: %2"_s.arg(nameOrPath, loaded.check.problems.constFirst().toString()), false};
    return loaded;
}

QString allowed()
{
    return u"a model's config.json (at most 4 MiB) or an example: %1"_s.arg(ModelExamples::names());
}

} // namespace posenc::ConfigSource
