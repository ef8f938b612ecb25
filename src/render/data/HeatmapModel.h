#pragma once

#include "FigureModel.h"
#include "HeatmapResampler.h"

namespace posenc {

// The heatmap figure's data: one quantity's visible cells at the resolution they are shown.
struct HeatmapFigureData : FigureData
{
    HeatmapGrid grid;
    Shape table; // the whole table's shape
    QString label; // what the table is for these parameters: "X = [s·E | PE]" in concat
    QString parameters; // the parameters it depends on (FigureText::parametersText)
};

// The heatmap: rows x columns of one quantity (--quantity) with a colorbar, by default the
// family's natural table (natural()); its view is the visible cells ("columns" on x,
// "positions" on y), computed at screen resolution.
class HeatmapModel final : public FigureModel
{
public:
    static constexpr char16_t kQuantity[] = u"quantity";
    static constexpr char16_t kColormap[] = u"colormap";
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";
    static constexpr char16_t kAutoColormap[] = u"auto"; // the quantity's own map

    // The quantities it offers, in the order of the quantity table: every table of values, not
    // the records whose columns are each their own quantity.
    static QList<Quantity> quantities();
    // The table a family is shown by where no quantity is chosen, derived from what its manifest
    // lists (no list of families here): the position term where it adds one with columns (the
    // sinusoid's, a learned table, 2-D sin-cos), else the largest of the family's own quantities
    // at these parameters (RoPE's cos, ALiBi's or Sandwich's bias, T5's or DeBERTa's buckets,
    // M-RoPE's cos, 2-D RoPE's cos; a family added later, its own), else X itself (NoPE).
    static Quantity natural(const Params &params);
    // The quantity `state` chooses, or none.
    static std::optional<Quantity> chosen(const FigureState &state);
    // The quantity shown: the state's, else the parameters' natural table.
    static Quantity quantity(const FigureState &state, const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    Reading readingAt(const FigureState &state, const Params &params) const override;
    bool hasPreview(const FigureRequest &request) const override;
    int passCount(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

// Heatmap data computed for a visible range at a level of detail: Full is exact (the last
// pass) unless that computes more than 2^33 cells one by one, then the largest pass within
// them, a preview; Preview the first pass at half the resolution within the preview budget.
// `pass` (of Detail::Full) replaces the last one when it is not -1.
std::optional<HeatmapGrid> computeHeatmap(const Engine &engine, HeatmapRequest request, Detail detail,
                                          const ComputeOptions &options, int pass = -1);

} // namespace posenc
