#pragma once

#include "Detail.h"
#include "FigureOption.h"
#include "FigureState.h"

#include "core/Engine.h"
#include "core/TableRequest.h"

#include <QList>
#include <QPoint>
#include <QSize>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace posenc {

// A panel of a laid-out figure, as its data is computed for it: the size of its axis rect, the
// output pixels per layout unit (the screen's device pixel ratio, or an export's scale) and
// the ranges its axes show.
struct PanelExtent
{
    QSize size; // layout units
    double pixelRatio = 1.0;
    ViewRange x;
    ViewRange y;
    // Where the axis rect's top left is in the plot (layout units), for what the drawing makes of
    // the data on the job's thread (HeatmapPanel::prepareCoverage). The data never reads it: a
    // panel that moved and kept its size and ranges is the same extent.
    QPoint at {};

    // Output pixels of the axis rect, at least one each way.
    QSize pixels() const;

    friend bool operator==(const PanelExtent &a, const PanelExtent &b)
    {
        return a.size == b.size && a.pixelRatio == b.pixelRatio && a.x == b.x && a.y == b.y;
    }
};

// What a figure's data is computed from: the parameters (through their engine), the figure's
// state, and its panels as laid out.
struct FigureRequest
{
    std::shared_ptr<const Engine> engine;
    FigureState state;
    QList<PanelExtent> panels; // in the order the figure's drawing gives them
    Detail detail = Detail::Full;
    // Of a figure computed coarse to fine (passCount() > 1): the pass of Detail::Full to compute,
    // each but the last a labelled preview; -1 for the figure's own choice (its last pass).
    int pass = -1;
    int threads = 1; // worker threads of the engine: 1 in a view's own job, 0 for all cores
};

// A figure's data: what its model computes on a worker thread and its drawing fills a plot with.
struct FigureData
{
    virtual ~FigureData();
};

// What a computation gives: the data, or the engine's refusal (over the memory budget, with
// cells and GiB); neither when it was cancelled.
struct FigureResult
{
    std::shared_ptr<const FigureData> data;
    std::optional<QString> refusal;

    bool isCancelled() const { return !data && !refusal; }
};

// The widget-free half of a figure's descriptor (docs/ARCHITECTURE.md, "One descriptor per
// figure"): its name, its options and their validation, the quantities it is computed from, and
// its data. Immutable, so one instance serves every thread.
class FigureModel
{
public:
    virtual ~FigureModel();

    virtual QString name() const = 0; // the command line's FIGURE, a session's "figure"
    virtual QString title() const = 0; // the window's name for it: "Heatmap"
    virtual QString summary() const = 0; // one line for --help
    // The options the figure itself defines (options() adds the shared ones).
    virtual QList<FigureOption> ownOptions() const { return {}; }
    // Every option the figure takes: its own, then those of every figure that draws a colour map
    // (ViewOptions::mapOptions) where it draws one. The same for any parameters, made once: the
    // option bars read them at every change of parameters, each lookup of one made them all again.
    QList<FigureOption> options() const;
    // Whether the figure draws a colour map (a heatmap, a bias, a mask): it then takes
    // --cell-numbers and, unless it has its own, --colormap (MapOptions applies them).
    virtual bool drawsColourMaps() const { return false; }
    // Whether the figure reads --colormap itself (its own option of that key).
    bool choosesColormap() const;
    // The encoding families the figure applies to (docs/ARCHITECTURE.md, "Encoding families"):
    // every family, or those whose position term it shows (the sinusoid's closed forms).
    virtual QList<Encoding> families() const;
    bool appliesTo(const Params &params) const { return families().contains(params.encoding); }
    std::optional<FigureOption> option(const QString &key) const;
    // What option `key` reads as when it is not given, for these parameters (a placeholder).
    virtual QString defaultText(const QString &key, const Params &params) const;

    // The quantities the figure is computed from, for `state`: a change of a parameter none of
    // them reads (ParamInputs) leaves the figure as it is.
    virtual QList<Quantity> inputs(const FigureState &state) const = 0;
    // The parameter keys the figure reads, for `state`: a change of none of them leaves it as it is
    // (FigureView::setParams). By default every key its inputs' tables read (QuantitySpec::reads); a
    // figure that reads fewer of them says which, and its test checks that no other key moves its data.
    virtual QStringList reads(const FigureState &state) const;
    // What the figure reads at `params`: the tables it shows there and the keys they read. A change
    // of parameters that leaves the tables as they were and changes none of the keys leaves the
    // figure as it is (FigureView::setParams). By default inputs(state) and reads(state), whatever
    // the parameters; a figure whose table the parameters choose (the heatmap's natural quantity)
    // names the one they choose, so a change of s leaves the sinusoid's heatmap alone.
    struct Reading
    {
        QList<Quantity> tables;
        QStringList keys;
    };
    virtual Reading readingAt(const FigureState &state, const Params &params) const;

    // Every problem with `state` for `params`, each naming its option and the allowed range: an
    // option the figure does not take, a choice it does not list, a column outside the table.
    QList<ParamError> check(const Params &params, const FigureState &state) const;

    // Whether a quick preview is worth drawing before the full data (Detail).
    virtual bool hasPreview(const FigureRequest &request) const;
    // The passes of Detail::Full a view shows one after the other, coarse to fine, where the
    // full data takes long (docs/ARCHITECTURE.md, "Exact at any size"); 1 for most figures.
    virtual int passCount(const FigureRequest &request) const;

    // The data of `request`, on any thread; stops early when `cancel` is set. Precondition:
    // check() passed for the request's parameters and state.
    FigureResult compute(const FigureRequest &request, const std::atomic<bool> &cancel) const;

    // What of `panels` (as a request gives them) the figure's data is computed from: a new layout
    // that changes none of it (a title that wrapped moved the axes down) needs no new data
    // (FigureView). Every panel whole, unless the figure reads less.
    virtual QList<PanelExtent> extentsRead(const QList<PanelExtent> &panels) const;

    // The table of what the figure shows in `state` (Export data), if it has one.
    virtual std::optional<TableRequest> table(const Params &params, const FigureState &state) const;

    // Computations made so far in this process, and those made on the thread of the application
    // object: the window's promise that none of them blocks its event loop can be checked.
    struct Computations
    {
        std::int64_t total = 0;
        std::int64_t onApplicationThread = 0;
    };
    static Computations computations();

protected:
    // extentsRead() of a figure computed for the columns of pixels of its first panel alone (a
    // value, or a least and a most, for each): that panel's x range, width and pixel ratio.
    static QList<PanelExtent> firstPanelColumns(const QList<PanelExtent> &panels);

    // The figure's own checks of its options, after the generic ones passed.
    virtual QList<ParamError> checkOptions(const Params &params, const FigureState &state) const;
    virtual FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const = 0;

private:
    struct MadeOptions
    {
        QList<FigureOption> all;
        bool choosesColormap = false;
    };
    const MadeOptions &madeOptions() const;

    mutable std::once_flag m_optionsMade;
    mutable MadeOptions m_options;
};

} // namespace posenc
