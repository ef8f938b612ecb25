#pragma once

#include "QCustomPlot.h"

#include <QPointer>

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
// The same pixels, but where the buffer's antialiased edges are rounded once instead of twice. Where
// every layer draws into that buffer (none buffered on its own: no cursor shown), a replot's own paint
// draws them into the plot's pixels of the window's backing store instead, and the buffer only when a
// later paint needs it (Pixels). Its exports (toPixmap, toPainter, a PDF) are drawn as QCustomPlot
// draws them.
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
    // last replot left them (a replot on its way is made first; the buffer drawn first where that
    // replot drew into the window only), without the widgets over it: toPixmap would draw every
    // layer again at full resolution, a tenth of a second for a large figure, for the same pixels.
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
    // Whether a replot's layers can be drawn onto the widget at its paint, without the first buffer
    // between: they all draw into that buffer (none buffered on its own), the canvas fills it, at the
    // widget's size and resolution.
    bool drawsOnScreen() const;
    void hideLayers();
    void showLayers();
    // Every layer drawn into its buffer, as QCustomPlot's replot draws them; the whole replot again
    // where the layers' buffers have changed since.
    void drawBuffers();
    // Every layer drawn onto the widget's pixels in its window's backing store, in the paint its
    // replot makes; false where they cannot be reached as an image (drawn into the buffer then).
    bool drawOnScreen();
    // Every layer drawn with `painter` as the replot laid them out (QCustomPlot::draw, not laid out again).
    void drawLayers(QCPPainter *painter);

    // Where the last replot's pixels are. Its paint draws every layer into the window itself where it
    // can (drawsOnScreen) and the paint covers the whole plot: copying the buffer to the window was a
    // tenth of the GUI thread's time in a change of parameters. A paint that comes later (a grab, a
    // sibling moved away, the focus's frame) replots first, the plot laid out and drawn into the
    // buffer as it is then, never its layers of now over the layout of then; a replot that no paint
    // follows at once (a refresh queued, a hidden view) draws the buffer at its end, as QCustomPlot does.
    enum class Pixels {
        InBuffers, // drawn into the paint buffers
        Deferred, // the replot is under way, its layers hidden until its paint
        OnScreen, // drawn onto the widget only
    };
    Pixels m_pixels = Pixels::InBuffers;
    QList<QPointer<QCPLayer>> m_hiddenLayers;
    bool m_replotting = false; // between beforeReplot and afterReplot
    bool m_drawing = false; // in drawLayers

    QCPLayerable *m_canvas;
    bool m_canvasDrawn = false;
    bool m_resized = false; // a resize's replot is still to be made
};

} // namespace posenc
