#pragma once

#include "io/Lesson.h"
#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/FigureSize.h"
#include "render/data/FigureState.h"

#include <QList>
#include <QSize>
#include <QTextStream>

#include <atomic>
#include <memory>
#include <optional>

namespace posenc {
class Engine;
}

// posenc export --lesson NAME all: the lesson's page (docs/ARCHITECTURE.md, Exporting): the
// figures its window shows and its text names, and the grid that leaves its main figure the most.
namespace posenc::LessonPage {

// The figures of the lesson's page read for `model` (Lesson::slideFigures), the main one first; of
// those drawn for other families only (rope-score, for a sinusoidal preset), none: they are named
// on `err`.
QList<const FigureDescriptor *> figures(const Lesson &lesson, const LessonModel &model, const Params &params,
                                        QTextStream &err);

// The grid (columns x rows) on `page` on which the main figure, the first of `figures`, draws the
// most of its panels, then all of them the most, the page's usual grid (FigurePage::grid) among
// equals: packing's two tables of distances side by side, the panel its text calls the right one,
// need the page's width. Each figure is built at its cell's size on each grid; nothing when
// `cancel` stops it.
std::optional<QSize> grid(const QList<const FigureDescriptor *> &figures, const QList<FigureState> &states,
                          const std::shared_ptr<const Engine> &engine, const FigureStyle &style,
                          const FigureSize &page, int threads, const std::atomic<bool> *cancel);

} // namespace posenc::LessonPage
