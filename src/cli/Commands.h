#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>
#include <optional>

// The command list (docs/ARCHITECTURE.md, Command line): each subcommand once, with what its
// usage, its help page, the man page, the shells' completions and "unknown command" say of it.
namespace posenc {

// A command's word after its options: FIGURE, QUANTITY, FILE[:TENSOR], TOPIC.
struct CommandArgument
{
    QString name;
    std::function<QStringList()> values; // the words a shell completes; none for a file
    bool completesFiles = false;
};

struct Command
{
    QString name; // "export"; empty for the window, posenc [OPTIONS]
    QString summary; // a line for the usage list: "draw a figure headless: .png, .svg or .pdf"
    // The options it takes besides the parameters, -h and --help among them.
    std::function<QList<CommandOption>()> options;
    bool takesParameters = false; // every parameter flag, --session FILE, --preset NAME
    bool takesLesson = false; // --lesson NAME
    std::optional<CommandArgument> argument;
    std::function<HelpPage()> help;
    std::function<int(const QStringList &arguments, QTextStream &out, QTextStream &err)> run;

    // Every option: its own, then the parameters' and --lesson where it takes them.
    QList<CommandOption> allOptions() const;
    // Its synopsis lines, its help page's: "posenc export FIGURE -o FILE [OPTIONS]", ...
    QStringList synopsis() const { return help().usage; }
};

namespace Commands {

// The subcommands, in the order of the usage.
const QList<Command> &all();
const Command *find(const QString &name);
QStringList names();
// posenc [OPTIONS] [FILE...]: the window.
const Command &window();

} // namespace Commands

} // namespace posenc
