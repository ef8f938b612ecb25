#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QList>
#include <QStringList>
#include <QTextStream>

// `posenc --help`, `posenc help [TOPIC]` and `posenc help --generate KIND` (docs/ARCHITECTURE.md,
// Command line, "One source for every help text").
namespace posenc {

// posenc --help: the usage, the most used options and examples, in at most 40 lines.
HelpPage shortHelp();

// The topics of posenc help: every command, the parameters, the window.
QStringList helpTopics();
// A topic's page, or nullopt for a word that is none.
std::optional<HelpPage> topicPage(const QString &topic);

// What posenc help --generate writes: the man page, the three shells' completions, the guide's
// reference of commands and parameters.
QStringList generatedKinds();

QList<CommandOption> helpOptions();
HelpPage helpHelp();
int runHelpCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace posenc
