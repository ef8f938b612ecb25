#include "Settings.h"

#include "ParamLabels.h"

#include "core/ParamText.h"
#include "io/ByteSource.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <cerrno>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace posenc::Settings {

namespace {

const QString kParamsGroup = u"params"_s;
const QString kGeometryKey = u"window/geometry"_s;
const QString kStateKey = u"window/state"_s;

const QString kExportGroup = u"export"_s;
const QStringList kExportFormats = {u"png"_s, u"svg"_s, u"pdf"_s};
const QStringList kExportPresets = {u"slide"_s, u"single-column"_s, u"double-column"_s, u"window"_s, u"custom"_s};

} // namespace

QString filePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(QCoreApplication::organizationName() + u'/' + QCoreApplication::applicationName() + u".conf"_s);
}

Opened open()
{
    const QString path = filePath();
    // A path that cannot be looked up for a reason other than its absence (a loop of symbolic
    // links, a file where a folder is, a folder not searchable): QSettings would read nothing and
    // then write over the link, or fail, without a word.
    struct stat status
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &status) != 0 && errno != ENOENT)
        return {nullptr, u"%1 cannot be read (%2)"_s.arg(path, absentFileReason(path))};
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return {nullptr,
                u"%1 is not a regular file (%2)"_s.arg(
                    path, info.isDir() ? u"a directory"_s : u"a pipe, a socket or a device"_s)};
    return {std::make_unique<QSettings>(path, QSettings::NativeFormat), QString()};
}

ExportChoices loadExportChoices(QSettings &settings)
{
    ExportChoices choices;
    settings.beginGroup(kExportGroup);
    const QString directory = settings.value(u"directory"_s).toString();
    if (fileNameProblem(directory).isEmpty() && QFileInfo(directory).isDir())
        choices.directory = directory;
    const QString format = settings.value(u"format"_s).toString();
    if (kExportFormats.contains(format))
        choices.format = format;
    const QString preset = settings.value(u"preset"_s).toString();
    if (kExportPresets.contains(preset))
        choices.preset = preset;
    bool ok = false;
    const int dpi = settings.value(u"dpi"_s).toInt(&ok);
    if (ok && dpi >= 10 && dpi <= 2400)
        choices.dpi = dpi;
    settings.endGroup();
    return choices;
}

void saveExportChoices(QSettings &settings, const ExportChoices &choices)
{
    settings.beginGroup(kExportGroup);
    settings.setValue(u"directory"_s, choices.directory);
    settings.setValue(u"format"_s, choices.format);
    settings.setValue(u"preset"_s, choices.preset);
    settings.setValue(u"dpi"_s, choices.dpi);
    settings.endGroup();
}

LoadedParams loadParams(QSettings &settings)
{
    LoadedParams loaded;
    settings.beginGroup(kParamsGroup);
    const QStringList stored = settings.childKeys();
    for (const QString &key : ParamText::valueKeys()) {
        if (!stored.contains(key))
            continue;
        QVariant value = settings.value(key);
        // An unquoted comma makes QSettings read a list (axes-dim=16,56,56 written by hand),
        // whose toString() is empty: read back as the text it was written as.
        if (value.typeId() == QMetaType::QStringList)
            value = value.toStringList().join(u',');
        if (!value.canConvert<QString>()) {
            loaded.problems << u"%1: not text"_s.arg(key);
            continue;
        }
        if (auto error = ParamText::set(loaded.params, key, value.toString()))
            loaded.problems << ParamLabels::text(*error);
    }
    settings.endGroup();
    if (loaded.problems.isEmpty()) {
        for (const ParamError &e : loaded.params.validate())
            loaded.problems << ParamLabels::text(e);
    }
    if (!loaded.problems.isEmpty()) {
        loaded.params = Params {};
        return loaded;
    }
    const std::uint64_t cells
        = static_cast<std::uint64_t>(loaded.params.maxLen) * static_cast<std::uint64_t>(loaded.params.dModel);
    if (cells > kMaxRememberedCells) {
        loaded.tooLarge = u"max_len %1 x d_model %2 is %3 cells per table, more than the %4 a start draws at once"_s
                              .arg(loaded.params.maxLen)
                              .arg(loaded.params.dModel)
                              .arg(cells)
                              .arg(kMaxRememberedCells);
        loaded.params = Params {};
    }
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

QByteArray loadWindowState(QSettings &settings)
{
    return settings.value(kStateKey).toByteArray();
}

void saveWindowState(QSettings &settings, const QByteArray &state)
{
    settings.setValue(kStateKey, state);
}

void forgetWindowLayout(QSettings &settings)
{
    settings.remove(kGeometryKey);
    settings.remove(kStateKey);
}

QString save(QSettings &settings)
{
    settings.sync();
    switch (settings.status()) {
    case QSettings::NoError:
        return {};
    case QSettings::AccessError:
        return u"the settings were not saved: %1 cannot be written"_s.arg(settings.fileName());
    case QSettings::FormatError:
        break;
    }
    return u"the settings were not saved: %1 is not a settings file"_s.arg(settings.fileName());
}

void reset(QSettings &settings)
{
    settings.clear();
    settings.sync();
}

} // namespace posenc::Settings
