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
        // Its key names shades and lines besides its three T5 curves; with the key of the rest in its
        // row the curves hold no labels, and the key goes (posenc export says which curves it leaves
        // unnamed; 55.4% without it). The trial keeping the shades' key leaves the T5 plot 188 x 57
        // units, where none of the three finds a place, off its curve with a leader neither, and a
        // key of swatches in its row would leave the plot under half the page anyway: the shades
        // want naming in the plot too (a swatch's label within its shade) before the key can go.
        QStringLiteral("buckets 6x4cm 9pt"), // its key of 3 curves and 4 shades and lines given up
    };
    return all;
}

// The rows refused outright (their least size is above the page): the test cannot go on.
inline bool refused(const QString &)
{
    return false;
}

} // namespace FigureSizeShortfalls
