#pragma once

#include <QRectF>
#include <QString>

class QPainter;

namespace posenc {

// A figure's texts drawn as QPainter::drawText(rect, flags, text) draws them, without shaping them
// anew: Qt lays each text out (qt_format_text: a QTextLayout, shaped by HarfBuzz) every time it is
// drawn, and a view's titles, legend entries and tick labels were a third of its replot, the same
// texts frame after frame. A text is laid out once per font, text and screen resolution on the calling
// thread and each of its lines placed where qt_format_text places it, so every pixel is Qt's own
// (tst_drawntext): a title or an axis label wrapped onto several lines (FigureFit) too, which Qt
// shaped again at every replot. What this does not lay out alike (a line that starts with a space
// or is empty, tabs, justified or wrapped text, a painter drawing right to left, a decorated font, a
// painter other than the raster engine's: SVG and PDF) is left to QPainter::drawText.
namespace DrawnText {

// QPainter::drawText(rect, flags, text, bounds).
void draw(QPainter &painter, const QRectF &rect, int flags, const QString &text, QRectF *bounds = nullptr);
// The same with QPainter's QRect overload: `bounds` aligned outwards to whole units.
void draw(QPainter &painter, const QRect &rect, int flags, const QString &text, QRect *bounds = nullptr);
// painter.fontMetrics().boundingRect(0, 0, 0, height, Qt::TextDontClip, text), remembered per font,
// resolution, height and text on the calling thread: a legend entry measures its text to draw it.
QRect boundingRect(const QPainter &painter, int height, const QString &text);

} // namespace DrawnText

} // namespace posenc
