#pragma once

#include "QCustomPlot.h"

#include <QPointer>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace posenc::FigureRoom {

// The property a figure's dispensable panels carry (FigureRoom::setDispensable): their order.
inline constexpr char kDispensableProperty[] = "posencDispensable";
// The property of a text that counts the panels drawn (FigureRoom::setTextWhenAlone): what it says
// once the figure's dispensable panels have all gone.
inline constexpr char kAloneTextProperty[] = "posencAloneText";
// The property a figure's primary panels carry (FigureRoom::setPrimary).
inline constexpr char kPrimaryProperty[] = "posencPrimary";
// The property a text or legend (or a legend's entry) a figure named carries (FigureRoom::setRole).
inline constexpr char kRoleProperty[] = "posencTextRole";
// The property an axis whose label a step folded carries: the label, as it is shown elsewhere.
inline constexpr char kFoldedProperty[] = "posencFoldedLabel";

// The property of a mark a text explains (FigureRoom::setExplainedBy): the text, as a QObject pointer
// looked up among the plot's texts before it is read.
inline constexpr char kExplainedProperty[] = "posencExplainedBy";

// The property of a key given up for labels on its curves (Changes::labelDirectly), and of an
// entry taken out of its key for a label on its curve (Changes::labelSome).
inline constexpr char kLabelledProperty[] = "posencLabelledDirectly";

// The margin group `element` is in on `side`, or none. Read by walking QCustomPlot's hash of them, not
// by QCPLayoutElement::marginGroup: that lookup, inlined into our code, missed a group QCustomPlot
// had just set in about 1 % of Qt's hash seeds (Debian's QCustomPlot 2.1 with Qt 6.4: a panel set in
// a group by setMarginGroup read back none), so a step that gives a panel's margin back, and the
// figure's layout, followed the process's seed (dropout-anatomy at a column: its plots 53.8 % or 49.6 %).
QCPMarginGroup *marginGroupOf(const QCPLayoutElement &element, QCP::MarginSide side);

// How far out of its rect's side `axis` draws its tick labels: past its ticks and their padding.
double tickLabelDistance(const QCPAxis *axis);
// The boxes of the tick labels `axis` draws now within its range, in the order of its ticks
// (QCPAxisPainterPrivate's placeTickLabel: across, centred on the tick; up the side, centred on it
// at the rect's side), each a line of its tick label font high.
QList<QRectF> tickLabelBoxes(const QCPAxis *axis);
// The stretch of `axis` a label `advance` long takes in the row (the column) of its tick labels:
// its advance across; up the side, a line where it is no wider than the column of the tick labels
// drawn, where it stands upright as a symbol is set ("p", not a "p" on its side: setUpright).
double extentAlong(const QCPAxis *axis, const QFont &font, double advance);
// Whether a label `advance` long up the side of `axis` is no wider than the column of its tick labels.
bool holdsUpright(const QCPAxis *axis, double advance);
// `text`, a label up the side of `axis` in the column of its tick labels, set upright there: its
// right end where theirs are, its top at the axis's top (its bottom at the bottom, reversed).
void setUpright(QCPItemText *text, const QCPAxis *axis);

// What the steps of FigureRoom change in a figure, each change recorded as it is made, so that
// all of them are undone at once before the next filling is fitted. Kept with the plot (a child
// object); a figure that never needed a step has none.
class Changes : public QObject
{
public:
    // The plot's changes, made on first use; or those it has, if any.
    static Changes &of(QCustomPlot *plot);
    static Changes *find(const QCustomPlot &plot);
    // The layer elements given up are drawn on: never drawn.
    static QCPLayer *hiddenLayer(QCustomPlot *plot);
    static bool isHidden(const QCPLayerable *layerable);

    // A text as its figure set it, before any step shortened it (and FigureFit wrapped it).
    QString originalText(QCPTextElement *element);
    // Shows `text` in place of it; false when it shows that already.
    bool setText(QCPTextElement *element, const QString &text);
    // A text that takes no room: empty, no height.
    bool dropText(QCPTextElement *element);

