// Keys that hide no mark and that read as keys (issue 58's acceptance: every lesson exported as a
// 14-pt slide and looked at in the window, for its default and two other presets): every figure
// of every lesson's page read for its own model and the presets of that look, at a 14-pt slide
// and a window's 1366 x 768 and 1920 x 1080 pixels. A key set over a plot (LegendPlacement, the
// keys' room steps) covers no shade drawn over it (left-padding's padding and decode steps hid
// under a key that weighed the plot's graphs only), no text item on it, and no other key; and
// the entries of a key's row stand further apart than the words of one entry (rope-layouts'
// two entries across a 14-pt slide were no further apart than a space): at least half an em
// between one entry's cell and the next, matplotlib's columnspacing being two
// (matplotlib/lib/matplotlib/legend.py, Legend.__init__, rcParams["legend.columnspacing"]).
#include "cli/LessonOptions.h"
#include "cli/LessonPage.h"
#include "cli/ParamOptions.h"
#include "core/Engine.h"
#include "render/DirectLabels.h"
#include "render/FigureRoomChanges.h"
#include "render/SegmentClip.h"
#include "support/FigureBuilds.h"
#include "support/TestMain.h"

#include <QCommandLineParser>
#include <QTest>
#include <QTextStream>

#include <cmath>
#include <optional>

namespace tst_keysoffmarks {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The sizes of the acceptance: a slide at 14 pt, and the window's two screens.
const QList<std::pair<QString, double>> &sizes()
{
    static const QList<std::pair<QString, double>> list {
        {u"slide"_s, 14.0}, {u"1366x768"_s, 9.0}, {u"1920x1080"_s, 9.0}};
    return list;
}

FigureSize pageOf(const QString &size)
{
    if (size == u"1366x768"_s)
        return FigureSize::fromPixels(QSize(1000, 640));
    if (size == u"1920x1080"_s)
        return FigureSize::fromPixels(QSize(1400, 1000));
    return FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(size)), 150.0);
}

// The presets issue 58 looked at each lesson for, beside its own model.
QStringList modelsOf(const QString &lesson)
{
    if (lesson == u"left-padding"_s)
        return {QString(), u"qwen2-5-7b"_s, u"bloom-560m"_s};
    if (lesson == u"rope-layouts"_s)
        return {QString(), u"gpt-j-6b"_s};
    if (lesson == u"dropout-on-sum"_s)
        return {QString(), u"whisper-large-v3"_s};
    return {QString()};
}

std::optional<LessonOptions::Read> readLesson(const Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    if (!parser.parse(QStringList {u"posenc"_s} + arguments))
        return std::nullopt;
    return LessonOptions::read(parser, lesson);
}

bool drawn(const QCPLayoutElement *element)
{
    return element && element->realVisibility() && !FigureRoom::Changes::isHidden(element);
}

// The keys the plot draws, each with the axis rect it stands over (none for a key in a row).
QList<std::pair<QCPLegend *, QCPAxisRect *>> keysOf(const QCustomPlot &plot)
{
    QList<std::pair<QCPLegend *, QCPAxisRect *>> keys;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        auto *legend = qobject_cast<QCPLegend *>(element);
        if (!drawn(legend) || legend->itemCount() == 0 || legend->outerRect().isEmpty())
            continue;
        QCPAxisRect *over = nullptr;
        for (QCPAxisRect *rect : plot.axisRects())
            if (legend->layout() == rect->insetLayout())
                over = rect;
        keys.append({legend, over});
    }
    return keys;
}

