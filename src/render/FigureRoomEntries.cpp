#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "FigureFit.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"
#include "SwatchLegend.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

// The entries of a figure's keys on little room (docs/ARCHITECTURE.md, "Figures at any size"):
// their first parts, then cut to a column of the key, so that each still names its line.
namespace posenc::FigureRoom::Steps {

namespace {

QList<QCPLegend *> drawnKeys(const QCustomPlot &plot)
{
    QList<QCPLegend *> keys;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(element);
            legend && !Changes::isHidden(legend) && roleOf(legend) == TextRole::Key)
            keys.append(legend);
    return keys;
}

// An entry's text: its plottable's name, or a swatch's label.
QString entryText(QCPAbstractLegendItem *item)
{
    auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
    return entry && entry->plottable() ? entry->plottable()->name() : SwatchLegend::label(item);
}

bool setEntryText(QCustomPlot *plot, QCPAbstractLegendItem *item, const QString &text)
{
    auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
    return entry && entry->plottable() ? Changes::of(plot).renameEntry(entry->plottable(), text)
                                       : Changes::of(plot).relabelSwatch(item, text);
}

// A legend entry in `most`: the first shorter form its figure gives that holds, else cut, but never
// within a number: Llama 3.1's "max-len 131,072" at a column read "max-len 13…"; such an entry
// keeps its first whole words (shortened), the number whole.
QString entryWithin(const QString &name, const QFont &font, double most, const QStringList &forms)
{
    if (MeasuredText::advance(font, name) <= most)
        return name;
    for (const QString &form : forms)
        if (MeasuredText::advance(font, form) <= most)
            return form;
    const QString cut = QFontMetricsF(font).elidedText(name, Qt::ElideRight, most);
    // Cut within a number: between two of its digits, or between a digit and the separator (a comma
    // or a point) before or after the next digit ("×1.…" of "×1.8739", "13…" of "131,072").
    const qsizetype at = cut.size() - 1;
    const auto digitAt = [&name](qsizetype i) { return i >= 0 && i < name.size() && name.at(i).isDigit(); };
    const auto numeric = [&](qsizetype i) {
        return digitAt(i) || (i >= 0 && i < name.size() && (name.at(i) == u',' || name.at(i) == u'.'));
    };
    const bool inNumber = cut.endsWith(u'…') && at > 0 && numeric(at - 1) && numeric(at)
        && (digitAt(at - 1) || digitAt(at)) && (digitAt(at - 2) || digitAt(at - 1)) && (digitAt(at) || digitAt(at + 1));
    return inNumber ? shortened(name, font, most, 1, forms) : cut;
}

// The first word of an entry, up to a space or a hyphen ("DeepSeek" of "DeepSeek-V3 ×1.8739").
QString firstWord(const QString &text)
{
    const qsizetype end = text.indexOf(QRegularExpression(u"[\\s\\-/,:;(]"_s), 1);
    return end < 0 ? text : text.left(end);
}

// Whether a key's entries, shown as `shown` for their texts `names`, still tell their lines apart:
// no two that differ read alike ("T5 key…" for both "T5 key after" and "T5 key before"), and none
// is cut within its first word ("cappe…" of "capped / past max"), which names nothing.
bool readApart(const QStringList &names, const QStringList &shown)
{
    for (qsizetype i = 0; i < shown.size(); ++i) {
        for (qsizetype j = i + 1; j < shown.size(); ++j)
            if (shown[i] == shown[j] && names[i] != names[j])
                return false;
        if (shown[i] != names[i] && shown[i].endsWith(u'…') && !shown[i].startsWith(firstWord(names[i])))
            return false;
    }
    return true;
}

// A key's room: its row's, or its panel's where it stands inside one (FigureFit::fit's), or the
// cell the layout gave it where that is wider (dropout-anatomy's "kept" and "dropped" over the
// keep mask, whose grid's column the mask's panel makes wider than its stretch's share).
double roomOf(const QCustomPlot &plot, const QCPLegend *legend)
{
    if (const auto *inset = qobject_cast<QCPLayoutInset *>(legend->layout()))
        for (QCPAxisRect *rect : plot.axisRects())
            if (rect->insetLayout() == inset)
                return rect->width() - 8.0;
    return std::max(FigureFit::roomFor(legend, plot.viewport().width() - 8.0), double(legend->outerRect().width()));
}

// A key's entries cut to the widest that lets them stand in `columns` columns within its room, as
// FigureFit lays them out: each column as wide as its widest entry (cut for a third of the page,
// buckets' key fitted only two columns and took three rows). `names` are the entries' texts.
QStringList cutFor(const QCustomPlot &plot, QCPLegend *legend, int columns, const QList<QCPAbstractLegendItem *> &items,
                   const QStringList &names, const QList<QStringList> &forms)
{
    const QFont font = legend->font();
    const qsizetype count = names.size();
    // What each entry takes besides its text: its icon, the padding and its margins.
    QList<double> besides;
    for (qsizetype i = 0; i < count; ++i)
        besides.append(items[i]->minimumOuterSizeHint().width() - MeasuredText::advance(font, names[i]));
    const double room = roomOf(plot, legend) - legend->margins().left() - legend->margins().right()
        - legend->columnSpacing() * (columns - 1);
    const bool byRows = legend->fillOrder() == QCPLayoutGrid::foColumnsFirst;
    const qsizetype rows = (count + columns - 1) / columns;
    const auto cut = [&](double most) {
        QStringList shown;
        for (qsizetype i = 0; i < count; ++i)
            shown.append(entryWithin(names[i], font, most, forms.value(i)));
        return shown;
    };
    const auto width = [&](const QStringList &shown) {
        QList<double> widths(columns, 0.0);
        for (qsizetype i = 0; i < count; ++i) {
            const qsizetype column = byRows ? i % columns : i / std::max<qsizetype>(rows, 1);
            if (column < columns)
                widths[column] = std::max(widths[column], MeasuredText::advance(font, shown[i]) + besides[i]);
        }
        double sum = 0.0;
        for (const double w : widths)
            sum += w;
        return sum;
    };
    // The widest cut that fits, to a unit: none narrower than a word's four letters.
    double low = QFontMetricsF(font).horizontalAdvance(u"xxxx…"_s), high = room;
    if (width(cut(high)) <= room)
        return cut(high);
    while (high - low > 1.0) {
        const double mid = (low + high) / 2.0;
        (width(cut(mid)) <= room ? low : high) = mid;
    }
    return cut(low);
}

// Whether each of `shown` is its entry's name whole or one of the shorter forms its figure gave.
bool wholeOrFormed(const QStringList &names, const QStringList &shown, const QList<QStringList> &forms)
{
    for (qsizetype i = 0; i < shown.size(); ++i)
        if (shown[i] != names[i] && !forms.value(i).contains(shown[i]))
            return false;
    return true;
}

} // namespace

