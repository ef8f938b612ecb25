#pragma once

#include "CommandOption.h"
#include "HelpPage.h"
#include "WindowArguments.h"

#include <QList>

#include <QStringList>
#include <QTextStream>

#include <variant>

namespace posenc {

// `posenc check --config FILE [--json] [--layer-type TYPE] [--open]`: what an HF model config
// makes the model compute for position, layer type by layer type, with the numbers of `posenc
// describe`, and its findings (docs/ARCHITECTURE.md, Checking a model config). `arguments` starts
// with the program, as Qt's parser expects. Exit 0 without an error finding, 1 with one, 2 for
// invalid usage or a config value no model could mean, 3 for a file that cannot be read.
int runConfigCheck(const QStringList &arguments, QTextStream &out, QTextStream &err);

// The options of `posenc check --config`, and the sections of `posenc check --help` that say
// what it prints.
QList<CommandOption> configCheckOptions();
QList<HelpSection> configCheckSections();

// Whether `posenc ARGS` is `posenc check --config ... --open` (or `posenc check FILE.json ... --open`),
// which opens the window.
bool opensConfigWindow(const QStringList &arguments);
// For --open: the report as runConfigCheck prints it, then the window's arguments on the chosen
// layer type's RoPE (the full_attention layers' unless --layer-type names another), or the exit
// code when there is no window to open.
std::variant<WindowArguments, int> configWindowArguments(const QStringList &arguments, QTextStream &out,
                                                         QTextStream &err);

} // namespace posenc