    // An axis's label and paddings, an axis rect's or a colorbar's least margins, as before a step.
    void keepAxis(QCPAxis *axis);
    bool setAxisLabel(QCPAxis *axis, const QString &label);
    // A colour bar's label shown as `text` (made for it, the plot's) instead of along the bar;
    // undone, the text is removed. Its axis carries the label (kFoldedProperty) for
    // FigureRoom::shownLabel; the text is hidden with the bar.
    bool foldLabel(QCPColorScale *scale, QCPItemText *text);
    void keepMargins(QCPLayoutElement *element);
    // An axis's label shown as `text` (made for it, the plot's) in the row of its tick labels at
    // the far end of the axis, its tick labels keeping clear of the last `pixels` of it
    // (KeepClearTicker, which stands in for a plain ticker until undone). Its axis carries the
    // label (kFoldedProperty); undone, the text is removed; hidden with the axis's panel.
    bool foldAlongTicks(QCPAxis *axis, QCPItemText *text, double pixels);
    // The axes whose labels along their tick labels left their scale unreadable (KeepsClear::leavesScale):
    // each label back on its axis, in the form it had along them, its tick labels keeping clear of
    // nothing, and not set along them again until undone. False when there was none.
    bool unfoldUnreadable();
    // Whether `axis`'s label went back from along its tick labels (unfoldUnreadable, setAlong).
    bool unfolded(const QCPAxis *axis) const;
    // The axes of panels drawn whose labels stand along their tick labels now (foldAlongTicks), across
    // and up the side, each with the text that shows its label there.
    QList<std::pair<QCPAxis *, QCPItemText *>> labelsAlong() const;
    // Whether `axis` is one of labelsAlong's.
    bool standsAlong(const QCPAxis *axis) const;
    // `axis`'s label along its tick labels back on its axis, as unfoldUnreadable sets it back, its
    // text kept hidden; or, `along` true, along them again as it stood. False where it was so.
    bool setAlong(QCPAxis *axis, bool along);
    // The texts of labels set back on their axes (setAlong) removed: they stay there.
    void dropUnfolded();
    // Whether `axis`'s label stands across above its top end (foldAbove).
    bool foldedAbove(const QCPAxis *axis) const;
    // `element` out of its margin group on `side` until undone: a colour bar whose label stands
    // above it keeps its top where the panels beside it raise theirs (Steps::endLabelsIntoNames).
    bool leaveMarginGroup(QCPLayoutElement *element, QCP::MarginSide side);
    // An axis's label (a y axis's or a colour bar's) shown as `text` (made for it, the plot's)
    // across above the axis's top end; the axis carries the label (kFoldedProperty); undone, the
    // text is removed; hidden with the axis's panel.
    bool foldAbove(QCPAxis *axis, QCPItemText *text);
    // `axis`'s tick numbers written short (KeepsClear::setShortNumbers: "1k" for "1000"), a
    // KeepClearTicker standing in for a plain ticker until undone; false for a ticker of another
    // kind (text, log) or one that does so already.
    bool shortenNumbers(QCPAxis *axis);
    // `axis`'s tick labels keeping clear of its rect's corner at `side` (KeepsClear::keepCornerClear),
    // a KeepClearTicker standing in for a plain ticker until undone; false for a ticker of another
    // kind (text) or one that keeps clear of a corner already.
    bool keepCornerClear(QCPAxis *axis, Qt::Edge side, double beyond);

    // A grid's row and column spacing; a colour bar at most `width` wide (FigureFonts scales it
    // with the text up to that).
    bool setSpacing(QCPLayoutGrid *grid, int rows, int columns);
    // A grid's column stretch factors (EqualPanels).
    bool setColumnStretch(QCPLayoutGrid *grid, const QList<double> &factors);
    // A panel's name that holds its cell no wider than `cell`: its text centred over the cell and
    // reaching past its sides by as much, its margins there that much less than none
    // (EqualPanels::equalize); `cell` as wide as the text or wider, its own margins again.
    bool letOverhang(QCPTextElement *name, double cell);
    // Its column stretch factors as its figure set them, before any step.
    QList<double> givenStretch(const QCPLayoutGrid *grid) const;
    bool narrowBar(QCPColorScale *scale, int width);
    // `axis`'s range grown to `range` (headroom for a key over the plot); undone where the axis
    // still shows it (a view zoomed since keeps its zoom).
    void growRange(QCPAxis *axis, const QCPRange &range);

