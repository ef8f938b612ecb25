// posenc check of tables whose reference values are a half format's own: buckets (whole numbers) and
// ALiBi's biases of a slope 2^-k (whole distances times it). Every rounding to the format, to
// nearest, toward zero, down or up, leaves such a value as it is, so a cell that differs from it is a
// deviation however wide the format's units are there (bfloat16's unit is 1 from 128 to 256); a
// rounding shows only on cells whose reference the format does not hold. Before, a DeBERTa bucket
// table with one bucket one more read correct, as bfloat16 rounded toward zero. The tables are
// written here (torch's buckets, tests/data/buckets/torch_buckets.csv, float64's where no boundary is
// near; get_slopes in float64), one cell changed, the whole rounded here.
#include "CheckTables.h"
#include "TorchBucketTables.h"
#include "support/AlibiReference.h"
#include "support/DebertaReference.h"
#include "support/DirectedRounding.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace tst_tablecheckheldvalues {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;
using torchbuckets::bucketTable;

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// Head 1 of 8's causal bias, m (j - i) with m = 1/2 at or before the query, −inf after it.
RowMatrixXf alibiCausal(std::int64_t rows)
{
    const double m = alibiref::slopes(8)[0];
    return table(rows, rows, [=](std::int64_t i, std::int64_t j) {
        return j > i ? double(kMinusInf) : alibiref::bias(m, i, j, true);
    });
}

struct Format
{
    const char *name;
    int bits; // stored mantissa bits: bfloat16's 7, float16's 10
    int least; // the least normal exponent
    StoredType stored;
};
const Format kBFloat16 {"bfloat16", 7, -126, StoredType::BFloat16};
const Format kFloat16 {"float16", 10, -14, StoredType::Float16};

float rounded(float x, const Format &f, Rounding rounding)
{
    return directedrounding::rounded(x, f.bits, f.least, rounding);
}

RowMatrixXf roundedTable(const RowMatrixXf &t, const Format &f, Rounding rounding)
{
    return directedrounding::roundedTable(t, f.bits, f.least, rounding);
}

const char *roundingName(Rounding r)
{
    return r == Rounding::Nearest   ? "nearest"
        : r == Rounding::TowardZero ? "toward zero"
        : r == Rounding::Downward   ? "down"
                                    : "up";
}

// The cells a change is tried at: the largest |value|, the largest below 256 and below 128 (where
// bfloat16's unit is 1 and 1/2: a change of one unit is within the format's relative half unit of
// the largest there), and a cell below the diagonal (row 200, or the last).
std::vector<std::pair<std::int64_t, std::int64_t>> cellsOf(const RowMatrixXf &t)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const float below : {std::numeric_limits<float>::infinity(), 256.0f, 128.0f}) {
        std::optional<std::pair<std::int64_t, std::int64_t>> best;
        float bestValue = -1.0f;
        for (std::int64_t i = 0; i < t.rows(); ++i) {
            for (std::int64_t j = 0; j <= i; ++j) {
                const float a = std::fabs(t(i, j));
                if (std::isfinite(a) && a < below && a > bestValue) {
                    bestValue = a;
                    best = {i, j};
                }
            }
        }
        if (best && std::find(out.begin(), out.end(), *best) == out.end())
            out.push_back(*best);
    }
    out.emplace_back(std::min<std::int64_t>(200, t.rows() - 1), 17);
    return out;
}

} // namespace

class TestTableCheckHeldValues : public QObject
{
    Q_OBJECT

private slots:
    // The table that read correct, bfloat16 rounded toward zero: DeBERTa's buckets (256, 512) at 300
    // rows, the bucket at row 17, column 200 one more. Its buckets are bfloat16's own values.
    void debertaBucketOneMoreIsAMistake()
    {
        std::optional<RowMatrixXf> t = bucketTable("deberta", 256, 512, true, 300);
        QVERIFY(t);
        (*t)(17, 200) += 1.0f;
        const Checked c = check(*t);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake, qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.table, u"deberta-bucket"_s);
        QCOMPARE(c.match.rounding, Rounding::Nearest);
        QCOMPARE(c.verification.deviatingCells, qint64(1));
        QCOMPARE(*c.match.worstRow, qint64(17));
        QCOMPARE(*c.match.worstColumn, qint64(200));
    }

    void oneCellOffIsNeverCorrect_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("column");
        QTest::addColumn<int>("stored");
        QTest::addColumn<QString>("table");
        const std::optional<RowMatrixXf> t5 = bucketTable("t5", 32, 128, true, 160);
        const std::optional<RowMatrixXf> deberta = bucketTable("deberta", 256, 512, true, 512);
        QVERIFY(t5 && deberta);
        const QList<std::tuple<const char *, RowMatrixXf, QString>> tables {
            {"t5-bucket 32, 128", *t5, u"t5-bucket"_s},
            {"deberta-bucket 256, 512", *deberta, u"deberta-bucket"_s},
            {"alibi causal m 1/2", alibiCausal(300), u"alibi-bias"_s}};
        for (const auto &[name, values, word] : tables) {
            for (const auto &[row, column] : cellsOf(values)) {
                for (const float change : {1.0f, -1.0f, 0.5f, -0.5f}) {
                    for (const Format *f : {&kBFloat16, &kFloat16}) {
                        for (const Rounding r :
                             {Rounding::Nearest, Rounding::TowardZero, Rounding::Downward, Rounding::Upward}) {
                            // The rule is of cells whose reference the format holds: at 300 rows
                            // ALiBi's −149.5 is no bfloat16 value, and a cell of it within a unit
                            // of it is its rounding (up or toward zero).
                            if (rounded(values(row, column), *f, Rounding::Nearest) != values(row, column))
                                continue;
                            RowMatrixXf changed = values;
                            changed(row, column) += change;
                            changed = roundedTable(changed, *f, r);
                            // A rounding that takes the change back leaves the table as it was: no case.
                            if (changed(row, column) == rounded(values(row, column), *f, r))
                                continue;
                            QTest::addRow("%s, [%lld, %lld] %+g, %s %s", name, qint64(row), qint64(column),
                                          double(change), f->name, roundingName(r))
                                << changed << qint64(row) << qint64(column) << int(f->stored) << word;
                        }
                    }
                }
            }
        }
    }
    // One cell off where the reference is the format's own value: a mistake, that cell named,
    // whatever rounding the other cells show (ALiBi's at 300 rows in bfloat16: its odd distances
    // past 256 are no bfloat16 values, and are rounded).
    void oneCellOffIsNeverCorrect()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(qint64, row);
        QFETCH(qint64, column);
        QFETCH(int, stored);
        QFETCH(QString, table);
        const Checked c = check(values, StoredType(stored));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake,
                 qPrintable(CheckWords::verdict(c.match.verdict) + u": "_s + c.match.diagnosis));
        QCOMPARE(c.match.table, table);
        QVERIFY2(c.match.diagnosis.contains(u"row %1, column %2"_s.arg(row).arg(column)),
                 qPrintable(c.match.diagnosis));
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckHeldValues)
} // namespace tst_tablecheckheldvalues
#include "tst_tablecheckheldvalues.moc"
