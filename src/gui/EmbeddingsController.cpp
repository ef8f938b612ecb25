#include "EmbeddingsController.h"

#include "core/FamilySpec.h"

#include "ControlPanel.h"
#include "ParamLabels.h"

#include "core/ClosedForms.h"
#include "core/MatrixColumns.h"
#include "render/PlotStyle.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

EmbeddingsController::EmbeddingsController(ControlPanel *controls, MatrixLoader *loader, QObject *parent)
    : QObject(parent)
    , m_controls(controls)
    , m_loader(loader)
{
    // A session opened with a matrix brings a matrix these statistics are not of.
    connect(m_controls, &ControlPanel::paramsChanged, this, [this](const Params &params) {
        if (params.embeddings != m_matrix) {
            m_matrix = params.embeddings;
            const auto known = m_loader->statisticsOf(m_matrix);
            m_statistics = known ? *known : m_matrix ? MatrixStatistics::of(m_matrix->values) : MatrixStatistics {};
            emit embeddingsChanged();
        }
    });
}

std::optional<std::vector<TensorInfo>> EmbeddingsController::list(const QString &path)
{
    auto tensors = MatrixFile::list(path);
    if (!tensors) {
        emit failed(tr("Cannot read the embeddings"), tensors.error().toString());
        return std::nullopt;
    }
    return tensors.value();
}

void EmbeddingsController::load(const MatrixSource &source, bool positionTable)
{
    MatrixLoader::Request request;
    request.source = source;
    request.minRows = m_controls->params().maxLen;
    request.memoryBudget = m_controls->params().memoryBudget;
    m_loader->load(request, [this, positionTable](const ReadResult<LoadedMatrix> &loaded) {
        if (!loaded) {
            emit failed(positionTable ? tr("Cannot read the position table") : tr("Cannot read the embeddings"),
                        loaded.error().toString());
            return;
        }
        if (positionTable) {
            usePositionTable(*loaded->matrix);
            return;
        }
        Params p = m_controls->params();
        const std::int64_t rows = loaded->matrix->values.rows();
        const std::int64_t cols = loaded->matrix->values.cols();
        p.embeddings = loaded->matrix;
        p.dModel = dModelOfMatrix(p, cols);
        p.maxLen = std::min(p.maxLen, rows);
        if (p.seqLen && *p.seqLen > p.maxLen)
            p.seqLen.reset();
        QStringList problems;
        for (const ParamError &e : p.validate())
            problems << ParamLabels::text(e);
        if (!problems.isEmpty()) {
            emit failed(tr("Cannot use the embeddings"),
                        tr("%1: %2").arg(loaded->matrix->source, problems.join(u'\n')));
            return;
        }
        m_matrix = loaded->matrix;
        m_statistics = loaded->statistics;
        m_controls->applyParams(p);
        emit embeddingsChanged();
    });
}

void EmbeddingsController::usePositionTable(const EmbeddingMatrix &matrix)
{
    // The learned family's table: its columns are the position term's (d_model in a sum, pe_dims
    // in a concatenation), and max_len at most its rows past the offset. Its family is the one whose
    // parameters hold the position table (FamilySpec::tableKey).
    Params p = m_controls->params();
    p.encoding = Families::holdingTable(u"position-table"_s).value_or(p.encoding);
    p.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {matrix.values, matrix.source});
    const std::int64_t cols = matrix.values.cols();
    if (p.concatenates())
        p.peDims = cols;
    else if (!p.embeddings)
        p.dModel = cols;
    p.maxLen = std::max<std::int64_t>(1, std::min(p.maxLen, matrix.values.rows() - p.learned.offset));
    if (p.seqLen && *p.seqLen > p.maxLen)
        p.seqLen.reset();
    QStringList problems;
    for (const ParamError &e : p.validate())
        problems << ParamLabels::text(e);
    if (!problems.isEmpty()) {
        emit failed(tr("Cannot use the position table"), tr("%1: %2").arg(matrix.source, problems.join(u'\n')));
        return;
    }
    m_controls->applyParams(p);
    emit embeddingsChanged();
}

void EmbeddingsController::useRandom()
{
    Params p = m_controls->params();
    if (!p.embeddings)
        return;
    p.embeddings.reset();
    m_matrix.reset();
    m_statistics = {};
    m_controls->applyParams(p);
    emit embeddingsChanged();
}

void EmbeddingsController::adopt(const Params &params)
{
    m_matrix = params.embeddings;
    m_statistics = m_matrix ? MatrixStatistics::of(m_matrix->values) : MatrixStatistics {};
    emit embeddingsChanged();
}

bool EmbeddingsController::isLoaded() const
{
    return m_controls->params().embeddings != nullptr;
}

QString EmbeddingsController::statisticsText() const
{
    if (!isLoaded())
        return {};
    const Params &p = m_controls->params();
    // Every PE row has norm sqrt(d/2) (even d), so each cell's RMS is 1/sqrt(2).
    return tr("E (%1 × %2): mean ‖row‖ %3, σ %4  ·  PE: ‖row‖ √(d/2) = %5, RMS %6")
        .arg(FigureText::formatCount(m_statistics.rows), FigureText::formatCount(m_statistics.cols),
             NumberText::compact(m_statistics.meanRowNorm), NumberText::compact(m_statistics.sigma),
             NumberText::compact(std::sqrt(ClosedForms::peNormSquared(p.peColumns()))),
             NumberText::compact(std::sqrt(0.5)));
}

} // namespace posenc
