// What a verdict promises: correct only against a named published form, a variant at other
// parameters, and the tables that were once called correct though wrong (a sinusoid times sqrt(d),
// cosines replaced by sines, Llama 3's blend reversed; p / 10000^(i/d) and exp(-2i/d) against the
// paper's sinusoid declared, being the formula at bases 100 and e too) named as the mistakes they are, with their
// location, at two sizes (and 1,048,576 x 64 with POSENC_VERDICTS_LONG set, by hand: a table of 256 MiB). 200 random
// wrong tables are never correct. Every table is written here from float64 formulas (CheckTables.h).
#include "CheckTables.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

namespace tst_tablecheckverdicts {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr double kPi = std::numbers::pi;

// A sinusoid in the interleaved layout, each pair's angle p w_i and its two columns' functions.
struct Sinusoid
{
    double amplitude = 1.0;
    std::function<double(std::int64_t, std::int64_t, std::int64_t)> w; // (i, d, p) -> frequency
    bool cosReplaced = false;
    bool sinReplaced = false;
};

RowMatrixXf sinusoid(std::int64_t rows, std::int64_t d, const Sinusoid &s)
{
    return table(rows, d, [&](std::int64_t p, std::int64_t j) {
        const double angle = double(p) * s.w(j / 2, d, p);
        const bool cosine = s.sinReplaced || (!s.cosReplaced && j % 2 == 1);
        return s.amplitude * (cosine ? std::cos(angle) : std::sin(angle));
    });
}

double paperW(std::int64_t i, std::int64_t d, std::int64_t)
{
    return std::pow(10000.0, -2.0 * double(i) / double(d));
}

// modeling_rope_utils.py, _compute_llama3_parameters, Llama 3.1's factor 8, low 1, high 4 from
// 8192 at theta 500000; `reversed` takes (1 - s) for the blend's s.
std::vector<double> llama3(std::int64_t headDim, bool reversed)
{
    std::vector<double> inv(std::size_t(headDim / 2));
    const double factor = 8.0, low = 1.0, high = 4.0, original = 8192.0;
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const double f = 1.0 / std::pow(500000.0, 2.0 * double(i) / double(headDim));
        const double wavelength = 2.0 * kPi / f;
        if (wavelength < original / high) {
            inv[i] = f;
        } else if (wavelength > original / low) {
            inv[i] = f / factor;
        } else {
            double s = (original / wavelength - low) / (high - low);
            if (reversed)
                s = 1.0 - s;
            inv[i] = (1.0 - s) * f / factor + s * f;
        }
    }
    return inv;
}

// HF's rotary cos table, cat((freqs, freqs)): column c holds pair c mod (d / 2).
RowMatrixXf ropeCos(std::int64_t rows, const std::vector<double> &inv)
{
    const auto h = std::int64_t(inv.size());
    return table(rows, 2 * h,
                 [&](std::int64_t p, std::int64_t c) { return std::cos(double(p) * inv[std::size_t(c % h)]); });
}

// The sinusoid's amplitude declared 1 (--pe-scale 1): c * PE at another c is then the mistake.
TableCheck::Declared unitAmplitude()
{
    TableCheck::Declared d;
    d.amplitude = 1.0;
    return d;
}

TableCheck::Declared layoutDeclared()
{
    return declaring(u"layout"_s, [](Params &p) { p.sinusoidal.layout = Layout::Interleaved; });
}

} // namespace

