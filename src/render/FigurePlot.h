#pragma once

#include "HoverPoint.h"
#include "QCustomPlot.h"

#include "data/FigureModel.h"
#include "data/PreparedDrawing.h"

#include <QList>
#include <QPointF>

#include <memory>
#include <optional>

namespace posenc {

// An axis whose range is part of a figure's view state, under `key` ("positions", "columns").
struct ViewAxis
{
    QString key;
    QCPAxis *axis = nullptr;
};

// Where positions run in an axis rect, for the window's linked cursor: a horizontal line at a
// position when positions run down the rect, a vertical one when they run across.
struct PositionAxis
{
    QCPAxisRect *rect = nullptr;
    bool horizontal = false;
};

// A figure built into a QCustomPlot by its descriptor: the layout made once, filled with each
// new data on the GUI thread, and what the window asks of it (the view's axes, the panels to
// compute for, what is under the mouse). Its figure builder does the drawing.
class FigurePlot
{
public:
    virtual ~FigurePlot();

    // The axes whose ranges are the figure's view, by the key its state keeps each under.
    virtual QList<ViewAxis> viewAxes() const;
    // Shows the figure's default view for `params` and the options of `state` (a first look,
    // Home, a table of another size).
    virtual void showDefaultView(const Params &params, const FigureState &state);
    // The panels the data is computed for, at `pixelRatio` output pixels per layout unit.
    virtual QList<PanelExtent> panels(double pixelRatio) const = 0;
    // Draws `data`, computed for these panels; kept for hoverAt().
    virtual void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) = 0;
    // What FigureDescriptor::prepare made of the data the next fill() draws, if anything: a
    // drawing adopts what was made of that data, and makes it itself otherwise (an export).
    void setPrepared(std::shared_ptr<const PreparedDrawing> prepared) { m_prepared = std::move(prepared); }
    // Small figures (PlotStyle::isCompact) shorten their legends; the next fill draws so.
    virtual void setCompact(bool compact);
    // Where positions run, for the linked cursor.
    virtual QList<PositionAxis> positionAxes() const;
    // What is under `pixel` (the plot's coordinates), from the data drawn or one cell of the engine.
    virtual std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const;
    // Axis rects read as pictures, which must stay larger than a plot's axes may be squeezed.
    virtual QList<QCPAxisRect *> pictureRects() const;
    // Whether the mouse zooms and pans the figure.
    virtual bool isInteractive() const;
    // What the window says beside the figure and a file never shows, a fact of the screen's
    // pixels rather than of the data: "each pixel averages ~3.4 positions"; and first that the
    // data drawn is a preview ("preview (25% of rows)"), which its title says too where room
    // leaves it one (a file past the cap of every figure is a preview, and says so). Empty when
    // none. Never given up for room. Its shorter forms for a narrow view follow the whole,
    // separated by FigureText::kLengthVariants (Qt's length variants).
    const QString &screenNote() const { return m_screenNote; }

protected:
    // `preview`: what makes the data drawn a preview, empty when it is the full data.
    void setScreenNote(const QString &note, const QString &preview = {});
    // Set by setPrepared for the next fill.
    const std::shared_ptr<const PreparedDrawing> &prepared() const { return m_prepared; }

private:
    std::shared_ptr<const PreparedDrawing> m_prepared;
    QString m_screenNote;
};

} // namespace posenc
