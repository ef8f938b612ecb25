#pragma once

#include "check/ConfigFindings.h"
#include "check/TableMatch.h"

#include <QColor>
#include <QString>

// How the check windows (TableCheckDialog, ModelConfigDialog) mark a table's verdict and a
// config's finding: a symbol that reads without its colour, and the colour.
namespace posenc::CheckMarks {

// "✔" correct, "✖" a mistake, "?" unknown.
QString verdictSymbol(CheckVerdict verdict);
QColor verdictColour(CheckVerdict verdict);
// A severity at a glance without its colour: a symbol and the word, "✖ error", "⚠ warning", "ℹ note".
QString severityMark(Severity severity);
QColor severityColour(Severity severity);

} // namespace posenc::CheckMarks
