#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"
#include "render/data/VisibleCells.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>

namespace posenc {

// A head's bias figure (alibi-bias, sandwich-bias; core's HeadBias kit): head K's bias over the
// queries and keys in view, under the causal mask and two-sided side by side on one colour scale,
// each pixel the exact mean of its cells. What the families' models share: the view, the table in
// view, the two panels' grids; a family's model gives its table and each panel's grid in closed
// form. Its view: "keys" (j, across) and "queries" (i, down), the whole table at first
// (--positions A:B for a part of it).
class HeadBiasModel : public FigureModel
{
public:
    static constexpr const char16_t *kKeysAxis = VisibleCells::kKeysAxis;
    static constexpr const char16_t *kQueriesAxis = VisibleCells::kQueriesAxis;

    // The grids of the two panels' extents (the causal panel's, then the two-sided one's), each
    // `grid` of the cells in view of `quantity`'s L x L table under that mask; nothing when one is
    // cancelled.
    static std::optional<std::array<HeatmapGrid, 2>>
    grids(Quantity quantity, std::int64_t maxLen, const PanelExtent &causal, const PanelExtent &twoSided,
          const std::function<std::optional<HeatmapGrid>(bool causal, const HeatmapRequest &visible)> &grid);

    QString name() const override { return m_name; }
    QString title() const override { return m_title; }
    QString summary() const override { return m_summary; }
    bool drawsColourMaps() const override { return true; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    // Its name (the table's word), title and line of --help.
    HeadBiasModel(QString name, QString title, QString summary);

    // Its bias table.
    virtual Quantity quantity() const = 0;
    // Its data for the panels' extents (the causal panel's, then the two-sided one's); nothing when
    // cancelled.
    virtual std::shared_ptr<const FigureData> dataFor(const Params &params, const PanelExtent &causal,
                                                      const PanelExtent &twoSided,
                                                      const std::atomic<bool> *cancel) const = 0;

    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;

private:
    QString m_name, m_title, m_summary;
};

} // namespace posenc
