#pragma once

#include "MatrixLoader.h"

#include <QJsonObject>
#include <QObject>

namespace posenc {

class ControlPanel;

// Real embeddings in the window (docs/ARCHITECTURE.md, The mathematics): a matrix of a .npy / .safetensors file
// read off the GUI thread (MatrixLoader) and applied through the control panel, d_model from
// its columns and max_len at most its rows; or the seeded random embeddings again. A file that
// cannot be read changes nothing and is reported through failed().
class EmbeddingsController : public QObject
{
    Q_OBJECT

public:
    EmbeddingsController(ControlPanel *controls, MatrixLoader *loader, QObject *parent = nullptr);

    // The arrays of a file, for a picker (headers only); failed() when it cannot be listed.
    std::optional<std::vector<TensorInfo>> list(const QString &path);
    // Reads the matrix and applies it: as the token embeddings, or with `positionTable` as the
    // learned family's position table (the encoding becomes learned).
    void load(const MatrixSource &source, bool positionTable);
    void useRandom();
    // Takes the matrix of parameters given at start (posenc --embeddings): its statistics.
    void adopt(const Params &params);

    bool isLoaded() const;
    const MatrixStatistics &statistics() const { return m_statistics; }
    // "E: mean ‖row‖ 3.4, σ 0.14  ·  PE: √(d/2) = 19.6, RMS 0.707", empty without a matrix.
    QString statisticsText() const;

signals:
    void failed(const QString &title, const QString &message);
    // A matrix was applied, or the random embeddings came back.
    void embeddingsChanged();

private:
    void usePositionTable(const EmbeddingMatrix &matrix);

    ControlPanel *m_controls;
    MatrixLoader *m_loader;
    MatrixStatistics m_statistics;
    std::shared_ptr<const EmbeddingMatrix> m_matrix; // the matrix the statistics are of
};

} // namespace posenc
