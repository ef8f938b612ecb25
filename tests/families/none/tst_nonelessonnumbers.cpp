// NoPE's numbers of the lessons (NoneLessonNumbers) against float64 sums written here: uniform
// attention under the causal mask weighs query t's keys 1/(t + 1), without it 1/L; the output h_t
// is the mean of s·E's rows 0 … t, read from the engine and summed here, whose squared norm has
// the mean s²σ²d/(t + 1) for rows independent with zero mean, the position it reads back as
// inverting that; a loaded matrix, or a table shorter than the quoted query, says why instead.
#include "core/Engine.h"
#include "core/LessonNumbers.h"
#include "core/ParamText.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_nonelessonnumbers {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

double valueOf(const QString &key, const Params &params)
{
    const auto number = LessonNumbers::number(key, params);
    if (!number || !number->value)
        return std::nan("");
    return *number->value;
}

Params make(const QList<std::pair<QString, QString>> &settings)
{
    Params p;
    for (const auto &[key, text] : settings)
        if (auto error = ParamText::set(p, key, text))
            qFatal("%s: %s", qPrintable(key), qPrintable(error->sentence()));
    return p;
}

// ‖(x_0 + … + x_t)/(t + 1)‖ over the engine's rows of s·E, in float64.
double prefixNorm(const Params &p, std::int64_t t)
{
    const Engine engine(p);
    const std::int64_t d = p.embeddingColumns();
    RowMatrixXf rows(t + 1, d);
    engine.computeBlock(Quantity::Embedding, {0, t + 1, 0, d}, rows);
    double squared = 0.0;
    for (std::int64_t j = 0; j < d; ++j) {
        double sum = 0.0;
        for (std::int64_t r = 0; r <= t; ++r)
            sum += double(rows(r, j));
        squared += sum * sum;
    }
    return std::sqrt(squared) / double(t + 1);
}

} // namespace

class TestNoneLessonNumbers : public QObject
{
    Q_OBJECT

private slots:
    void numbersAreTheClosedForms_data();
    void numbersAreTheClosedForms();
    void theNormReadsBackThePosition();
    void shortTablesAndLoadedRowsSayWhy();
    void wideEmbeddingsSayWhyInsteadOfStallingTheWindow();
};

void TestNoneLessonNumbers::numbersAreTheClosedForms_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("NoPE d 256, L 4096") << make(
        {{u"encoding"_s, u"none"_s}, {u"d-model"_s, u"256"_s}, {u"max-len"_s, u"4096"_s}});
    QTest::newRow("rope d 2048, scaled normal, s sqrt d") << make({{u"encoding"_s, u"rope"_s},
                                                                   {u"d-model"_s, u"2048"_s},
                                                                   {u"max-len"_s, u"100"_s},
                                                                   {u"init"_s, u"scaled-normal"_s},
                                                                   {u"scale"_s, u"sqrt"_s}});
    QTest::newRow("sinusoidal concat, Keras uniform") << make({{u"d-model"_s, u"64"_s},
                                                               {u"max-len"_s, u"500"_s},
                                                               {u"compose"_s, u"concat"_s},
                                                               {u"pe-dims"_s, u"16"_s},
                                                               {u"init"_s, u"keras-uniform"_s}});
}

void TestNoneLessonNumbers::numbersAreTheClosedForms()
{
    QFETCH(Params, p);
    // s, σ and the embedding's columns as the mathematics defines them for these settings.
    const double s = p.scaleKind == ScaleKind::Sqrt ? std::sqrt(double(p.dModel)) : 1.0;
    const double sigma = p.init == InitKind::ScaledNormal ? 1.0 / std::sqrt(double(p.dModel))
        : p.init == InitKind::KerasUniform                ? 0.05 / std::sqrt(3.0)
                                                          : 1.0;
    const double d = double(p.compose == Compose::Concat ? p.dModel - *p.peDims : p.dModel);
    const double L = double(p.maxLen);
    QCOMPARE(valueOf(u"nope_weight_9"_s, p), 1.0 / 10.0);
    QCOMPARE(valueOf(u"nope_weight_99"_s, p), 1.0 / 100.0);
    QCOMPARE(valueOf(u"nope_weight_all"_s, p), 1.0 / L);
    QVERIFY(std::abs(valueOf(u"nope_norm_0"_s, p) - s * sigma * std::sqrt(d)) < 1e-12 * s * sigma * std::sqrt(d));
    QVERIFY(std::abs(valueOf(u"nope_norm_99"_s, p) - s * sigma * std::sqrt(d / 100.0)) < 1e-12);
    QVERIFY(std::abs(valueOf(u"nope_norm_last"_s, p) - s * sigma * std::sqrt(d / L)) < 1e-12);
    const double measured = prefixNorm(p, 99);
    QVERIFY2(std::abs(valueOf(u"nope_measured_99"_s, p) - measured) < 1e-12 * measured,
             qPrintable(u"%1 against %2"_s.arg(valueOf(u"nope_measured_99"_s, p)).arg(measured)));
    QVERIFY(std::abs(valueOf(u"nope_read_99"_s, p) - (s * s * sigma * sigma * d / (measured * measured) - 1.0)) < 1e-9);
}