    // Hides `elements` and what they hold (a legend's entries, an axis rect's plottables and the
    // items clipped to it are drawn only while their parent is) and gives each no room: the height
    // of a row it is alone in (but for elements hidden too), else the width of its column.
    bool hide(const QList<QCPLayoutElement *> &elements);

    // A legend that may take as many columns as it has entries (FigureFit reads "fitUnfold"),
    // with smaller icons and less space between its columns.
    bool unfold(QCPLegend *legend);
    // `axis` gives its tick labels and label to `keeper`, its aligned neighbour's.
    bool share(QCPAxis *axis, QCPAxis *keeper);
    // A panel whose axis gave its labels away leaves its margin group on that side where every
    // panel of the group in line with it (stacked, for a left or right axis; side by side, for a
    // top or bottom one) shows none there either: the margin the labels took goes to the plot,
    // not held as wide as the keeper's. Undone with the sharing.
    bool releaseMargins();
    // Axes whose keeper is now hidden show their labels again, their panels in their margin groups.
    void unshareHidden();
    // A key given up for `texts` (made for it, the plot's: DirectLabels) that name its curves where
    // they are drawn; undone, the texts are removed and the key is back. The key is not set aside.
    bool labelDirectly(QCPLegend *legend, const QList<QCPItemText *> &texts);
    // The entries `items` of `legend` taken out of it for `texts` (made for them, the plot's:
    // DirectLabels::makeSome) that name their curves where they are drawn; the key stays with its
    // other entries. Each item taken carries kLabelledProperty. Undone, the texts are removed and
    // the entries are back in their order.
    bool labelSome(QCPLegend *legend, const QList<QCPAbstractLegendItem *> &items, const QList<QCPItemText *> &texts);
    // The name a step gave `plottable`'s entry in place of its own, its own; else its name.
    QString originalName(const QCPAbstractPlottable *plottable) const;
    // The label a step gave the swatch `item` in place of its own, its own; else its label.
    QString originalLabel(const QCPAbstractLegendItem *item) const;
    // A legend entry's plottable named `name` for now; a swatch entry labelled so.
    bool renameEntry(QCPAbstractPlottable *plottable, const QString &name);
    bool relabelSwatch(QCPAbstractLegendItem *item, const QString &label);
    // An item drawn over the data (a label) hidden.
    bool hideItem(QCPAbstractItem *item);
    // An axis's text tick labels shown as `labels` for now.
    bool relabelTicks(QCPAxis *axis, const QMap<double, QString> &labels);
    // A legend moved from its row into `rect`'s inset at `corner`, on a white ground, its entries
    // wrapped at `wrap` (QCPLayoutGrid::setWrap) and no longer unfolded.
    void moveInside(QCPLegend *legend, QCPAxisRect *rect, Qt::Alignment corner, int wrap);
    // `scale`, a bar down the side of its panels, laid across beside `legend` in the legend's row
    // (a strip holding both in its cell), the key no wider than its entries, the bar the rest; or,
    // `ownRow`, in a row of its own over the key's (the strip's two rows), as wide as the key's; the
    // bar's margin groups left (its axis then another of its axis rect's: QCPColorScale::setType);
    // undone, each back in its cell, the bar's label on its axis as it was.
    bool barBeside(QCPColorScale *scale, QCPLegend *legend, bool ownRow = false);

    // Undoes every change, latest first where they touch the same thing; what the figure itself
    // set since (a new title, a new legend entry name) stays.
    void undo();
    // The title as its figure set it, if a step changed it.
    std::optional<QString> originalOf(const QCPTextElement *element) const;
    // The texts shown shortened or not at all, whole: with the names of the panels given up and the
    // entries of the legends that went.
    QStringList setAside(const QCPTextElement *title) const;

private:
    explicit Changes(QCustomPlot *plot);

