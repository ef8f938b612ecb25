#pragma once

#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

// One option of a command as data (docs/ARCHITECTURE.md, Command line, "One source for every help
// text"): the parser takes it, and its help line, the man page's entry and the shells'
// completions are written from it.
namespace posenc {

struct CommandOption
{
    CommandOption(QStringList names, QString valueName, QString help, QStringList values = {},
                  bool completesFiles = false, bool hidden = false)
        : names(std::move(names))
        , valueName(std::move(valueName))
        , help(std::move(help))
        , values(std::move(values))
        , completesFiles(completesFiles)
        , hidden(hidden)
    { }

    QStringList names; // {"o", "output"}: a letter is -o, a word --output
    QString valueName; // "FILE"; empty for a switch
    QString help; // one paragraph, without the default where the default is a state
    QStringList values; // the words it takes, which a shell completes (a choice, presets)
    bool completesFiles = false; // its value is a path, which a shell completes
    bool hidden = false; // for tests and scripts: in no help, no man page and no completion

    // "-o, --output FILE".
    QString spelling() const;
    // "--output", or "-o" for a letter alone.
    QString longestName() const;
};

namespace CommandOptions {

// The parser's option of `option`.
QCommandLineOption parserOption(const CommandOption &option);
void add(QCommandLineParser &parser, const QList<CommandOption> &options);

// -h, --help, which every command takes.
CommandOption help();

} // namespace CommandOptions

} // namespace posenc
