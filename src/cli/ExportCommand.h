#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QList>
#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc export FIGURE -o FILE [OPTIONS]`: draws a figure of the window headless with the
// window's own figure builders, as .png, .svg or .pdf, written whole or not at all.
// Needs a QApplication (QCustomPlot is a widget); main.cpp runs it on the offscreen platform.
int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
// Its options besides the parameters and --lesson: its own, then every figure's.
QList<CommandOption> exportOptions();
HelpPage exportHelp();

} // namespace posenc
