#pragma once

#include "HelpPage.h"

#include <QList>
#include <QString>

// The user guide's parts that the program writes (docs/GUIDE.md, each between its markers), by
// `posenc help --generate guide`: the lessons' table, from the lessons themselves, and the
// reference of the command line, from the same help pages as --help and the man page (each
// command's, the parameters' and the environment's), in Markdown. docs/update_generated.sh puts
// each in its place; tst_helptexts checks that the guide holds each as the program writes it.
namespace posenc::GuideReference {

// A part of the guide the program writes, its markers around it.
struct Block
{
    QString name; // "lessons", "reference"
    QString text; // from its begin marker to its end marker, each line ended by '\n'
};

// The opening and closing lines around the part `name` in docs/GUIDE.md.
QString beginMarker(const QString &name = QStringLiteral("reference"));
QString endMarker(const QString &name = QStringLiteral("reference"));

// A page in Markdown: its heading at `level`, its usage in a code block, its paragraphs, its items
// as tables and its examples as a sh block.
QString page(const HelpPage &help, const QString &title, int level);

// Every part, in the guide's order.
QList<Block> blocks();

// The parts one after another, as `posenc help --generate guide` writes them.
QString markdown();

} // namespace posenc::GuideReference
