#pragma once

#include "FigureDescriptor.h"
#include "FigureLayoutLoop.h"
#include "FigureSize.h"

#include <QStringList>

#include <memory>
#include <optional>

namespace posenc {

// How an exported figure is dressed: a title of the user's instead of the figure's, and the
// size of the axis labels, every other text scaled with it.
struct FigureStyle
{
    static constexpr double kBaseFontPointSize = FigureFonts::kBasePointSize;
    static constexpr double kMinFontPointSize = 4.0;
    static constexpr double kMaxFontPointSize = 36.0;

    std::optional<QString> title;
    double fontPointSize = kBaseFontPointSize;
    // The panels, by words of their titles or axis labels, that no room step gives up (KeptPanels):
    // on a lesson's slide, those its text refers to.
    QStringList keptPanels;
    // What the page states above the figure, its parts ("Qwen2.5 7B Instruct", "yarn, factor 4,
    // original 32,768": a lesson page's model line): parts of the figure's title that read the same
    // are left out of it (withoutSaid), so that the page says each once.
    QStringList saidAbove;

    // A font size outside [4, 36] points, under the key "font-size".
    std::optional<ParamError> check() const;
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
    // its own controls give (the command line's --size and --font-size, the dialog's fields).
    QString message;
};

// A figure built for a file at a size (docs/ARCHITECTURE.md, "Exporting"): the descriptor's
// layout in an offscreen QCustomPlot at the size's layout units, fonts scaled, filled with
// data computed for that layout, fitted to little room and filled again while filling moved the
// axes, as a view of the window is (FigureLayoutLoop); or refused with the least size it needs.
//
// The computing is the caller's: request() gives what to compute next, deliver() takes its
// result. `posenc export` computes in its own thread (run()); the window on its scheduler.
// The plot lives on the GUI thread.
class FigureBuild
{
public:
    // Axes may be squeezed this small (layout units) before a figure is too small to draw.
    static constexpr int kMinAxisSide = 24;
    // `title` ("  ·  " between its parts) without the parts `said` holds, the first kept (the
    // figure's subject): "Does RoPE decay with distance?  ·  yarn, …  ·  θ = 10⁶" without "yarn, …".
    static QString withoutSaid(const QString &title, const QStringList &said);
    // The plots of a figure: its axis rects, colour scales aside.
    static QList<QCPAxisRect *> plotRects(const QCustomPlot &plot);
    // The least sizes of a figure's axes, a view's as an export's, so that both lay out alike:
    // kMinAxisSide, and larger for the axes read as pictures.
    static void setLeastSizes(const QCustomPlot &plot, const FigurePlot &figurePlot);

    // Precondition: figure.check() passed for the engine's parameters and `state`.
    FigureBuild(const FigureDescriptor &figure, std::shared_ptr<const Engine> engine, FigureState state,
                FigureStyle style, FigureSize size);
    ~FigureBuild();

    // The next data to compute (on `threads`), or nothing once the figure is done: the figure's
    // preview first where it has one, as a view shows it, then Detail::Full. The preview settles the
    // layout its text takes, so that the full data, past 10 s at d 2^20 by L 2^24, is computed
    // once for it rather than again for every move of the axes its filling makes.
    std::optional<FigureRequest> request(int threads);
    // Fills the figure with the result of request() and lays it out again.
    void deliver(const FigureResult &result);
    // Why the finished figure cannot be used; nothing when it can.
    const std::optional<FigureError> &error() const { return m_error; }

    // Builds the figure computing in the calling thread; false when cancelled.
    bool run(int threads = 0, const std::atomic<bool> *cancel = nullptr);

    QCustomPlot *plot() const { return m_plot.get(); }
    const FigureSize &size() const { return m_size; }
    const FigureDescriptor &figure() const { return m_figure; }
    // The drawing in plot(): what a view's hover asks.
    const FigurePlot &figurePlot() const { return *m_figurePlot; }

private:
    void finish();
    // The figure's drawing built in `plot`, its view set.
    std::unique_ptr<FigurePlot> setUp(QCustomPlot *plot) const;

    const FigureDescriptor &m_figure;
    std::shared_ptr<const Engine> m_engine;
    FigureState m_state;
    FigureStyle m_style;
    FigureSize m_size;
    std::unique_ptr<QCustomPlot> m_plot;
    std::unique_ptr<FigurePlot> m_figurePlot;
    std::shared_ptr<const FigureData> m_data; // the last filled
    FigureLayoutLoop m_layout;
    bool m_done = false;
    bool m_previewed = false; // the preview has been asked for, or the figure has none
    Detail m_asked = Detail::Full; // what the last request asked for
    std::optional<FigureError> m_error;
};

} // namespace posenc
