#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// A help text as structure, not as lines (docs/ARCHITECTURE.md, Command line, "One source for
// every help text"): the same page is wrapped to the terminal for `--help` and `posenc help`,
// written as roff for the man page and as Markdown for the user guide, so that none of them is
// written twice.
namespace posenc {

// A term and what it means: an option ("-o, --output FILE"), a name (a figure, an exit code) or
// a command line of an example and what it does.
struct HelpItem
{
    QString term;
    QString text; // one paragraph; whitespace is folded, the renderer wraps it
};

struct HelpBlock
{
    enum class Kind {
        Paragraph, // prose
        Items, // a list of terms, each with its paragraph
        Examples, // command lines, each with what it does
    };
    Kind kind = Kind::Paragraph;
    QString text; // Paragraph
    QList<HelpItem> items; // Items, Examples
};

struct HelpSection
{
    QString heading; // "Options"; empty for the page's opening paragraphs
    QList<HelpBlock> blocks;

    HelpSection &paragraph(const QString &text);
    HelpSection &items(const QList<HelpItem> &items);
    HelpSection &examples(const QList<HelpItem> &examples);
};

struct HelpPage
{
    QString topic; // "export", as `posenc help TOPIC` and the man page name it
    QStringList usage; // synopsis lines: "posenc export FIGURE -o FILE [OPTIONS]"
    QList<HelpSection> sections;

    // A new section at the end, to fill.
    HelpSection &section(const QString &heading = {});
};

} // namespace posenc
