// The check of Sandwich tables, as `posenc table sandwich-bias` and NVIDIA NeMo's
// SandwichRelativePositionEmbedding write them: each identified with its head dim, the scale 8K/H
// and the fewest heads that give it, causal (distance 0 after the query, NeMo's tril, or a mask's
// fill) or bidirectional, from tables written here in float64 (support/SandwichReference.h) and
// from NeMo's own float32 output (tests/data/sandwich/nemo_sandwich.csv); one changed cell named by
// row and column; a scale no head of NeMo's gives named as the mistake.
#include "core/CheckTables.h"
#include "support/SandwichReference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"
#include "core/sandwich/SandwichBias.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

namespace tst_tablechecksandwich {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// Head K of H's bias over rows x rows; after the query under the causal mask NeMo's value, or
// `fill` where one is given.
RowMatrixXf sandwichTable(std::int64_t heads, std::int64_t head, std::int64_t d, bool bidirectional, std::int64_t rows,
                          std::optional<float> fill = std::nullopt)
{
    // The bias of each offset t = j - i once (a cell depends on t alone), then the cells.
    std::vector<double> byOffset(std::size_t(2 * rows - 1));
    for (std::int64_t t = 1 - rows; t < rows; ++t)
        byOffset[std::size_t(t + rows - 1)] = sandwichref::bias(heads, head, d, std::max<std::int64_t>(0, -t),
                                                                std::max<std::int64_t>(0, t), bidirectional);
    return table(rows, rows, [&](std::int64_t i, std::int64_t j) {
        if (fill && !bidirectional && j > i)
            return double(*fill);
        return byOffset[std::size_t(j - i + rows - 1)];
    });
}

// The fewest heads H with a head K of the same K/H, and K: what the check names.
std::pair<std::int64_t, std::int64_t> fewestHeads(std::int64_t heads, std::int64_t head)
{
    const std::int64_t g = std::gcd(heads, head);
    return {heads / g, head / g};
}

std::int64_t integer(const TableMatch &m, const QString &key)
{
    const MatchValue v = m.finding(key);
    return std::holds_alternative<std::int64_t>(v) ? std::get<std::int64_t>(v) : -1;
}

// NeMo's tables from the fixture whose every row it holds, by (heads, d, length, bidirectional,
// head).
using NemoKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, bool, std::int64_t>;
std::map<NemoKey, RowMatrixXf> nemoTables()
{
    std::map<NemoKey, std::map<std::int64_t, std::vector<float>>> rows;
    QFile file(QStringLiteral(POSENC_NEMO_SANDWICH));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QList<QByteArray> f = line.split(',');
        const NemoKey key {f[0].toLongLong(), f[1].toLongLong(), f[2].toLongLong(), f[3] == "1", f[4].toLongLong()};
        std::vector<float> values;
        for (qsizetype k = 6; k < f.size(); ++k)
            values.push_back(f[k].toFloat());
        rows[key][f[5].toLongLong()] = std::move(values);
    }
    std::map<NemoKey, RowMatrixXf> tables;
    for (const auto &[key, byQuery] : rows) {
        const std::int64_t length = std::get<2>(key);
        if (std::int64_t(byQuery.size()) != length)
            continue;
        RowMatrixXf t(length, length);
        for (const auto &[query, values] : byQuery)
            for (std::int64_t j = 0; j < length; ++j)
                t(query, j) = values[std::size_t(j)];
        tables[key] = std::move(t);
    }
    return tables;
}

} // namespace

