// A panel keeps its name at every size (docs/ARCHITECTURE.md, Exporting, "Figures at any size"):
// every registered figure whose panels are named (a text of role PanelTitle above a panel in its
// layout), exported at a paper's column, a slide, the window's 1200 x 800 and 6 x 4 cm, shows
// above each panel it draws that panel's name, whole, shortened to its first words or in a
// shorter form its figure gives as true (ShorterLabels::setText), read back from the SVG. Little
// room may give a panel up, name and all, or shorten its name; it never draws a panel without it
// (dropout-compare at a column drew two modes and no mode's name).
#include "render/FigureFile.h"
#include "render/FigureFit.h"
#include "render/FigureRoom.h"
#include "render/ShorterLabels.h"
#include "support/TestMain.h"

#include "FigureDefaults.h"
#include "support/FigureBuilds.h"
#include "support/SvgTexts.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_figurepaneltitles {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Page
{
    QString name;
    FigureSize size;
};

QList<Page> pages()
{
    const auto physical = [](const QString &name) {
        return FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(name)), 300.0);
    };
    return {{u"column"_s, physical(u"column"_s)},
            {u"slide"_s, physical(u"slide"_s)},
            {u"default"_s, FigureSize::fromPixels(QSize(1200, 800))},
            {u"6x4cm"_s, physical(u"6x4cm"_s)}};
}

std::pair<int, int> cellOf(const QCPLayoutGrid *grid, const QCPLayoutElement *element)
{
    for (int i = 0; i < grid->elementCount(); ++i)
        if (grid->elementAt(i) == element) {
            int row = 0, column = 0;
            grid->indexToRowCol(i, row, column);
            return {row, column};
        }
    return {-1, -1};
}

bool holdsPanel(QCPLayoutElement *element)
{
    if (qobject_cast<QCPAxisRect *>(element))
        return true;
    const auto *layout = qobject_cast<QCPLayout *>(element);
    if (!layout)
        return false;
    const QList<QCPLayoutElement *> within = layout->elements(true);
    return std::any_of(within.begin(), within.end(),
                       [](QCPLayoutElement *e) { return qobject_cast<QCPAxisRect *>(e) != nullptr; });
}

// The texts of role PanelTitle in `element` or held by it.
QList<QCPTextElement *> panelTitlesIn(QCPLayoutElement *element)
{
    QList<QCPLayoutElement *> all {element};
    if (const auto *layout = qobject_cast<QCPLayout *>(element))
        all += layout->elements(true);
    QList<QCPTextElement *> titles;
    for (QCPLayoutElement *e : all)
        if (auto *text = qobject_cast<QCPTextElement *>(e); text && FigureRoom::roleOf(text) == TextRole::PanelTitle)
            titles.append(text);
    return titles;
}

// The names of `rect`: the panel titles above it in its grid's column, up to the panel above;
// where its grid has none above it, those above the grid in the grid that holds it, and so on.
QList<QCPTextElement *> namesOf(QCPAxisRect *rect)
{
    QCPLayoutElement *at = rect;
    while (auto *grid = qobject_cast<QCPLayoutGrid *>(at->layout())) {
        const auto [row, column] = cellOf(grid, at);
        QList<QCPTextElement *> names;
        for (int r = row - 1; r >= 0; --r) {
            QCPLayoutElement *above = grid->element(r, column);
            if (!above)
                continue;
            if (holdsPanel(above))
                break;
            names += panelTitlesIn(above);
        }
        if (!names.isEmpty())
            return names;
        at = grid;
    }
    return {};
}

// `text` with its lines and statements as spaces, as a reader reads it.
QString reading(QString text)
{
    return text.replace(u'\n', u' ').replace(u"  ·  "_s, u" "_s).simplified();
}

// Whether `shown` is `name` or its first words, an ellipsis after them where it was shortened.
bool namedBy(const QString &name, QString shown)
{
    shown = reading(shown);
    if (shown.endsWith(u'…'))
        shown = shown.chopped(1).trimmed();
    const QString whole = reading(name);
    return !shown.isEmpty() && whole.startsWith(shown)
        && (whole.size() == shown.size() || !whole.at(shown.size()).isLetterOrNumber());
}

// The page's lines of text: its texts joined where one goes on from the other on its line (a
// run of another font, as "‖ΔPE‖" is written in three), each with the box they take together.
std::vector<SvgTexts::Text> linesOf(const SvgTexts::Page &page, double line)
{
    std::vector<SvgTexts::Text> texts = page.texts;
    std::sort(texts.begin(), texts.end(),
              [](const SvgTexts::Text &a, const SvgTexts::Text &b) { return a.box.left() < b.box.left(); });
    std::vector<SvgTexts::Text> lines;
    for (const SvgTexts::Text &t : texts) {
        const auto goesOn = std::find_if(lines.begin(), lines.end(), [&](const SvgTexts::Text &l) {
            return std::abs(l.box.center().y() - t.box.center().y()) < 0.3 * line && t.box.left() >= l.box.right() - 1.0
                && t.box.left() - l.box.right() < 0.4 * line;
        });
        if (goesOn == lines.end()) {
            lines.push_back(t);
            continue;
        }
        // A space between runs is in one of them; a gap wider than a thin space is a space.
        const bool spaced = t.box.left() - goesOn->box.right() > 0.2 * line && !goesOn->text.endsWith(u' ');
        goesOn->text += (spaced ? u" "_s : QString()) + t.text;
        goesOn->box = goesOn->box.united(t.box);
    }
    return lines;
}

