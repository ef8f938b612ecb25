#pragma once

#include "core/Params.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace posenc::ParamOptions {

// Adds one option per parameter (DESIGN.md section 3), named after its ParamText key, and
// --embeddings FILE[:TENSOR] with --tokens LIST.
void add(QCommandLineParser &parser);

// Params from the defaults and the options given (the matrix of --embeddings loaded), with
// every problem and the exit code it calls for.
struct Result
{
    Params params;
    QList<ParamError> errors; // syntax and range: exit 2
    QString fileError; // --embeddings could not be read: exit 3, path and reason
    QString overBudget; // --embeddings asks for more than the memory budget: exit 4

    int exitCode() const;
    // One line per problem, each naming its parameter or path.
    QStringList messages() const;
};
Result read(const QCommandLineParser &parser);

// The parameter flags, one per line, for --help.
QString helpText();

} // namespace posenc::ParamOptions