    struct Text
    {
        QPointer<QCPTextElement> element;
        QString original;
        QString shown;
        QSize minimum;
        QSize maximum;
        QMargins margins;
        QCP::MarginSides autoMargins;
    };
    struct Axis
    {
        QPointer<QCPAxis> axis;
        QString label;
        QString shown;
        int tickLabelPadding = 0;
        int labelPadding = 0;
        int padding = 0;
    };
    struct Element
    {
        QPointer<QCPLayoutElement> element;
        QCPLayer *layer = nullptr;
        QSize minimum;
        QSize maximum;
        QCP::MarginSides autoMargins;
        QMargins margins;
    };
    // A colorbar given up: it sets its own width from its bar and axis at every layout.
    struct Bar
    {
        QPointer<QCPColorScale> scale;
        int width = 0;
        bool tickLabels = true;
        QString label;
    };
    struct Shared
    {
        QPointer<QCPAxis> axis;
        bool tickLabels = true;
        QString label;
        QPointer<QCPAxis> keeper;
        // The margin group its panel left on the axis's side (releaseMargins), if it did.
        QPointer<QCPMarginGroup> group;
    };
    struct Entry
    {
        QPointer<QCPAbstractPlottable> plottable;
        QString name;
        QString shown;
    };
    struct Swatch
    {
        QPointer<QCPAbstractLegendItem> item;
        QString label;
        QString shown;
    };
    struct Ticks
    {
        QSharedPointer<QCPAxisTickerText> ticker;
        QMap<double, QString> labels;
        QMap<double, QString> shown;
    };
    struct Moved
    {
        QPointer<QCPLegend> legend;
        QPointer<QCPLayoutGrid> grid;
        int row = 0;
        int column = 0;
        QBrush brush;
        int wrap = 0;
        // FigureFit's and unfold's properties of the legend, as they were.
        QVariant wished, set, unfolded;
    };

    // Legend entries of the plottables of hidden rects taken out of their legend, and the order
    // of its entries before.
    struct Taken
    {
        QPointer<QCPLegend> legend;
        QList<QPointer<QCPAbstractLegendItem>> order;
        QList<QPointer<QCPAbstractLegendItem>> taken;
    };
    // Returns the legends left with no entry.
    QList<QCPLayoutElement *> takeEntries(const QList<QCPAxisRect *> &rects);
    void putBack(const Taken &taken);
    // An entry taken out of `legend`, hidden, its plottable remembered weakly: a figure that deletes
    // the plottable meanwhile (a new filling) deletes the entries in its legends, not one taken out.
    static void takeOut(QCPLegend *legend, QCPAbstractLegendItem *item);
    // Whether the plottable of an entry taken out was deleted since (the entry names nothing).
    static bool namesNothing(const QCPAbstractLegendItem *item);

    // The grids that held `hidden` and now show one column of elements at most lay them out
    // without spacing between columns.
    void closeUpAround(const QList<QCPLayoutElement *> &hidden);
    // `element`, given up or dropped alone in its row (`across` horizontal) or its column, takes
    // none of its height (width) there where its least size then allows none, else a unit.
    static void takeNoRoom(QCPLayoutElement *element, Qt::Orientation across);
    // The folded labels of panels now hidden hidden too; every fold undone.
    void hideFoldsOfHidden();
    // The marks whose explaining text (FigureRoom::setExplainedBy) is no longer drawn hidden too.
    void hideUnexplained();
    void undoMarks();
    // `layerable` given up: drawn on the hidden layer, the drawing order of the layer it leaves
    // kept for restoreLayers, the first time a step takes anything off that layer.
    void toHidden(QCPLayerable *layerable);
    // Every item given up back on its layer, and each layer a step took anything off back in its
    // drawing order: moved back, a layerable is drawn last of its layer (QCPLayerable::moveToLayer
    // appends it), over what it was drawn under. A key's white ground covered the entries it had
    // held (similarity's key, made compact then large again, showed only its last entry), a band
    // a curve. What the figure put on the layer since is drawn after, in its order.
    void restoreLayers();
    // A panel that left its margin group (releaseMargins) back in it.
    static void rejoin(Shared &change);
    void undoFolds();
    void undoRanges();
    void undoGroups();

    Text &textOf(QCPTextElement *element);
    Axis &axisOf(QCPAxis *axis);

