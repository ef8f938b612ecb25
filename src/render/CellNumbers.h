#pragma once

#include "QCustomPlot.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// The numbers in the cells of a heatmap (a QCPColorMap), drawn over it on screen and in every
// export where each cell in view has room for its number at the axis' tick-label font, or at a
// smaller one down to kMinFontScale of it, which still reads: a small table (d 16 x L 8, packing's
// distances on a 14-pt slide) reads cell by cell, a large one is left as a picture. The numbers
// of a map share their decimals, as a table's column does: three significant digits at the largest
// magnitude of the map's range (0.84 and 0.00 on ±1, 7.49 on 0 .. 8, 512 on ±512), none where
// every cell in view holds a whole number (position ids, distances: 3, not 3.00); in black or
// white, whichever contrasts more with the cell's colour (WCAG's contrast ratio).
class CellNumbers : public QCPLayerable
{
public:
    // One number as drawn: the cell's rectangle in pixels, its text and colour.
    struct Shown
    {
        QRectF cell;
        QString text;
        QColor color;
        QColor background;
        QFont font; // the tick labels' font, or smaller where the cells need it
        // How far down the text is drawn from the cell's centre by its font's ascent and descent:
        // where the texts' ink reaches past them (an underscore), their ink is centred instead.
        double shift = 0.0;
    };

    // The numbers of `map`, created once, drawn above it and clipped to its axis rect.
    static CellNumbers *of(QCPColorMap *map);
    // The numbers of every colour map of `plot` on or off.
    static void setShown(QCustomPlot *plot, bool shown);

    void setEnabled(bool enabled) { m_enabled = enabled; }
    // The words a categorical map's values stand for, by value (0, 1, 2, ...): each cell shows its
    // value's word instead of the number. The layer stack's cells read bare "0", "1", "2", "3",
    // indices into its colours that no key explained; they read "full_attention", "window 1024".
    void setLabels(const QStringList &labels) { m_labels = labels; }
    bool isEnabled() const { return m_enabled; }
    // What draw() draws now, from the map's data, range and axes: empty when off, when a cell in
    // view has no room for its number, or when more than kMaxCells cells are in view.
    QList<Shown> shown() const;

    // The decimals of the numbers of a map whose range reaches `extent` (its largest magnitude):
    // three significant digits there, 0 .. 5 of them; nothing past that range (1e-9, 1e6), whose
    // numbers take three significant digits each.
    static std::optional<int> decimalsFor(double extent);
    // A cell's text: `decimals` fixed, or three significant digits; a true minus sign, and no
    // minus on a value that rounds to zero.
    static QString text(double value, std::optional<int> decimals);
    // The font the numbers `texts` take in cells of `cell` pixels: `tickFont`, else the largest
    // smaller one, down to kMinFontScale of it, in which every one fits; none where none does.
    static std::optional<QFont> fittingFont(const QFont &tickFont, const QStringList &texts, const QSizeF &cell);
    // How far down texts drawn in `font` are moved so that their ink is centred where it reaches
    // past the font's ascent or descent (CellNumbers::Shown::shift); 0 where it does not.
    static double inkShift(const QFont &font, const QStringList &texts);
    // Black or white, whichever has the larger WCAG contrast ratio against `background`.
    static QColor contrasting(const QColor &background);
    // WCAG 2's contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05), L the relative luminance.
    static double contrastRatio(const QColor &a, const QColor &b);

    static constexpr int kMaxCells = 4096;
    // The smallest font the numbers take, as a fraction of the tick labels': 10.5 pt on a 14-pt
    // slide, still read from the back of a room; a cell smaller than that shows no number.
    static constexpr double kMinFontScale = 0.75;

protected:
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override;
    QRect clipRect() const override;

private:
    explicit CellNumbers(QCPColorMap *map);

    QCPColorMap *m_map;
    QStringList m_labels;
    bool m_enabled = true;
};

} // namespace posenc
