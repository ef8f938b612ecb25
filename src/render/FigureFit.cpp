#include "FigureFit.h"

#include "AxesInOrder.h"
#include "FigureRoom.h"
#include "IndexTicker.h"
#include "LegendPlacement.h"
#include "MeasuredText.h"

#include <QGuiApplication>
#include <QScreen>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::FigureFit {

// FigureFitLabel.cpp's: the length an x label is wrapped to, its row's least where they show one label (`rects`: the
// plot's axis rects, found once for all its axes), and a legend's margins kept clear of the page's edges.
double rowLabelLength(const QCPAxis *axis, const QList<QCPAxisRect *> &rects);
bool keepClearOfEdges(QCPLegend *legend, double slack);
QMargins ownMargins(const QCPLegend *legend);
// FigureFitLegend.cpp's: a legend's width at a wrap, fitted to a width, moved below its axes.
double legendWidth(const QCPLegend *legend, int wrap);
bool fitLegend(QCPLegend *legend, double width);
bool moveBelow(QCustomPlot *plot, QCPAxisRect *rect, QCPLegend *legend);

namespace {

const QString kSeparator = u"  ·  "_s;
constexpr double kMinTickGap = 4.0; // layout units between tick labels side by side

// What fit() remembers of a text or an axis, a child of that object: the text as its figure set it and
// as fit() wrapped it (both empty when left whole), an axis's tick level as given and as set, and the
// last few fittings of its text (`given` in `font` within `width` at `dpi` gave `fitted`; a fitting's
// ladder lays a text out in a few rooms in turn, and goes back to them). A typed record, not dynamic
// properties (looked up by name at every read), found at once and gone with its object.
struct FitRecord : QObject
{
    using QObject::QObject;
    QString wrappedFrom;
    QString wrappedTo;
    std::optional<int> ticksWished;
    std::optional<int> ticksSet;
    struct Fitting
    {
        QString given;
        QFont font;
        double width = 0.0;
        qreal dpi = 0.0;
        QString fitted;
    };
    static constexpr qsizetype kFittingsKept = 4;
    QList<Fitting> fittings; // the last made first
};

FitRecord *recordOf(const QObject *object)
{
    for (QObject *child : object->children())
        if (auto *record = dynamic_cast<FitRecord *>(child))
            return record;
    return nullptr;
}

FitRecord &recordFor(QObject *object)
{
    if (FitRecord *record = recordOf(object))
        return *record;
    return *new FitRecord(object);
}

// `shown` as its figure set it: what fit() wrapped it from, or itself.
QString givenText(const QObject *object, const QString &shown)
{
    const FitRecord *record = recordOf(object);
    return record && record->wrappedTo == shown && !shown.isEmpty() ? record->wrappedFrom : shown;
}

// `given` fitted within `width` in `font` by `make` (a pure function of the three and the screen's
// resolution), remembered for `object` (a text or an axis) until one of them changes.
template<typename Make>
QString fittedText(QObject *object, const QString &given, const QFont &font, double width, const Make &make)
{
    const QScreen *screen = QGuiApplication::primaryScreen();
    const qreal dpi = screen ? screen->logicalDotsPerInchY() : 0.0;
    FitRecord &record = recordFor(object);
    for (const FitRecord::Fitting &one : std::as_const(record.fittings))
        if (one.width == width && one.dpi == dpi && one.given == given && one.font == font)
            return one.fitted;
    QString fitted = make();
    if (record.fittings.size() >= FitRecord::kFittingsKept)
        record.fittings.removeLast();
    record.fittings.prepend(FitRecord::Fitting {given, font, width, dpi, fitted});
    return fitted;
}

// Remembers that `given` is shown as `fitted` (forgets it when they are the same).
void rememberWrap(QObject *object, const QString &given, const QString &fitted)
{
    if (fitted == given) {
        if (FitRecord *record = recordOf(object)) {
            record->wrappedFrom.clear();
            record->wrappedTo.clear();
        }
        return;
    }
    FitRecord &record = recordFor(object);
    record.wrappedFrom = given;
    record.wrappedTo = fitted;
}

double widest(const QString &text, const QFont &font)
{
    double w = 0.0;
    for (const QString &line : text.split(u'\n'))
        w = std::max(w, MeasuredText::advance(font, line));
    return w;
}

// The element in a cell of `grid`, or nullptr: QCPLayoutGrid::element() would complain of an
// empty cell on the console.
const QCPLayoutElement *cell(const QCPLayoutGrid *grid, int row, int column)
{
    return grid->elementAt(grid->rowColToIndex(row, column));
}

// The least width of `element` besides its texts and its legends' columns, which fit() wraps
// (a legend down to one column: its widest item).
int leastWidth(const QCPLayoutElement *element)
{
    if (!element || qobject_cast<const QCPTextElement *>(element))
        return 0;
    if (const auto *legend = qobject_cast<const QCPLegend *>(element)) {
        int widest = 0;
        for (int i = 0; i < legend->elementCount(); ++i)
            if (const QCPLayoutElement *item = legend->elementAt(i))
                widest = std::max(widest, item->minimumOuterSizeHint().width());
        return widest + legend->margins().left() + legend->margins().right();
    }
    const auto *grid = qobject_cast<const QCPLayoutGrid *>(element);
    if (!grid || qobject_cast<const QCPLegend *>(element)) {
        // As QCPLayout takes it: a minimum size set (a colour scale sets its own as it is laid
        // out) before the hint.
        const int set = element->minimumSize().width();
        if (set <= 0)
            return element->minimumOuterSizeHint().width();
        return element->sizeConstraintRect() == QCPLayoutElement::scrInnerRect
            ? set + element->margins().left() + element->margins().right()
            : set;
    }
    int width = grid->margins().left() + grid->margins().right() + grid->columnSpacing() * (grid->columnCount() - 1);
    for (int c = 0; c < grid->columnCount(); ++c) {
        int column = 0;
        for (int r = 0; r < grid->rowCount(); ++r)
            column = std::max(column, leastWidth(cell(grid, r, c)));
        width += column;
    }
    return width;
}

// The most width of `element`, as QCPLayout takes it: a maximum size set (a panel given up, a
// colour scale) before the hint.
int mostWidth(const QCPLayoutElement *element)
{
    const int set = element->maximumSize().width();
    if (set >= QWIDGETSIZE_MAX)
        return element->maximumOuterSizeHint().width();
    return element->sizeConstraintRect() == QCPLayoutElement::scrInnerRect
        ? set + element->margins().left() + element->margins().right()
        : set;
}

// The width a layout element may take: what its grid leaves its column when every other column takes
// its share by stretch factor or, if more, its least width (a panel's title over one of several panels,
// beside a colour scale), within that grid's room, or the figure's width at the top. Its own text does
// not count (a long title would widen its column); columns that hold nothing (spacers) give way.
double roomWithin(const QCPLayoutElement *element, double figureWidth)
{
    const auto *grid = qobject_cast<const QCPLayoutGrid *>(element->layout());
    if (!grid)
        return figureWidth;
    const int columns = grid->columnCount();
    const double room = roomWithin(grid, figureWidth) - grid->margins().left() - grid->margins().right()
        - grid->columnSpacing() * (columns - 1);
    if (columns <= 1)
        return room;
    int own = -1;
    for (int r = 0; r < grid->rowCount() && own < 0; ++r)
        for (int c = 0; c < columns; ++c)
            if (cell(grid, r, c) == element)
                own = c;
    const QList<double> stretch = grid->columnStretchFactors();
    double total = 0.0;
    for (const double f : stretch)
        total += f;
    if (own < 0 || total <= 0.0)
        return room;
    double taken = 0.0;
    for (int c = 0; c < columns; ++c) {
        if (c == own)
            continue;
        int least = 0;
        int most = QWIDGETSIZE_MAX;
        bool holds = false;
        for (int r = 0; r < grid->rowCount(); ++r) {
            const QCPLayoutElement *other = cell(grid, r, c);
            holds |= other != nullptr;
            least = std::max(least, leastWidth(other));
            if (other)
                most = std::min(most, mostWidth(other));
        }
        // As QCPLayoutGrid lays it out, no wider than its narrowest most (a panel given up).
        if (holds)
            taken += std::min(std::max(room * stretch[c] / total, static_cast<double>(least)), double(most));
    }
    return std::max(room - taken, 1.0);
}

bool fitText(QCPTextElement *element, double width)
{
    const QFont &font = element->font();
    const QString text = element->text();
    // The text as its figure set it: one this function wrapped is laid out whole again when it
    // has the room (a view made narrow, then wide).
    const QString given = unwrapped(element);
    const QString fitted = fittedText(element, given, font, width, [&] {
        if (given.isEmpty() || widest(given, font) <= width)
            return given;
        // The text's own line breaks stay: a caption of two statements keeps them apart, each
        // wrapped within the width on its own.
        QStringList lines = given.split(u'\n');
        for (QString &line : lines)
            line = wrap(line, font, width);
        return lines.join(u'\n');
    });
    rememberWrap(element, given, fitted);
    if (fitted == text)
        return false;
    element->setText(fitted);
    return true;
}

bool fitAxisLabel(QCPAxis *axis, const QList<QCPAxisRect *> &rects)
{
    const double length = rowLabelLength(axis, rects);
    const QFont font = axis->labelFont();
    const QString label = axis->label();
    // The label as its figure set it: a label this function wrapped remembers it, so that it is
    // laid out whole again when the axis has room for it (a view made narrow, then wide).
    const QString given = givenText(axis, label);
    const QString fitted = fittedText(axis, given, font, length, [&] {
        return given.isEmpty() || widest(given, font) <= length
            ? given
            : wrap(QString(given).replace(u'\n', u' '), font, length);
    });
    rememberWrap(axis, given, fitted);
    if (fitted == label)
        return false;
    axis->setLabel(fitted);
    return true;
}

// Whether two neighbouring labels of `ticks` on `axis` would touch.
bool ticksTouch(QCPAxis *axis, const QVector<double> &ticks, const QVector<QString> &labels)
{
    if (!axis->visible() || !axis->tickLabels() || ticks.size() < 2 || labels.size() != ticks.size())
        return false;
    const QFont font = axis->tickLabelFont();
    const double height = QFontMetricsF(font).height();
    const bool across = axis->orientation() == Qt::Horizontal;
    for (qsizetype i = 1; i < ticks.size(); ++i) {
        const double distance = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
        // Side by side labels need a gap between them; stacked ones only their line height.
        const double room = across
            ? (MeasuredText::advance(font, labels[i]) + MeasuredText::advance(font, labels[i - 1])) / 2.0 + kMinTickGap
            : height;
        if (distance < room)
            return true;
    }
    return false;
}

// How thin an axis's ticks are: its tick count, 0 for an index axis down to its first tick.
int tickLevel(QCPAxis *axis)
{
    const auto *index = dynamic_cast<const IndexTicker *>(axis->ticker().data());
    return index && index->isLone() ? 0 : axis->ticker()->tickCount();
}

void applyTickLevel(QCPAxis *axis, int level)
{
    if (auto *index = dynamic_cast<IndexTicker *>(axis->ticker().data()))
        index->setLone(level == 0);
    axis->ticker()->setTickCount(std::max(level, 1));
}

// The level its figure gave `axis`: what it has, unless fit() thinned it since.
int wishedTickLevel(QCPAxis *axis)
{
    const FitRecord *record = recordOf(axis);
    if (record && record->ticksWished && record->ticksSet.value_or(0) == tickLevel(axis))
        return *record->ticksWished;
    return tickLevel(axis);
}

// Sets `axis`'s ticks to `level`, remembering the level its figure gave it.
void setTickLevel(QCPAxis *axis, int level)
{
    const int wished = wishedTickLevel(axis);
    applyTickLevel(axis, level);
    FitRecord &record = recordFor(axis);
    record.ticksWished = wished;
    record.ticksSet = level;
}

// The ticks and labels `axis`'s ticker gives its range in the axis's number format, as
// QCPAxis::setupTickVectors asks them.
void generateTicks(QCPAxis *axis, QVector<double> &ticks, QVector<QString> &labels)
{
    const QString format = axis->numberFormat();
    axis->ticker()->generate(axis->range(), axis->parentPlot()->locale(), format.isEmpty() ? QChar(u'g') : format.at(0),
                             axis->numberPrecision(), ticks, nullptr, &labels);
}

// The most ticks up to the figure's own whose labels do not touch (under a label along them, that keep
// three numbers, the end one too or else all but it, TickChoice, else fewer), for the layout now, whatever before.
bool fitTicks(QCPAxis *axis)
{
    if (!axis->visible() || !axis->tickLabels())
        return false;
    const int wished = wishedTickLevel(axis);
    const int least = dynamic_cast<const IndexTicker *>(axis->ticker().data()) ? 0 : 1; // index: to one
    QVector<double> ticks;
    QVector<QString> labels;
    const auto generate = [&] { generateTicks(axis, ticks, labels); };
    const auto *clearing = dynamic_cast<const KeepsClear *>(axis->ticker().data());
    TickChoice choice(clearing);
    for (int candidate = wished; candidate >= least && !choice.done(); --candidate) {
        applyTickLevel(axis, candidate);
        generate();
        if (!ticksTouch(axis, ticks, labels))
            choice.weigh(candidate);
    }
    const int level = choice.level(least);
    FitRecord &record = recordFor(axis);
    const int before = record.ticksSet.value_or(wished);
    // The candidates tried changed the ticker: the wish is the one read before them.
    record.ticksWished = wished;
    applyTickLevel(axis, level);
    record.ticksSet = level;
    // The labels it blanks counted (KeepsClear::leavesScale) at the level set, not the last tried.
    if (clearing)
        generate();
    return level != before;
}

// Axes that show the same range over the same length, as the linked panels of a comparison do,
// tick alike: each takes the fewest ticks any of them needs, where fitting each alone could leave
// "0 10 20" under one panel and "0 5 10 15 20" under its neighbour, one of them a pixel narrower.
bool alignTicks(const QList<QCPAxis *> &axes)
{
    // Over the same length: a panel's extent across its axis (taller under a neighbour that gave
    // it its tick labels) does not matter.
    const auto alike = [](QCPAxis *a, QCPAxis *b) {
        const QSize sa = a->axisRect()->rect().size(), sb = b->axisRect()->rect().size();
        const bool across = a->orientation() == Qt::Horizontal;
        return a->orientation() == b->orientation() && a->range() == b->range() && a->scaleType() == b->scaleType()
            && std::abs(across ? sa.width() - sb.width() : sa.height() - sb.height()) <= 2;
    };
    bool changed = false;
    for (QCPAxis *axis : axes) {
        // Only the axes that draw their tick labels need fewer ticks: one that gave its labels to
        // its neighbour's (FigureRoom) keeps no level of its own, fitted on the room it had before,
        // and takes theirs (compose-compare's concat heatmap held the sum's positions to "0, 1k").
        std::optional<int> fewest;
        if (axis->tickLabels())
            fewest = tickLevel(axis);
        for (QCPAxis *other : axes)
            if (other != axis && other->tickLabels() && alike(axis, other))
                fewest = std::min(fewest.value_or(tickLevel(other)), tickLevel(other));
        if (fewest && (axis->tickLabels() ? *fewest < tickLevel(axis) : *fewest != tickLevel(axis))) {
            setTickLevel(axis, *fewest);
            changed = true;
        }
    }
    return changed;
}

QList<QCPAxis *> allAxes(QCustomPlot *plot, const QList<QCPAxisRect *> &rects)
{
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : rects)
        axes += axesInOrder(*rect);
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            axes.append(scale->axis());
    return axes;
}

} // namespace

