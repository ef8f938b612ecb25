#include "BatchFiles.h"

#include "ControlPanel.h"
#include "FileDialogs.h"
#include "MatrixLoader.h"
#include "ParamLabels.h"

#include "core/positions/BatchTables.h"

using namespace Qt::StringLiterals;

namespace posenc {

BatchFiles::BatchFiles(QWidget *window, ControlPanel *controls, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_controls(controls)
    , m_loader(new MatrixLoader(this))
{ }

bool BatchFiles::holds(const QString &key)
{
    return key == u"attention-mask"_s || key == u"document-ids"_s;
}

void BatchFiles::choose(const QString &key)
{
    const bool mask = key == u"attention-mask"_s;
    FileDialogs::askOpen(m_window, mask ? tr("Load an attention mask") : tr("Load document ids"), QString(),
                         tr("Matrices (*.npy *.safetensors);;All files (*)"),
                         [this, key](const QString &path) { load(key, path); });
}

void BatchFiles::load(const QString &key, const QString &path)
{
    MatrixLoader::Request request;
    request.source = {path, std::nullopt};
    request.minRows = BatchParams::kMaxRows;
    request.memoryBudget = m_controls->params().memoryBudget;
    m_loader->load(request, [this, key](const ReadResult<LoadedMatrix> &loaded) {
        const bool mask = key == u"attention-mask"_s;
        if (!loaded) {
            emit failed(mask ? tr("Cannot read the attention mask") : tr("Cannot read the document ids"),
                        loaded.error().toString());
            return;
        }
        const EmbeddingMatrix &matrix = *loaded->matrix;
        auto table = std::make_shared<const BatchTable>(BatchTables::fromMatrix(matrix.values, mask, matrix.source));
        Params p = m_controls->params();
        // The table's columns are the rows' length.
        p.maxLen = std::max<std::int64_t>(1, table->cols);
        (mask ? p.batch.mask : p.batch.documents) = std::move(table);
        if (mask)
            p.batch.lengths.clear();
        else
            p.batch.packed.clear();
        QStringList problems;
        for (const ParamError &e : p.validate())
            problems << ParamLabels::text(e);
        if (!problems.isEmpty()) {
            emit failed(mask ? tr("Cannot use the attention mask") : tr("Cannot use the document ids"),
                        tr("%1: %2").arg(matrix.source, problems.join(u'\n')));
            return;
        }
        m_controls->applyParams(p);
    });
}

void BatchFiles::clear()
{
    Params p = m_controls->params();
    if (!p.batch.mask && !p.batch.documents)
        return;
    p.batch.mask.reset();
    p.batch.documents.reset();
    m_controls->applyParams(p);
}

} // namespace posenc
