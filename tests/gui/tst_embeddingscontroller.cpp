#include "gui/ControlPanel.h"
#include "gui/EmbeddingsController.h"
#include "gui/MainWindow.h"
#include "gui/SessionController.h"
#include "gui/TensorPicker.h"
#include "support/TestMain.h"
#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include "core/PositionalTable.h"
#include "io/NpyWriter.h"

#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <cmath>

namespace tst_embeddingscontroller {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;
using namespace WindowFixture;

namespace {

// Cell (p, j) = sin(0.3 p + 0.7 j): smooth, signed, every cell different.
RowMatrixXf knownMatrix(std::int64_t rows, std::int64_t cols, double shift = 0.0)
{
    RowMatrixXf m(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t j = 0; j < cols; ++j)
            m(p, j) = static_cast<float>(std::sin(0.3 * double(p) + 0.7 * double(j) + shift));
    return m;
}

QByteArray f32Bytes(const RowMatrixXf &m)
{
    return QByteArray(reinterpret_cast<const char *>(m.data()), m.size() * 4); // little-endian host
}

// A .safetensors file from its parts: 8-byte header length, JSON header, data.
bool writeSafetensors(const QString &path, const QByteArray &header, const QByteArray &data)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    const quint64 n = header.size();
    QByteArray bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[i] = char((n >> (8 * i)) & 0xff);
    return file.write(bytes + header + data) == 8 + header.size() + data.size();
}

bool settled(const MainWindow &window)
{
    return window.isSettled();
}

// The heatmap of s*E, cell by cell, against the file's rows times s.
QString embeddingMismatch(const FigureView &view, const RowMatrixXf &rows, double s)
{
    const HeatmapGrid *grid = WindowViews::grid(&view);
    if (!grid || grid->quantity != Quantity::Embedding)
        return u"no grid of s*E"_s;
    if (grid->rows != grid->block.rows || grid->cols != grid->block.cols || grid->block.row0 != 0)
        return u"not one cell per table cell"_s;
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < grid->cols; ++b)
            if (std::abs(grid->at(a, b) - s * rows(a, grid->block.col0 + b)) > 1e-5)
                return u"cell (%1, %2): %3 vs %4"_s.arg(a).arg(b).arg(grid->at(a, b)).arg(s * rows(a, b));
    return {};
}

} // namespace

// Real embeddings in the window: a .npy or a tensor of a .safetensors file read off the GUI
// thread, the learned position table beside the sinusoidal one, errors that change nothing.
class TestEmbeddingsController : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void npyRowsBecomeTheEmbeddings();
    void pickerListsNamesDtypesAndShapes();
    void safetensorsTensorIsLoadedAndShownAsAPositionTable();
    void malformedFileChangesNothing();
    void latestLoadWins();
    void gpt2SizedMatrixLoadsWhileTheEventLoopRuns();
    void peTableReadAsLearnedHasTheSinusoidalSimilarity();
    void sessionWithEmbeddingsReopensTheSameTables();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestEmbeddingsController::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestEmbeddingsController::npyRowsBecomeTheEmbeddings()
{
    const RowMatrixXf m = knownMatrix(30, 16);
    const QString path = m_dir->filePath(u"tokens.npy"_s);
    QVERIFY(!writeNpy(path, m));
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    heatmapView(window)->setOption(u"quantity"_s, u"embedding"_s);
    QSignalSpy changed(window.embeddings(), &EmbeddingsController::embeddingsChanged);
    QSignalSpy failed(window.embeddings(), &EmbeddingsController::failed);
    window.embeddings()->load({path, std::nullopt}, false);
    QTRY_VERIFY(changed.size() == 1 || failed.size() == 1);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(1).toString()));
    const Params p = window.controlPanel()->params();
    QVERIFY(p.embeddings);
    QCOMPARE(p.dModel, 16);
    QCOMPARE(p.maxLen, 30); // at most the matrix's rows
    QVERIFY(p.embeddings->values == m);
    QTRY_VERIFY(settled(window));
    const QString mismatch = embeddingMismatch(*heatmapView(window), m, 4.0); // s = sqrt(16)
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    // d_model comes from the matrix: its control is disabled and says why.
    auto *dModel = window.controlPanel()->findChild<QWidget *>(u"dModelSpin"_s);
    QVERIFY(!dModel->isEnabled());
    QVERIFY(dModel->toolTip().contains(u"16 columns"_s));
    QVERIFY(window.matrixNote().contains(u"σ"_s));
    QCOMPARE(p.encoding, Encoding::Sinusoidal); // embeddings, not a position table

    window.embeddings()->useRandom();
    QVERIFY(!window.controlPanel()->params().embeddings);
    QVERIFY(dModel->isEnabled());
    QVERIFY(window.matrixNote().isEmpty());
}