double roomFor(const QCPLayoutElement *element, double figureWidth)
{
    // A row of the figure's own (its title) keeps half a line's height clear of the page's edges:
    // relative-position's title ran from edge to edge of a slide.
    const auto *text = qobject_cast<const QCPTextElement *>(element);
    const double margin = text && text->layout() == text->parentPlot()->plotLayout()
        ? std::max(0.0, QFontMetricsF(text->font()).height() - 8.0)
        : 0.0;
    return roomWithin(element, figureWidth) - margin;
}

QString unwrapped(const QCPTextElement *element)
{
    return givenText(element, element->text());
}

bool unthinTicks(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPAxis *axis : allAxes(plot, plot->axisRects())) {
        FitRecord *record = recordOf(axis);
        if (!record || !record->ticksWished || record->ticksSet.value_or(0) != tickLevel(axis))
            continue;
        const int wished = *record->ticksWished;
        changed |= wished != tickLevel(axis);
        if (auto *index = dynamic_cast<IndexTicker *>(axis->ticker().data()))
            index->setLone(wished == 0);
        axis->ticker()->setTickCount(std::max(wished, 1));
        record->ticksSet = wished;
    }
    return changed;
}

bool keepClearTakingEndAtMost(QCPAxis *axis, double pixels, int least)
{
    auto *clearing = dynamic_cast<KeepsClear *>(axis->ticker().data());
    if (!clearing || !axis->visible() || !axis->tickLabels())
        return false;
    const double before = clearing->keptClear();
    const int level = tickLevel(axis);
    const int fewest = dynamic_cast<const IndexTicker *>(axis->ticker().data()) ? 0 : 1;
    QVector<double> ticks;
    QVector<QString> labels;
    const auto generate = [&] { generateTicks(axis, ticks, labels); };
    // Up the side, the numbers given back stand in the column the layout has: one wider would take
    // the panels' width that the figure's steps weighed (rope-relative's slide drew "100" beside the
    // rows its "75" had ended, and its panels' titles took another line from the figure's title).
    const bool across = axis->orientation() == Qt::Horizontal;
    const auto widest = [&] {
        double most = 0.0;
        for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i)
            if (axis->range().contains(ticks[i]))
                most = std::max(most, MeasuredText::advance(axis->tickLabelFont(), labels[i]));
        return most;
    };
    generate();
    const double column = widest();
    const int wished = wishedTickLevel(axis);
    clearing->keepClear(axis, pixels);
    for (int candidate = wished; candidate >= fewest; --candidate) {
        applyTickLevel(axis, candidate);
        generate();
        if (!ticksTouch(axis, ticks, labels) && clearing->takesEndAtMost(false, least)
            && (across || widest() <= column + 0.5)) {
            FitRecord &record = recordFor(axis);
            record.ticksWished = wished;
            record.ticksSet = candidate;
            return true;
        }
    }
    clearing->keepClear(axis, before);
    applyTickLevel(axis, level);
    generate();
    return false;
}