class TestTableCheckSandwich : public QObject
{
    Q_OBJECT

private slots:
    void sandwichIsIdentified_data()
    {
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("head");
        QTest::addColumn<qint64>("headDim");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<float>("fill"); // NaN: NeMo's own value after the query
        const float nemo = std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("NeMo GPT's 12 x 64, head 1, causal") << 12ll << 1ll << 64ll << false << 300ll << nemo;
        QTest::newRow("12 heads, head 6: as head 1 of 2") << 12ll << 6ll << 64ll << false << 300ll << nemo;
        QTest::newRow("16 heads, head 3, d 128, bidirectional, sampled")
            << 16ll << 3ll << 128ll << true << 1500ll << nemo;
        QTest::newRow("odd d 33, 8 heads, head 8, causal") << 8ll << 8ll << 33ll << false << 200ll << nemo;
        QTest::newRow("odd d 7, 5 heads, head 2, bidirectional") << 5ll << 2ll << 7ll << true << 150ll << nemo;
        QTest::newRow("d 256, 32 heads, head 32, causal, sampled") << 32ll << 32ll << 256ll << false << 3000ll << nemo;
        QTest::newRow("causal with the mask's -inf after the query")
            << 12ll << 1ll << 64ll << false << 300ll << kMinusInf;
        // A bidirectional map's last row: no key after its query, so no mask to tell (read as causal).
        QTest::newRow("one row: the last query's") << 12ll << 1ll << 64ll << false << 1ll << nemo;
    }
    void sandwichIsIdentified()
    {
        QFETCH(qint64, heads);
        QFETCH(qint64, head);
        QFETCH(qint64, headDim);
        QFETCH(bool, bidirectional);
        QFETCH(qint64, rows);
        QFETCH(float, fill);
        const auto filled = std::isnan(fill) ? std::nullopt : std::optional(fill);
        // One row over 300 keys is a decode step's: the last query's row (queries last, queryStart).
        RowMatrixXf t = rows == 1 ? RowMatrixXf(sandwichTable(heads, head, headDim, true, 300).bottomRows(1))
                                  : sandwichTable(heads, head, headDim, bidirectional, rows, filled);
        const Checked c = check(t);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == CheckVerdict::Correct, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(*m.family, Encoding::Sandwich);
        QCOMPARE(m.table, u"sandwich-bias"_s);
        const auto [fewest, itsHead] = fewestHeads(heads, head);
        QCOMPARE(integer(m, u"heads"_s), fewest);
        QCOMPARE(integer(m, u"head"_s), itsHead);
        QCOMPARE(integer(m, u"head_dim"_s), headDim);
        QVERIFY(std::fabs(number(m, u"scale"_s) / (8.0 * double(head) / double(heads)) - 1.0) < 1e-12);
        QCOMPARE(word(m, u"mask"_s), bidirectional ? u"bidirectional"_s : u"causal"_s);
        QVERIFY(m.mistakes.isEmpty());
        QCOMPARE(*m.precision, TablePrecision::Exact);
        QVERIFY(m.params);
        QCOMPARE(m.params->sandwich.headDim, headDim);
        QCOMPARE(m.params->sandwich.heads, fewest);
        QVERIFY(m.notes.join(u'\n').contains(u"not H"_s));
        if (filled)
            QVERIFY(m.notes.join(u'\n').contains(u"mask's fill"_s));
        if (headDim % 2 == 1)
            QVERIFY(m.notes.join(u'\n').contains(u"odd d"_s));
    }