void TestEmbeddingsController::pickerListsNamesDtypesAndShapes()
{
    const QString path = m_dir->filePath(u"model.safetensors"_s);
    const QByteArray header = R"({"bias":{"dtype":"F32","shape":[8],"data_offsets":[0,32]},)"
                              R"("wpe":{"dtype":"F32","shape":[10,8],"data_offsets":[32,352]},)"
                              R"("wte":{"dtype":"F32","shape":[20,8],"data_offsets":[352,992]}})";
    QVERIFY(writeSafetensors(path, header, QByteArray(992, '\0')));
    MainWindow window(small(), nullptr);
    const auto tensors = window.embeddings()->list(path);
    QVERIFY(tensors);
    TensorPicker picker(path, *tensors);
    QTreeWidget *list = picker.list();
    QCOMPARE(list->topLevelItemCount(), 3);
    QStringList rows;
    for (int i = 0; i < 3; ++i) {
        const QTreeWidgetItem *item = list->topLevelItem(i);
        rows << u"%1 %2 %3"_s.arg(item->text(0), item->text(1), item->text(2));
    }
    QCOMPARE(rows, (QStringList {u"bias F32 [8]"_s, u"wpe F32 [10, 8]"_s, u"wte F32 [20, 8]"_s}));
    // The 1-D tensor is shown but cannot be chosen, with the reason.
    QVERIFY(!(list->topLevelItem(0)->flags() & Qt::ItemIsSelectable));
    QVERIFY(list->topLevelItem(0)->text(3).contains(u"not a matrix"_s));
    // A position table is chosen first, and ticked as one.
    QCOMPARE(picker.selectedTensor(), u"wpe"_s);
    QVERIFY(picker.isPositionTable());
    picker.select(u"wte"_s);
    QCOMPARE(picker.selectedTensor(), u"wte"_s);
    QVERIFY(!picker.isPositionTable());
}

void TestEmbeddingsController::safetensorsTensorIsLoadedAndShownAsAPositionTable()
{
    const RowMatrixXf wpe = knownMatrix(10, 8, 0.25);
    const RowMatrixXf wte = knownMatrix(20, 8, 1.0);
    const QString path = m_dir->filePath(u"model.safetensors"_s);
    const QByteArray header = R"({"wpe":{"dtype":"F32","shape":[10,8],"data_offsets":[0,320]},)"
                              R"("wte":{"dtype":"F32","shape":[20,8],"data_offsets":[320,960]}})";
    QVERIFY(writeSafetensors(path, header, f32Bytes(wpe) + f32Bytes(wte)));
    MainWindow window(small(), nullptr);
    // Views wide enough for one cell per position, whatever the screen's size.
    window.resize(MainWindow::kDefaultSize);
    QVERIFY(WindowFixture::shown(window));
    QSignalSpy changed(window.embeddings(), &EmbeddingsController::embeddingsChanged);
    window.embeddings()->load({path, u"wte"_s}, false);
    QTRY_COMPARE(changed.size(), 1);
    QVERIFY(window.controlPanel()->params().embeddings->values == wte);
    QCOMPARE(window.controlPanel()->params().embeddings->source, path + u":wte"_s);
    window.embeddings()->load({path, u"wpe"_s}, true);
    QTRY_COMPARE(changed.size(), 2);
    // The position table of the learned family, beside the embeddings kept.
    const Params learned = window.controlPanel()->params();
    QCOMPARE(learned.encoding, Encoding::Learned);
    QVERIFY(learned.learned.table->values == wpe);
    QVERIFY(learned.embeddings->values == wte);
    QCOMPARE(learned.maxLen, 10);
    QVERIFY(window.viewOf(u"learned"_s));
    QTRY_VERIFY(settled(window));
    const LearnedData *data = WindowViews::data<LearnedData>(window.viewOf(u"learned"_s));
    QVERIFY(data);
    QCOMPARE(data->rows, 10);
    QCOMPARE(data->learned.rows, 10);
    QCOMPARE(data->learned.at(3, 5), wpe(3, 5));
}

