#pragma once

#include "HelpPage.h"

#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc lessons`: one line per lesson, NAME<TAB>TITLE, in the lessons' order.
int runLessonsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
HelpPage lessonsHelp();

} // namespace posenc
