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
    // Where the section is shown. A terminal shows a page a user reads at once; the man page, the
    // user guide and `posenc help TOPIC --all` the whole reference.
    enum class Shown {
        Everywhere,
        Terminal, // the terminal's page only: a digest of sections of the whole (the common options)
        Whole, // the whole page only: the terminal's page names it and where it is
    };

    QString heading; // "Options"; empty for the page's opening paragraphs
    QList<HelpBlock> blocks;
    Shown shown = Shown::Everywhere;

    HelpSection &paragraph(const QString &text);
    HelpSection &items(const QList<HelpItem> &items);
    HelpSection &examples(const QList<HelpItem> &examples);
    HelpSection &shownIn(Shown where);
};

struct HelpPage
{
    QString topic; // "export", as `posenc help TOPIC` and the man page name it
    QStringList usage; // synopsis lines: "posenc export FIGURE -o FILE [OPTIONS]"
    QList<HelpSection> sections;

    // A new section at the end, to fill.
    HelpSection &section(const QString &heading = {});

    enum class View {
        Terminal, // --help, posenc help TOPIC
        Whole, // the man page, the guide, posenc help TOPIC --all
    };
    // The page as `view` shows it: its sections shown there. A terminal's page that leaves sections
    // out ends by naming them and where they are (posenc help TOPIC --all, the man page, the guide).
    HelpPage viewed(View view) const;
};

} // namespace posenc
