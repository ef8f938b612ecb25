#include "ManPage.h"

#include "Commands.h"
#include "HelpCommand.h"
#include "ParamOptions.h"

#include <QCoreApplication>

#include <map>

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
    const HelpPage page = command.help().viewed(HelpPage::View::Whole);
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

// The exit codes as the pages list them (their "Exit status" sections: posenc help check's is
// check's own), a code's meaning under each command that gives it, so that the man page says what
// each command's help says (docs/ARCHITECTURE.md, Command line).
void exitStatus(QStringList &out)
{
    out << u".PP"_s
        << textLine(u"A code means one kind of outcome, whatever the command; each command's page says what it "
                    "means there, as below."_s);
    QList<std::pair<QString, HelpPage>> pages {{u"posenc"_s, Commands::window().help().viewed(HelpPage::View::Whole)}};
    for (const Command &command : Commands::all())
        pages.append({u"posenc "_s + command.name, command.help().viewed(HelpPage::View::Whole)});
    std::map<int, QStringList> meanings;
    const QString heading = u"Exit status"_s;
    for (const auto &[name, page] : pages) {
        for (const HelpSection &section : page.sections) {
            if (!section.heading.startsWith(heading))
                continue;
            // "Exit status of --config": the command with that option.
            const QString who = name + QString(section.heading).mid(heading.size()).replace(u" of "_s, u" "_s);
            for (const HelpBlock &block : section.blocks) {
                for (const HelpItem &item : block.items)
                    meanings[item.term.toInt()].append(who + u": "_s + item.text);
            }
        }
    }
    for (const auto &[code, lines] : meanings) {
        out << u".TP"_s << bold(QString::number(code));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (i > 0)
                out << u".br"_s;
            out << textLine(lines[i]);
        }
    }
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
    const HelpPage window = Commands::window().help().viewed(HelpPage::View::Whole);
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
    exitStatus(out);
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
