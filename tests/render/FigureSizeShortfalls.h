#pragma once

#include <QSet>
#include <QString>

// The figures and sizes tst_figuresizes finds short of issue 60's acceptance today, each with what
// it lacks as last measured (how each room step moved them is told in docs/ARCHITECTURE.md,
// "Figures at any size", and in the history of this file): the plots under half of the page with
// every label kept (most at 6 x 4 cm and a column), a text outside the page, an exponent below the
// asked size, two texts overlapping, or a figure refused below its least size. A panel drawn keeps
// its name (tst_figurepaneltitles): the rows marked so lost their half to it. Open work, not a
// tolerance: their rows are expected to fail, and one that passes fails the test as XPASS, to be
// taken off.
namespace FigureSizeShortfalls {

inline const QSet<QString> &rows()
{
    static const QSet<QString> all {
        // Its key, left naming only the marks once the statistics went, goes since 2026-11-30 (23.0%).
        // Their curves too close, or their plots too low, for a label each (DirectLabels) since
        // 2026-12-02; curves drawn too close to label apart are named together since 2026-12-05
        // (query-scale's three curves over one another, its two lines 6 units apart: 51.5%;
        // scale-compare's "√(s²σ²d), ‖s·Eₚ‖": 60.1%).
        // Passed until 2026-12-01 with their keys given up (KeptKeys): on a 6 x 4 cm page a single
        // panel with its axes labelled takes 168 x 115 of 227 x 151 units (56 %), and each row of a
        // key under it 20 units more (10 % of the page); over their data none found a place (legendsOverData).
        // rope-scalings at 6 x 4 cm left its key of eight curves unnamed (68.6 % without it) until
        // 2026-12-05: a label that finds no place beside its crowded curve stands off it in the free
        // room, joined to it by a leader line (DirectLabelLeader.h).
        // buckets at 6 x 4 cm gave up its key of three T5 curves and four shades and lines (55.4%
        // without it) until 2026-12-05: a key of curves and shades goes once each shade is named
        // within it and each curve on it (ShadeLabels, DirectLabels; 53.2% with its title).
    };
    return all;
}

// The rows refused outright (their least size is above the page): the test cannot go on.
inline bool refused(const QString &)
{
    return false;
}

} // namespace FigureSizeShortfalls
