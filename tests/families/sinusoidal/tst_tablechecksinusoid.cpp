// The check of sinusoidal tables: each variant is correct and named, each mistake of issue 37's
// table is named, and the fields the JSON prints hold what the table is. Every table is written
// here from float64 formulas (CheckTables.h).
#include "core/CheckTables.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace tst_tablechecksinusoid {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

QStringList ids(const TableMatch &m)
{
    return m.mistakes;
}

} // namespace

class TestTableCheckSinusoid : public QObject
{
    Q_OBJECT

private slots:
    void variantsAreCorrect_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<bool>("split");
        QTest::addColumn<QString>("frequencies");
        QTest::addColumn<double>("base");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<qint64>("firstRow");

        const auto paperTable = [](std::int64_t rows, std::int64_t d, double base, bool split) {
            return table(rows, d, [=](std::int64_t p, std::int64_t j) { return paper(p, j, d, base, split); });
        };
        QTest::newRow("paper, interleaved")
            << paperTable(2048, 128, 10000.0, false) << false << "paper" << 10000.0 << qint64(0) << qint64(0);
        QTest::newRow("paper, split (Keras, TF tutorial)")
            << paperTable(2048, 128, 10000.0, true) << true << "paper" << 10000.0 << qint64(0) << qint64(0);
        QTest::newRow("another base, 500")
            << paperTable(1024, 64, 500.0, false) << false << "paper" << 500.0 << qint64(0) << qint64(0);
        QTest::newRow("a base of several digits, 12345.6")
            << paperTable(4096, 96, 12345.6, false) << false << "paper" << 12345.6 << qint64(0) << qint64(0);
        QTest::newRow("odd d, 127") << paperTable(1024, 127, 10000.0, false) << false << "paper" << 10000.0 << qint64(0)
                                    << qint64(0);
        QTest::newRow("half_dim - 1, split (tensor2tensor, Whisper)")
            << table(3000, 256, [](std::int64_t p, std::int64_t j) { return fairseq(p, j, 256, 10000.0); }) << true
            << "half-dim-minus-one" << 10000.0 << qint64(0) << qint64(0);
        QTest::newRow("fairseq's positions from padding_idx + 1")
            << table(1024, 64, [](std::int64_t p, std::int64_t j) { return fairseq(p, j, 64, 10000.0, -1, 2); }) << true
            << "half-dim-minus-one" << 10000.0 << qint64(2) << qint64(0);
        QTest::newRow("fairseq's weights, padding_idx 1 zeroed")
            << table(1024, 64, [](std::int64_t p, std::int64_t j) { return fairseq(p, j, 64, 10000.0, 1); }) << true
            << "half-dim-minus-one" << 10000.0 << qint64(0) << qint64(2);
        QTest::newRow("fairseq, odd d: a zero last column")
            << table(512, 65, [](std::int64_t p, std::int64_t j) { return fairseq(p, j, 65, 10000.0); }) << true
            << "half-dim-minus-one" << 10000.0 << qint64(0) << qint64(0);
    }
    void variantsAreCorrect()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(bool, split);
        QFETCH(QString, frequencies);
        QFETCH(double, base);
        QFETCH(qint64, offset);
        QFETCH(qint64, firstRow);
        const Checked c = check(values);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        // Base 10000 is every published form's; another base is a variant, the nearest form named.
        const CheckVerdict verdict = base == 10000.0 ? CheckVerdict::Correct : CheckVerdict::Variant;
        QVERIFY2(m.verdict == verdict, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(m.correctAgainst.isEmpty(), verdict != CheckVerdict::Correct);
        if (verdict == CheckVerdict::Variant)
            QVERIFY(m.diagnosis.contains(u"nearest published form is the paper's sinusoid, base 10000"_s));
        QCOMPARE(m.table, QStringLiteral("sinusoidal"));
        QCOMPARE(word(m, u"layout"_s), split ? u"split"_s : u"interleaved"_s);
        QCOMPARE(word(m, u"frequencies"_s), frequencies);
        QCOMPARE(number(m, u"base"_s), base);
        QCOMPARE(*m.positionOffset, offset);
        QCOMPARE(*m.firstPositionRow, firstRow);
        QCOMPARE(*m.precision, TablePrecision::Exact);
        QVERIFY(m.mistakes.empty());
        QVERIFY(*m.maxAbsError <= 1.2e-7);
        QVERIFY(m.params.has_value());
    }

    // The values rounded to float16 or bfloat16, stored as such or as float32: correct, the
    // precision named.
    void roundedValuesAreCorrect_data()
    {
        QTest::addColumn<int>("format"); // 16: float16, 8: bfloat16
        QTest::addColumn<int>("stored");
        QTest::newRow("float16 in float32") << 16 << int(StoredType::Float32);
        QTest::newRow("float16 stored") << 16 << int(StoredType::Float16);
        QTest::newRow("bfloat16 in float32") << 8 << int(StoredType::Float32);
        QTest::newRow("bfloat16 stored") << 8 << int(StoredType::BFloat16);
    }
    void roundedValuesAreCorrect()
    {
        QFETCH(int, format);
        QFETCH(int, stored);
        const std::int64_t d = 128;
        RowMatrixXf values
            = table(4096, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, 10000.0, false); });
        for (float &v : values.reshaped())
            v = format == 16 ? toHalf(v) : toBFloat(v);
        const Checked c = check(values, StoredType(stored));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
        QCOMPARE(*c.match.precision, format == 16 ? TablePrecision::Float16 : TablePrecision::BFloat16);
        QCOMPARE(number(c.match, u"base"_s), 10000.0);
    }

    // PyTorch's tutorial in float32: w = exp(2i * (-ln(10000) / d)) in float32, the angle
    // float(p) * w in float32, its sine and cosine.
    void float32AnglesAreCorrect()
    {
        const std::int64_t d = 256;
        const float c = float(-std::log(10000.0) / double(d));
        const RowMatrixXf values = table(16384, d, [&](std::int64_t p, std::int64_t j) {
            const float w = std::exp(float(2 * (j / 2)) * c);
            const float angle = float(p) * w;
            return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
        });
        const Checked c0 = check(values);
        QVERIFY2(c0.match.verdict == CheckVerdict::Correct,
                 qPrintable(c0.match.diagnosis + u" | "_s + c0.match.deviations));
        QCOMPARE(*c0.match.precision, TablePrecision::Float32Angles);
        QCOMPARE(number(c0.match, u"base"_s), 10000.0);
        QVERIFY(*c0.match.maxAbsError > 1e-5); // what float32 angles cost at p ~ 16000
        QVERIFY(!c0.verification.exactShare); // float32 angles, not the exact ones
    }

    // diffusers' get_timestep_embedding (huggingface/diffusers src/diffusers/models/embeddings.py):
    // exponent = -ln(max_period) * arange(half_dim) / (half_dim - downscale_freq_shift), the
    // angle scale * t * exp(exponent), [sin | cos] flipped to [cos | sin] by flip_sin_to_cos=True.
    // A published form, never the mistake sin-cos-swapped (issue 56: SD, SDXL, DiT, Wan, FLUX).
    void diffusersTimestepEmbeddingIsCorrect_data()
    {
        QTest::addColumn<qint64>("d");
        QTest::addColumn<double>("shift");
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("float32");
        QTest::newRow("shift 0 (Wan, FLUX), float64") << qint64(256) << 0.0 << 1.0 << false;
        QTest::newRow("shift 1 (SD's default), float64") << qint64(320) << 1.0 << 1.0 << false;
        QTest::newRow("shift 0, float32 as diffusers computes it") << qint64(256) << 0.0 << 1.0 << true;
        QTest::newRow("shift 1, float32") << qint64(256) << 1.0 << 1.0 << true;
        QTest::newRow("timesteps k / 1000, scale 1000, float32") << qint64(256) << 0.0 << 1000.0 << true;
    }
    void diffusersTimestepEmbeddingIsCorrect()
    {
        QFETCH(qint64, d);
        QFETCH(double, shift);
        QFETCH(double, scale);
        QFETCH(bool, float32);
        const std::int64_t half = d / 2;
        const RowMatrixXf values = table(1000, d, [&](std::int64_t k, std::int64_t j) {
            const std::int64_t i = j % half;
            const bool cos = j < half; // flipped: the cosines first
            if (float32) {
                const float exponent = float(-std::log(10000.0)) * float(i) / float(double(half) - shift);
                const float t = scale == 1.0 ? float(k) : float(k) / float(scale);
                const float angle = float(scale) * (t * std::exp(exponent));
                return double(cos ? std::cos(angle) : std::sin(angle));
            }
            const double angle = double(k) * std::exp(-std::log(10000.0) * double(i) / (double(half) - shift));
            return cos ? std::cos(angle) : std::sin(angle);
        });
        const Checked c = check(values);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.mistakes.join(u","_s) + u" | "_s + c.match.diagnosis));
        QVERIFY(c.match.correctAgainst.contains(u"get_timestep_embedding"_s));
        QVERIFY(c.match.correctAgainst.contains(u"downscale_freq_shift %1"_s.arg(shift)));
        QVERIFY(c.match.referenceText.contains(u"flip_sin_to_cos"_s));
    }

    // The flipped order at another max_period is a variant, the nearest form diffusers'.
    void flippedAtAnotherBaseIsAVariant()
    {
        const std::int64_t d = 128;
        const Checked c = check(
            table(2048, d, [&](std::int64_t p, std::int64_t j) { return paper(p, (j + d / 2) % d, d, 500.0, true); }));
        QCOMPARE(c.match.verdict, CheckVerdict::Variant);
        QVERIFY(c.match.mistakes.isEmpty());
        QVERIFY2(c.match.diagnosis.contains(u"get_timestep_embedding"_s), qPrintable(c.match.diagnosis));
    }

    // Cos before sin in each pair, the paper's frequencies: torchtune's RotaryPositionalEmbeddings
    // cache [L, dim/2, 2] of (cos, sin) read flat (pytorch/torchtune torchtune/modules/position_embeddings.py,
    // build_rope_cache: theta_i = base^(-2i/dim), float32 angles), a complex freqs_cis through
    // torch.view_as_real the same: correct at its default base 10000, a variant at another, never
    // the mistake sin-cos-swapped.
    void ropePairsCosFirstIsAPublishedCache()
    {
        const std::int64_t d = 128;
        const RowMatrixXf cache = table(2048, d, [&](std::int64_t p, std::int64_t j) {
            const float theta = float(1.0 / std::pow(10000.0, double(2 * (j / 2)) / double(d)));
            const float angle = float(p) * theta;
            return double(j % 2 == 0 ? std::cos(angle) : std::sin(angle));
        });
        const Checked c = check(cache);
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.mistakes.join(u","_s) + u" | "_s + c.match.diagnosis));
        QVERIFY2(c.match.correctAgainst.contains(u"torchtune"_s), qPrintable(c.match.correctAgainst));
        const Checked other = check(
            table(2048, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j ^ 1, d, 500000.0, false); }));
        QCOMPARE(other.match.verdict, CheckVerdict::Variant);
        QVERIFY(other.match.mistakes.isEmpty());
        QVERIFY2(other.match.diagnosis.contains(u"RoPE cache of (cos, sin) pairs"_s), qPrintable(other.match.diagnosis));
    }

    void mistakesAreNamed_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<QStringList>("mistakes");
        QTest::addColumn<double>("base");
        const std::int64_t d = 128;
        const double b = 10000.0;
        // DeepCTR#379: column j at b^(-j/d), sine on even columns and cosine on odd ones.
        QTest::newRow("exponent over the column index") << table(2048, d, [&](std::int64_t p, std::int64_t j) {
            const double angle = double(p) * std::pow(b, -double(j) / double(d));
            return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }) << QStringList {u"exponent-column-index"_s} << b;
        // SamLynnEvans/Transformer#25, pair i at b^(-4i/d) alone, is the formula at base 1e8 too: named
        // against the paper declared (tst_tablecheckverdicts, aMistakensBaseIsNamedAgainstTheDeclaration).
        // jadore801120's first code: column j at b^(-2j/d), both mistakes at once.
        QTest::newRow("column index, stepping twice")
            << table(2048, d,
                     [&](std::int64_t p, std::int64_t j) {
                         const double angle = double(p) * std::pow(b, -2.0 * double(j) / double(d));
                         return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                     })
            << QStringList {u"exponent-column-index"_s, u"exponent-doubled"_s} << b * b;
        // annotated-transformer#131: the angle p / w_i.
        QTest::newRow("position divided")
            << table(2048, d,
                     [&](std::int64_t p, std::int64_t j) {
                         const double angle = double(p) / std::pow(b, -2.0 * double(j / 2) / double(d));
                         return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                     })
            << QStringList {u"position-divided"_s} << b;
        QTest::newRow("positions from 1")
            << table(2048, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, b, false, 1); })
            << QStringList {u"position-offset"_s} << b;
        // The same in float32, as torch.arange(1, L + 1) gives it: not half_dim - 1's of base 9305.7
        // from 0, which its frequencies also are.
        const float c = float(-std::log(b) / double(d));
        QTest::newRow("positions from 1, float32 angles") << table(2048, d, [&](std::int64_t p, std::int64_t j) {
            const float angle = float(p + 1) * std::exp(float(2 * (j / 2)) * c);
            return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }) << QStringList {u"position-offset"_s} << b;
        // transformers PR#29285: positions in bf16, 8188..8191 all 8192.
        QTest::newRow("positions in bfloat16")
            << table(10000, d,
                     [&](std::int64_t p, std::int64_t j) {
                         const double angle = roundedPosition(p, 7) * std::pow(b, -2.0 * double(j / 2) / double(d));
                         return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                     })
            << QStringList {u"half-precision-angles"_s} << b;
        // numpy-transformer#1: pe[:batch] broadcast over the positions.
        QTest::newRow("every row the same")
            << table(512, d, [&](std::int64_t, std::int64_t j) { return paper(0, j, d, b, false); })
            << QStringList {u"same-row"_s} << b;
    }
    void mistakesAreNamed()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(QStringList, mistakes);
        QFETCH(double, base);
        // Declared from position 0 (a window nothing declares is said, not judged: issue 56).
        TableCheck::Declared fromZero;
        fromZero.positionsDeclared = true;
        const Checked c = check(values, StoredType::Float32, fromZero);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(ids(c.match), mistakes);
        QCOMPARE(c.match.table, QStringLiteral("sinusoidal"));
        QCOMPARE(number(c.match, u"base"_s), base);
        // Against the correct table, which the mistake is not.
        QVERIFY(*c.match.maxAbsError > 1e-3);
        QVERIFY(!c.match.diagnosis.isEmpty());
        QVERIFY(!c.match.deviations.isEmpty());
    }

    // Rows from position 1: undeclared a window of the paper's table, correct and said; declared from 0,
    // the offset named.
    void offsetIsReported()
    {
        const auto fromOne = [](std::int64_t p, std::int64_t j) { return paper(p, j, 64, 10000.0, false, 1); };
        const Checked said = check(table(1024, 64, fromOne));
        QCOMPARE(said.match.verdict, CheckVerdict::Correct);
        QVERIFY(said.match.positions && said.match.positions->first == 1 && said.match.positions->last == 1024);
        TableCheck::Declared fromZero;
        fromZero.positionsDeclared = true;
        const Checked c = check(table(1024, 64, fromOne), StoredType::Float32, fromZero);
        QCOMPARE(*c.match.positionOffset, qint64(1));
        QVERIFY(c.match.diagnosis.contains(u"positions start at 1"_s));
    }

    void oneChangedCellIsAMistakeAtThatCell()
    {
        const std::int64_t d = 64;
        RowMatrixXf values
            = table(5000, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, 10000.0, false); });
        values(3001, 17) += 1e-3f;
        const Checked c = check(values);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QVERIFY(c.match.mistakes.empty());
        QCOMPARE(*c.match.worstRow, qint64(3001));
        QCOMPARE(*c.match.worstColumn, qint64(17));
        QVERIFY(std::fabs(*c.match.maxAbsError - 1e-3) < 1e-6);
        QCOMPARE(c.verification.deviatingCells, qint64(1));
        QVERIFY(c.match.diagnosis.contains(u"row 3001, column 17"_s));
    }

    // Before: a split table with a sine column and a cosine column off in every row was said to
    // deviate in "4096 of 2048" rows: the split reference hands each row out once per half, and
    // each half's deviating rows were counted.
    void splitDeviatingRowsAreCountedOnce()
    {
        const std::int64_t d = 128, rows = 2048;
        RowMatrixXf values
            = table(rows, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, 10000.0, true); });
        for (std::int64_t p = 0; p < rows; ++p) {
            values(p, 5) += 0.1f; // a sine
            values(p, 70) += 0.1f; // a cosine
        }
        const Checked c = check(values);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(word(c.match, u"layout"_s), u"split"_s);
        QCOMPARE(c.verification.deviatingCells, 2 * rows);
        QCOMPARE(c.verification.deviatingRows, rows);
        QVERIFY2(c.match.deviations.contains(u"(2048 of 2048)"_s), qPrintable(c.match.deviations));
        QVERIFY2(c.match.deviations.startsWith(u"columns 5, 70 (2 of 128)"_s), qPrintable(c.match.deviations));
    }

    // Before: the diagnosis named the cell of the largest error, which float32 angles allow in a
    // fast column at a far position, and not the one cell beyond its tolerance.
    void theDiagnosisNamesTheCellThatDeviates()
    {
        const std::int64_t d = 256;
        const float c = float(-std::log(10000.0) / double(d));
        RowMatrixXf values = table(16384, d, [&](std::int64_t p, std::int64_t j) {
            const float w = std::exp(float(2 * (j / 2)) * c);
            const float angle = float(p) * w;
            return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
        });
        values(100, 250) += 1e-4f; // a slow column, near the start: far beyond its rounding
        const Checked c0 = check(values);
        QCOMPARE(c0.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(c0.verification.deviatingCells, qint64(1));
        QCOMPARE(c0.verification.deviationRow, qint64(100));
        QCOMPARE(c0.verification.deviationColumn, qint64(250));
        QVERIFY(*c0.match.maxAbsError > 1e-4); // the largest error is elsewhere, within its tolerance
        QVERIFY2(c0.match.diagnosis.contains(u"row 100, column 250"_s), qPrintable(c0.match.diagnosis));
    }

    // Before: +-0.01 of noise in the second half of a 2^20-row table passed as "float32 angles",
    // whose tolerance at far positions is that wide; the first half, exact where float32 angles
    // would have moved its cells, says otherwise. Now it is compared with the exact angles, and
    // the noise is a mistake.
    void noiseInTheSecondHalfIsNotFloat32Angles()
    {
        const std::int64_t rows = std::int64_t(1) << 20;
        const std::int64_t d = 4;
        std::mt19937 engine(7);
        std::uniform_real_distribution<double> noise(-0.01, 0.01);
        const RowMatrixXf values = table(rows, d, [&](std::int64_t p, std::int64_t j) {
            return paper(p, j, d, 10000.0, false) + (p >= rows / 2 ? noise(engine) : 0.0);
        });
        const Checked c = check(values);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(*c.match.precision, TablePrecision::Exact);
        QVERIFY(c.verification.exactShare && *c.verification.exactShare > 0.3);
        QVERIFY(c.verification.someDeviatingRows.front() >= rows / 2);
        QVERIFY2(c.match.notes.join(u'\n').contains(u"not float32 angles"_s), qPrintable(c.match.notes.join(u'\n')));
    }

    // Before: a text table's tolerance took the coarsest cell's rounding, so one cell written
    // "1.00" among "%.6f" ones let an error of 0.004 anywhere pass.
    void aShortTextCellWidensOnlyItself()
    {
        const std::int64_t d = 32;
        RowMatrixXf values = table(600, d, [&](std::int64_t p, std::int64_t j) {
            return std::round(paper(p, j, d, 10000.0, false) * 1e6) / 1e6;
        });
        std::vector<std::int8_t> rounding(std::size_t(values.size()), MatrixRows::kNoCellRounding);
        rounding[1] = -2; // cos 0 written "1.00"
        values(400, 9) += 0.004f;
        const MatrixRows rows(std::make_shared<const RowMatrixXf>(values), StoredType::Text, u"test.csv"_s, 0.5e-6,
                              rounding);
        auto identified = TableCheck::identify(rows, {});
        QVERIFY(std::holds_alternative<TableMatch>(identified));
        TableMatch match = std::get<TableMatch>(std::move(identified));
        const TableCheck::Verification v = TableCheck::verify(match, rows, {});
        TableCheck::conclude(match, v);
        QCOMPARE(match.verdict, CheckVerdict::Mistake);
        QCOMPARE(v.deviatingCells, qint64(1));
        QVERIFY2(match.diagnosis.contains(u"row 400, column 9"_s), qPrintable(match.diagnosis));
    }

    void declaredLayoutIsChecked()
    {
        const std::int64_t d = 64;
        const TableCheck::Declared declared
            = declaring(u"layout"_s, [](Params &p) { p.sinusoidal.layout = Layout::Interleaved; });
        const Checked c
            = check(table(1024, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, 10000.0, true); }),
                    StoredType::Float32, declared);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(word(c.match, u"layout"_s), u"split"_s);
        QVERIFY(c.match.diagnosis.contains(u"tensorflow/text#1122"_s));
    }

    void nonFiniteCellIsRefused()
    {
        RowMatrixXf values
            = table(100000, 16, [](std::int64_t p, std::int64_t j) { return paper(p, j, 16, 10000.0, false); });
        values(77777, 3) = std::numeric_limits<float>::quiet_NaN();
        const Checked c = check(values);
        QVERIFY(c.error.contains(u"row 77777, column 3 holds NaN"_s));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckSinusoid)
} // namespace tst_tablechecksinusoid
#include "tst_tablechecksinusoid.moc"
