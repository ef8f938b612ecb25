// The check of a table c T whose scale c is near 1 (1 +- 1e-7 ... 1e-4): correct where every cell
// of c T is within the cells' tolerance of T, else the mistake scaled with c reported; never a
// table no formula explains. RoPE's cos tables (the default type at theta 10000 and Llama 3.1's
// llama3, tests/support/RopeReference.h) in both layouts, and the paper's sinusoid, each written
// in float64 and stored as float32 or as float64 cells.
#include "CheckTables.h"
#include "support/HalfFloats.h"
#include "support/RopeReference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>

namespace tst_tablecheckscaled {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kRows = 2048;

// T, the unscaled table in float64: RoPE's cos (column c holds pair c mod r/2, half, or c / 2,
// interleaved) or the paper's sinusoid, interleaved (PyTorch's tutorial), 128 columns.
using Cell = std::function<double(std::int64_t, std::int64_t)>;
Cell unscaled(bool rope, const Params &p)
{
    if (!rope)
        return [](std::int64_t r, std::int64_t j) { return paper(r, j, 128, 10000.0, false); };
    const std::vector<double> inv = roperef::inv(p);
    const auto h = std::int64_t(inv.size());
    const bool half = p.rope.layout == RopeLayout::Half;
    return [=](std::int64_t r, std::int64_t col) {
        return std::cos(double(r) * inv[std::size_t(half ? col % h : col / 2)]);
    };
}

// Whether every float32 cell of c T lies within the check's float32 tolerance of T: 1.01 units of
// float32 relative to the value (CellTolerance: the table's and the reference's half units each),
// and 2^-27 absolute at frequency 1 (the double angles' rounding).
bool withinTolerance(const RowMatrixXf &scaled, const Cell &t)
{
    for (std::int64_t r = 0; r < scaled.rows(); ++r) {
        for (std::int64_t j = 0; j < scaled.cols(); ++j) {
            const double exact = t(r, j);
            if (std::fabs(double(scaled(r, j)) - exact) > 1.01 * 0x1p-23 * std::fabs(exact) + 0x1p-27)
                return false;
        }
    }
    return true;
}

Params llama31(RopeLayout layout)
{
    Params p = roperef::llama31();
    p.maxLen = kRows;
    p.rope.layout = layout;
    return p;
}

Params roformer(RopeLayout layout)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = kRows;
    p.rope.headDim = 128;
    p.rope.theta = 10000.0;
    p.rope.layout = layout;
    return p;
}

// The sinusoid's amplitude declared 1 (--pe-scale 1): c * PE at another c is the mistake scaled.
TableCheck::Declared unitAmplitude()
{
    TableCheck::Declared d;
    d.amplitude = 1.0;
    return d;
}

} // namespace

class TestTableCheckScaled : public QObject
{
    Q_OBJECT

private slots:
    void nearOneIsScaledOrCorrect_data()
    {
        QTest::addColumn<bool>("rope");
        QTest::addColumn<Params>("params");
        QTest::addColumn<StoredType>("stored");
        QTest::addColumn<double>("c");
        const QList<std::pair<const char *, Params>> ropes {
            {"default half", roformer(RopeLayout::Half)},
            {"default interleaved", roformer(RopeLayout::Interleaved)},
            {"llama3 half", llama31(RopeLayout::Half)},
            {"llama3 interleaved", llama31(RopeLayout::Interleaved)},
        };
        for (const double e : {1e-7, 5e-7, 1e-6, 2e-6, 5e-6, 1e-5, 1e-4}) {
            for (const double sign : {1.0, -1.0}) {
                const double c = 1.0 + sign * e;
                for (const StoredType stored : {StoredType::Float32, StoredType::Float64}) {
                    const char *cells = stored == StoredType::Float32 ? "float32" : "float64";
                    for (const auto &[name, params] : ropes)
                        QTest::addRow("RoPE %s, c = 1 %c %g, %s", name, sign > 0 ? '+' : '-', e, cells)
                            << true << params << stored << c;
                    QTest::addRow("sinusoid, c = 1 %c %g, %s", sign > 0 ? '+' : '-', e, cells)
                        << false << Params() << stored << c;
                }
            }
        }
    }
    void nearOneIsScaledOrCorrect()
    {
        QFETCH(bool, rope);
        QFETCH(Params, params);
        QFETCH(StoredType, stored);
        QFETCH(double, c);
        const Cell t = unscaled(rope, params);
        const RowMatrixXf values = table(kRows, 128, [&](std::int64_t r, std::int64_t j) { return c * t(r, j); });
        const Checked checked = check(values, stored, unitAmplitude());
        const TableMatch &m = checked.match;
        QVERIFY2(checked.error.isEmpty(), qPrintable(checked.error));
        const QString said = m.diagnosis + u" | "_s + m.mistakes.join(u',');
        QVERIFY2(m.verdict != CheckVerdict::Learned, qPrintable(said));
        QCOMPARE(m.family, std::optional<Encoding>(rope ? Encoding::Rope : Encoding::Sinusoidal));
        if (m.verdict == CheckVerdict::Correct) {
            QVERIFY2(withinTolerance(values, t), qPrintable(u"correct, but c T is not T within tolerance: "_s + said));
            return;
        }
        QCOMPARE(m.verdict, CheckVerdict::Mistake);
        QCOMPARE(m.mistakes, QStringList {CheckMistakes::kScaled});
        // c as reported: the amplitude over the type's attention factor (1 for both types here).
        const double found = number(m, rope ? u"attention_factor"_s : u"scale"_s);
        QVERIFY2(std::fabs(found / c - 1.0) < 2e-8,
                 qPrintable(u"c %1 reported as %2"_s.arg(c, 0, 'g', 12).arg(found, 0, 'g', 12)));
        QVERIFY2(m.diagnosis.contains(u"c = "_s + QString::number(c, 'g', 10)), qPrintable(m.diagnosis));
        // Against the unscaled table: the same frequencies, every cell then within its tolerance.
        QCOMPARE(checked.verification.deviatingCells > 0, !withinTolerance(values, t));
    }

