#pragma once

#include <QBuffer>
#include <QByteArray>
#include <QPaintDevice>
#include <QSize>
#include <QString>
#include <QSvgGenerator>

#include <memory>

namespace posenc {

// An SVG drawing that keeps what the painter clips, which Qt's SVG generator leaves out: a
// graph's points below a log axis are clipped to the axes in the file as on screen and in a PDF.
// Painted like any device; its engine hands every drawing on to a QSvgGenerator with the
// painter's state, and where the clip changes marks the drawing with a rectangle of a colour no
// figure uses. document() turns the runs between the marks into groups clipped to their
// rectangle (SVG 1.1 clip paths), and names the generic family after each font's (DejaVu Sans,
// sans-serif) so that a viewer without the font keeps its kind.
class ClippedSvg : public QPaintDevice
{
public:
    // The drawing's size and view box in layout units, at `resolution` units an inch.
    ClippedSvg(QSize size, int resolution, const QString &title, const QString &description);
    ~ClippedSvg() override;
    ClippedSvg(const ClippedSvg &) = delete;
    ClippedSvg &operator=(const ClippedSvg &) = delete;

    QPaintEngine *paintEngine() const override;
    // The SVG file, once the painter on this device has ended; empty if nothing was drawn.
    QByteArray document() const;

    // The colour of the marks (alpha 1 of 255): nothing a figure draws.
    static constexpr unsigned kMarkRgba = 0x01010203u;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QByteArray m_bytes;
    QBuffer m_buffer;
    QSvgGenerator m_generator;
    QSize m_size;
    std::unique_ptr<QPaintEngine> m_engine;
};

} // namespace posenc
