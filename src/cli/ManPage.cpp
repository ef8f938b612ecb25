#include "ManPage.h"

#include "Commands.h"
#include "HelpCommand.h"
#include "ParamOptions.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::ManPage {

namespace {

QString bold(const QString &text)
{
    return u"\\fB"_s + escaped(text) + u"\\fR"_s;
}

QString italic(const QString &text)
{
    return u"\\fI"_s + escaped(text) + u"\\fR"_s;
}

// A line of text that may start with '.' or '\'', which roff would read as a request.
QString textLine(const QString &text)
{
    const QString line = escaped(text.simplified());
    return line.startsWith(u'.') || line.startsWith(u'\'') ? u"\\&"_s + line : line;
}

// "posenc export FIGURE -o FILE": the command's words bold, the rest as they are.
QString synopsisLine(const QString &line, const QString &command)
{
    const QString words = command.isEmpty() ? u"posenc"_s : u"posenc "_s + command;
    if (!line.startsWith(words))
        return escaped(line);
    return bold(words) + escaped(line.mid(words.size()));
}

void blocks(QStringList &out, const HelpSection &section)
{
    for (const HelpBlock &block : section.blocks) {
        if (block.kind == HelpBlock::Kind::Paragraph) {
            out << u".PP"_s << textLine(block.text);
            continue;
        }
        for (const HelpItem &item : block.items) {
            out << u".TP"_s << bold(item.term);
            if (!item.text.isEmpty())
                out << textLine(item.text);
        }
    }
}

// A page's sections under a man section: each heading its subsection, the opening ones before.
void sectionsOf(QStringList &out, const HelpPage &page, const QString &prefix)
{
    for (const HelpSection &section : page.sections) {
        if (!section.heading.isEmpty())
            out << u".SS "_s + escaped(prefix + section.heading);
        blocks(out, section);
    }
}

// A command's page inside COMMANDS: its synopsis, then its sections, each heading in italics.
void commandPage(QStringList &out, const Command &command)
{
    const HelpPage page = command.help();
    out << u".SS "_s + escaped(u"posenc "_s + command.name) << u".nf"_s;
    for (const QString &line : page.usage)
        out << synopsisLine(line, command.name);
    out << u".fi"_s;
    for (const HelpSection &section : page.sections) {
        if (!section.heading.isEmpty())
            out << u".PP"_s << italic(section.heading);
        blocks(out, section);
    }
}

// The exit codes of every command (docs/ARCHITECTURE.md, Command line).
HelpSection exitStatus()
{
    HelpSection section;
    section.items({{u"0"_s, u"done"_s},
                   {u"1"_s, u"posenc check: a mistake, or a table it does not know; --config: an error finding"_s},
                   {u"2"_s,
                    u"invalid usage or parameter: the message names it and its allowed values; a file "
                    "asked for something it does not hold (a tensor, a table)"_s},
                   {u"3"_s, u"an input or output error: the message names the path and the reason"_s},
                   {u"4"_s, u"over the memory budget: the message gives cells and GiB"_s},
                   {u"130"_s, u"stopped by Ctrl+C; nothing was written"_s}});
    return section;
}

} // namespace

QString escaped(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        if (c == u'\\')
            out += u"\\e"_s;
        else if (c == u'-')
            out += u"\\-"_s;
        else if (c.unicode() > 0x7e || c.unicode() < 0x20)
            out += u"\\[u"_s + QString::number(c.unicode(), 16).rightJustified(4, u'0').toUpper() + u']';
        else
            out += c;
    }
    return out;
}

HelpPage environmentPage()
{
    HelpPage page;
    page.topic = u"environment"_s;
    page.section().paragraph(u"What posenc reads from its environment."_s);
    page.section(u"Variables"_s)
        .items({{u"COLUMNS"_s, u"the width help is wrapped to, at most 100 (else the terminal's)"_s},
                {u"TERM"_s, u"dumb: the progress line is erased with spaces, never an escape sequence"_s},
                {u"NO_COLOR"_s, u"set to anything: no escape sequence at all (no-color.org)"_s},
                {u"DISPLAY, WAYLAND_DISPLAY"_s,
                 u"the display the window opens on; without one it exits 2, naming "
                 "posenc export and posenc table, which need none"_s},
                {u"XDG_RUNTIME_DIR"_s,
                 u"where no login session set it (ssh, a container, CI), posenc makes a "
                 "private one (mode 0700) under the temporary directory"_s},
                {u"XDG_CONFIG_HOME"_s,
                 u"where the window remembers its place and parameters (PosEnc "
                 "Explorer/posenc.conf; posenc --reset-settings forgets them)"_s},
                {u"LANG, LC_ALL"_s,
                 u"the window's controls follow the locale; figures and tables print their "
                 "numbers in C's, the same file on every machine"_s}});
    return page;
}

QString text()
{
    QStringList out;
    out << u".\\\" Generated by posenc help --generate man from the program's command list and parameter table."_s
        << u".TH POSENC 1 \"%1\" \"posenc %2\" \"User Commands\""_s.arg(QStringLiteral(POSENC_RELEASE_DATE),
                                                                        QCoreApplication::applicationVersion())
        << u".SH NAME"_s << u"posenc \\- PosEnc Explorer: see a transformer's positional encoding"_s;
    out << u".SH SYNOPSIS"_s << u".nf"_s;
    for (const QString &line : Commands::window().synopsis())
        out << synopsisLine(line, QString());
    for (const Command &command : Commands::all()) {
        for (const QString &line : command.synopsis())
            out << synopsisLine(line, command.name);
    }
    out << u".fi"_s;
    const HelpPage summary = shortHelp();
    out << u".SH DESCRIPTION"_s;
    blocks(out, summary.sections.front());
    const HelpPage window = Commands::window().help();
    blocks(out, window.sections.front());
    out << u".PP"_s
        << textLine(u"Each command below takes --help, and posenc help TOPIC gives the same page; the user guide, "
                    "/usr/share/doc/posenc/GUIDE.md, is shown by the window's Help > User guide."_s);
    out << u".SH THE WINDOW"_s;
    HelpPage windowRest = window;
    windowRest.sections.removeFirst();
    sectionsOf(out, windowRest, QString());
    out << u".SH COMMANDS"_s;
    for (const Command &command : Commands::all())
        commandPage(out, command);
    out << u".SH PARAMETERS"_s;
    sectionsOf(out, ParamOptions::helpPage(), QString());
    out << u".SH EXIT STATUS"_s;
    blocks(out, exitStatus());
    out << u".SH ENVIRONMENT"_s;
    blocks(out, environmentPage().sections.last());
    out << u".SH EXAMPLES"_s;
    for (const HelpSection &section : summary.sections) {
        if (section.heading == u"Examples"_s)
            blocks(out, section);
    }
    out << u".SH SEE ALSO"_s
        << textLine(u"The user guide, /usr/share/doc/posenc/GUIDE.md (Help > User guide in the window), and "
                    "posenc help TOPIC."_s);
    return out.join(u'\n') + u'\n';
}

} // namespace posenc::ManPage
