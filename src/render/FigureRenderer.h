#pragma once

#include "Colormaps.h"
#include "FigureSize.h"

#include "core/Engine.h"

#include "QCustomPlot.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace posenc {

// The figures of the window's views, as posenc export names them. Learned is the "Learned vs
// sinusoidal" view: it needs a loaded matrix (Params::embeddings) read as a position table.
enum class FigureKind { Heatmap, Curves, Magnitudes, Dropout, Learned };

namespace FigureKinds {
QStringList names();
QString name(FigureKind kind);
std::optional<FigureKind> fromName(const QString &name);
} // namespace FigureKinds

// What a figure shows besides the parameters; every default is what the window's view shows
// when it opens.
struct FigureOptions
{
    FigureKind kind = FigureKind::Heatmap;
    Quantity quantity = Quantity::Pe; // of the heatmap
    std::optional<Colormap> colormap; // heatmap and dropout; the quantity's own map otherwise
    std::optional<QString> title; // replaces the figure's title
    double fontPointSize = kBaseFontPointSize; // every text scales with it
    // Positions [first, end) in view (heatmap, curves, dropout); the view's default otherwise.
    std::optional<std::pair<std::int64_t, std::int64_t>> positions;
    // Curves: the columns drawn; heatmap and dropout: the columns in view (lowest to highest).
    std::vector<std::int64_t> columns;
    // A view as the window's axes hold it, in table units, continuous (a zoomed view shows
    // parts of cells): when set, it replaces `positions` (heatmap and dropout rows, the curves'
    // x axis) and the columns in view (heatmap and dropout), so that a zoomed view is
    // reproduced exactly. Each must be finite with lower < upper.
    std::optional<QCPRange> positionView;
    std::optional<QCPRange> columnView;

    static constexpr double kBaseFontPointSize = 9.0; // PlotStyle's axis labels
};

// Why a figure could not be built.
struct FigureError
{
    enum Kind {
        TooSmall, // its text and legends do not fit the size asked for: usage
        OverBudget, // the engine refused the data within the memory budget
    };
    Kind kind;
    // TooSmall states the least size that fits, naming no option: each caller adds the advice
    // its own controls give (the CLI's --size and --font-size, the dialog's fields).
    QString message;
};

// Builds a figure with the window's figure builders (src/render) into a QCustomPlot laid out at
// a size, with its data computed at the resolution of the output, ready to be drawn by
// FigureExporter. What the window shows at that size is what comes out.
class FigureRenderer
{
public:
    // The quantities the heatmap view offers.
    static QList<Quantity> heatmapQuantities();

    // The error that refuses the figure (a column or position outside the table, an option the
    // figure does not take): nothing is built.
    static std::optional<QString> check(const Engine &engine, const FigureOptions &options);

    // Fills `plot` (emptied first). Nothing when done; otherwise the engine's refusal (over the
    // memory budget, with cells and GiB), or the smallest size the figure's text fits in.
    // Precondition: check() passed.
    static std::optional<FigureError> build(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                            const FigureSize &size, const ComputeOptions &compute = {});
};

} // namespace posenc