bool shortenEntries(QCustomPlot *plot)
{
    // Not at " = ": "p = 511" names its curve whole.
    static const QStringList separators {u"  "_s, u": "_s, u" ("_s, u", "_s};
    bool changed = false;
    for (QCPLegend *legend : drawnKeys(*plot)) {
        // Each entry's name and its first part; two entries that would read alike keep theirs.
        QList<std::pair<QString, QString>> names;
        for (int i = 0; i < legend->itemCount(); ++i) {
            const QString name = entryText(legend->item(i));
            names.append({name, firstPart(name, separators)});
        }
        for (int i = 0; i < legend->itemCount(); ++i) {
            // Named, not bound: clang's C++20 captures no structured binding in a lambda.
            const QString &name = names[i].first;
            const QString &shown = names[i].second;
            const bool alike
                = std::count_if(names.begin(), names.end(),
                                [&](const auto &other) { return other.second == shown || other.first == shown; })
                > 1;
            if (shown.isEmpty() || shown == name || alike)
                continue;
            changed |= setEntryText(plot, legend->item(i), shown);
        }
    }
    return changed;
}

bool elideEntries(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPLegend *legend : drawnKeys(*plot)) {
        QList<QCPAbstractLegendItem *> items;
        QStringList names;
        QList<QStringList> forms;
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            const QString name = item ? entryText(item) : QString();
            if (name.isEmpty())
                continue;
            auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
            items.append(item);
            names.append(name);
            forms.append(entry && entry->plottable() ? ShorterLabels::ofEntry(entry->plottable())
                                                     : ShorterLabels::ofEntry(item));
        }
        // A key already over its plot (legendsOverData) stands in the columns its place gave it:
        // whole (or in the shorter forms its figure gives) in the most of three, two or one columns
        // of the plot that hold them so (cut for three, what-dropout-does' slide read "p ± 4√(p(1−…"
        // in the two its place took). A key in a row of its own is cut for three columns below, so
        // that its row takes the fewest lines of the page (layer-stack's at 6 x 4 cm, whole in one
        // column, left its lanes 27 % of the page).
        QStringList shown;
        int cutColumns = 0;
        const bool over = qobject_cast<QCPLayoutInset *>(legend->layout()) != nullptr;
        for (const int columns : {3, 2, 1}) {
            if (!over)
                break;
            const QStringList formed = cutFor(*plot, legend, columns, items, names, forms);
            if (wholeOrFormed(names, formed, forms) && readApart(names, formed)) {
                shown = formed;
                cutColumns = columns;
                break;
            }
        }
        // Else cut for three columns; where its entries would not read apart so, for two, then one: a
        // key whose entries name nothing is no key (buckets at 6 x 4 cm read "T5 key…" twice and "cappe…").
        for (const int columns : {3, 2, 1}) {
            if (cutColumns > 0)
                break;
            shown = cutFor(*plot, legend, columns, items, names, forms);
            if (readApart(names, shown) || columns == 1)
                cutColumns = columns;
        }
        // Where the figure's shorter forms, no entry cut, let the key stand in more columns and
        // so in fewer rows, those: a row of the page goes to the plots (rope-frequencies for
        // Llama 3.1 at a column, eight entries in three rows, cut, "max-len …", lost its title).
        const auto rows = [&names](int columns) { return (names.size() + columns - 1) / columns; };
        for (int columns = int(names.size()); columns > cutColumns; --columns) {
            if (rows(columns) >= rows(cutColumns) || rows(columns) == rows(columns - 1))
                continue;
            const QStringList formed = cutFor(*plot, legend, columns, items, names, forms);
            if (wholeOrFormed(names, formed, forms) && readApart(names, formed)) {
                shown = formed;
                break;
            }
        }
        for (qsizetype i = 0; i < items.size(); ++i)
            changed |= setEntryText(plot, items[i], shown[i]);
    }
    return changed;
}

bool dropKeysIfOverflowing(QCustomPlot *plot)
{
    if (leastWithin(*plot) && labelsWithin(*plot))
        return false;
    QList<QCPLayoutElement *> keys;
    for (QCPLegend *legend : drawnKeys(*plot))
        if (legend->visible())
            keys.append(legend);
    return Changes::of(plot).hide(keys);
}

} // namespace posenc::FigureRoom::Steps
