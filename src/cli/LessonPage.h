#pragma once

#include "io/Lesson.h"
#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/FigureExporter.h"
#include "render/FigureSize.h"
#include "render/data/FigureState.h"

#include <QByteArray>
#include <QList>
#include <QRect>
#include <QSize>
#include <QStringList>
#include <QTextStream>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace posenc {
class Engine;
}

// posenc export --lesson NAME all: the lesson's page (docs/ARCHITECTURE.md, Exporting): the
// figures its window shows and its text names, the panels its text refers to kept, and the grid
// that leaves its main figure the most.
namespace posenc::LessonPage {

// The figures of the lesson's page read for `model` (Lesson::slideFigures; without `all`, those of
// its own export), the main one first; of
// those drawn for other families only (rope-score, for a sinusoidal preset), none: they are named
// on `err`. Its own export on a page narrower than kOwnPageWidth layout units (a paper's column)
// is its main figure alone: the others' keys and titles would not read there.
inline constexpr int kOwnPageWidth = 600;
QList<const FigureDescriptor *> figures(const Lesson &lesson, const LessonModel &model, const Params &params,
                                        QTextStream &err, bool all = true, QSize page = {});

// The state of the lesson's view that shows `figure` (its main view first), or the figure's
// defaults when no view of the lesson shows it; a table of another size than the lesson's
// (`params`, the model's) shown whole, as the window would.
FigureState state(const Lesson &lesson, const QString &figure, const QString &modelConfig, const Params &params);

// `style` for `figure` on the lesson's page: the panels its text for `model` refers to kept
// (Lesson::keptPanels).
FigureStyle styleOf(const Lesson &lesson, const LessonModel &model, const FigureDescriptor &figure,
                    const FigureStyle &style);

// Where a page's figures go: the grid (columns x rows) and how many times as wide as each other
// column the main figure's is (as high as each other row, in a grid of one column).
struct Layout
{
    QSize shape;
    double lead = 1.0;
};
// The main figure's shares tried where the even grids leave panels or titles out: of two figures'
// page three fifths, two thirds, three quarters and four fifths, for a main figure of many panels
// beside a figure of few (dropout-on-sum's ten heatmaps beside the magnitudes view).
inline constexpr std::array<double, 4> kLeads {1.5, 2.0, 3.0, 4.0};

// The line under a lesson's slide's titles that names the model it is read for: the model's name
// ("Qwen2.5 7B Instruct"), with its RoPE scaling where it scales ("yarn, factor 4, original 32,768"),
// from the LessonModel its text names too; empty where the parameters are no named model's (a flag
// changed them), whose text says "this model". Where one of `figures` states a dropout p that is
// not the model's (LessonModels::dropoutOwner), the line says whose it is ("p = 0.1, the
// lesson's"), in the room a slide's line has to its sides, and build() takes it from the figures'
// titles, where a 16:9 slide's dropout figure gave it up for room.
QString subtitle(const LessonModel &model, const QList<const FigureDescriptor *> &figures = {});

// Whose p the dropout figures state for `model` (LessonModels::dropoutOwner, as the window's
// lessons do) set on `state` where `figure` states a dropout p (its option FigureText::kDropoutOwner).
void markDropoutOwner(FigureState &state, const FigureDescriptor &figure, const LessonModel &model);

// A page of figures, built.
struct Page
{
    FigureSize size; // Request::page, grown for its panels where it may (FigureSizes::grownForPanels)
    QSize shape; // columns x rows
    double lead = 1.0; // Layout::lead
    QList<QRect> cells; // each figure's, in its order
    std::vector<std::unique_ptr<FigureBuild>> builds; // each built at its cell's size
    // The subtitle's line across the page's top (Request::subtitle), and its cell; none without one.
    std::unique_ptr<QCustomPlot> subtitle;
    QRect subtitleCell;
};

// What builds a page: its figures, each with its state and style, on `page`.
struct Request
{
    QList<const FigureDescriptor *> figures;
    QList<FigureState> states;
    QList<FigureStyle> styles;
    std::shared_ptr<const Engine> engine;
    FigureSize page;
    int threads = 0;
    // Whether to choose the grid (a lesson's page): else the page's usual grid (FigurePage::grid).
    bool chooseGrid = false;
    // A line across the page's top, above the figures' cells (subtitle()); none where empty.
    QString subtitle;
    // Told which figure is drawn next ("the document-distance figure (1 of 2)").
    std::function<void(const QString &)> stage;
};

// The figures built on the page. Each is laid out once at each size a candidate grid gives it, on
// its preview where it has one (the grids share sizes), and its full data computed only on the
// grid chosen. A lesson's page goes on the grid (columns x rows) where the main figure, the first,
// draws the most of its panels, then its smallest plot is the largest (its shorter side), then all
// figures draw the most panels, the usual grid among equals: packing's two tables of distances
// side by side, the panel its text calls the right one, need the page's width. Where every such
// grid leaves panels or titles out for room, the grid and main figure's share (kLeads) that leave
// out the fewest, then squeeze no figure's smallest plot the most, if they leave out fewer and draw
// as many of the main figure's panels. One figure takes the whole page. Nothing when `cancel`
// stops it.
std::optional<Page> build(const Request &request, const std::atomic<bool> *cancel);

// The bytes of a page of several figures: each in its cell; the file's title and description theirs.
QByteArray bytes(const Page &page, const FigureSize &size, FigureFormat format, const FigureStyle &style);

// The figures' panels a page short of room left out, a line each ("dropout-compare: 3 of its 10
// panels left out ..."), as the figure's title would say where it has not gone too.
QStringList panelsLeftOut(const Page &page, const QList<const FigureDescriptor *> &figures);

// The layout build() chooses for a lesson's page.
std::optional<Layout> layout(const Request &request, const std::atomic<bool> *cancel);

} // namespace posenc::LessonPage
