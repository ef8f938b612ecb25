#pragma once

#include "QCustomPlot.h"

#include <optional>

namespace posenc::SqueezedLayout {

// A figure given less room than its parts' least sizes is squeezed: QCustomPlot's grid then shares
// the room in proportion to those least sizes (QCPLayout::getSectionSizes). A row or column whose
// least size is 0 (a colour bar along its length, a panel whose margins were given up) has no
// share, and where it is left to share less than no room (the grid's spacing wider than its room),
// its share is 0 x -inf = NaN, rounded to an int: an element laid out 2^31 pixels wide, whose
// width overflows wherever it is read (tests/render/tst_squeezedlayout). Such an
// element, and all it holds, is laid out as what it is given, nothing, at the corner its grid
// placed it (or its grid's own where that is out of reach too), keeping the extent that is sound;
// a colour scale's bar with it.
void collapseOverflowed(QCPLayoutElement *layout);

// True when the rect's edges lie within reach of a widget's coordinates, so its width and height
// can be computed (a squeezed element's rect inside its margins may still be of negative width).
bool isSound(const QRect &rect);

} // namespace posenc::SqueezedLayout

namespace posenc {

// A QCustomPlot whose every layout, a replot's or a paint's, has its overflowed parts collapsed
// (SqueezedLayout::collapseOverflowed) before it is drawn or read: the figures of the window and
// the files are drawn on it.
// On screen, its first paint buffer is filled with the plot's background colour before any layer
// draws (an element under the background layer's others), so that painting the widget draws that
// buffer alone instead of filling the widget with the colour and blending the buffer, which QCustomPlot
// clears to transparent, over it: a tenth of a change's time on the GUI thread went to the two.
// The same pixels, but where the buffer's antialiased edges are rounded once instead of twice. Its
// exports (toPixmap, toPainter, a PDF) are drawn as QCustomPlot draws them.
class SqueezablePlot : public QCustomPlot
{
public:
    explicit SqueezablePlot(QWidget *parent = nullptr);

    // The colour the canvas fills the first buffer with: the background brush's, where it is a solid
    // opaque colour and no background pixmap is set.
    std::optional<QColor> canvasColor() const;
    // Called by the canvas as it fills the first buffer in a replot.
    void canvasDrawn() { m_canvasDrawn = true; }
    // The pixels the plot shows, at its device pixel ratio, painted from its paint buffers as its
    // last replot left them (a replot on its way is made first), without the widgets over it:
    // toPixmap would draw every layer again at full resolution, a tenth of a second for a large
    // figure, for the same pixels.
    QPixmap shownPixels();

protected:
    void updateLayout() override;
    void paintEvent(QPaintEvent *event) override;
    // As QCustomPlot::resizeEvent, but the replot queued, not made at once: a burst of resizes in one
    // turn of the event loop (a view maximised, its option bar's height settling, a window dragged
    // larger) lays out and sizes its paint buffers once, at the size it ends at. A paint before that
    // replot makes it first (paintEvent), and any replot answers it.
    void resizeEvent(QResizeEvent *event) override;

private:
    // Whether the first paint buffer holds the canvas: every layer up to the background layer draws
    // into it (none of them buffered on its own), and the last replot filled it at the viewport's size.
    bool firstBufferOpaque() const;
    // Whether the canvas fills the first buffer in a replot: it shows, has a colour, and is the first
    // of its layer, which draws into the first buffer (no layer up to it buffered on its own).
    bool canvasFirst() const;
    // At each replot, before QCustomPlot sets up its buffers: an opaque first buffer where the canvas
    // fills it (OpaqueBuffer), QCustomPlot's own where it does not.
    void chooseFirstBuffer();

    QCPLayerable *m_canvas;
    bool m_canvasDrawn = false;
    bool m_resized = false; // a resize's replot is still to be made
};

} // namespace posenc
