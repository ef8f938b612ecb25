#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QList>
#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc check FILE[:TENSOR]`: what a user's own table of positions computes, and the mistake in
// it (docs/ARCHITECTURE.md, Checking a table). The verdict in words, or one JSON object with
// --json. Each verdict its exit code (0 for correct alone; checkHelp's Exit status), 2, 3, 4 and
// 130 as for the other commands.
int runCheckCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
// The options of a table's check.
QList<CommandOption> tableCheckOptions();
// Every option of posenc check, a table's and a config's.
QList<CommandOption> checkOptions();
// `arguments` with a FILE named *.json, the one word from index `first` on that is no option nor an
// option's value (or the one after "--"), given as --config FILE (a model's config.json: no table
// format is JSON), where no --config, --apply or --position-ids is given; else `arguments` as they
// are.
QStringList configFileAsFlag(const QStringList &arguments, qsizetype first);
HelpPage checkHelp();

} // namespace posenc
