// Ctrl+C during the identify step (TableCheck::identify, ScoringCancel): the searches every family
// runs over its forms end within one score of the sample once the flag is set. The table is one
// whose RoPE search runs long: rope-cos of an unpublished theta with one column moved, so no form
// explains every cell and the search goes through all its scalings (seconds in a release build).
#include "CheckTables.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/rope/RopeFit.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

namespace tst_identifycancel {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// rope-cos in the half layout: cos(p theta^(-2i/d)) in columns i and d/2 + i; column 5 moved.
MatrixRows searchedTable()
{
    constexpr std::int64_t rows = 1024, cols = 512;
    const auto cell = [](std::int64_t p, std::int64_t j) {
        const double w = std::pow(123456.0, -2.0 * double(j % (cols / 2)) / double(cols));
        return std::cos(double(p) * w) + (j == 5 ? 1e-3 : 0.0);
    };
    return MatrixRows(std::make_shared<const RowMatrixXf>(checktables::table(rows, cols, cell)), StoredType::Float32,
                      u"searched"_s, 0.0);
}

} // namespace

class TestIdentifyCancel : public QObject
{
    Q_OBJECT

private slots:
    void aFlagSetBeforeAnswersCancelled()
    {
        const MatrixRows table = searchedTable();
        const std::atomic<bool> cancel {true};
        const auto identified = TableCheck::identify(table, {}, &cancel);
        QVERIFY(std::holds_alternative<QString>(identified));
        QCOMPARE(std::get<QString>(identified), TableCheck::kCancelled);
        Params params;
        params.encoding = Encoding::Rope;
        params.rope.headDim = 512;
        params.dModel = 512;
        params.maxLen = 1024;
        const auto expected = TableCheck::expect(table, Encoding::Rope, params, u"rope-cos"_s, &cancel);
        QVERIFY(std::holds_alternative<QString>(expected));
        QCOMPARE(std::get<QString>(expected), TableCheck::kCancelled);
    }

    // A flag already set begins no family's search: no RoPE search of a wide table is begun to be
    // thrown away (once every family ran its fit's measurements, seconds at 8192 columns, before
    // the answer said cancelled).
    void aFlagSetBeforeBeginsNoSearch()
    {
        const MatrixRows table = searchedTable();
        const std::atomic<bool> unset {false}, cancel {true};
        const std::int64_t first = RopeFit::searchesBegun();
        QVERIFY(std::holds_alternative<TableMatch>(TableCheck::identify(table, {}, &unset)));
        QVERIFY(RopeFit::searchesBegun() > first); // the table is one the RoPE search reads
        const std::int64_t before = RopeFit::searchesBegun();
        QCOMPARE(std::get<QString>(TableCheck::identify(table, {}, &cancel)), TableCheck::kCancelled);
        QCOMPARE(RopeFit::searchesBegun(), before);
    }

    // Set while the search runs: identify gives up its search and answers cancelled (before, it
    // ran the whole search and answered the table's match).
    void aFlagSetDuringTheSearchEndsIt()
    {
        const MatrixRows table = searchedTable();
        std::atomic<bool> cancel {false};
        std::thread press([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            cancel.store(true);
        });
        const auto identified = TableCheck::identify(table, {}, &cancel);
        press.join();
        QVERIFY(std::holds_alternative<QString>(identified));
        QCOMPARE(std::get<QString>(identified), TableCheck::kCancelled);
        // The flag belongs to that call alone: the next call without one searches as before.
        const std::atomic<bool> unset {false};
        const MatrixRows paper(
            std::make_shared<const RowMatrixXf>(checktables::table(
                64, 16, [](std::int64_t p, std::int64_t j) { return checktables::paper(p, j, 16, 1e4, false); })),
            StoredType::Float32, u"paper"_s, 0.0);
        const auto after = TableCheck::identify(paper, {}, &unset);
        QVERIFY(std::holds_alternative<TableMatch>(after));
        QCOMPARE(std::get<TableMatch>(after).verdict, CheckVerdict::Correct);
    }
};

POSENC_TEST_MAIN(TestIdentifyCancel)
} // namespace tst_identifycancel
#include "tst_identifycancel.moc"