    QCustomPlot *m_plot;
    std::vector<Text> m_texts;
    std::vector<Axis> m_axes;
    std::vector<std::pair<QPointer<QCPLayoutElement>, QMargins>> m_margins;
    std::vector<Element> m_elements;
    std::vector<std::pair<QPointer<QCPAbstractItem>, QCPLayer *>> m_items;
    std::vector<std::pair<QPointer<QCPLayerable>, QCPLayer *>> m_marks; // hidden with their texts
    // The layers a step took anything off, with their children in drawing order before it did.
    std::vector<std::pair<QPointer<QCPLayer>, QList<QPointer<QCPLayerable>>>> m_orders;
    struct Unfolded
    {
        QPointer<QCPLegend> legend;
        QSize icon;
        int iconTextPadding = 0;
        int columnSpacing = 0;
        int rowSpacing = 0;
        QMargins margins;
    };
    std::vector<Unfolded> m_unfolded;
    std::vector<Shared> m_shared;
    std::vector<Entry> m_entries;
    std::vector<Moved> m_moved;
    // A bar laid across beside a key, or over it (barBeside): where each stood, and the bar as it was.
    struct Strip
    {
        QPointer<QCPColorScale> scale;
        QPointer<QCPLegend> legend;
        QPointer<QCPLayoutGrid> strip;
        // What the strip took the place of: the key, or the row it stands in (ownRow).
        QPointer<QCPLayoutElement> held;
        QPointer<QCPLayoutGrid> scaleGrid, heldGrid;
        int scaleRow = 0, scaleColumn = 0, heldRow = 0, heldColumn = 0;
        QCPAxis::AxisType type = QCPAxis::atRight;
        int barWidth = 0; // as it was down the side (FigureFonts sets it again at every fitting)
        // Its axis across's scale and ticks (in, sub-ticks in, sub-ticks drawn), as they were.
        QCPAxis::ScaleType acrossScale = QCPAxis::stLinear;
        std::array<int, 3> acrossTicks {};
        QSize legendMaximum;
        QList<double> scaleStretch; // its grid's column stretch factors
        QString label; // the bar's axis's, which QCPColorScale::setType hands to the axis it draws
        std::array<QPointer<QCPMarginGroup>, 4> groups;
    };
    std::vector<Strip> m_strips;
    void undoStrips();
    std::vector<Bar> m_bars;
    std::vector<Swatch> m_swatches;
    std::vector<Ticks> m_ticks;
    std::vector<Taken> m_taken;
    struct Spacing
    {
        QPointer<QCPLayoutGrid> grid;
        int rows = 0;
        int columns = 0;
        QList<double> stretch;
    };
    std::vector<Spacing> m_spacings;
    std::vector<QPointer<QCPColorScale>> m_narrowed;
    struct Range
    {
        QPointer<QCPAxis> axis;
        QCPRange given;
        QCPRange grown;
    };
    std::vector<Range> m_ranges;
    struct Group
    {
        QPointer<QCPLayoutElement> element;
        QCP::MarginSide side = QCP::msTop;
        QPointer<QCPMarginGroup> group;
    };
    std::vector<Group> m_groups;
    std::vector<std::pair<QPointer<QCPColorScale>, QPointer<QCPItemText>>> m_folded;
    struct Along
    {
        QPointer<QCPAxis> axis;
        QPointer<QCPItemText> text;
        QSharedPointer<QCPAxisTicker> ticker; // the axis's own
        QSharedPointer<QCPAxisTicker> standIn; // the one that stood in for it, if any
        bool undone = false; // its label went back to its axis (unfoldUnreadable, setAlong)
        double pixels = 0.0; // what its tick labels keep clear of, along them
    };
    std::vector<Along> m_along;
    // Axes whose tick numbers are written short: the ticker that does so, and the plain one it
    // stands in for, if any.
    struct Short
    {
        QPointer<QCPAxis> axis;
        QSharedPointer<QCPAxisTicker> ticker; // the axis's own
        QSharedPointer<QCPAxisTicker> standIn;
    };
    std::vector<Short> m_short;
    // Axes whose tick labels keep clear of a corner (keepCornerClear), kept as m_short's are.
    std::vector<Short> m_corners;
    // Keys given up for labels on their curves, and the labels.
    std::vector<std::pair<QPointer<QCPLegend>, QList<QPointer<QCPItemText>>>> m_labelled;
};

} // namespace posenc::FigureRoom
