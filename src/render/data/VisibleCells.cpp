#include "VisibleCells.h"

#include <algorithm>
#include <cmath>

namespace posenc::VisibleCells {

namespace {

// Output pixels that cells [first, end) cover on an axis of `extent` layout units showing `range`.
int span(const ViewRange &range, double extent, double pixelRatio, std::int64_t first, std::int64_t end)
{
    const int limit = std::max(1, static_cast<int>(std::ceil(extent * pixelRatio)));
    const double units = std::abs(static_cast<double>(end - first)) * extent / std::abs(range.size());
    return std::clamp(static_cast<int>(std::ceil(units * pixelRatio)), 1, limit);
}

} // namespace

std::optional<TableRequest> queryKeyCells(Quantity quantity, std::int64_t maxLen, const FigureState &state)
{
    const ViewRange all = wholeRows({maxLen, maxLen});
    const ViewRange queries = state.range(QString::fromUtf16(kQueriesAxis)).value_or(all);
    const ViewRange keys = state.range(QString::fromUtf16(kKeysAxis)).value_or(all);
    const auto rows = TableView::cellsInView(queries.lower, queries.upper, maxLen);
    const auto cols = TableView::cellsInView(keys.lower, keys.upper, maxLen);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         quantity,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

HeatmapRequest request(const PanelExtent &panel, Quantity quantity, Shape table)
{
    HeatmapRequest request;
    request.quantity = quantity;
    request.block = HeatmapResampler::visibleBlock(table, panel.x.lower, panel.x.upper, panel.y.lower, panel.y.upper);
    request.pixelCols = span(panel.x, panel.size.width(), panel.pixelRatio, request.block.col0, request.block.colEnd());
    request.pixelRows
        = span(panel.y, panel.size.height(), panel.pixelRatio, request.block.row0, request.block.rowEnd());
    return request;
}

QString refusal(const Engine &engine, Quantity quantity, const Block &block)
{
    return engine.check(quantity, {block.row0, 1, block.col0, block.cols})
        .value_or(QStringLiteral("%1: the engine refused rows of %2 columns within the memory budget")
                      .arg(Quantities::name(quantity))
                      .arg(block.cols));
}

ViewRange wholeColumns(Shape shape)
{
    return {-0.5, static_cast<double>(shape.cols) - 0.5};
}

ViewRange wholeRows(Shape shape)
{
    return {-0.5, static_cast<double>(shape.rows) - 0.5};
}

} // namespace posenc::VisibleCells
