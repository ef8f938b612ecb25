// A checked table's file read where its pages lie (TableFile, MappedFile): the rows given in place
// are the file's cells, and a file cut short after it was opened, even while its mapped rows are
// being compared, is reported as a short read is ("the file ended at byte N while it was being
// read", exit 3 on the command line), never a bus error that ends the process.
#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Engine.h"
#include "core/Quantity.h"
#include "io/NpyWriter.h"
#include "io/TableFile.h"
#include "support/TestMain.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>

namespace tst_tablefile {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A .npy of float32 `values` (rows x cols, row-major) with the given dtype's header.
QString writeNpy(const QTemporaryDir &dir, const QString &name, std::int64_t rows, std::int64_t cols,
                 const std::vector<float> &values, const char *descr = "<f4")
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write the table");
    const QByteArray dict = "{'descr': '"_ba + descr + "', 'fortran_order': False, 'shape': ("_ba
        + QByteArray::number(qint64(rows)) + ", "_ba + QByteArray::number(qint64(cols)) + "), }"_ba;
    file.write(wrapNpyHeader(dict));
    QByteArray data(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
    if (descr[0] == '>') {
        for (qsizetype i = 0; i < data.size(); i += 4)
            std::reverse(data.begin() + i, data.begin() + i + 4);
    }
    file.write(data);
    return path;
}

// Cell (r, c) of the tables of values: r * 1000 + c, exact in float32.
std::vector<float> countingCells(std::int64_t rows, std::int64_t cols)
{
    std::vector<float> values(std::size_t(rows * cols));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            values[std::size_t(r * cols + c)] = float(r * 1000 + c);
    return values;
}

// The sinusoidal PE (rows x cols), as posenc writes it: a table the check identifies.
std::vector<float> sinusoid(std::int64_t rows, std::int64_t cols)
{
    Params p;
    p.dModel = cols;
    p.maxLen = rows;
    RowMatrixXf table(rows, cols);
    Engine(p).compute(Quantity::Pe, {0, rows, 0, cols}, table);
    return std::vector<float>(table.data(), table.data() + rows * cols);
}

std::shared_ptr<const TableRows> opened(const QString &path)
{
    const auto rows = TableFile::open(MatrixSource {path, std::nullopt}, std::uint64_t(1) << 30);
    if (!rows)
        qFatal("the table does not open");
    return rows.value();
}

// A table whose file is cut to `bytes` the first time the stream asks for rows from `row` on in
// place: before the rows are given (`afterGiven` false), or once they were, while the stream
// compares them.
class CutWhenAsked final : public DerivedRows
{
public:
    CutWhenAsked(std::shared_ptr<const TableRows> rows, QString path, std::int64_t row, qint64 bytes, bool afterGiven)
        : DerivedRows(std::move(rows))
        , m_path(std::move(path))
        , m_row(row)
        , m_bytes(bytes)
        , m_afterGiven(afterGiven)
    { }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        return m_rows->read(row0, count, out, error);
    }
    const float *rowsInPlace(std::int64_t row0, std::int64_t count) const override
    {
        const bool cutting = row0 >= m_row && !m_cut.exchange(true);
        if (cutting && !m_afterGiven)
            QFile::resize(m_path, m_bytes);
        const float *rows = m_rows->rowsInPlace(row0, count);
        if (cutting && m_afterGiven)
            QFile::resize(m_path, m_bytes);
        return rows;
    }
    bool rowsHeld(std::int64_t row0, std::int64_t count, QString &error) const override
    {
        return m_rows->rowsHeld(row0, count, error);
    }
    bool cut() const { return m_cut; }

private:
    QString m_path;
    std::int64_t m_row;
    qint64 m_bytes;
    bool m_afterGiven;
    mutable std::atomic<bool> m_cut {false};
};

} // namespace

