#pragma once

#include "StampedGraph.h"

#include <QList>

#include <memory>

namespace posenc {

// A series' points and coarser levels of them, made where its data is (a figure's job): of every
// block of `block` consecutive points, the least and the greatest, in the keys' order (and a gap's
// NaN, which breaks the line). Each level's points are points of the series; a level whose
// blocks span at most half a pixel draws the line QCustomPlot's adaptive sampling draws of them
// all, where it keeps the least and the greatest of each pixel's column, to within that half pixel.
struct LevelledPoints
{
    struct Level
    {
        qsizetype block = 1;
        QSharedPointer<QCPGraphDataContainer> points;
    };
    QSharedPointer<QCPGraphDataContainer> all;
    QList<Level> levels; // the finest first; none for a series short enough to draw whole

    // Levels of blocks of 8, 64, ... points, each coarser one made while the one before it has more
    // than kLeastPoints blocks.
    static std::shared_ptr<const LevelledPoints> make(QSharedPointer<QCPGraphDataContainer> all);
    static constexpr qsizetype kLeastPoints = 4096;
    static constexpr qsizetype kGrowth = 8;
    // The points to draw `span` keys across `pixels`: the coarsest level whose blocks take at most
    // half a pixel, else all of them.
    QSharedPointer<QCPGraphDataContainer> forView(double span, double pixels) const;

private:
    double m_keysPerPoint = 1.0;
};

// A StampedGraph drawn from the level of its LevelledPoints that its key axis's range and length
// ask for, chosen again as they change: a line of 2^24 positions is drawn, and its labels placed
// (DirectLabels), from 65,536 of its points at full view, not from all of them at every replot.
class LevelledGraph : public StampedGraph
{
public:
    LevelledGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

    // Draws `points`; its data() is the level in use.
    void setLevels(std::shared_ptr<const LevelledPoints> points);
    const std::shared_ptr<const LevelledPoints> &levels() const { return m_levels; }

protected:
    void draw(QCPPainter *painter) override;

private:
    void choose();

    std::shared_ptr<const LevelledPoints> m_levels;
};

} // namespace posenc
