#include "Settings.h"

#include "core/ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::Settings {

namespace {

const QString kParamsGroup = u"params"_s;
const QString kGeometryKey = u"window/geometry"_s;

} // namespace

LoadedParams loadParams(QSettings &settings)
{
    LoadedParams loaded;
    settings.beginGroup(kParamsGroup);
    const QStringList stored = settings.childKeys();
    for (const QString &key : ParamText::valueKeys()) {
        if (!stored.contains(key))
            continue;
        const QVariant value = settings.value(key);
        if (!value.canConvert<QString>()) {
            loaded.problems << u"%1: not text"_s.arg(key);
            continue;
        }
        if (auto error = ParamText::set(loaded.params, key, value.toString()))
            loaded.problems << error->toString();
    }
    settings.endGroup();
    if (loaded.problems.isEmpty()) {
        for (const ParamError &e : loaded.params.validate())
            loaded.problems << e.toString();
    }
    if (!loaded.problems.isEmpty())
        loaded.params = Params {};
    return loaded;
}

void saveParams(QSettings &settings, const Params &params)
{
    settings.beginGroup(kParamsGroup);
    settings.remove(QString());
    for (const QString &key : ParamText::valueKeys())
        settings.setValue(key, ParamText::get(params, key));
    settings.endGroup();
}

QByteArray loadGeometry(QSettings &settings)
{
    return settings.value(kGeometryKey).toByteArray();
}

void saveGeometry(QSettings &settings, const QByteArray &geometry)
{
    settings.setValue(kGeometryKey, geometry);
}

void reset(QSettings &settings)
{
    settings.clear();
    settings.sync();
}

} // namespace posenc::Settings