    // Issue 62, break 8: every scale was blamed on sqrt(d). The cause is named only for the factor
    // that is sqrt(d) (or 1/sqrt(d)) within the cells' rounding; any other is reported as measured.
    void scaleNamesItsCauseOnlyWhereItIsOne_data()
    {
        QTest::addColumn<double>("c");
        QTest::addColumn<StoredType>("stored");
        QTest::addColumn<QString>("cause");
        const QString root = u"the embedding's sqrt(d) scale applied to the PE"_s;
        QTest::newRow("sqrt(d)") << std::sqrt(128.0) << StoredType::Float32 << root;
        QTest::newRow("1/sqrt(d)") << 1.0 / std::sqrt(128.0) << StoredType::Float32 << u"the PE divided by sqrt(d)"_s;
        for (const double c : {0.5, 2.0, 1.01, 0.997, 11.3})
            QTest::addRow("c = %g", c) << c << StoredType::Float32 << QString();
    }
    void scaleNamesItsCauseOnlyWhereItIsOne()
    {
        QFETCH(double, c);
        QFETCH(StoredType, stored);
        QFETCH(QString, cause);
        const Cell t = unscaled(false, Params());
        const Checked checked = check(table(kRows, 128, [&](std::int64_t r, std::int64_t j) { return c * t(r, j); }),
                                      stored, unitAmplitude());
        const TableMatch &m = checked.match;
        QCOMPARE(m.verdict, CheckVerdict::Mistake);
        QVERIFY2(m.mistakes.contains(CheckMistakes::kScaled), qPrintable(m.diagnosis));
        QVERIFY2(cause.isEmpty() ? !m.diagnosis.contains(u"sqrt(d)"_s) : m.diagnosis.contains(cause),
                 qPrintable(m.diagnosis));
    }

