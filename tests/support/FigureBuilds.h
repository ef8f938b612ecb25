#pragma once

#include "render/FigureBuild.h"
#include "render/FigureRegistry.h"
#include "render/FigureRoom.h"
#include "render/FigureSize.h"
#include "render/KeptPanels.h"
#include "render/StackedPanels.h"

#include <QtTest>

#include <limits>
#include <memory>

// Figures built headless as `posenc export` builds them, computing in the test's thread.
namespace FigureBuilds {

inline const posenc::FigureDescriptor &figure(const QString &name)
{
    const posenc::FigureDescriptor *found = posenc::FigureRegistry::find(name);
    if (!found)
        qFatal("no figure named %s", qPrintable(name));
    return *found;
}

// The figure `name` of `params` in `state`, laid out and filled at `size`; the build holds the plot.
inline std::unique_ptr<posenc::FigureBuild> build(const QString &name, const posenc::Params &params,
                                                  const posenc::FigureSize &size, const posenc::FigureState &state = {},
                                                  const posenc::FigureStyle &style = {})
{
    auto built = std::make_unique<posenc::FigureBuild>(figure(name), std::make_shared<const posenc::Engine>(params),
                                                       state, style, size);
    built->run(1);
    return built;
}

// `asked` grown for the figure's panels as posenc export grows a paper's page
// (FigureSizes::grownForPanels), each height weighed by the figure built whole there: its panels
// left out and whether it fits.
inline posenc::FigureSize grown(const QString &name, const posenc::Params &params, const posenc::FigureSize &asked,
                                const posenc::FigureStyle &style)
{
    using namespace posenc;
    return *FigureSizes::grownForPanels(asked, [&](const FigureSize &page) -> std::optional<FigureSizes::PanelsOnPage> {
        const auto built = build(name, params, page, {}, style);
        if (built->error())
            return FigureSizes::PanelsOnPage {std::numeric_limits<int>::max(), false};
        return FigureSizes::PanelsOnPage {KeptPanels::leftOut(*built->plot()).givenUp,
                                          StackedPanels::fitsPage(*built->plot(), style.fontPointSize)};
    });
}

// The texts of a figure's layout (titles, captions), in layout order.
inline QStringList texts(const QCustomPlot &plot)
{
    QStringList list;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            list.append(text->text());
    return list;
}

// What the figure says in its texts and, for those little room shortened or gave up, in its
// file's metadata (FigureRoom::fullTitle, setAside), each text's lines and statements joined by
// spaces: what a page short of room keeps of it.
inline QString saidOrSetAside(const QCustomPlot &plot)
{
    using namespace Qt::StringLiterals;
    QStringList all = texts(plot);
    all.append(posenc::FigureRoom::fullTitle(plot));
    all.append(posenc::FigureRoom::setAside(plot));
    return all.join(u" "_s).replace(u'\n', u' ').replace(u"  ·  "_s, u" "_s);
}

// What the built figure's hover says of the cell (row, column) of its picture `panel`, hovered at
// the cell's centre: the axes' x is the column, y the row, as a heatmap's.
inline std::optional<posenc::HoverPoint> hoverCell(const posenc::FigureBuild &built, int panel, std::int64_t row,
                                                   std::int64_t column, const posenc::Engine &engine)
{
    const QList<QCPAxisRect *> rects = built.figurePlot().pictureRects();
    if (panel >= rects.size())
        return std::nullopt;
    QCPAxisRect *rect = rects[panel];
    const QPointF pixel(rect->axis(QCPAxis::atBottom)->coordToPixel(double(column)),
                        rect->axis(QCPAxis::atLeft)->coordToPixel(double(row)));
    return built.figurePlot().hoverAt(pixel, engine);
}

// Why the figure was not built, or "" when it was.
inline QString errorOf(const posenc::FigureBuild &built)
{
    return built.error() ? built.error()->message : QString();
}

} // namespace FigureBuilds