void TestEmbeddingsController::malformedFileChangesNothing()
{
    const QString path = m_dir->filePath(u"broken.npy"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\x93NUMPY\x01\x00\xff\x7f{'descr': '<f4'");
    file.close();
    MainWindow window(small(), nullptr);
    const Session before = window.sessions()->current();
    QSignalSpy failed(window.embeddings(), &EmbeddingsController::failed);
    QSignalSpy changed(window.embeddings(), &EmbeddingsController::embeddingsChanged);
    window.embeddings()->load({path, std::nullopt}, false);
    QTRY_COMPARE(failed.size(), 1);
    QVERIFY2(failed[0][1].toString().contains(path), qPrintable(failed[0][1].toString()));
    QCOMPARE(changed.size(), 0);
    QVERIFY(!window.controlPanel()->params().embeddings);
    QVERIFY(window.sessions()->current() == before);
    QTRY_VERIFY(window.findChild<QMessageBox *>());
}

// Choosing another tensor while one is read: only the last choice is applied.
void TestEmbeddingsController::latestLoadWins()
{
    const RowMatrixXf wpe = knownMatrix(10, 8, 0.25);
    const RowMatrixXf wte = knownMatrix(20, 8, 1.0);
    const QString path = m_dir->filePath(u"model.safetensors"_s);
    const QByteArray header = R"({"wpe":{"dtype":"F32","shape":[10,8],"data_offsets":[0,320]},)"
                              R"("wte":{"dtype":"F32","shape":[20,8],"data_offsets":[320,960]}})";
    QVERIFY(writeSafetensors(path, header, f32Bytes(wpe) + f32Bytes(wte)));
    MainWindow window(small(), nullptr);
    QSignalSpy changed(window.embeddings(), &EmbeddingsController::embeddingsChanged);
    window.embeddings()->load({path, u"wte"_s}, false);
    window.embeddings()->load({path, u"wpe"_s}, false);
    QTRY_VERIFY(!window.matrixLoader()->isLoading());
    QCOMPARE(changed.size(), 1);
    QVERIFY(window.controlPanel()->params().embeddings->values == wpe);
}

// 50257 x 768 float32 (GPT-2's token embeddings, 154 MB) is read off the GUI thread: the
// event loop keeps turning while it loads.
void TestEmbeddingsController::gpt2SizedMatrixLoadsWhileTheEventLoopRuns()
{
    const std::int64_t rows = 50257, cols = 768;
    const QString path = m_dir->filePath(u"wte.npy"_s);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(npyHeader(rows, cols));
        const RowMatrixXf chunk = knownMatrix(1024, cols);
        for (std::int64_t r = 0; r < rows; r += 1024) {
            const std::int64_t n = std::min<std::int64_t>(1024, rows - r);
            QCOMPARE(file.write(reinterpret_cast<const char *>(chunk.data()), n * cols * 4), n * cols * 4);
        }
    }
    MainWindow window(small(), nullptr);
    int turns = 0;
    QTimer ticker;
    ticker.setInterval(0);
    connect(&ticker, &QTimer::timeout, this, [&] {
        if (window.matrixLoader()->isLoading())
            ++turns;
    });
    ticker.start();
    QSignalSpy changed(window.embeddings(), &EmbeddingsController::embeddingsChanged);
    window.embeddings()->load({path, std::nullopt}, false);
    QVERIFY(window.matrixLoader()->isLoading());
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 300000);
    QVERIFY(turns > 0);
    const Params p = window.controlPanel()->params();
    QCOMPARE(p.embeddings->values.rows(), rows); // all of it: max_len may go up to its rows
    QCOMPARE(p.dModel, cols);
    QCOMPARE(p.maxLen, 60);
    QCOMPARE(p.embeddings->values(50000, 7), knownMatrix(1024, cols)(50000 % 1024, 7));
    QCOMPARE(window.embeddings()->statistics().rows, rows);
}

