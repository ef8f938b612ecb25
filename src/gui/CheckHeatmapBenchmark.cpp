#include "CheckHeatmapBenchmark.h"

#include "TableCheckDialog.h"

#include "core/Engine.h"
#include "io/NpyWriter.h"
#include "render/QCustomPlot.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::CheckHeatmapBenchmark {

namespace {

constexpr qint64 kGiveUpMs = 120000;
// Writing and checking 4 GiB takes a minute or more on a busy machine.
constexpr qint64 kStartGiveUpMs = 900000;
constexpr int kZoomsEachWay = 10;
constexpr std::int64_t kWriteBytes = std::int64_t(64) << 20; // a block of rows written at once

// The sinusoid's .npy, a block of rows at a time.
bool writeTable(const QString &path, std::int64_t rows, std::int64_t cols, QTextStream &err)
{
    Params params;
    params.dModel = cols;
    params.maxLen = rows;
    const std::int64_t blockRows = std::clamp<std::int64_t>(kWriteBytes / (4 * cols), 1, rows);
    const Engine engine(params);
    QFile file(path);
    bool ok = file.open(QIODevice::WriteOnly);
    const QByteArray header = npyHeader(rows, cols);
    ok = ok && file.write(header) == header.size();
    RowMatrixXf block(blockRows, cols);
    for (std::int64_t r = 0; ok && r < rows; r += blockRows) {
        const std::int64_t n = std::min(blockRows, rows - r);
        engine.compute(Quantity::Pe, {r, n, 0, cols}, block.topRows(n));
        const auto bytes = qint64(n * cols * qint64(sizeof(float)));
        ok = file.write(reinterpret_cast<const char *>(block.data()), bytes) == bytes;
    }
    if (!ok)
        err << "posenc bench: " << path << ": " << file.errorString() << '\n';
    return ok;
}

// Zoom i of the sequence, as the wheel does it (QCPAxisRect::wheelEvent): both axes scaled about
// a point of the table, then the plot repainted. Each round of ten zooms in and ten out takes
// another point.
void zoom(TableCheckDialog &dialog, std::int64_t rows, std::int64_t cols, int i)
{
    const int round = i / (2 * kZoomsEachWay);
    const bool in = i % (2 * kZoomsEachWay) < kZoomsEachWay;
    const double golden = 0.6180339887498949;
    const double along = 0.1 + 0.8 * std::fmod(0.3 + round * golden, 1.0);
    QCPAxisRect *rect = dialog.errorPlot()->axisRect();
    rect->axis(QCPAxis::atBottom)->scaleRange(in ? 0.5 : 2.0, along * double(cols));
    rect->axis(QCPAxis::atLeft)->scaleRange(in ? 0.5 : 2.0, (1.0 - along) * double(rows));
    dialog.errorPlot()->replot();
}

bool showsView(const TableCheckDialog &dialog)
{
    return dialog.errorGrid().block == dialog.viewBlock() && dialog.errorGrid().rows > 0;
}

} // namespace

InteractionBenchmark::Result run(std::int64_t rows, std::int64_t cols, int changes, QTextStream &err)
{
    using InteractionBenchmark::percentile;
    InteractionBenchmark::Result result;
    if (changes <= 0)
        return result;
    QTemporaryDir dir;
    const QString path = dir.filePath(u"check-heatmap.npy"_s);
    if (!dir.isValid() || !writeTable(path, rows, cols, err)) {
        result.incomplete = u"the table could not be written"_s;
        return result;
    }
    TableCheckDialog dialog(MatrixSource {path, std::nullopt}, Params().memoryBudget, {}, {});
    dialog.resize(900, 860);
    dialog.show();
    const auto exact = [&] { return showsView(dialog) && !dialog.errorGridIsPreview(); };
    if (!InteractionBenchmark::runUntil(
            [&] { return !dialog.isChecking() && (!dialog.problem().isEmpty() || exact()); }, kStartGiveUpMs)
        || !dialog.problem().isEmpty()) {
        result.incomplete = dialog.problem().isEmpty()
            ? u"the table was not checked within %1 s"_s.arg(kStartGiveUpMs / 1000)
            : dialog.problem();
        return result;
    }
    std::vector<double> firstDraw, fullDraw, guiCpu;
    for (int i = 0; i < changes; ++i) {
        const Block before = dialog.viewBlock();
        QElapsedTimer timer;
        timer.start();
        const double cpuBefore = InteractionBenchmark::threadCpuMs();
        zoom(dialog, rows, cols, i);
        if (dialog.viewBlock() == before)
            continue; // clamped to the table: nothing new to draw
        if (!InteractionBenchmark::runUntil([&] { return showsView(dialog); }, kGiveUpMs)) {
            result.incomplete = u"zoom %1 was not drawn within %2 s"_s.arg(i + 1).arg(kGiveUpMs / 1000);
            break;
        }
        firstDraw.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        guiCpu.push_back(InteractionBenchmark::threadCpuMs() - cpuBefore);
        // At the deepest zoom of a round, the user pauses: every cell in view.
        if (i % (2 * kZoomsEachWay) == kZoomsEachWay - 1) {
            if (!InteractionBenchmark::runUntil(exact, kGiveUpMs)) {
                result.incomplete = u"zoom %1 was not exact within %2 s"_s.arg(i + 1).arg(kGiveUpMs / 1000);
                break;
            }
            fullDraw.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
    }
    dialog.close();
    result.changes = static_cast<int>(firstDraw.size());
    result.p50Ms = percentile(firstDraw, 0.5);
    result.p95Ms = percentile(firstDraw, 0.95);
    result.maxMs = percentile(firstDraw, 1.0);
    result.settledP95Ms = percentile(fullDraw, 0.95);
    result.guiCpuP50Ms = percentile(guiCpu, 0.5);
    result.guiCpuP95Ms = percentile(guiCpu, 0.95);
    return result;
}

} // namespace posenc::CheckHeatmapBenchmark