class TestTableFile : public QObject
{
    Q_OBJECT

private slots:
    // A native float32 table's rows where they lie are its cells; a table of other cells (big
    // endian, float64) gives none in place and is read.
    void rowsInPlaceAreTheFilesCells()
    {
        QTemporaryDir dir;
        constexpr std::int64_t kRows = 300, kCols = 40;
        const std::vector<float> values = countingCells(kRows, kCols);
        const auto rows = opened(writeNpy(dir, u"t.npy"_s, kRows, kCols, values));
        const float *lying = rows->rowsInPlace(5, 10);
        QVERIFY(lying != nullptr);
        for (std::int64_t i = 0; i < 10 * kCols; ++i)
            QCOMPARE(lying[i], float((5 + i / kCols) * 1000 + i % kCols));
        QString error;
        QVERIFY(rows->rowsHeld(5, 10, error));
        QVERIFY(rows->rowsInPlace(0, kRows) != nullptr);
        QCOMPARE(rows->rowsInPlace(290, 11), nullptr); // past the table

        const auto swapped = opened(writeNpy(dir, u"b.npy"_s, kRows, kCols, values, ">f4"));
        QCOMPARE(swapped->rowsInPlace(5, 10), nullptr);
        std::vector<float> read(std::size_t(10 * kCols));
        QVERIFY(swapped->read(5, 10, read.data(), error));
        QCOMPARE(read[std::size_t(kCols + 3)], 6003.0f);
    }

    void cutAfterItWasGiven_data()
    {
        QTest::addColumn<qint64>("cut");
        // The data start at byte 128 (the .npy header, tested below), its rows 256 bytes each.
        QTest::newRow("at a page's end") << qint64(8192);
        QTest::newRow("inside a page") << qint64(8192 + 100);
        QTest::newRow("inside the header") << qint64(50);
    }
    // Rows given in place, then the file cut short before they are read: reading them is no bus
    // error, and the rows are not held, with the byte where the file now ends.
    void cutAfterItWasGiven()
    {
        QFETCH(qint64, cut);
        QTemporaryDir dir;
        constexpr std::int64_t kRows = 1000, kCols = 64;
        const QString path = writeNpy(dir, u"t.npy"_s, kRows, kCols, countingCells(kRows, kCols));
        QCOMPARE(QFileInfo(path).size() - kRows * kCols * 4, 128);
        const auto rows = opened(path);
        const float *lying = rows->rowsInPlace(0, kRows);
        QVERIFY(lying != nullptr);
        QVERIFY(QFile::resize(path, cut));
        double sum = 0.0;
        for (std::int64_t i = 0; i < kRows * kCols; ++i)
            sum += static_cast<const volatile float *>(lying)[i];
        QVERIFY(sum >= 0.0);
        QString error;
        QVERIFY(!rows->rowsHeld(0, kRows, error));
        QCOMPARE(error, u"the file ended at byte %1 while it was being read"_s.arg(cut));
        // Asked again: none in place, and a read says where the file ends.
        QCOMPARE(rows->rowsInPlace(0, kRows), nullptr);
        std::vector<float> read(std::size_t(kRows * kCols));
        error.clear();
        QVERIFY(!rows->read(0, kRows, read.data(), error));
        QVERIFY2(error.startsWith(u"the file ended at byte "_s), qPrintable(error));
    }

    void checkOfAFileCutWhileChecked_data()
    {
        QTest::addColumn<bool>("afterGiven");
        QTest::addColumn<int>("threads");
        QTest::newRow("cut before its rows are given") << false << 1;
        QTest::newRow("cut while they are compared") << true << 1;
        QTest::newRow("cut while they are compared, 2 threads") << true << 2;
    }
    // The check of a file cut short halfway through the stream: the verification's error names
    // the byte where the file ends (exit 3 on the command line), as a short read's does.
    void checkOfAFileCutWhileChecked()
    {
        QFETCH(bool, afterGiven);
        QFETCH(int, threads);
        QTemporaryDir dir;
        constexpr std::int64_t kRows = 8192, kCols = 64;
        const QString path = writeNpy(dir, u"pe.npy"_s, kRows, kCols, sinusoid(kRows, kCols));
        const auto rows = opened(path);
        auto identified = TableCheck::identify(*rows, {});
        QVERIFY(std::holds_alternative<TableMatch>(identified));
        const TableMatch match = std::get<TableMatch>(std::move(identified));
        TableCheck::StreamOptions options;
        options.threads = threads;
        QVERIFY(!TableCheck::verify(match, *rows, options).error);

        // Cut at row 4096's first byte when the stream asks for it.
        const qint64 header = QFileInfo(path).size() - kRows * kCols * 4;
        const qint64 cut = header + 4096 * kCols * 4;
        const CutWhenAsked cutting(rows, path, 4096, cut, afterGiven);
        const TableCheck::Verification v = TableCheck::verify(match, cutting, options);
        QVERIFY(cutting.cut());
        QVERIFY(v.error);
        QCOMPARE(*v.error, u"the file ended at byte %1 while it was being read"_s.arg(cut));
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableFile)
} // namespace tst_tablefile
#include "tst_tablefile.moc"
