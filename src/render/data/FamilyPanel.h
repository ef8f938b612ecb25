#pragma once

#include "core/FamilyCurves.h"
#include "core/Params.h"
#include "core/Quantity.h"
#include "render/data/Colormap.h"

#include <QList>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

// A family's panel of the families figure (docs/ARCHITECTURE.md, Encoding families): the
// positional term the family gives the keys of one query against their offset k = j - q, its
// words, colour and style, one panel per family that has one, in the order of FamilyList.h. Its
// facet of render: a family's manifest names it (POSENC_FAMILY_PANEL), render/data/<folder>/
// defines make<Name>Panel(), made on first use (FamilyPanels).
namespace posenc {

// How the panel's curves are drawn: a band from the least to the most of each pixel's offsets (an
// oscillating sum), exact steps (a bucket), or a line per curve coloured by its shade (a head).
enum class FamilyPanelStyle { Band, Steps, Lines };

// One curve of a panel drawn as lines.
struct FamilyPanelLine
{
    FamilyCurve curve;
    double shade = 0.0; // its colour, 0 .. 0.8 along viridis
    bool emphasised = false; // drawn wider: the one the parameters choose
    QString name, terseName; // its legend entry; empty: none
};

// The panel's data for one query and the offsets in view.
struct FamilyPanelData
{
    Encoding family = {};
    std::optional<QString> problem; // why nothing is drawn: the family's settings are not valid
    FamilyCurve curve; // Band, Steps
    QList<FamilyPanelLine> lines; // Lines
    // The values the vertical range reaches whatever the curves do (0, and 1 for a score).
    double least = 0.0, most = 0.0;
    // Offsets past 0 that the family hides (a causal mask), shaded, with the shade's legend entry.
    bool maskedAfterQuery = false;
    QString maskName, terseMaskName;
    QString note; // the line over the panel: what it shows at these settings
    std::int64_t sampled = 0; // offsets taken a pixel where the sums were sampled; 0: all
};

// The value under the mouse at one key, and its words.
struct FamilyPanelPoint
{
    std::optional<double> value; // none where the term is not finite (a masked key)
    QString name;
};

// The panel of a family.
struct FamilyPanel
{
    FamilyPanelStyle style = FamilyPanelStyle::Band;
    QString label, terseLabel; // the vertical axis: "RoPE score", "RoPE"
    // The family's part of the figure's --help line, an owner and what is drawn ("RoPE's",
    // "score"); neighbours with the same noun share it: "T5's and DeBERTa's bucket".
    QString summaryOwner, summaryNoun;
    std::uint32_t colour = 0; // Band and Steps, as 0xRRGGBB
    // Lines: their shades' map and their pen's style, set apart from another panel's of the same kind.
    Colormap lineColormap = Colormap::Viridis;
    Qt::PenStyle lineStyle = Qt::SolidLine;
    // A learned term picked by a bucket: the bucket index stands for it, which the caption says once
    // for every such family (`name` there: "T5"), with what the bucket picks (`bucketTerm`: "a
    // learned bias per bucket").
    bool bucketStandsIn = false;
    QString name;
    QString bucketTerm;
    // Band: what the hover readout calls the band's value ("RoPE score of q = k all ones").
    QString bandValueName;
    // The quantities whose parameters the panel reads (the figure recomputes when they change).
    QList<Quantity> inputs;
    // The frequencies an offset's sum takes (Band), for the figure's choice of a preview.
    std::function<std::int64_t(const Params &)> evaluationsPerOffset;
    // The data for the query over `offsets`, the sums within `budget` evaluations; nothing when
    // cancelled.
    std::function<std::optional<FamilyPanelData>(const Params &, std::int64_t query, const OffsetPixels &offsets,
                                                 std::int64_t budget, const std::atomic<bool> *cancel)>
        compute;
    // The exact value at key `key` of the query, or nothing where the panel has none to give (the
    // band's drawn value is read then).
    std::function<std::optional<FamilyPanelPoint>(const Params &, std::int64_t query, std::int64_t key)> valueAt;
    // Sets the family's own mask in `params` to the model's, both ways (an encoder) or causal (a
    // decoder), where the family's parameters hold one (ALiBi's, Sandwich's): the panel is drawn as
    // the model would run the family (FamiliesModel::panelParams). A family without a mask of its
    // own reads the model's from params.batch.attention there (NoPE's, KERPLE's).
    std::function<void(Params &, bool bothWays)> followMask;
};

namespace FamilyPanels {

// The panel of `family`, or nullptr for a family whose manifest names none.
const FamilyPanel *of(Encoding family);

} // namespace FamilyPanels

// The panels, defined in the families' folders of render/data.
#define POSENC_FAMILY_PANEL(Name) FamilyPanel make##Name##Panel();
#include "core/FamilyList.h"
#undef POSENC_FAMILY_PANEL

} // namespace posenc
