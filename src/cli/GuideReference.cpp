#include "GuideReference.h"

#include "Commands.h"
#include "ManPage.h"
#include "ParamOptions.h"

#include "io/Lesson.h"

using namespace Qt::StringLiterals;

namespace posenc::GuideReference {

namespace {

// Text in Markdown: the characters it would read as emphasis, code, a link, a table cell or HTML
// stand for themselves.
QString escaped(const QString &text)
{
    QString out;
    for (const QChar c : text.simplified()) {
        if (c == u'<')
            out += u"&lt;"_s;
        else if (c == u'>')
            out += u"&gt;"_s;
        else if (QStringView(u"\\*_`|[]").contains(c))
            out += u'\\' + c;
        else
            out += c;
    }
    return out;
}

// A term as code, in a table cell: its '|' escaped, as GitHub's and Qt's tables read it.
QString code(const QString &term)
{
    return u'`' + QString(term).replace(u'|', u"\\|"_s) + u'`';
}

void items(QStringList &out, const HelpBlock &block)
{
    if (block.kind == HelpBlock::Kind::Examples) {
        out << u"```sh"_s;
        for (const HelpItem &item : block.items)
            out << (item.text.isEmpty() ? item.term : u"%1    # %2"_s.arg(item.term, item.text));
        out << u"```"_s << QString();
        return;
    }
    out << u"| | |"_s << u"|---|---|"_s;
    for (const HelpItem &item : block.items)
        out << u"| %1 | %2 |"_s.arg(code(item.term), escaped(item.text));
    out << QString();
}

} // namespace

QString beginMarker(const QString &name)
{
    return u"<!-- %1 begins: written by posenc help --generate guide, do not edit -->"_s.arg(name);
}

QString endMarker(const QString &name)
{
    return u"<!-- %1 ends -->"_s.arg(name);
}

QString page(const HelpPage &whole, const QString &title, int level)
{
    const HelpPage help = whole.viewed(HelpPage::View::Whole);
    QStringList out {QString(level, u'#') + u' ' + title, QString()};
    if (!help.usage.isEmpty())
        out << u"```"_s << help.usage << u"```"_s << QString();
    for (const HelpSection &section : help.sections) {
        if (!section.heading.isEmpty())
            out << u"**%1**"_s.arg(escaped(section.heading)) << QString();
        for (const HelpBlock &block : section.blocks) {
            if (block.kind == HelpBlock::Kind::Paragraph)
                out << escaped(block.text) << QString();
            else
                items(out, block);
        }
    }
    return out.join(u'\n');
}

namespace {

// Every lesson, in its order: its NAME, its question and its figures (the one posenc export
// --lesson writes first), as the lesson files say them.
QString lessonTable()
{
    QStringList out {beginMarker(u"lessons"_s), u"| NAME | the question it answers | its figures |"_s,
                     u"|---|---|---|"_s};
    for (const Lesson &lesson : Lessons::all()) {
        QStringList figures;
        if (!lesson.mainFigure().isEmpty())
            figures.append(lesson.mainFigure());
        // The views its layout shows ("1x2": two), four where it names none.
        const SessionView view = lesson.view();
        const QStringList sides = view.layout.value_or(u"2x2"_s).split(u'x');
        const qsizetype shown = sides.value(0).toInt() * sides.value(1).toInt();
        for (const SessionView::Figure &figure : view.views.value_or(QList<SessionView::Figure>()).mid(0, shown)) {
            if (!figures.contains(figure.name))
                figures.append(figure.name);
        }
        out << u"| %1 | %2 | %3 |"_s.arg(code(lesson.name), escaped(lesson.question), escaped(figures.join(u", "_s)));
    }
    out << endMarker(u"lessons"_s);
    return out.join(u'\n') + u'\n';
}

QString reference()
{
    QStringList out {beginMarker(), QString()};
    out << page(Commands::window().help(), u"posenc: the window"_s, 3);
    for (const Command &command : Commands::all())
        out << page(command.help(), u"posenc "_s + command.name, 3);
    out << page(ParamOptions::helpPage(), u"Parameters"_s, 3);
    out << page(ManPage::environmentPage(), u"Environment"_s, 3);
    out << endMarker();
    return out.join(u'\n') + u'\n';
}

} // namespace

QList<Block> blocks()
{
    return {{u"lessons"_s, lessonTable()}, {u"reference"_s, reference()}};
}

QString markdown()
{
    QString out;
    for (const Block &block : blocks())
        out += block.text;
    return out;
}

} // namespace posenc::GuideReference