// What is wrong with the keys of `plot`, one line each.
QStringList keyProblems(const QCustomPlot &plot)
{
    QStringList problems;
    const auto keys = keysOf(plot);
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const auto [legend, over] = keys[i];
        const QRectF box = legend->outerRect();
        for (qsizetype j = i + 1; j < keys.size(); ++j)
            if (const QRectF both = box.intersected(keys[j].first->outerRect());
                both.width() > 0.5 && both.height() > 0.5)
                problems.append(u"two keys meet"_s);
        for (int k = 0; over && k < plot.itemCount(); ++k) {
            QCPAbstractItem *item = plot.item(k);
            if (!item->realVisibility() || item->clipAxisRect() != over)
                continue;
            QRectF mark;
            if (auto *shade = qobject_cast<QCPItemRect *>(item); shade && shade->brush().style() != Qt::NoBrush)
                mark = QRectF(shade->topLeft->pixelPosition(), shade->bottomRight->pixelPosition()).normalized();
            else if (auto *text = qobject_cast<QCPItemText *>(item); text && !text->text().isEmpty())
                mark = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
            mark = mark.intersected(QRectF(over->rect()));
            if (const QRectF both = box.intersected(mark); both.width() > 1.0 && both.height() > 1.0)
                problems.append(u"a key over a %1"_s.arg(QString::fromLatin1(item->metaObject()->className())));
        }
        // The entries of each row of the key, left to right: half an em between two.
        const double em = legend->font().pointSizeF() * FigureSize::unitsPerInch() / 72.0;
        QList<QList<QRectF>> rows;
        for (int k = 0; k < legend->itemCount(); ++k) {
            const QCPAbstractLegendItem *entry = legend->item(k);
            if (!entry || !entry->realVisibility())
                continue;
            const QRectF cell = entry->outerRect();
            auto row = std::find_if(rows.begin(), rows.end(), [&](const QList<QRectF> &r) {
                return std::abs(r.first().top() - cell.top()) < 1.0;
            });
            if (row == rows.end())
                rows.append({cell});
            else
                row->append(cell);
        }
        for (QList<QRectF> &row : rows) {
            std::sort(row.begin(), row.end(), [](const QRectF &a, const QRectF &b) { return a.left() < b.left(); });
            for (qsizetype k = 1; k < row.size(); ++k)
                if (row[k].left() - row[k - 1].right() < 0.5 * em - 1.0)
                    problems.append(
                        u"two entries %1 apart, the key's em %2"_s.arg(row[k].left() - row[k - 1].right()).arg(em));
        }
    }
    return problems;
}

// Each direct label (DirectLabels) whose box meets the ink of a line: of another curve, or of its
// own where it stands beside it (one over its curve, on a white ground, may). A line's ink is half
// its pen each side of its segments (why-sqrt-d's "σ 1, s 1" stood on its 4-unit line).
QStringList labelsOnLines(QCustomPlot &plot)
{
    QStringList problems;
    for (int i = 0; i < plot.itemCount(); ++i) {
        const auto *text = qobject_cast<const QCPItemText *>(plot.item(i));
        const QCPAbstractPlottable *own = text ? DirectLabels::named(text) : nullptr;
        if (!own || !text->realVisibility() || text->text().isEmpty() || FigureRoom::Changes::isHidden(text))
            continue;
        const QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        const bool over = text->brush().style() != Qt::NoBrush;
        for (int j = 0; j < plot.plottableCount(); ++j) {
            const QCPAbstractPlottable *curve = plot.plottable(j);
            const auto *graph = qobject_cast<const QCPGraph *>(curve);
            if (!graph || !graph->realVisibility() || graph->pen().style() == Qt::NoPen
                || graph->lineStyle() == QCPGraph::lsNone || graph->keyAxis()->axisRect() != text->clipAxisRect()
                || (over && graph == own))
                continue;
            // Half a unit of slack: the labels' places are weighed on a plot's whole units.
            const double half = std::max(graph->pen().widthF(), 1.0) / 2.0 - 0.5;
            const QRectF inked = box.adjusted(-half, -half, half, half);
            QPointF last;
            bool first = true;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                if (!std::isfinite(it->key) || !std::isfinite(it->value))
                    continue;
                const QPointF p = graph->coordsToPixels(it->key, it->value);
                if (!first && clippedSegment(last, p, inked)) {
                    problems.append(u"the label '%1' on the line of '%2'"_s.arg(text->text(), graph->name()));
                    break;
                }
                last = p;
                first = false;
            }
        }
    }
    return problems;
}

