#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc lessons`: one line per lesson, NAME<TAB>TITLE, in the lessons' order. `posenc lessons
// NAME [--preset P | --config C] [parameters] [--json]`: the lesson's text as the window shows it,
// for the model given (docs/ARCHITECTURE.md, Lessons).
int runLessonsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
QList<CommandOption> lessonsOptions();
HelpPage lessonsHelp();

} // namespace posenc