    // x-transformers' ScaledSinusoidalEmbedding (x_transformers/x_transformers.py): the sinusoid times
    // a learnable scale, dim^-0.5 at init. Undeclared, c * PE is a variant that says c, never a
    // mistake; --pe-scale c makes it correct; a declared c' != c names scaled with both values.
    void aScaledSinusoidIsAVariantUnlessDeclared_data()
    {
        QTest::addColumn<double>("c");
        QTest::newRow("dim^-0.5 (ScaledSinusoidalEmbedding at init)") << 1.0 / std::sqrt(128.0);
        QTest::newRow("sqrt(d)") << std::sqrt(128.0);
        QTest::newRow("c = 0.37, a trained scale") << 0.37;
    }
    void aScaledSinusoidIsAVariantUnlessDeclared()
    {
        QFETCH(double, c);
        const Cell t = unscaled(false, Params());
        const RowMatrixXf values = table(kRows, 128, [&](std::int64_t r, std::int64_t j) { return c * t(r, j); });
        const Checked undeclared = check(values, StoredType::Float32);
        const TableMatch &u = undeclared.match;
        QVERIFY2(undeclared.error.isEmpty(), qPrintable(undeclared.error));
        QCOMPARE(u.family, std::optional<Encoding>(Encoding::Sinusoidal));
        QVERIFY2(u.verdict == CheckVerdict::Variant && u.mistakes.isEmpty(),
                 qPrintable(u.diagnosis + u" | "_s + u.mistakes.join(u',')));
        QVERIFY2(u.diagnosis.contains(u"ScaledSinusoidalEmbedding"_s), qPrintable(u.diagnosis));
        QVERIFY2(std::fabs(number(u, u"scale"_s) / c - 1.0) < 1e-6, qPrintable(u.diagnosis));
        QCOMPARE(undeclared.verification.deviatingCells, std::int64_t(0)); // against c * PE

        TableCheck::Declared atC;
        atC.amplitude = double(float(c)); // the scale as a float32 parameter holds it
        const Checked declared = check(values, StoredType::Float32, atC);
        QVERIFY2(declared.match.verdict == CheckVerdict::Correct,
                 qPrintable(declared.match.diagnosis + u" | "_s + declared.match.mistakes.join(u',')));
        QVERIFY2(declared.match.correctAgainst.contains(u"--pe-scale"_s), qPrintable(declared.match.correctAgainst));

        TableCheck::Declared other;
        other.amplitude = 2.0 * c;
        const Checked wrong = check(values, StoredType::Float32, other);
        QCOMPARE(wrong.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(wrong.match.mistakes, QStringList {CheckMistakes::kScaled});
        QVERIFY2(wrong.match.diagnosis.contains(u"was declared (--pe-scale)"_s), qPrintable(wrong.match.diagnosis));
    }

    // curated-transformers' SinusoidalPositionalEmbedding with normalize=True (explosion/
    // curated-transformers curated_transformers/layers/embeddings.py): the paper's sinusoid in float32
    // (div_term = exp(arange(0, d, 2) * -ln(10000) / d), angles position * div_term), each row then
    // divided by its float32 L2 norm, sqrt(d / 2) within the float32 sum's rounding, summed here one
    // square at a time (the order with the widest rounding). A faithful computation: never a mistake.
    void rowsDividedByTheirNormsAreNoMistake()
    {
        constexpr std::int64_t d = 256, rows = 512;
        RowMatrixXf values(rows, d);
        const float step = float(-std::log(10000.0) / double(d));
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t i = 0; i < d / 2; ++i) {
                const float angle = float(r) * std::exp(float(2 * i) * step);
                values(r, 2 * i) = std::sin(angle);
                values(r, 2 * i + 1) = std::cos(angle);
            }
            float squares = 0.0f;
            for (std::int64_t j = 0; j < d; ++j)
                squares += values(r, j) * values(r, j);
            values.row(r) /= std::sqrt(squares);
        }
        const double c = 1.0 / std::sqrt(double(d) / 2.0);
        // Some rows' factors are off c by more than the cells' own rounding: the case is the norm's.
        double widest = 0.0;
        for (std::int64_t r = 0; r < rows; ++r)
            widest = std::max(widest, std::fabs(double(values(r, 1)) / (c * paper(r, 1, d, 10000.0, false)) - 1.0));
        QVERIFY2(widest > 0x1p-23, qPrintable(QString::number(widest)));

        const Checked undeclared = check(values, StoredType::Float32);
        const TableMatch &u = undeclared.match;
        QCOMPARE(u.family, std::optional<Encoding>(Encoding::Sinusoidal));
        QVERIFY2(u.verdict == CheckVerdict::Variant && u.mistakes.isEmpty(),
                 qPrintable(u.diagnosis + u" | "_s + u.mistakes.join(u',')));
        QVERIFY2(u.diagnosis.contains(u"every row of norm 1"_s) && u.diagnosis.contains(u"curated-transformers"_s),
                 qPrintable(u.diagnosis));

        TableCheck::Declared atC;
        atC.amplitude = c;
        const Checked declared = check(values, StoredType::Float32, atC);
        QVERIFY2(declared.match.verdict == CheckVerdict::Correct,
                 qPrintable(declared.match.diagnosis + u" | "_s + declared.match.mistakes.join(u',')));

