#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QList>
#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc table QUANTITY -o FILE [OPTIONS]`: computes a quantity, or a table of statistics
// (column-stats, row-norms), and writes it as .npy (float32, C order, shape [rows, cols]) or
// .csv or .safetensors, whole or not at all.
int runTableCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
QList<CommandOption> tableOptions();
HelpPage tableHelp();
// The words QUANTITY takes: every quantity, then the tables of statistics.
QStringList tableArguments();

} // namespace posenc
