#pragma once

#include "QCustomPlot.h"

#include <QImage>
#include <QRectF>

#include <memory>
#include <vector>

namespace posenc {

// A map's coverage image made off the GUI thread, where its data is computed, for the device pixels
// the panel had when the data was asked for (HeatmapPanel::prepareCoverage): the map's image as
// QCPColorMap::updateMapImage colours it, and its coverage as CoverageColorMap::draw computes it for
// `target` and `clip` with the axes reversed as said. A draw whose image, target, clip and
// reversals are these draws `image` at `origin`; any other computes its own.
struct PreparedCoverage
{
    // What `source` was coloured from (mapImage's inputs): a map whose cells, gradient, range and
    // scale are these when it draws takes `source` as its image rather than colouring its cells
    // again on the GUI thread (half a million logarithms for the check window's map).
    std::vector<double> cells;
    int keys = 0, rows = 0;
    QCPColorGradient gradient;
    QCPRange range;
    bool logarithmic = false;
    QImage source;
    bool keyReversed = false, valueReversed = false;
    QRectF target;
    QRect clip;
    QImage image;
    QPoint origin;
};

// A colour map drawn on a raster device at the device's own pixels (docs/ARCHITECTURE.md, "Exact
// at any size"): each pixel the mean of the colours of the cells it covers, weighted by the area of
// each it covers, as a renderer filling each cell as a rectangle with exact coverage would draw it.
// QCPColorMap scales its image to the axis rect by nearest neighbour: 512 columns over 690 pixels
// are drawn one or two pixels wide by turns, and columns alternating in value beat into bands the
// table does not have (moire). On a vector device (PDF, SVG) the map is embedded whole, as
// QCPColorMap embeds it, for the viewer to scale.
class CoverageColorMap : public QCPColorMap
{
public:
    using QCPColorMap::QCPColorMap;

    // The pixels of a device that `source`, spread over `target` (device pixels, fractional), covers:
    // pixel (x, y) of the result is device pixel (x + origin.x, y + origin.y), its colour the
    // area-weighted mean of the source pixels over it, and its alpha the share of it they cover
    // (premultiplied). `origin` is the least whole pixel `target` touches, clipped to `clip`.
    static QImage coverage(const QImage &source, const QRectF &target, const QRect &clip, QPoint *origin);
    // The map's image of cells `values` (value row r, key column k at r * keys + k, as
    // QCPColorMapData holds them; NaN where no number) coloured by `gradient` over `range` on a linear
    // scale, or a logarithmic one, as QCPColorMap::updateMapImage (QCustomPlot 2.1) makes it for a map
    // of that data scale type without interpolation on a horizontal key axis: its top line the last
    // value row, and a map of fewer than 200 cells a way repeated to at least 100 by nearest
    // neighbour. Any thread.
    static QImage mapImage(const double *values, int keys, int rows, QCPColorGradient gradient, const QCPRange &range,
                           bool logarithmic = false);

    // A map image and its coverage made on a worker for the cells the map holds: the image taken by
    // the next draw() whose cells, gradient, range and scale it was coloured from, the coverage by
    // one whose image, target and clip it was made for; else set aside. A new grid offers its own or
    // none (HeatmapPanel::setGrid).
    void offer(std::shared_ptr<const PreparedCoverage> prepared) { m_offered = std::move(prepared); }

    // New cells are on their way (a view that moved, its grid being computed): until the map's data
    // changes, a replot at another place or size draws the last image stretched there instead of
    // computing the coverage of cells the next frame replaces (a zoom of the check window's
    // heatmap: its preview follows at once). Exports compute their own coverage regardless.
    void setDataPending(bool pending);
    // Coverage images computed by draw() in this process, for tests counting them.
    static quint64 computedImages();
    // Coverage images draw() took from an offer (PreparedCoverage) instead of computing them.
    static quint64 adoptedImages();
    // Map images draw() took from an offer's source instead of colouring the cells again, and those
    // it coloured itself (QCPColorMap::updateMapImage).
    static quint64 adoptedMapImages();
    static quint64 colouredMapImages();

protected:
    void draw(QCPPainter *painter) override;

private:
    // Takes the offer's source as the map's image when it was coloured from the map's cells, gradient,
    // range and scale as they are (PreparedCoverage); false, and nothing changed, otherwise.
    bool adoptOfferedImage();

private:
    // The last image drawn and what it was made from: a replot that leaves the map, its axes and the
    // device alone (a crosshair's, a label's) draws it again without computing its coverage.
    struct Drawn
    {
        qint64 source = 0;
        bool keyReversed = false, valueReversed = false;
        QRectF target;
        QRect clip;
        QImage image;
        QPoint origin;
    };
    Drawn m_drawn;
    bool m_pending = false;
    std::shared_ptr<const PreparedCoverage> m_offered;
    static quint64 s_computed;
    static quint64 s_adopted;
    static quint64 s_adoptedMaps;
    static quint64 s_colouredMaps;
};

} // namespace posenc
