#pragma once

#include "HelpPage.h"

#include <QString>
#include <QStringList>

// A help page as a terminal shows it: wrapped to the terminal's width, at most 100 columns, no
// line wider (docs/ARCHITECTURE.md, Command line, "One source for every help text").
namespace posenc::HelpText {

inline constexpr int kMaxWidth = 100;
inline constexpr int kMinWidth = 20;

// The width to wrap to: COLUMNS where it is set, else standard output's terminal, else 100;
// never more than 100 nor less than 20.
int width();

// `text` with its whitespace folded, in lines of at most `width` characters. A word longer than
// a line is cut after a '|', ',' or '/' where one fits, else where the line ends.
QStringList wrap(const QString &text, int width);

// The page as `view` shows it (a terminal's page unless asked for the whole), at `width` columns.
QString render(const HelpPage &page, int width, HelpPage::View view = HelpPage::View::Terminal);

// A command line in lines of at most `width` characters, cut between words with a shell's
// continuation " \", so that the lines still run when pasted.
QStringList wrapCommand(const QString &command, int width);

} // namespace posenc::HelpText
