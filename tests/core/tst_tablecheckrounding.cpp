// posenc check of tables rounded to a half format another way than to nearest: each float32 value's
// low bits cut (toward zero), or rounded down or up, to bfloat16 or float16. Before, posenc's own
// sinusoid with its low 16 bits cut read as a variant "times c = 0.997" (issue "Nothing breaks on the
// edges"); a scale is claimed only where it explains the table better than a rounding of the
// reference at the table's precision. The tables are written here from float64 formulas (the
// paper's sinusoid, RoPE's cos at theta 10000 and NeMo's Sandwich bias), rounded here.
#include "CheckTables.h"
#include "support/DirectedRounding.h"
#include "support/RopeReference.h"
#include "support/SandwichReference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <cmath>
#include <limits>

namespace tst_tablecheckrounding {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

struct Format
{
    int bits; // stored mantissa bits: bfloat16's 7, float16's 10
    int least; // the least normal exponent
    TablePrecision precision;
};
const Format kBFloat16 {7, -126, TablePrecision::BFloat16};
const Format kFloat16 {10, -14, TablePrecision::Float16};

RowMatrixXf roundedTable(const RowMatrixXf &t, const Format &f, Rounding rounding)
{
    return directedrounding::roundedTable(t, f.bits, f.least, rounding);
}

RowMatrixXf sinusoid(std::int64_t rows, std::int64_t d, double scale = 1.0)
{
    return table(rows, d, [=](std::int64_t p, std::int64_t j) { return scale * paper(p, j, d, 10000.0, false); });
}

RowMatrixXf ropeCos(std::int64_t rows)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.headDim = 64;
    const std::vector<double> inv = roperef::inv(p);
    const auto h = std::int64_t(inv.size());
    return table(rows, 64,
                 [=](std::int64_t r, std::int64_t c) { return std::cos(double(r) * inv[std::size_t(c % h)]); });
}

// ALiBi's causal bias of head 1 of 8, m = 1/2: at 600 rows its odd distances past 256 are no
// bfloat16 values (a rounding shows there), the others are (every rounding leaves them).
RowMatrixXf alibi(std::int64_t rows)
{
    return table(rows, rows, [](std::int64_t i, std::int64_t j) {
        return j > i ? -std::numeric_limits<double>::infinity() : 0.5 * double(j - i);
    });
}

RowMatrixXf sandwich(std::int64_t rows)
{
    return table(rows, rows, [](std::int64_t i, std::int64_t j) { return sandwichref::bias(12, 3, 64, i, j, false); });
}

const char *name(Rounding r)
{
    return r == Rounding::TowardZero ? "toward zero" : r == Rounding::Downward ? "down" : "up";
}

} // namespace

class TestTableCheckRounding : public QObject
{
    Q_OBJECT

private slots:
    void directedRoundingsAreThePrecision_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<Rounding>("rounding");
        QTest::addColumn<int>("precision");
        QTest::addColumn<QString>("table");
        const QList<std::pair<const char *, RowMatrixXf>> tables {{"sinusoid d 512", sinusoid(1024, 512)},
                                                                  {"sinusoid d 64", sinusoid(512, 64)},
                                                                  {"rope-cos", ropeCos(1024)},
                                                                  {"sandwich-bias", sandwich(256)},
                                                                  {"alibi-bias", alibi(600)}};
        for (const auto &[tableName, values] : tables) {
            const QString word = QString::fromLatin1(tableName).section(u' ', 0, 0);
            for (const Format *f : {&kBFloat16, &kFloat16}) {
                for (const Rounding r : {Rounding::TowardZero, Rounding::Downward, Rounding::Upward}) {
                    // A table the rounding leaves as it is (ALiBi's at 600 rows in float16: every
                    // value float16's own) shows none: its values are read as rounded to nearest.
                    const RowMatrixXf rounded = roundedTable(values, *f, r);
                    const bool left = (rounded.array() == values.array()).all();
                    QTest::addRow("%s, %s %s", tableName, f == &kBFloat16 ? "bfloat16" : "float16", name(r))
                        << rounded << (left ? Rounding::Nearest : r) << int(f->precision)
                        << (word == u"sinusoid"_s ? u"sinusoidal"_s : word);
                }
            }
        }
    }
    // Correct at that precision, the rounding named, no scale and no mistake claimed.
    void directedRoundingsAreThePrecision()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(Rounding, rounding);
        QFETCH(int, precision);
        QFETCH(QString, table);
        const Checked c = check(values);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct || c.match.verdict == CheckVerdict::Variant,
                 qPrintable(c.match.diagnosis));
        QVERIFY2(c.match.mistakes.isEmpty(), qPrintable(c.match.mistakes.join(u", "_s)));
        QCOMPARE(c.match.table, table);
        QVERIFY2(c.match.precision && int(*c.match.precision) == precision,
                 qPrintable(c.match.precision ? CheckWords::precision(*c.match.precision) : u"none"_s));
        // Of a table with no value above 0 (Sandwich's bias), rounding up is rounding toward zero, and
        // that is said; rounding down, of one with none below.
        Rounding said = rounding;
        if (rounding != Rounding::Nearest
            && ((rounding == Rounding::Upward && values.maxCoeff() <= 0.0f)
                || (rounding == Rounding::Downward && values.minCoeff() >= 0.0f)))
            said = Rounding::TowardZero;
        QCOMPARE(c.match.rounding, said);
        // No scale but the family's own (Sandwich's 8K/H = 2 of head 3 of 12).
        const double scale = number(c.match, u"scale"_s);
        QVERIFY2(table == u"sandwich-bias"_s ? scale == 2.0 : (std::isnan(scale) || scale == 1.0),
                 qPrintable(c.match.diagnosis));
        QCOMPARE(c.verification.deviatingCells, 0);
        if (said != Rounding::Nearest)
            QVERIFY(c.match.notes.contains(CheckWords::roundedNote(TablePrecision(precision), said)));
    }

    // posenc's own table, its low 16 bits cut: the precision says it, not "times c = 0.997".
    void truncatedSinusoidIsNoScale()
    {
        const Checked c = check(roundedTable(sinusoid(1024, 512), kBFloat16, Rounding::TowardZero));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QCOMPARE(CheckWords::precision(*c.match.precision, c.match.rounding), u"bfloat16-toward-zero"_s);
        QVERIFY2(!c.match.diagnosis.contains(u"times c"_s), qPrintable(c.match.diagnosis));
    }

    // A scale that a rounding does not explain stays the scale: 0.997 times the sinusoid, rounded to
    // nearest bfloat16, is no directed rounding of the sinusoid.
    void aScaleADirectedRoundingDoesNotExplainStays()
    {
        const Checked c = check(roundedTable(sinusoid(1024, 512, 0.997), kBFloat16, Rounding::Nearest));
        QCOMPARE(c.match.verdict, CheckVerdict::Variant);
        QCOMPARE(c.match.rounding, Rounding::Nearest);
        QCOMPARE(number(c.match, u"scale"_s), 0.997);
    }

    // A table rounded to nearest reads as before: no directed rounding named.
    void nearestStaysNearest()
    {
        const Checked c = check(roundedTable(sinusoid(1024, 512), kBFloat16, Rounding::Nearest));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QCOMPARE(c.match.rounding, Rounding::Nearest);
        QCOMPARE(CheckWords::precision(*c.match.precision, c.match.rounding), u"bfloat16"_s);
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckRounding)
} // namespace tst_tablecheckrounding
#include "tst_tablecheckrounding.moc"