void setLegendWrap(QCPLegend *legend, int wrap)
{
    legend->setProperty("fitWished", QVariant());
    legend->setProperty("fitSet", QVariant());
    if (legend->wrap() == wrap)
        return;
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), true);
}

QString unwrappedLabel(const QCPAxis *axis)
{
    return givenText(axis, axis->label());
}

namespace {

// The plot's titles, captions and legends of its own rows, each fitted to the room it has.
bool fitRows(QCustomPlot *plot)
{
    bool changed = false;
    const double width = plot->viewport().width() - 8.0;
    QList<QCPTextElement *> titles;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(element); text && FigureRoom::roleOf(text) == TextRole::PanelTitle)
            titles.append(text);
    RowRooms rooms(titles, width);
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        bool changedHere = false;
        if (auto *text = qobject_cast<QCPTextElement *>(element)) {
            // No room reads a text's lines (leastWidth counts a text none, and its most width is
            // unbounded at any text): the rooms stand.
            changed |= fitText(text, rooms.of(text));
        } else if (auto *legend = qobject_cast<QCPLegend *>(element);
                   legend && legend->visible() && qobject_cast<const QCPLayoutGrid *>(legend->layout())) {
            // A key in a plot's inset is fitted to its plot by fit(): fitted to the figure's width
            // too, it went back and forth and the layout never settled (dropout-anatomy, double).
            const double room = roomWithin(legend, width);
            changedHere = fitLegend(legend, room);
            changedHere |= keepClearOfEdges(legend, room - legendWidth(legend, std::max(legend->wrap(), 1)));
        }
        // The rooms read a key's margins and columns.
        if (changedHere)
            rooms.forget();
        changed |= changedHere;
    }
    return changed;
}

} // namespace

bool fitTexts(QCustomPlot *plot)
{
    bool changed = fitRows(plot);
    const QList<QCPAxisRect *> rects = plot->axisRects();
    for (QCPAxis *axis : allAxes(plot, rects))
        changed |= axis->visible() && fitAxisLabel(axis, rects);
    return changed;
}

bool fit(QCustomPlot *plot)
{
    bool changed = fitRows(plot);
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPLayoutElement *inset : rect->insetLayout()->elements(false))
            if (auto *legend = qobject_cast<QCPLegend *>(inset); legend && legend->visible()) {
                // Fitted first, then moved at its fitted size; both always run.
                changed |= fitLegend(legend, rect->width() - 8.0);
                changed |= moveBelow(plot, rect, legend);
                changed |= LegendPlacement::placeBest(legend, rect);
            }
    }
    QList<QCPAxis *> shown;
    const QList<QCPAxisRect *> rects = plot->axisRects();
    for (QCPAxis *axis : allAxes(plot, rects)) {
        if (axis->visible()) {
            changed |= fitAxisLabel(axis, rects);
            changed |= fitTicks(axis);
            shown.append(axis);
        }
    }
    changed |= alignTicks(shown);
    return changed;
}

} // namespace posenc::FigureFit
