// The CSV reader of `posenc check`: what numpy's savetxt and pandas write is read, and hostile
// text is refused with its line and column, within a bounded memory.
#include "io/CsvReader.h"
#include "support/TestMain.h"

#include <QtTest>

#include <atomic>

namespace tst_csvreader {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

ReadResult<CsvReader::Table> readText(const QByteArray &text, std::int64_t maxCells = 1 << 20)
{
    MemoryByteSource source(text, u"t.csv"_s);
    return CsvReader::read(source, maxCells);
}

} // namespace

class TestCsvReader : public QObject
{
    Q_OBJECT

private slots:
    void values_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::addColumn<float>("last");
        QTest::addColumn<double>("rounding");
        QTest::newRow("commas, exact numbers") << QByteArray("1,2,3\n4,5,6\n") << qint64(2) << qint64(3) << 6.0f << 0.0;
        QTest::newRow("numpy's savetxt, %.18e and spaces")
            << QByteArray("0.000000000000000000e+00 1.000000000000000000e+00\n"
                          "8.414709848078965049e-01 5.403023058681397650e-01\n")
            << qint64(2) << qint64(2) << 0.5403023058681397650f << 0.5e-19; // most cells' (1.0's is its own)
        QTest::newRow("%.6f, no final newline")
            << QByteArray("0.841471,0.540302") << qint64(1) << qint64(2) << 0.540302f << 0.5e-6;
        QTest::newRow("posenc table's header, blank lines, CRLF, spaces around commas")
            << QByteArray("# pe_0, pe_1\r\n\r\n  1.5 , -2e-3\r\n+3.25,4.\r\n\n") << qint64(2) << qint64(2) << 4.0f
            << 0.5e-2;
        // Before: a header line without '#' was refused as words. Now it is skipped, as pandas reads it.
        QTest::newRow("posenc table's header since pandas reads it")
            << QByteArray("pe_0,pe_1\n0,1\n0.841471,0.540302\n") << qint64(2) << qint64(2) << 0.540302f << 0.5e-6;
        QTest::newRow("pandas' to_csv of named columns, spaces")
            << QByteArray("# note\nsin cos.2 x-y\n1 2 3\n") << qint64(1) << qint64(3) << 3.0f << 0.0;
        QTest::newRow("tabs") << QByteArray("1\t2\n3\t4\n") << qint64(2) << qint64(2) << 4.0f << 0.0;
        QTest::newRow("%g: short numbers exact, long ones rounded")
            << QByteArray("0 1\n0.841471 0.540302\n1e-05 1\n") << qint64(3) << qint64(2) << 1.0f << 0.5e-6;
        QTest::newRow("tiny numbers round to 0") << QByteArray("1e-400,0\n") << qint64(1) << qint64(2) << 0.0f << 0.0;
        // Before: one line of 0 rows' columns, "line 0" in its messages.
        QTest::newRow("CR alone ends a line (the old Mac's)")
            << QByteArray("0.25,0.5\r0.75,1\r\r2,3") << qint64(3) << qint64(2) << 3.0f << 0.0;
        // Excel's "CSV UTF-8" and PowerShell start the file with a byte-order mark. Before: "'\xef\xbb\xbf0' is
        // not a number".
        QTest::newRow("a UTF-8 byte-order mark") << QByteArray("\xef\xbb\xbf"
                                                               "0,1\n0.5,2\n")
                                                 << qint64(2) << qint64(2) << 2.0f << 0.0;
        QTest::newRow("a byte-order mark before the header")
            << QByteArray("\xef\xbb\xbf# pe_0\n1\n") << qint64(1) << qint64(1) << 1.0f << 0.0;
    }
    void values()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        QFETCH(float, last);
        QFETCH(double, rounding);
        const auto table = readText(text);
        QVERIFY2(table.ok(), qPrintable(table.error().toString()));
        QCOMPARE(table->values.rows(), rows);
        QCOMPARE(table->values.cols(), cols);
        QCOMPARE(table->values(rows - 1, cols - 1), last);
        QVERIFY(std::fabs(table->textRounding - rounding) <= 1e-9 * rounding);
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("ragged") << QByteArray("1,2,3\n4,5\n")
                                << u"line 2: 2 columns where the first row (line 1) has 3"_s;
        QTest::newRow("longer row") << QByteArray("1,2\n3,4,5\n") << u"line 2: more than the 2 columns"_s;
        QTest::newRow("a word") << QByteArray("1,2\n3,x\n") << u"line 2: column 2: 'x' is not a number"_s;
        QTest::newRow("NaN") << QByteArray("1,nan\n") << u"line 1: column 2: 'nan' is not a finite number"_s;
        QTest::newRow("infinity") << QByteArray("1\n-inf\n") << u"line 2: column 1: '-inf' is not a finite number"_s;
        QTest::newRow("past float32") << QByteArray("1e39\n") << u"line 1: column 1: '1e39' is past float32's range"_s;
        QTest::newRow("hex") << QByteArray("0x10\n") << u"'0x10' is not a number"_s;
        QTest::newRow("a byte-order mark past the start") << QByteArray("1\n\xef\xbb\xbf"
                                                                        "2\n")
                                                          << u"line 2: column 1: '\\xef\\xbb\\xbf2' is not a number"_s;
        QTest::newRow("quotes") << QByteArray("\"1\",2\n") << u"'\"1\"' is not a number"_s;
        QTest::newRow("empty cell") << QByteArray("1,,2\n") << u"line 1: column 2 is empty"_s;
        QTest::newRow("trailing comma") << QByteArray("1,2,\n") << u"line 1: column 3 is empty"_s;
        QTest::newRow("a long cell") << QByteArray(100, '1') << u"line 1: column 1 is longer than 64 characters"_s;
        QTest::newRow("a NUL byte") << QByteArray("1,2\n3,\0004\n", 10) << u"'\\x004' is not a number"_s;
        QTest::newRow("a comma in a spaced file") << QByteArray("1 2\n3,4\n") << u"line 2: a comma after column 1"_s;
        QTest::newRow("spaces in a comma file")
            << QByteArray("1,2\n3 4,5\n") << u"line 2: column 1 ends with spaces and no comma"_s;
        QTest::newRow("exponent without digits") << QByteArray("1e\n") << u"'1e' is not a number"_s;
        // Before: "where the first row (line 0)", about the first row itself.
        QTest::newRow("spaces in the first row of commas")
            << QByteArray("\n1,2 3\n")
            << u"line 2: column 2 ends with spaces and no comma, where the first row (line 2)"_s;
        QTest::newRow("a header naming fewer columns")
            << QByteArray("pe_0,pe_1\n1,2,3\n") << u"line 2: 3 columns where the header (line 1) names 2"_s;
        QTest::newRow("a header with a number") << QByteArray("pe_0,1\n1,2\n") << u"line 1: a header line"_s;
        QTest::newRow("a second header") << QByteArray("a,b\nc,d\n") << u"line 2: column 1: 'c' is not a number"_s;
        // Before: a first row of non-finite words was taken for a header and dropped, and the table
        // below it read (a NaN row checked `correct`); "nan,0.5" was "a header line" of a bad name.
        QTest::newRow("a first row of nan")
            << QByteArray("nan,nan\n1,2\n") << u"line 1: column 1: 'nan' is not a finite number"_s;
        QTest::newRow("a first row of NaN and a number")
            << QByteArray("NaN,0.5\n1,2\n") << u"line 1: column 1: 'NaN'"_s;
        QTest::newRow("a first row of inf") << QByteArray("Infinity,1\n1,2\n") << u"line 1: column 1: 'Infinity'"_s;
        // Before: "column 2: '25;1' is not a number", the fragment the commas cut, and "the array has
        // no cells, shape (0, 0)" of a file of no rows, whatever its header named.
        QTest::newRow("semicolons beside decimal commas")
            << QByteArray("0,5;1,25\n")
            << u"line 1: column 2: '5;1' is not a number: this reader separates cells by "
               "commas or spaces and reads '.' as the decimal point, where the file has "
               "';'"_s;
        QTest::newRow("nothing") << QByteArray() << u"the file is empty"_s;
        QTest::newRow("a header alone") << QByteArray("pe_0,pe_1,pe_2\n")
                                        << u"the file holds no row of numbers: only a header line"_s;
        QTest::newRow("comments alone") << QByteArray("# a table\n\n") << u"the file holds no row of numbers"_s;
        QTest::newRow("CR line ends, a word on line 3")
            << QByteArray("1,2\r3,4\rx,5\r") << u"line 3: column 1: 'x' is not a number"_s;
    }
    void refusals()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, reason);
        const auto table = readText(text);
        QVERIFY(!table.ok());
        QVERIFY2(table.error().reason.contains(reason), qPrintable(table.error().reason));
        QCOMPARE(table.error().path, u"t.csv"_s);
        QCOMPARE(table.error().kind, ReadError::Kind::File);
    }

    // Before: the table's rounding was the coarsest cell's, so one "1.00" among "%.6f" cells
    // allowed every cell 0.005. Now the rounding most cells show is the table's, and a cell written
    // with fewer digits keeps its own.
    void aShortCellKeepsItsOwnRounding()
    {
        const auto table = readText("0.841471,1.00\n0.540302,0.909297\n0,-0.416147\n");
        QVERIFY2(table.ok(), qPrintable(table.error().toString()));
        QVERIFY(std::fabs(table->textRounding - 0.5e-6) <= 1e-15);
        QCOMPARE(table->cellRounding.size(), std::size_t(6));
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(int(table->cellRounding[i]), i == 1 ? -2 : CsvReader::Table::kExact);
        // Every cell alike: no cell of its own.
        const auto alike = readText("0.841471,0.540302\n0.909297,-0.416147\n");
        QVERIFY(alike.ok());
        QVERIFY(alike->cellRounding.empty());
    }

    void overTheBudgetIsRefusedBeforeAllocating()
    {
        QByteArray text;
        for (int r = 0; r < 1000; ++r)
            text += "1,2,3,4\n";
        const auto table = readText(text, 3999);
        QVERIFY(!table.ok());
        QCOMPARE(table.error().kind, ReadError::Kind::OverBudget);
        QVERIFY(table.error().reason.contains(u"4000 cells (1000 rows of 4)"_s));
        QVERIFY(readText(text, 4000).ok());
    }

    void tooManyColumns()
    {
        QByteArray text;
        text.reserve((CsvReader::kMaxColumns + 1) * 2);
        for (std::int64_t c = 0; c <= CsvReader::kMaxColumns; ++c)
            text += "0,";
        text.chop(1);
        const auto table = readText(text, std::int64_t(1) << 22);
        QVERIFY(!table.ok());
        QVERIFY(table.error().reason.contains(u"more than 1048576 columns"_s));
    }

    void cancelled()
    {
        QByteArray text;
        for (int r = 0; r < 10; ++r)
            text += "1,2\n";
        MemoryByteSource source(text, u"t.csv"_s);
        std::atomic<bool> cancel {true};
        source.setCancel(&cancel);
        const auto table = CsvReader::read(source, 100);
        QVERIFY(!table.ok());
        QVERIFY(table.error().reason.contains(u"cancelled"_s));
    }
};

POSENC_TEST_APPLESS_MAIN(TestCsvReader)
} // namespace tst_csvreader
#include "tst_csvreader.moc"