void TestNoneLessonNumbers::theNormReadsBackThePosition()
{
    // ‖h_99‖² · 100/(s²σ²d) is a χ²_d/d for normal rows: at d 4096 its spread is √(2/4096) = 2.2 %,
    // so the position read back is 99 to within 4 spreads whatever the seed.
    for (const QString &seed : {u"1"_s, u"2"_s, u"3"_s}) {
        const Params p = make(
            {{u"encoding"_s, u"none"_s}, {u"d-model"_s, u"4096"_s}, {u"max-len"_s, u"128"_s}, {u"seed"_s, seed}});
        const double read = valueOf(u"nope_read_99"_s, p);
        QVERIFY2(std::abs((read + 1.0) / 100.0 - 1.0) < 4.0 * std::sqrt(2.0 / 4096.0), qPrintable(seed));
    }
}

// Before: the 10-minute GUI monkey set d 1,048,576 on the nope-order lesson, and each change then
// held the window 1.4 s reading 100 rows of s·E for these two numbers. Past 2^21 cells they say why;
// d 16,384 (the widest preset's, 1.6M cells) is still measured.
void TestNoneLessonNumbers::wideEmbeddingsSayWhyInsteadOfStallingTheWindow()
{
    const Params wide = make({{u"encoding"_s, u"none"_s}, {u"d-model"_s, u"1048576"_s}, {u"max-len"_s, u"128"_s}});
    QVERIFY(wide.isValid());
    for (const QString &key : {u"nope_measured_99"_s, u"nope_read_99"_s}) {
        const auto number = LessonNumbers::number(key, wide);
        QVERIFY(number && !number->present());
        QVERIFY2(number->missing.contains(u"104857600 cells"_s), qPrintable(number->missing));
    }
    // The closed form still answers at any width: s·σ·√(d/100), σ 1.
    const double expected = wide.scale() * std::sqrt(1048576.0 / 100.0);
    QVERIFY(std::abs(valueOf(u"nope_norm_99"_s, wide) - expected) < 1e-12 * expected);
    const Params preset = make({{u"encoding"_s, u"none"_s}, {u"d-model"_s, u"16384"_s}, {u"max-len"_s, u"128"_s}});
    const double measured = prefixNorm(preset, 99);
    QVERIFY(std::abs(valueOf(u"nope_measured_99"_s, preset) - measured) < 1e-12 * measured);
}

void TestNoneLessonNumbers::shortTablesAndLoadedRowsSayWhy()
{
    const Params shortTable = make({{u"encoding"_s, u"none"_s}, {u"max-len"_s, u"50"_s}});
    for (const QString &key : {u"nope_weight_99"_s, u"nope_norm_99"_s, u"nope_measured_99"_s, u"nope_read_99"_s}) {
        const auto number = LessonNumbers::number(key, shortTable);
        QVERIFY(number && !number->present());
        QVERIFY2(number->missing.contains(u"L is at most"_s) || number->missing.contains(u"cannot be read"_s),
                 qPrintable(number->missing));
    }
    QCOMPARE(valueOf(u"nope_weight_9"_s, shortTable), 0.1);
    Params loaded = make({{u"encoding"_s, u"none"_s}, {u"d-model"_s, u"2"_s}, {u"max-len"_s, u"100"_s}});
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Ones(100, 2);
    loaded.embeddings = matrix;
    QVERIFY(loaded.isValid());
    QVERIFY(!LessonNumbers::number(u"nope_norm_0"_s, loaded)->present());
    QVERIFY(!LessonNumbers::number(u"nope_read_99"_s, loaded)->present());
    // Rows all alike: every mean is the row itself, s·(1, 1), of norm s·√2.
    // (s·E in float32, as the engine computes it.)
    QVERIFY(std::abs(valueOf(u"nope_measured_99"_s, loaded) - loaded.scale() * std::sqrt(2.0)) < 1e-6);
}

POSENC_TEST_GUILESS_MAIN(TestNoneLessonNumbers)
} // namespace tst_nonelessonnumbers
#include "tst_nonelessonnumbers.moc"
