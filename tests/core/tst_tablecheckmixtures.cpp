// Tables made by two mistakes at once: each pair the check separates is named, both ids; where the
// table cannot tell the two apart, the report says so in words, and the verdict is still a
// mistake. Every table is written here from float64 formulas (the paper's sinusoid, HF's rotary
// cos of modeling_rope_utils.py's default, llama3 and proportional types).
#include "CheckTables.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <cmath>
#include <numbers>

namespace tst_tablecheckmixtures {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr double kPi = std::numbers::pi;

// The paper's interleaved sinusoid at w_i = exp(logW(i)), times `scale`, from position `first`,
// sines and cosines exchanged where `swapped`.
RowMatrixXf sinusoid(std::int64_t rows, std::int64_t d, const std::function<double(std::int64_t)> &w,
                     double scale = 1.0, std::int64_t first = 0, bool swapped = false)
{
    return table(rows, d, [&](std::int64_t p, std::int64_t j) {
        const double angle = double(p + first) * w(j / 2);
        return scale * ((j % 2 == 1) != swapped ? std::cos(angle) : std::sin(angle));
    });
}

// HF's rotary cos table, cat((freqs, freqs)): column c holds pair c mod h (pairOf: -1 for a pair of
// frequency 0, a column map for a misplaced one).
RowMatrixXf ropeCos(std::int64_t rows, const std::vector<double> &inv, double scale = 1.0, std::int64_t first = 0,
                    std::vector<std::int64_t> pairOf = {})
{
    const auto h = std::int64_t(inv.size());
    if (pairOf.empty())
        for (std::int64_t c = 0; c < 2 * h; ++c)
            pairOf.push_back(c % h);
    return table(rows, std::int64_t(pairOf.size()), [&](std::int64_t p, std::int64_t c) {
        const std::int64_t pair = pairOf[std::size_t(c)];
        return scale * std::cos(double(p + first) * (pair < 0 ? 0.0 : inv[std::size_t(pair)]));
    });
}

std::vector<double> defaultInv(std::int64_t d, double theta)
{
    std::vector<double> inv;
    for (std::int64_t i = 0; i < d / 2; ++i)
        inv.push_back(std::pow(theta, -2.0 * double(i) / double(d)));
    return inv;
}

// _compute_llama3_parameters of Llama 3.1 (factor 8, low 1, high 4, 8192, theta 500000); with
// `reversed`, its blend runs the wrong way: (1 - s) where s belongs.
std::vector<double> llama3(std::int64_t d, bool reversed)
{
    std::vector<double> inv = defaultInv(d, 500000.0);
    for (double &f : inv) {
        const double wavelength = 2.0 * kPi / f;
        if (wavelength > 8192.0)
            f /= 8.0;
        else if (wavelength >= 2048.0) {
            double s = (8192.0 / wavelength - 1.0) / 3.0;
            if (reversed)
                s = 1.0 - s;
            f = (1.0 - s) * f / 8.0 + s * f;
        }
    }
    return inv;
}

double paperW(std::int64_t i, std::int64_t d, double exponent)
{
    return std::pow(10000.0, -exponent * double(i) / double(d));
}

} // namespace

class TestTableCheckMixtures : public QObject
{
    Q_OBJECT

private slots:
    void twoMistakesAreBothNamed_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<QStringList>("mistakes"); // in any order
        const std::int64_t L = 1024, d = 64;
        const auto paper2 = [](std::int64_t i) { return paperW(i, 64, 2.0); };
        QTest::newRow("scaled x exponent-halved") << sinusoid(
            L, d, [](std::int64_t i) { return paperW(i, 64, 1.0); }, 8.0)
                                                  << QStringList {u"exponent-halved"_s, u"scaled"_s};
        QTest::newRow("positions from 1 + scaled")
            << sinusoid(L, d, paper2, 8.0, 1) << QStringList {u"position-offset"_s, u"scaled"_s};
        QTest::newRow("exponent-halved + positions from 1") << sinusoid(
            L, d, [](std::int64_t i) { return paperW(i, 64, 1.0); }, 1.0, 1)
                                                            << QStringList {u"exponent-halved"_s, u"position-offset"_s};
        QTest::newRow("log-base-missing x scaled") << sinusoid(
            L, d, [](std::int64_t i) { return std::exp(-2.0 * double(i) / 64.0); }, 0.125)
                                                   << QStringList {u"log-base-missing"_s, u"scaled"_s};
        // Sin and cos swapped in each pair is no mistake undeclared: a RoPE cache of (cos, sin) pairs
        // read flat (tst_tablechecksinusoid, ropePairsCosFirstIsAPublishedCache).
        RowMatrixXf transposedScaled = sinusoid(512, d, paper2, 8.0).transpose();
        // Its amplitude alone, undeclared, is ScaledSinusoidalEmbedding's variant: the transposition is named.
        QTest::newRow("transposed + scaled") << transposedScaled << QStringList {u"transposed"_s};
        QTest::newRow("Llama 3.1's RoPE, positions from 1 + scaled")
            << ropeCos(4096, llama3(128, false), 2.0, 1) << QStringList {u"position-offset"_s, u"scaled"_s};
        QTest::newRow("llama3's blend reversed x scaled")
            << ropeCos(4096, llama3(128, true), 2.0) << QStringList {u"rope-scaling-reversed"_s, u"scaled"_s};
        // Gemma 4's proportional RoPE (theta 1e6, partial_rotary_factor 0.25 of 512) with its 192 identity
        // pairs at the end of the head, times 2.
        std::vector<double> gemma(256, 0.0);
        std::vector<std::int64_t> endOfHead;
        for (std::int64_t j = 0; j < 64; ++j)
            gemma[std::size_t(j)] = std::pow(1e6, -2.0 * double(j) / 512.0);
        for (std::int64_t c = 0; c < 512; ++c)
            endOfHead.push_back(c < 64 ? c : c < 128 ? c - 64 : -1);
        QTest::newRow("zero pairs misplaced x scaled")
            << ropeCos(2048, gemma, 2.0, 0, endOfHead) << QStringList {u"scaled"_s, u"zero-pairs-misplaced"_s};
    }
    void twoMistakesAreBothNamed()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(QStringList, mistakes);
        // Every table is meant from position 0, declared so: rows from 1 are then position-offset (a
        // window nothing declares is said, not judged: issue 56).
        TableCheck::Declared fromZero;
        fromZero.positionsDeclared = true;
        const Checked c = check(std::move(values), StoredType::Float32, fromZero);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QStringList found = c.match.mistakes;
        found.sort();
        mistakes.sort();
        const QString report = c.match.diagnosis + u" | "_s + c.match.deviations;
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake, qPrintable(report));
        QVERIFY2(found == mistakes, qPrintable(found.join(u", "_s) + u": "_s + report));
    }

    // Every frequency 1 (integer division) hides any mistake of the exponent made with it: the table
    // of 10000^(-(i // d)) is that of 10000^(-(2i // d)). The check names integer-division and says
    // that it cannot tell whether the exponent was also wrong.
    void integerDivisionHidesTheExponent()
    {
        const Checked c = check(sinusoid(1024, 64, [](std::int64_t i) { return std::pow(10000.0, -double(i / 64)); }));
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(c.match.mistakes, QStringList {u"integer-division"_s});
        QVERIFY2(c.match.diagnosis.contains(u"cannot tell"_s), qPrintable(c.match.diagnosis));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckMixtures)
} // namespace tst_tablecheckmixtures
#include "tst_tablecheckmixtures.moc"
