#pragma once

#include "QCustomPlot.h"

#include "data/CellMarks.h"

#include <QPointer>

#include <utility>
#include <vector>

namespace posenc {

// What a heatmap draws over its colours, never in a colour of the map (docs/ARCHITECTURE.md,
// "Exact at any size"):
// - cells that hold no number (NaN, an infinity), in a colour of their own that the legend names,
//   so that a NaN of a loaded matrix never reads as the colour map's lowest value;
// - cells the mask zeroed, filled neutral grey and outlined where a cell is large enough, so that
//   a dropped cell never reads as a value near 0;
// - the oscillation mark: dark horizontal lines over each pixel whose PE part swings within it,
//   the darker the wider (HeatmapGrid::spread), at a fixed pitch in layout units so that it reads
//   as a texture at any dpi. The colour beneath stays the exact mean.
class HeatmapMarks : public QCPAbstractPlottable
{
public:
    // Spreads below this (of the PE's +-1) draw nothing: a pixel whose PE part barely moves.
    static constexpr double kMinSpread = 0.03;
    // The spread of a sinusoid over whole turns, 1/sqrt(2): the mark at its darkest.
    static constexpr double kFullSpread = 0.70710678118654752;
    static QColor droppedColor();
    // The fills of marked cells drawn in this process, a run of cells filled at once counted once.
    static quint64 markFills();
    // A cell that holds no number (NaN or an infinity, from a loaded matrix): a colour no map gives.
    static QColor notNumberColor();
    static QColor lineColor(double spread);

    HeatmapMarks(QCPAxis *keyAxis, QCPAxis *valueAxis);

    // The grid's geometry as its colour map has it: `cols` x `rows` cells whose centres span
    // `keys` and `values`.
    void setGrid(const QCPRange &keys, const QCPRange &values, int cols, int rows);
    void setSpread(std::vector<float> spread);
    void setMarks(std::vector<CellMark> marks) { m_marks = std::move(marks); }
    // Whether the grid holds a value that is not a finite number, which its colour map draws in
    // notNumberColor(), or, where every such value is −inf (`masked`), in Colormaps::maskedColor().
    void setNotNumbers(bool any, bool masked = false)
    {
        m_notNumbers = any;
        m_masked = any && masked;
    }
    bool hasNotNumbers() const { return m_notNumbers; }
    bool notNumbersMasked() const { return m_masked; }
    // The mean only: the oscillation mark hidden (the grid's spread kept).
    void setShowSpread(bool show) { m_showSpread = show; }
    // The key's entry (or the legend of marks) that says what the oscillation mark is: the mark is
    // drawn only while that is (a page short of room that gave it up draws the means alone, not
    // lines no text on it explains). None: drawn wherever asked.
    void setExplainedBy(QCPLayoutElement *key) { m_key = key; }
    bool showsSpread() const { return m_showSpread && !m_spread.empty(); }
    // Whether any cell of the grid carries the mark.
    bool hasSpread() const;
    bool hasMark(CellMark mark) const;
    // The mark of grid cell (col, row): None without marks.
    CellMark markAt(int col, int row) const
    {
        return m_marks.empty() ? CellMark::None : m_marks[static_cast<std::size_t>(row) * m_cols + col];
    }

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1.0; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *, const QRectF &) const override { }

private:
    // The pixel edges of the grid's cells along an axis: cells + 1 coordinates.
    std::vector<double> edges(QCPAxis *axis, const QCPRange &centres, int cells) const;
    void drawMarks(QCPPainter *painter, const std::vector<double> &x, const std::vector<double> &y);
    // The device columns the raster engine fills for `rect` without antialiasing under `toDevice`.
    static std::pair<int, int> deviceColumns(const QTransform &toDevice, const QRectF &rect);
    // Whether drawMarks may fill a run of neighbouring cells of one mark at once (no cell outlined).
    bool fillsInRuns(const QPainter &painter, const std::vector<double> &x, const std::vector<double> &y,
                     double scale) const;
    void drawSpread(QCPPainter *painter, const std::vector<double> &x, const std::vector<double> &y);
    // Whether the key that explains the oscillation mark (setExplainedBy) is drawn, or none is set.
    bool explained() const;

    QCPRange m_keys;
    QCPRange m_values;
    int m_cols = 0;
    int m_rows = 0;
    std::vector<float> m_spread;
    std::vector<QRgb> m_shade; // each cell's line colour, premultiplied; 0 draws nothing
    std::vector<CellMark> m_marks;
    bool m_showSpread = true;
    QPointer<QCPLayoutElement> m_key;
    bool m_notNumbers = false;
    bool m_masked = false;
};

} // namespace posenc
