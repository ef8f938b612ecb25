#pragma once

#include "core/Params.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>

#include <cstdint>
#include <memory>

namespace posenc {

// What the window remembers between runs (window geometry, last parameters), read back
// through the same validation as the command line: anything corrupt is replaced by the
// defaults, and the problems are reported rather than shown as a broken window.
namespace Settings {

struct LoadedParams
{
    Params params;
    QStringList problems; // empty when the stored parameters were used as they are
    // Set when valid parameters were too large to restore at start (the defaults are used):
    // a note for the status bar, not a problem.
    QString tooLarge;
};

// A start draws every view at once, so it restores remembered parameters only up to the size
// the window is meant to keep interactive, L 1,048,576 x d 8,192; above it nothing promises a quick first frame, and a
// start that takes seconds to draw parameters nobody asked for this time is worse than the defaults. The limit is the
// promise, not today's speed, so it stays right as large tables get faster. Parameters given on the command line or in
// a session are always honoured: those were asked for.
inline constexpr std::uint64_t kMaxRememberedCells = std::uint64_t(1) << 33;

// The file the window remembers in, QSettings' own for the application: $XDG_CONFIG_HOME (or
// ~/.config)/ORGANIZATION/APPLICATION.conf.
QString filePath();

// The window's settings in filePath(), or none and why: a path that is there but is no regular
// file is never opened (reading a FIFO waits for a writer for ever, and a QSettings reads its file
// as it is made), and nothing is remembered this time.
struct Opened
{
    std::unique_ptr<QSettings> settings;
    QString problem; // "PATH is not a regular file (...)": empty when `settings` is set
};
Opened open();

LoadedParams loadParams(QSettings &settings);
void saveParams(QSettings &settings, const Params &params);
QByteArray loadGeometry(QSettings &settings);
void saveGeometry(QSettings &settings, const QByteArray &geometry);
// The window's layout: where its docks are, their sizes, which float (QMainWindow::saveState).
QByteArray loadWindowState(QSettings &settings);
void saveWindowState(QSettings &settings, const QByteArray &state);
// Forgets a stored geometry and layout that the window could not restore.
void forgetWindowLayout(QSettings &settings);
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
// Writes what is pending to the file: empty, or the problem in words ("the settings were not
// saved: PATH cannot be written"), which a window says as it closes.
QString save(QSettings &settings);

void reset(QSettings &settings);

} // namespace Settings

} // namespace posenc