        // One row's factor off by a part in 10^4, far past any norm's rounding: still a deviation.
        RowMatrixXf off = values;
        off.row(300) *= 1.0001f;
        const Checked wrong = check(off, StoredType::Float32, atC);
        QVERIFY2(wrong.match.verdict == CheckVerdict::Mistake, qPrintable(wrong.match.diagnosis));
    }

    // The factor rounded to a half type: x-transformers' ScaledSinusoidalEmbedding under .half()
    // (x_transformers/x_transformers.py: emb * self.scale, the scale dim^-0.5 held in the format:
    // 0.08838 for 0.08839 at d 128) and curated-transformers' normalize=True on a half table (pe
    // divided by its own norm, the norm rounded to the format). The float64 sinusoid rounded to the
    // format, then scaled in it: a faithful half computation, never a mistake; correct at its scale
    // declared; times 1.01 it is not correct.
    void aFactorRoundedToAHalfTypeIsNoMistake_data()
    {
        QTest::addColumn<bool>("bfloat");
        QTest::addColumn<int>("d");
        QTest::addColumn<bool>("unitRows");
        for (const bool bfloat : {false, true})
            for (const int d : {64, 128})
                for (const bool unitRows : {false, true})
                    QTest::addRow("%s d %d %s", bfloat ? "bfloat16" : "float16", d,
                                  unitRows ? "rows over their norm" : "times dim^-0.5")
                        << bfloat << d << unitRows;
    }
    void aFactorRoundedToAHalfTypeIsNoMistake()
    {
        QFETCH(bool, bfloat);
        QFETCH(int, d);
        QFETCH(bool, unitRows);
        const auto round = [&](double x) {
            return bfloat ? halffloats::toBFloat16(float(x)) : halffloats::toFloat16(float(x));
        };
        constexpr std::int64_t rows = 256;
        const auto computed = [&](double times) {
            RowMatrixXf values(rows, d);
            for (std::int64_t r = 0; r < rows; ++r) {
                std::vector<float> pe(static_cast<std::size_t>(d));
                double squares = 0.0;
                for (std::int64_t j = 0; j < d; ++j) {
                    pe[std::size_t(j)] = round(paper(r, j, d, 10000.0, false));
                    squares += double(pe[std::size_t(j)]) * double(pe[std::size_t(j)]);
                }
                const float factor = unitRows ? 1.0f / round(std::sqrt(squares)) : round(1.0 / std::sqrt(double(d)));
                for (std::int64_t j = 0; j < d; ++j)
                    values(r, j) = round(double(pe[std::size_t(j)]) * double(factor) * times);
            }
            return values;
        };
        const StoredType stored = bfloat ? StoredType::BFloat16 : StoredType::Float16;
        const RowMatrixXf values = computed(1.0);
        const Checked undeclared = check(values, stored);
        QVERIFY2(undeclared.error.isEmpty(), qPrintable(undeclared.error));
        QVERIFY2(undeclared.match.verdict != CheckVerdict::Mistake,
                 qPrintable(undeclared.match.diagnosis + u" | "_s + undeclared.match.mistakes.join(u',')));
        TableCheck::Declared atC;
        atC.amplitude = unitRows ? 1.0 / std::sqrt(double(d) / 2.0) : 1.0 / std::sqrt(double(d));
        const Checked declared = check(values, stored, atC);
        QVERIFY2(declared.match.verdict == CheckVerdict::Correct,
                 qPrintable(declared.match.diagnosis + u" | "_s + declared.match.mistakes.join(u',')));
        const Checked off = check(computed(1.01), stored, atC);
        QVERIFY2(off.match.verdict == CheckVerdict::Mistake, qPrintable(off.match.diagnosis));
    }

    // A power of two is exact in a half type and commutes with its rounding, so no faithful
    // computation of 2 · PE in bfloat16 or float16 is off by more than the product's own rounding:
    // the sinusoid times 2 is correct at --pe-scale 2, and times 2 · 1.0035 (under two bfloat16
    // half-units, 0.39 %) is not.
    void aPowerOfTwoScaleLeavesNoRoom_data()
    {
        QTest::addColumn<bool>("bfloat");
        QTest::newRow("bfloat16") << true;
        QTest::newRow("float16") << false;
    }
    void aPowerOfTwoScaleLeavesNoRoom()
    {
        QFETCH(bool, bfloat);
        constexpr std::int64_t rows = 256, d = 64;
        const auto table = [&](double times) {
            RowMatrixXf values(rows, d);
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t j = 0; j < d; ++j) {
                    const double x = 2.0 * times * paper(r, j, d, 10000.0, false);
                    values(r, j) = bfloat ? halffloats::toBFloat16(float(x)) : halffloats::toFloat16(float(x));
                }
            return values;
        };
        const StoredType stored = bfloat ? StoredType::BFloat16 : StoredType::Float16;
        TableCheck::Declared atTwo;
        atTwo.amplitude = 2.0;
        const Checked faithful = check(table(1.0), stored, atTwo);
        QVERIFY2(faithful.match.verdict == CheckVerdict::Correct, qPrintable(faithful.match.diagnosis));
        const Checked off = check(table(1.0035), stored, atTwo);
        QVERIFY2(off.match.verdict != CheckVerdict::Correct, qPrintable(off.match.diagnosis));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckScaled)
} // namespace tst_tablecheckscaled
#include "tst_tablecheckscaled.moc"