// The figures with a named panel drawn at the window's size.
QStringList namingFigures()
{
    QStringList names;
    for (const QString &name : FigureRegistry::names()) {
        const auto built = FigureBuilds::build(name, FigureBuilds::defaultParams(FigureBuilds::figure(name)),
                                               FigureSize::fromPixels(QSize(1200, 800)));
        const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
        if (std::any_of(rects.begin(), rects.end(), [](QCPAxisRect *rect) {
                const QList<QCPTextElement *> titles = namesOf(rect);
                return std::any_of(titles.begin(), titles.end(),
                                   [](QCPTextElement *t) { return !FigureFit::unwrapped(t).isEmpty(); });
            }))
            names.append(name);
    }
    return names;
}

} // namespace

class TestFigurePanelTitles : public QObject
{
    Q_OBJECT

private slots:
    void everyDrawnPanelIsNamed_data();
    void everyDrawnPanelIsNamed();
};

void TestFigurePanelTitles::everyDrawnPanelIsNamed_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("page");
    const QStringList figures = namingFigures();
    // The figures of several named panels: dropout-compare's modes, rope-rotation's circle, cos
    // and sin, learned's tables, ... (a figure that no longer names them is missed here).
    QVERIFY2(figures.size() >= 10, qPrintable(figures.join(u", "_s)));
    for (const QString &figure : figures)
        for (const Page &page : pages())
            QTest::newRow(qPrintable(u"%1 %2"_s.arg(figure, page.name))) << figure << page.name;
}

void TestFigurePanelTitles::everyDrawnPanelIsNamed()
{
    QFETCH(QString, figure);
    QFETCH(QString, page);
    const QList<Page> all = pages();
    const auto found = std::find_if(all.begin(), all.end(), [&](const Page &p) { return p.name == page; });
    QVERIFY(found != all.end());
    const FigureSize size = found->size;
    const FigureStyle style;
    const auto built
        = FigureBuilds::build(figure, FigureBuilds::defaultParams(FigureBuilds::figure(figure)), size, {}, style);
    if (built->error())
        QSKIP(qPrintable(u"refused at this size (tst_figuresizes' row): "_s + FigureBuilds::errorOf(*built)));
    const SvgTexts::Page svg = SvgTexts::read(FigureFile::encode(*built, FigureFormat::Svg, style));
    QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));

    struct Drawn
    {
        QRect rect;
        QRect outer;
        QList<QCPTextElement *> names;
    };
    std::vector<Drawn> drawn;
    for (QCPAxisRect *rect : FigureBuild::plotRects(*built->plot()))
        if (QList<QCPTextElement *> names = namesOf(rect); !names.isEmpty())
            drawn.push_back({rect->rect(), rect->outerRect(), names});
    // The names as the figure set them at this size, before little room shortened any.
    FigureRoom::restore(built->plot());
    const double line = style.fontPointSize * 96.0 / 72.0 * 1.25;
    const std::vector<SvgTexts::Text> lines = linesOf(svg, line);
    QStringList problems;
    for (const Drawn &panel : drawn) {
        QStringList names;
        for (QCPTextElement *title : panel.names)
            if (const QString name = FigureFit::unwrapped(title); !name.isEmpty())
                names += QStringList {name} + ShorterLabels::ofText(title); // its shorter forms as true
        if (names.isEmpty())
            continue; // the figure names this panel at no size of this page
        // A text above the panel, over it, within a few lines of it, that is one of its names.
        const bool shown = std::any_of(lines.begin(), lines.end(), [&](const SvgTexts::Text &t) {
            const double centre = t.box.center().x();
            return t.box.bottom() <= panel.rect.top() + 1.0 && t.box.top() >= panel.outer.top() - 6.0 * line
                && centre >= panel.outer.left() && centre <= panel.outer.right()
                && std::any_of(names.begin(), names.end(), [&](const QString &n) { return namedBy(n, t.text); });
        });
        if (!shown)
            problems.append(u"the panel at (%1, %2) is drawn without its name '%3'"_s.arg(panel.rect.left())
                                .arg(panel.rect.top())
                                .arg(reading(names.first()).left(40)));
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
}

POSENC_TEST_MAIN(TestFigurePanelTitles)
} // namespace tst_figurepaneltitles
#include "tst_figurepaneltitles.moc"