    // NeMo's own float32 tables: its angles' rounding is within the tolerance, the parameters named.
    void nemosOutputIsIdentified()
    {
        const auto tables = nemoTables();
        QVERIFY(tables.size() >= 8);
        for (const auto &[key, t] : tables) {
            const auto [heads, d, length, bidirectional, head] = key;
            // d = 1's one frequency, 1e-8, does not turn within float32 over a table's distances:
            // every row is the same, which names no d (the check says so).
            if (d == 1)
                continue;
            const Checked c = check(t);
            const QString name = u"H %1 K %2 d %3 L %4"_s.arg(heads).arg(head).arg(d).arg(length);
            QVERIFY2(c.error.isEmpty(), qPrintable(name + u": "_s + c.error));
            QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                     qPrintable(name + u": "_s + c.match.diagnosis + u" | "_s + c.match.deviations));
            QCOMPARE(integer(c.match, u"head_dim"_s), d);
            const auto [fewest, itsHead] = fewestHeads(heads, head);
            QCOMPARE(integer(c.match, u"heads"_s), fewest);
            QCOMPARE(integer(c.match, u"head"_s), itsHead);
            QCOMPARE(word(c.match, u"mask"_s), bidirectional ? u"bidirectional"_s : u"causal"_s);
            // Its float32 angles part from the float64 formula by more than a rounding where the
            // frequencies are many (at d 5 and 7 NeMo's cells round as posenc's do).
            if (d >= 33)
                QCOMPARE(*c.match.precision, TablePrecision::Float32Angles);
        }
    }

    // One changed cell: the family and its parameters still named, the cell by row and column.
    void oneChangedCellIsNamed_data()
    {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("column");
        for (const bool bidirectional : {false, true})
            for (const qint64 rows : {300ll, 3000ll}) {
                const char *mask = bidirectional ? "bidirectional" : "causal";
                QTest::addRow("%s, %lld rows, below the diagonal", mask, rows)
                    << bidirectional << rows << 200ll << 17ll;
                QTest::addRow("%s, %lld rows, the bottom-left corner", mask, rows)
                    << bidirectional << rows << rows - 1 << 0ll;
                QTest::addRow("%s, %lld rows, above the diagonal", mask, rows)
                    << bidirectional << rows << 17ll << 200ll;
            }
    }
    void oneChangedCellIsNamed()
    {
        QFETCH(bool, bidirectional);
        QFETCH(qint64, rows);
        QFETCH(qint64, row);
        QFETCH(qint64, column);
        RowMatrixXf t = sandwichTable(12, 2, 64, bidirectional, rows);
        t(row, column) += 1.0f;
        const Checked c = check(t);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake, qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.table, u"sandwich-bias"_s);
        QVERIFY(c.match.mistakes.isEmpty());
        QCOMPARE(integer(c.match, u"head_dim"_s), 64ll);
        QCOMPARE(*c.match.worstRow, row);
        QCOMPARE(*c.match.worstColumn, column);
        QCOMPARE(c.verification.deviatingCells, qint64(1));
        QVERIFY(c.match.diagnosis.contains(u"row %1, column %2"_s.arg(row).arg(column)));
    }

    // Divided by more than 8, which 8K/H never is (K <= H): the shape named, the scale the mistake.
    // A head dim of 1024 sums 512 cosines a distance: the reference computes each of the table's
    // distances once (a few chunks past them at most), not once a cell of the sample. Before, a 16384 x
    // 16384 table at head dim 4096 took minutes, every run of sample rows computing its distances again.
    void eachDistanceIsComputedOnce()
    {
        constexpr std::int64_t rows = 1024;
        const RowMatrixXf t = sandwichTable(8, 3, 1024, false, rows);
        const std::int64_t before = SandwichBias::sumsComputed();
        const Checked c = check(t);
        const std::int64_t computed = SandwichBias::sumsComputed() - before;
        QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis));
        QCOMPARE(integer(c.match, u"head_dim"_s), 1024ll);
        // Each reference built (the fit's, the verdict's) computes at most the rows' distances, in
        // chunks of 256 rounded up.
        QVERIFY2(computed > 0 && computed <= 4 * (rows + 256), qPrintable(QString::number(computed)));
    }

    void scaleNoHeadGives()
    {
        RowMatrixXf t = sandwichTable(8, 8, 64, true, 300);
        t *= 8.0f / 10.0f;
        const Checked c = check(t);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(c.match.mistakes, QStringList {u"scale-not-8h-over-H"_s});
        QCOMPARE(integer(c.match, u"head_dim"_s), 64ll);
        QVERIFY(std::fabs(number(c.match, u"scale"_s) / 10.0 - 1.0) < 1e-5);
        QVERIFY(c.match.diagnosis.contains(u"8K/H for no head K"_s));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckSandwich)
} // namespace tst_tablechecksandwich
#include "tst_tablechecksandwich.moc"
