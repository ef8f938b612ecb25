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
        QStringLiteral("head-map 6x4cm 9pt"), // the plots take 36.5% of the page
        // Its colour bar's label in its first part ("wavelength 2π/θᵢ") since 2026-11-29 (36.0%, 19.0%).
        // Its models named by their first words since 2026-11-30 ("Llama", not "Llama-4-Sc…"; 39.2%, 26.2%).
        // Its key, left naming only the marks once the statistics went, goes since 2026-11-30 (23.0%).
        // Their curves too close, or their plots too low, for a label each (DirectLabels) since
        // 2026-12-02: query-scale's three curves drawn over one another and its two
        // lines 6 units apart; alibi-attention's eight heads' ends a few units apart (its key in two
        // rows since 2026-12-02); buckets' key names shades (items), not curves, and since 2026-12-04,
        // with its curves labelled where they hold a label, still goes: the page holds no key of the rest.
        // Passed until 2026-12-01 with their keys given up (KeptKeys): on a 6 x 4 cm page a single
        // panel with its axes labelled takes 168 x 115 of 227 x 151 units (56 %), and each row of a
        // key under it 20 units more (10 % of the page); over their data none found a place (legendsOverData).
        // Its key of four lines, labels standing for them over its left plot's data: placed before
        // its plots grew (FigureFit's alignTicks, labelsAbove's trial layout), they stood some 40 units
        // off their lines; labels must now stand within 3 units of their own curve (DirectLabels::clear),
        // none finds a place there again, and the key goes. It passed with either change alone.
        QStringLiteral("scale-compare column 8pt"), // 60.3% without its key
        QStringLiteral("query-scale 6x4cm 9pt"), // 55.9% without its key of 5 models
        QStringLiteral("rope-scalings 6x4cm 9pt"), // 68.6% without its key of 7 scalings
        QStringLiteral("buckets 6x4cm 9pt"), // 54.8% without its key of 6 curves and shades
    };
    return all;
}

// The rows refused outright (their least size is above the page): the test cannot go on.
inline bool refused(const QString &)
{
    return false;
}

} // namespace FigureSizeShortfalls
