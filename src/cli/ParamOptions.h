#pragma once

#include "core/Params.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace posenc::ParamOptions {

// Adds one option per parameter (DESIGN.md section 3), named after its ParamText key.
void add(QCommandLineParser &parser);

// Params from the defaults and the options given, with every syntax and range problem.
struct Result
{
    Params params;
    QList<ParamError> errors;
};
Result read(const QCommandLineParser &parser);

// The parameter flags, one per line, for --help.
QString helpText();

} // namespace posenc::ParamOptions
