#pragma once

#include "core/Params.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>

namespace posenc {

// What the window remembers between runs (window geometry, last parameters), read back
// through the same validation as the command line: anything corrupt is replaced by the
// defaults, and the problems are reported rather than shown as a broken window.
namespace Settings {

struct LoadedParams
{
    Params params;
    QStringList problems; // empty when the stored parameters were used as they are
};

LoadedParams loadParams(QSettings &settings);
void saveParams(QSettings &settings, const Params &params);
QByteArray loadGeometry(QSettings &settings);
void saveGeometry(QSettings &settings, const QByteArray &geometry);
// The choices of Export figure and Export data, offered again next time.
struct ExportChoices
{
    QString directory; // of the last file written; empty: the working directory
    QString format = QStringLiteral("png"); // png, svg or pdf
    QString preset = QStringLiteral("single-column");
    int dpi = 300;
};

// Anything stored that is not a valid choice is replaced by its default.
ExportChoices loadExportChoices(QSettings &settings);
void saveExportChoices(QSettings &settings, const ExportChoices &choices);

// Forgets everything (posenc --reset-settings).
void reset(QSettings &settings);

} // namespace Settings

} // namespace posenc
