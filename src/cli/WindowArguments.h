#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include "core/Params.h"
#include "io/LessonModels.h"

#include <QJsonObject>
#include <QSize>
#include <QStringList>
#include <QTextStream>

#include <variant>

namespace posenc {

// `posenc [OPTIONS]`: the parameter flags of docs/ARCHITECTURE.md, Command line plus the window's own.
struct WindowArguments
{
    Params params;
    bool paramsGiven = false;
    bool resetSettings = false;
    QString screenshot;
    std::optional<QSize> size; // --size WxH: the window's size in pixels
    std::optional<QJsonObject> sessionView; // the view state of --session FILE
    QJsonObject sessionLesson; // the lesson block of --session FILE, empty when it has none
    QString lesson; // --lesson NAME; its parameters are in `params`
    std::optional<ModelChoice> lessonModel; // the model the lesson is read for (--preset, --config, its own)
    QString preset; // --preset NAME: the preset the parameters were given as, which the chooser names
    bool startPanel = false; // --start-panel: the start panel even under --screenshot
    QStringList files; // paths given as arguments (posenc FILE): sessions or matrices the window opens
};

// The window's own options besides the parameters and --lesson.
QList<CommandOption> windowOptions();
HelpPage windowHelp();

// The window's arguments, or the exit code after printing help (0) or a usage error (2).
std::variant<WindowArguments, int> parseWindowArguments(const QStringList &arguments, QTextStream &out,
                                                        QTextStream &err);

} // namespace posenc
