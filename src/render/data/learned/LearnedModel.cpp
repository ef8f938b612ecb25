#include "LearnedModel.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString LearnedModel::name() const
{
    return u"learned"_s;
}

QString LearnedModel::title() const
{
    return u"Learned vs sinusoidal"_s;
}

QString LearnedModel::summary() const
{
    return u"the learned family's position table beside the sinusoidal PE of its shape: both tables, their "
           "similarities and their norms, the padding rows before the offset marked"_s;
}

QList<Quantity> LearnedModel::inputs(const FigureState &) const
{
    // The table, its offset, and the sinusoid's parameters of the reference.
    return {Quantity::Pe};
}

FigureResult LearnedModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Params &params = request.engine->params();
    if (!params.learned.table) // check() refuses these parameters; a caller that skipped it gets the reason
        return {nullptr, u"learned: the figure needs encoding learned and its position table"_s};
    // The table's rows up to the last position: the padding rows before the offset, then rows
    // offset .. offset + L - 1 (the parameters were checked to have them).
    const RowMatrixXf &all = params.learned.table->values;
    const std::int64_t used = params.learned.offset + params.maxLen;
    const RowMatrixXf copy = all.rows() == used ? RowMatrixXf() : RowMatrixXf(all.topRows(used));
    const RowMatrixXf &learned = all.rows() == used ? all : copy;
    // The pixels of the panels: a table panel's, and a similarity panel's smaller side.
    const PanelExtent table = request.panels.value(0);
    const PanelExtent similarity = request.panels.value(2);
    const QSize tablePixels
        = QSize(std::max(table.size.width(), 1), std::max(table.size.height(), 1)) * table.pixelRatio;
    const int similarityPixels = static_cast<int>(
        std::max(std::min(similarity.size.width(), similarity.size.height()), 1) * similarity.pixelRatio);
    auto data = LearnedCompute::compute(learned, params.learned.offset, params, tablePixels, similarityPixels, &cancel);
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, u"learned: the figure could not be computed"_s};
    }
    return {std::make_shared<const LearnedData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