// A band of the page no element of its layout takes: the elements of the plot's layout, its
// top grid's, reach its edges (a key of no entries in the grid held its column, and the page, to
// the least width its figure needs, dropout-on-sum's window blank right of its colour bars).
QStringList blankBands(const QCustomPlot &plot)
{
    QRect spanned;
    QCPLayoutGrid *top = plot.plotLayout();
    for (int i = 0; i < top->elementCount(); ++i)
        if (QCPLayoutElement *element = top->elementAt(i))
            spanned = spanned.united(element->outerRect());
    const QRect page = plot.viewport();
    if (spanned.left() > page.left() + 1 || spanned.right() < page.right() - 1)
        return {u"its layout spans %1 to %2 of a page from %3 to %4"_s.arg(spanned.left())
                    .arg(spanned.right())
                    .arg(page.left())
                    .arg(page.right())};
    return {};
}

} // namespace

class TestKeysOffMarks : public QObject
{
    Q_OBJECT

private slots:
    void everyLessonsKeys_data();
    void everyLessonsKeys();
};

void TestKeysOffMarks::everyLessonsKeys_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    QTest::addColumn<double>("points");
    for (const Lesson &lesson : Lessons::all())
        for (const QString &preset : modelsOf(lesson.name))
            for (const auto &[size, points] : sizes())
                QTest::addRow("%s %s %s", qPrintable(lesson.name), preset.isEmpty() ? "default" : qPrintable(preset),
                              qPrintable(size))
                    << lesson.name << preset << size << points;
}

void TestKeysOffMarks::everyLessonsKeys()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    QFETCH(double, points);
    const Lesson &read = *Lessons::find(lesson);
    const auto parsed = readLesson(read, preset.isEmpty() ? QStringList() : QStringList {u"--preset"_s, preset});
    QVERIFY(parsed);
    if (parsed->result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const LessonModel &model = parsed->model;
    FigureStyle base;
    base.fontPointSize = points;
    // The slide as posenc export --lesson NAME --size slide builds its page; the window its main figure.
    const FigureSize page = pageOf(size);
    QString said;
    QTextStream err(&said);
    LessonPage::Request request;
    request.figures = size == u"slide"_s ? LessonPage::figures(read, model, model.params, err, false, page.layout)
                                         : QList<const FigureDescriptor *> {FigureRegistry::find(read.mainFigure())};
    for (const FigureDescriptor *figure : std::as_const(request.figures)) {
        QVERIFY(figure);
        FigureState state = LessonPage::state(read, figure->name(), model.configName, model.params);
        LessonPage::markDropoutOwner(state, *figure, model);
        request.states.append(state);
        request.styles.append(LessonPage::styleOf(read, model, *figure, base));
    }
    request.engine = std::make_shared<const Engine>(model.params);
    request.page = page;
    request.threads = 1;
    request.chooseGrid = request.figures.size() > 1;
    request.subtitle = size == u"slide"_s ? LessonPage::subtitle(model, request.figures) : QString();
    const std::optional<LessonPage::Page> built = LessonPage::build(request, nullptr);
    QVERIFY(built);
    QStringList problems, onLines;
    for (std::size_t i = 0; i < built->builds.size(); ++i) {
        if (built->builds[i]->error())
            continue;
        QCustomPlot &plot = *built->builds[i]->plot();
        for (const QString &problem : keyProblems(plot) + blankBands(plot))
            problems.append(request.figures[qsizetype(i)]->name() + u": "_s + problem);
        for (const QString &problem : labelsOnLines(plot))
            onLines.append(request.figures[qsizetype(i)]->name() + u": "_s + problem);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
    QVERIFY2(onLines.isEmpty(), qPrintable(onLines.join(u"; "_s)));
}

POSENC_TEST_MAIN(TestKeysOffMarks)
} // namespace tst_keysoffmarks
#include "tst_keysoffmarks.moc"