class TestTableCheckVerdicts : public QObject
{
    Q_OBJECT

private slots:
    // Each table at each size: the mistake named, the location of its deviating cells, and the
    // numbers of the report against float64 (the largest error is the table's against the paper's).
    void namedMistakes_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<TableCheck::Declared>("declared");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("deviating"); // the start of the report's "deviating:" words
        QTest::addColumn<double>("largest"); // the largest |table - paper| in float64, or NaN
        for (const TableSize &s : tableSizes()) {
            const std::int64_t L = s.rows, d = s.cols;
            const char *size = s.name;
            const auto row = [size](const char *what) -> QTestData & { return QTest::addRow("%s, %s", what, size); };
            const auto paperError = [&](const RowMatrixXf &t) {
                double worst = 0.0;
                for (std::int64_t p = 0; p < t.rows(); ++p)
                    for (std::int64_t j = 0; j < d; ++j) {
                        const double a = double(p) * paperW(j / 2, d, p);
                        worst = std::max(worst, std::fabs(double(t(p, j)) - (j % 2 ? std::cos(a) : std::sin(a))));
                    }
                return worst;
            };
            const bool whole = L * d <= 4096 * 512;
            Sinusoid scaled {std::sqrt(double(d)), paperW};
            RowMatrixXf t = sinusoid(L, d, scaled);
            row("a sinusoid times sqrt(d), amplitude 1 declared") << t << unitAmplitude() << u"scaled"_s << u"every column"_s
                                            << (whole ? paperError(t) : std::nan(""));
            const Sinusoid ones {1.0, [](std::int64_t, std::int64_t, std::int64_t) { return 1.0; }};
            t = sinusoid(L, d, ones);
            row("every frequency 1") << t << TableCheck::Declared {} << u"integer-division"_s
                                     << u"columns 2..%1"_s.arg(d - 1) << (whole ? paperError(t) : std::nan(""));
            Sinusoid cosReplaced {1.0, paperW};
            cosReplaced.cosReplaced = true;
            row("cosines replaced by sines, layout declared")
                << sinusoid(L, d, cosReplaced) << layoutDeclared() << u"cos-replaced"_s
                << u"every second column from 1"_s << std::nan("");
            Sinusoid sinReplaced {1.0, paperW};
            sinReplaced.sinReplaced = true;
            row("sines replaced by cosines, layout declared")
                << sinusoid(L, d, sinReplaced) << layoutDeclared() << u"sin-replaced"_s
                << u"every second column from 0"_s << std::nan("");
            row("Llama 3's blend reversed") << ropeCos(L, llama3(d, true)) << TableCheck::Declared {}
                                            << u"rope-scaling-reversed"_s << u"columns "_s << std::nan("");
        }
    }
    void namedMistakes()
    {
        QFETCH(RowMatrixXf, values);
        POSENC_SAMPLE_LARGE_UNDER_SANITIZER(values.rows() > 256);
        QFETCH(TableCheck::Declared, declared);
        QFETCH(QString, mistake);
        QFETCH(QString, deviating);
        QFETCH(double, largest);
        const Checked c = check(std::move(values), StoredType::Float32, declared);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations;
        QVERIFY2(m.verdict == CheckVerdict::Mistake, qPrintable(report));
        QCOMPARE(m.mistakes, QStringList {mistake});
        QVERIFY2(m.deviations.startsWith(deviating), qPrintable(report));
        QVERIFY(!m.diagnosis.isEmpty());
        if (!std::isnan(largest))
            QVERIFY2(std::fabs(*m.maxAbsError - largest) <= 1e-6 * std::max(1.0, largest),
                     qPrintable(u"%1 against %2"_s.arg(*m.maxAbsError).arg(largest)));
    }

    // A base that is what a mistake makes of 10000 is also the formula at that base (posenc table pe
    // --base 100): undeclared the variant at it, a note naming the mistake it equally is (once
    // "mistake", which posenc's own table is not); against the paper's sinusoid declared (--expect
    // sinusoidal) the mistake, its largest error the float64 one against the paper.
    void aMistakensBaseIsNamedAgainstTheDeclaration_data()
    {
        QTest::addColumn<double>("exponent"); // pair i at 10000^(-exponent i / d) ...
        QTest::addColumn<bool>("natural"); // ... or at exp(-exponent i / d)
        QTest::addColumn<QString>("mistake");
        QTest::newRow("p / 10000^(i/d)") << 1.0 << false << u"exponent-halved"_s;
        QTest::newRow("p / 10000^(4i/d)") << 4.0 << false << u"exponent-doubled"_s;
        QTest::newRow("exp(-2i/d)") << 2.0 << true << u"log-base-missing"_s;
    }
    void aMistakensBaseIsNamedAgainstTheDeclaration()
    {
        QFETCH(double, exponent);
        QFETCH(bool, natural);
        QFETCH(QString, mistake);
        const std::int64_t L = 512, d = 64;
        const Sinusoid s {1.0, [&](std::int64_t i, std::int64_t dd, std::int64_t) {
                              const double e = -exponent * double(i) / double(dd);
                              return natural ? std::exp(e) : std::pow(10000.0, e);
                          }};
        const RowMatrixXf t = sinusoid(L, d, s);
        const Checked undeclared = check(t);
        const QString said = undeclared.match.diagnosis + u" | "_s + undeclared.match.notes.join(u" | "_s);
        QVERIFY2(undeclared.match.verdict == CheckVerdict::Variant, qPrintable(said));
        QVERIFY2(undeclared.match.notes.join(u' ').contains(u"(%1)"_s.arg(mistake)), qPrintable(said));
        Params paper;
        paper.encoding = Encoding::Sinusoidal;
        paper.dModel = d;
        const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s, 0.0);
        const Checked declared
            = concluded(rows, TableCheck::expect(rows, Encoding::Sinusoidal, paper, u"sinusoidal"_s));
        QVERIFY2(declared.error.isEmpty(), qPrintable(declared.error));
        QVERIFY2(declared.match.verdict == CheckVerdict::Mistake, qPrintable(declared.match.diagnosis));
        QCOMPARE(declared.match.mistakes, QStringList {mistake});
        QVERIFY(declared.match.correctAgainst.isEmpty());
        double worst = 0.0;
        for (std::int64_t p = 0; p < L; ++p)
            for (std::int64_t j = 0; j < d; ++j) {
                const double a = double(p) * paperW(j / 2, d, p);
                worst = std::max(worst, std::fabs(double(t(p, j)) - (j % 2 ? std::cos(a) : std::sin(a))));
            }
        QVERIFY2(std::fabs(*declared.match.maxAbsError - worst) <= 1e-6,
                 qPrintable(u"%1 against %2"_s.arg(*declared.match.maxAbsError).arg(worst)));
    }

    // c is reported: the finding "scale" holds it.
    void theScaleIsReported()
    {
        const Checked c = check(sinusoid(512, 64, Sinusoid {8.0, paperW}));
        QCOMPARE(number(c.match, u"scale"_s), 8.0);
        QVERIFY2(c.match.diagnosis.contains(u"sqrt(d) = 8"_s), qPrintable(c.match.diagnosis));
    }

    // Without a declaration, a table whose pairs repeat the sine is RoPE's sin table at theta
    // 10000 (Llama 1 and 2's default, a published form) or a sinusoid whose cosines were
    // replaced: the published form is the verdict, and the other reading a note.
    void cosinesReplacedUndeclaredIsRopeSin()
    {
        Sinusoid cosReplaced {1.0, paperW};
        cosReplaced.cosReplaced = true;
        const Checked c = check(sinusoid(512, 64, cosReplaced));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QCOMPARE(c.match.table, u"rope-sin"_s);
        QVERIFY2(c.match.correctAgainst.contains(u"theta 10000"_s), qPrintable(c.match.correctAgainst));
        const QString notes = c.match.notes.join(u'\n');
        QVERIFY2(notes.contains(u"sinusoidal, mistake (cos-replaced)"_s), qPrintable(notes));
    }

    // A d x L table given as L x d.
    void transposedIsNamed_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::newRow("512 x 64 given as 64 x 512") << qint64(512) << qint64(64);
        QTest::newRow("4096 x 512 given as 512 x 4096") << qint64(4096) << qint64(512);
    }
    void transposedIsNamed()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        const RowMatrixXf t = sinusoid(rows, cols, Sinusoid {1.0, paperW});
        const Checked c = check(t.transpose());
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(c.match.mistakes, QStringList {u"transposed"_s});
        QCOMPARE(c.match.table, u"sinusoidal"_s);
        QVERIFY2(c.match.deviations.contains(u"rows and columns exchanged"_s), qPrintable(c.match.deviations));
    }

    // The published forms stay correct and named: torch's float32 PositionalEncoding (div_term
    // exp(arange(0, d, 2) * (-ln(10000) / d)) in float32, position * div_term in float32), HF's
    // rotary cos and sin in float32 for Llama 2, fairseq's half_dim - 1 form; base 500 is a variant.
    void publishedFormsStayCorrect()
    {
        const std::int64_t d = 128, L = 2048;
        const RowMatrixXf torch = table(L, d, [&](std::int64_t p, std::int64_t j) {
            const float div = std::exp(float(j - j % 2) * (-std::log(10000.0f) / float(d)));
            const float angle = float(p) * div;
            return j % 2 ? std::cos(angle) : std::sin(angle);
        });
        Checked c = check(torch);
        QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis + c.match.deviations));
        QVERIFY(c.match.correctAgainst.contains(u"PositionalEncoding"_s));
        for (const bool cosine : {true, false}) {
            const RowMatrixXf hf = table(L, d, [&](std::int64_t p, std::int64_t col) {
                const float inv = 1.0f / std::pow(10000.0f, float(2 * (col % (d / 2))) / float(d));
                return cosine ? std::cos(float(p) * inv) : std::sin(float(p) * inv);
            });
            // Declared RoPE, and undeclared: at theta 10000 a published form whatever else it reads as.
            for (const bool declared : {true, false}) {
                c = check(hf, StoredType::Float32,
                          declared ? declaring(u"rope-layout"_s, [](Params &p) { p.rope.layout = RopeLayout::Half; })
                                   : TableCheck::Declared {});
                QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                         qPrintable(c.match.diagnosis + c.match.deviations + c.match.notes.join(u' ')));
                QVERIFY2(c.match.correctAgainst.contains(u"Llama 2 7B"_s), qPrintable(c.match.correctAgainst));
            }
        }
        c = check(table(1024, 64, [](std::int64_t p, std::int64_t j) { return fairseq(p, j, 64, 10000.0); }));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
        QVERIFY(c.match.correctAgainst.contains(u"fairseq"_s));
        // The same columns interleaved: fairseq, tensor2tensor and Whisper are split (torch.cat([sin, cos],
        // dim=1)), so no published form; a variant naming the split one.
        c = check(table(1024, 64, [](std::int64_t p, std::int64_t j) {
            return fairseq(p, j % 2 == 0 ? j / 2 : 32 + j / 2, 64, 10000.0);
        }));
        QCOMPARE(c.match.verdict, CheckVerdict::Variant);
        QVERIFY(c.match.correctAgainst.isEmpty());
        QVERIFY2(c.match.diagnosis.contains(u"interleaving its columns gives this table"_s),
                 qPrintable(c.match.diagnosis));
        c = check(table(1024, 64, [](std::int64_t p, std::int64_t j) { return paper(p, j, 64, 500.0, false); }));
        QCOMPARE(c.match.verdict, CheckVerdict::Variant);
        QVERIFY(c.match.correctAgainst.isEmpty());
    }

    // 200 wrong tables, seed 20260101: random bases, offsets, scales, permuted columns, and
    // mixtures of two mistakes (sin and cos swapped only beside another: alone, it is published). None is correct against positions declared from 0 (undeclared, rows
    // from 1 + offset alone are a window of the paper's table, said: issue 56).
    void randomWrongTablesAreNeverCorrect()
    {
        std::mt19937 engine(20260101u);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const std::int64_t L = 192, d = 32;
        int checked = 0;
        for (int k = 0; k < 200; ++k) {
            double base = 10000.0, scale = 1.0;
            std::int64_t offset = 0;
            bool swapped = false, permuted = false;
            // One or two of: a base, an offset, a scale, sin and cos swapped, two columns exchanged.
            const int first = int(unit(engine) * 5.0), second = unit(engine) < 0.5 ? -1 : int(unit(engine) * 5.0);
            for (const int which : {first, second}) {
                switch (which) {
                case 0:
                    base = std::exp(std::log(10.0) + unit(engine) * std::log(1e7));
                    break;
                case 1:
                    offset = 1 + std::int64_t(unit(engine) * 50.0);
                    break;
                case 2:
                    scale = 0.1 + unit(engine) * 20.0;
                    break;
                case 3:
                    swapped = true;
                    break;
                case 4:
                    permuted = true;
                    break;
                default:
                    break;
                }
            }
            const bool unchanged = std::fabs(base - 10000.0) < 1e-9 && offset == 0 && scale == 1.0;
            if (unchanged && !swapped && !permuted)
                continue;
            // Swapped alone, cos before sin in each pair, is no wrong table: a RoPE cache of (cos, sin)
            // pairs read flat (torchtune's RotaryPositionalEmbeddings cache [L, dim/2, 2]), published.
            if (unchanged && swapped)
                permuted = true;
            const std::int64_t a = 2 + std::int64_t(unit(engine) * double(d - 4)), b = (a + 7) % d;
            RowMatrixXf t = table(L, d, [&](std::int64_t p, std::int64_t j) {
                const std::int64_t column = permuted ? (j == a ? b : j == b ? a : j) : j;
                const double angle = double(p + offset) * std::pow(base, -2.0 * double(column / 2) / double(d));
                const bool cosine = (column % 2 == 1) != swapped;
                return scale * (cosine ? std::cos(angle) : std::sin(angle));
            });
            const Checked c = check(std::move(t), StoredType::Float32, positionsFromZero());
            QVERIFY2(c.match.verdict != CheckVerdict::Correct,
                     qPrintable(u"table %1 (base %2, offset %3, scale %4, swapped %5, columns %6 and %7 exchanged "
                                "%8): %9"_s.arg(k)
                                    .arg(base)
                                    .arg(offset)
                                    .arg(scale)
                                    .arg(swapped)
                                    .arg(a)
                                    .arg(b)
                                    .arg(permuted)
                                    .arg(c.match.diagnosis)));
            ++checked;
        }
        QVERIFY(checked >= 190);
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckVerdicts)
} // namespace tst_tablecheckverdicts
#include "tst_tablecheckverdicts.moc"
