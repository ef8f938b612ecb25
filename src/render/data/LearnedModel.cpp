#include "LearnedModel.h"

#include "core/ParamInputs.h"

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
    return u"a learned position table (the embeddings) beside the sinusoidal PE: both tables, their "
           "similarities and their norms"_s;
}

QList<Quantity> LearnedModel::inputs(const FigureState &) const
{
    // The PE's parameters and the matrix (which the embedding reads).
    return {Quantity::Pe, Quantity::Embedding};
}

QList<ParamError> LearnedModel::checkOptions(const Params &params, const FigureState &) const
{
    const QString embeddings = QString::fromUtf16(ParamInputs::kEmbeddingsKey);
    if (!params.embeddings)
        return {{embeddings, QString(),
                 u"a .npy or .safetensors file is needed: the learned figure compares the learned position "
                 "table it holds, loaded as the embeddings, with the sinusoidal PE"_s,
                 std::nullopt}};
    if (params.embeddings->values.rows() < params.maxLen)
        return {{u"max-len"_s, QString(),
                 u"is %1, but the learned table %2 has %3 rows"_s.arg(params.maxLen)
                     .arg(params.embeddings->source)
                     .arg(params.embeddings->values.rows()),
                 std::nullopt}};
    return {};
}

FigureResult LearnedModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Params &params = request.engine->params();
    // Rows 0..L-1 of the loaded matrix (check() made sure of them).
    const RowMatrixXf &all = params.embeddings->values;
    const RowMatrixXf copy = all.rows() == params.maxLen ? RowMatrixXf() : RowMatrixXf(all.topRows(params.maxLen));
    const RowMatrixXf &learned = all.rows() == params.maxLen ? all : copy;
    // The pixels of the panels: a table panel's, and a similarity panel's smaller side.
    const PanelExtent table = request.panels.value(0);
    const PanelExtent similarity = request.panels.value(2);
    const QSize tablePixels
        = QSize(std::max(table.size.width(), 1), std::max(table.size.height(), 1)) * table.pixelRatio;
    const int similarityPixels = static_cast<int>(
        std::max(std::min(similarity.size.width(), similarity.size.height()), 1) * similarity.pixelRatio);
    auto data = LearnedCompute::compute(learned, params, tablePixels, similarityPixels, &cancel);
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, u"learned: the figure could not be computed"_s};
    }
    return {std::make_shared<const LearnedData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