// A PE table written by our own writer, read back as a "learned" table: its similarity is the
// sinusoidal one, and both are sum_i cos((p - q) w_i).
void TestEmbeddingsController::peTableReadAsLearnedHasTheSinusoidalSimilarity()
{
    const std::int64_t rows = 24, cols = 16;
    RowMatrixXf pe(rows, cols);
    PositionalTable(cols, 10000.0, Layout::Interleaved, Angles::Exact).fill({0, rows, 0, cols}, pe);
    const QString path = m_dir->filePath(u"wpe.npy"_s);
    QVERIFY(!writeNpy(path, pe));
    MainWindow window(small(), nullptr);
    // Views wide enough for one cell per position pair, whatever the screen's size.
    window.resize(MainWindow::kDefaultSize);
    QVERIFY(WindowFixture::shown(window));
    QSignalSpy changed(window.embeddings(), &EmbeddingsController::embeddingsChanged);
    window.embeddings()->load({path, std::nullopt}, true);
    QTRY_COMPARE(changed.size(), 1);
    QTRY_VERIFY(settled(window));
    const LearnedData *data = WindowViews::data<LearnedData>(window.viewOf(u"learned"_s));
    QVERIFY(data);
    QCOMPARE(data->learnedSimilarity.rows, int(rows)); // one cell per position pair at this size
    for (int p = 0; p < rows; ++p)
        for (int q = 0; q < rows; ++q) {
            double expected = 0.0;
            for (std::int64_t i = 0; i < cols / 2; ++i)
                expected += std::cos(double(p - q) * std::exp(-2.0 * double(i) * std::log(10000.0) / double(cols)));
            QVERIFY(std::abs(data->learnedSimilarity.at(p, q) - expected) < 1e-4);
            QVERIFY(std::abs(data->sinusoidalSimilarity.at(p, q) - expected) < 1e-4);
        }
}

void TestEmbeddingsController::sessionWithEmbeddingsReopensTheSameTables()
{
    const RowMatrixXf m = knownMatrix(30, 16);
    const QString matrix = m_dir->filePath(u"wpe-like.npy"_s);
    QVERIFY(!writeNpy(matrix, m));
    MainWindow first(small(), nullptr);
    QSignalSpy changed(first.embeddings(), &EmbeddingsController::embeddingsChanged);
    first.embeddings()->load({matrix, std::nullopt}, true);
    QTRY_COMPARE(changed.size(), 1);
    const QString a = m_dir->filePath(u"a.json"_s), b = m_dir->filePath(u"b.json"_s);
    QVERIFY(first.sessions()->save(a));

    MainWindow second(Params {}, nullptr);
    QSignalSpy opened(second.sessions(), &SessionController::opened);
    QVERIFY(second.sessions()->open(a));
    QTRY_COMPARE(opened.size(), 1);
    QCOMPARE(second.controlPanel()->params().encoding, Encoding::Learned);
    QVERIFY(second.controlPanel()->params().learned.table->values == m);
    QVERIFY(second.sessions()->save(b));
    QFile fa(a), fb(b);
    QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
    QCOMPARE(fb.readAll(), fa.readAll());
}

POSENC_TEST_MAIN(TestEmbeddingsController)
} // namespace tst_embeddingscontroller
#include "tst_embeddingscontroller.moc"
