#pragma once

#include "core/Params.h"
#include "io/LessonModels.h"

#include <QIcon>
#include <QJsonObject>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// How `posenc [OPTIONS]` opens the window.
struct WindowOptions
{
    Params params;
    bool paramsGiven = false; // parameter flags were given: they win over the remembered ones
    bool resetSettings = false;
    QString screenshot; // when set: save a PNG of the window once every view is drawn, then quit
    std::optional<QJsonObject> sessionView; // the view state of a session given on the command line
    QJsonObject sessionLesson; // its lesson block, empty when it has none
    QString lesson; // a lesson to open (its parameters are in `params`, with the flags given over them)
    std::optional<ModelChoice> lessonModel; // the model it is read for; none: its parameters alone
    bool startPanel = false; // show the start panel even where a start would not (--screenshot)
    QStringList files; // files given as arguments: not opened yet, and the window says so
    std::optional<QSize> size; // the window's size; a screenshot's is kScreenshotSize unless given
    QString preset; // the preset the parameters were given as (--preset NAME); empty: none
};

class MainWindow;

// The size a screenshot draws the window at unless told: a common desktop screen's.
inline constexpr QSize kScreenshotSize {1920, 1080};

// The window's size at its start: the one given, a screenshot's kScreenshotSize, or none (the
// screen's and the remembered geometry decide).
std::optional<QSize> startSize(const WindowOptions &options);
// Lays out what the window's widgets asked to be laid out (and what that asks in turn), then says
// whether the window is ready to be saved as a screenshot: no matrix loading, every view drawn in
// full, the lesson's text ready. A screenshot polls it.
bool readyForScreenshot(MainWindow &window);
// Whether the start offers the lessons (the start panel, on a first start): not when a
// screenshot, a lesson, a session, parameters or a file say what the user wants.
bool offersLessons(const WindowOptions &options);

// Names the preset the parameters were given as in the window's chooser, where they still hold it:
// Flan-T5 base's parameters are T5 base's too, and the chooser named the first that matched. A
// lesson names the model it was opened for itself (LessonController).
void namePresetGiven(MainWindow &window, const WindowOptions &options);

// Opens the main window and runs the event loop; needs a QApplication. Returns the exit code.
int runWindow(const WindowOptions &options);

// The program's icon: at 16, 22 and 24 px the icon drawn on each one's pixel grid, larger the large
// icon, so that a title bar or a task bar shows neither a blur nor a downscaled table's noise.
QIcon applicationIcon();

} // namespace posenc
