#pragma once

#include <QSet>
#include <QString>

// The figures and sizes tst_figuresizes finds short of issue 60's acceptance today, each with what
// it lacks when it was measured (2026-11-29, again once tick numbers were written short, once
// an axis's label wrapped on little room could keep its first line, and 2026-11-30, once an empty
// caption took no room, and 2026-12-01, once linear axes could set their labels along their tick
// labels, and again once a y axis's or a colour bar's label could go above its axis beside its
// panel's name, alibi-bias 40.2 % to 44.9 %, position-effect at a column 8 pt off the list, and
// once the end tick labels over a panel could stand half in the row of its name, and once
// layer-stack's key under its lanes left no empty row under it, 48.4 % to 50.8 %, off the list,
// and once a grid left with one column of panels kept no spacing beside it, learned 47.9 % to
// 49.2 %, and 2026-12-01 again once a grid left with one row closed up and key entries were cut
// for the columns their key takes and kept reading apart, buckets at a column off the list with
// its key, 48.9 % to 50.5 %, and once a key given up while its panel is drawn was counted short,
// KeptKeys: the rows marked "its key given up" passed without it, and 2026-12-02 once drawn panels
// with panels given up between them stood a spacing apart and a column of panels whose x label went
// along its ticks gave up the right margin its blanked end label held, rope-input and sandwich-bias
// at 6 x 4 cm, 48.5 % to 51.4 % and 45.6 % to 50.9 %, curves at 6 x 4 cm and position-effect at a
// column off the list, rope-rotation at 6 x 4 cm keeping its title whole, 48.5 % to 47.7 %, and
// once a text dropped or an element given up alone in its row kept none of its height, not a
// unit: document-distance and learned at 6 x 4 cm, 49.2 % to 50.1 % and 50.6 %, head-map and
// scale-compare at a column, 49.9 % to 50.5 % and 49.6 % to 50.3 %, off the list, and once a
// colour map's clear NaN cells were room for a key, head-map at a column at 8 pt, 47.0 % to 52.1 %,
// off the list, and 2026-12-02 once a key of curves that the page cannot hold gave way to labels
// on its curves, DirectLabels, and rope-score's band had the shorter entry "± 1 std", rope-score
// 36.8 % to 46.1 %, and once labels on curves were a step of room too, which keeps the title, and
// asked to stand clear as they were placed, rope-score 46.1 % to 51.5 %, off the list, and once
// a heatmap kept no room above it for its colour bar's end label, the bar shortened instead, and
// similarity's square took the unit its hidden neighbour's section had kept, similarity 46.7 % to
// 50.1 %, and once columns given up past the last drawn kept no spacing, rope-rotation 48.1 % to
// 50.8 % and rope-2d-similarity 45.5 % to 50.3 %, off the list, and 2026-12-02 once a key whose
// entries' shorter forms, none cut, stood in more columns took them where that saved a row, and
// alibi-attention named its heads "h1" .. "h8" and its distance "distance |i − j|" along its
// ticks on little room, alibi-attention 28.1 % to 57.8 %, its key of eight heads in two rows, off
// the list, and 2026-12-03 once a compact key's entries holding no data named the curves they stand
// for (DirectLabels::setStandsFor), magnitudes 48.3 % to 53.4 % with its title and "s·E", "ratio
// (right)", "PE", "expected" on its lines, off the list, and 2026-12-03 once a figure past its
// title and still short kept the panel it marks primary alone under its first name
// (FigureRoom::setPrimary, Steps::keepPrimaryAlone), scale-compare 26.1 % to 57.5 % and
// position-ids 41.3 % to 55.2 %, and the keys and labels placed again after it, sandwich-distance
// 44.4 % to 50.7 %, off the list, and 2026-12-03 again once that panel alone was taken only on a page
// short of room, a title of one line kept its model's parts before its words, a heatmap's swing
// lines went with the key naming them and figures gave shorter forms keeping their numbers: no row
// changed, compose-compare, rope-scalings and Llama 3.1's rope-frequencies at 6 x 4 cm still short, and
// 2026-12-04 once a key or a panel's name given up kept none of its row (Changes::takeNoRoom),
// position-effect 48.6 % to 50.7 %, off the list, alibi-bias 48.8 % to 49.6 %, and once a colour
// bar whose label stands above it let the panels beside it raise their tops into their names' row
// (Steps::barsBelowTheirLabels), alibi-bias 49.6 % to 51.4 %, off the list, compose-compare 31.9 % to
// 33.3 %, dropout-compare 32.1 % to 33.9 %; dropout-anatomy 43.2 % to 45.2 % on the first, and
// 2026-12-04 once a key of curves and shades let go of the entries whose curves hold a label
// together (DirectLabels::makeSome, Changes::labelSome), keeping the rest, rope-precision 39.6 % to
// 51.2 % with "float32", "fp16" and "gap 1" on their lines and "bf16", "merging" in its key over
// the headroom, and mrope-positions 60.9 % without its key to 50.2 % with "t", "h", "w" and "text
// starts" beside their marks (in the marks' colour, never over them) and image, video and
// generated in one row, both off the list; labels a plot grown since left off their curves are
// placed again (DirectLabels::clear), and a partial key's labels placed on the layout its key
// leaves them: nope-order 52.0 % without its key to 54.7 % with every curve labelled and its title,
// off the list, rope-frequencies with Llama 3.1 48.6 % with five lines labelled and its four
// shades and curve keyed in two rows): the
// plots under half of the page with every label kept (most at 6 x 4 cm and a column), a text
// outside the page, an exponent below the asked size, two texts overlapping, or a figure refused
// below its least size. A panel drawn keeps its name (tst_figurepaneltitles): the rows marked so
// lost their half to it. Open work, not a tolerance: their rows are expected to fail, and one that
// passes fails the test as XPASS, to be taken off.
namespace FigureSizeShortfalls {

inline const QSet<QString> &rows()
{
    static const QSet<QString> all {
        QStringLiteral("dropout-compare 6x4cm 9pt"), // the plots take 45.4% of the page (44.4% until 2026-12-02)
        // Its Y in training alone (FigureRoom::setPrimary) took 49.97% on 2026-12-03, but drew its cells resampled
        // four columns to a cell, no dropped cell grey, and no "position" on its rows: not taken.
        QStringLiteral("dropout-anatomy 6x4cm 9pt"), // the plots take 31.9% of the page (29.6% until 2026-12-02)
        // Its colour bar's label in its first part ("wavelength 2π/θᵢ") since 2026-11-29 (36.0%, 19.0%).
        // Its models named by their first words since 2026-11-30 ("Llama", not "Llama-4-Sc…"; 39.2%, 26.2%).
        QStringLiteral("head-map 6x4cm 9pt"), // the plots take 36.5% of the page
        // Its key, left naming only the marks once the statistics went, goes since 2026-11-30 (23.0%).
        QStringLiteral("compose-compare 6x4cm 9pt"), // the plots take 31.5% of the page
        // Its end tick labels met after the last retick ('500' on '0', 33.1%): FigureLayoutLoop::retick
        // gives the x axes back their own ticks, 500 at the sum's right end, after separateTickLabels
        // ran; since 2026-12-04 retick sets them apart again, and no row's texts may overlap.
        // Their curves too close, or their plots too low, for a label each (DirectLabels) since
        // 2026-12-02: query-scale's three curves drawn over one another and its two
        // lines 6 units apart; alibi-attention's eight heads' ends a few units apart (its key in two
        // rows since 2026-12-02); buckets' key names shades (items), not curves, and since 2026-12-04,
        // with its curves labelled where they hold a label, still goes: the page holds no key of the rest.
        // Passed until 2026-12-01 with their keys given up (KeptKeys): on a 6 x 4 cm page a single
        // panel with its axes labelled takes 168 x 115 of 227 x 151 units (56 %), and each row of a
        // key under it 20 units more (10 % of the page); over their data none found a place (legendsOverData).
        QStringLiteral("query-scale 6x4cm 9pt"), // 55.9% without its key of 5 models
        QStringLiteral("rope-scalings 6x4cm 9pt"), // 68.6% without its key of 7 scalings
        QStringLiteral("buckets 6x4cm 9pt"), // 54.8% without its key of 6 curves and shades
        // Llama 3.1's wavelengths, a row since 2026-12-02: its key of eight lines and shades given
        // up (68.6% without it); since 2026-12-04 its five lines labelled, its shades and curve in
        // a key of two rows under the plot.
        QStringLiteral("rope-frequencies llama-3-1-8b 6x4cm 9pt"), // 48.6%
    };
    return all;
}

// The rows refused outright (their least size is above the page): the test cannot go on.
inline bool refused(const QString &)
{
    return false;
}

} // namespace FigureSizeShortfalls
