// The numbers of the lesson "One model, many layers", read from the example configs of Llama 4
// Scout and Gemma 3 4B, against float64 formulas written here from the models' code: Llama4TextConfig's
// every-fourth NoPE layer, its chunk and theta, Llama4TextAttention's temperature; Gemma3TextConfig's
// five sliding layers to one full, its window and two thetas, linear ×8 on the full layers.
#include "check/models/ModelLessonNumbers.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestModelLessonNumbers : public QObject
{
    Q_OBJECT

private slots:
    void numbers_data();
    void numbers();
    void theParametersDoNotMatter();
};

void TestModelLessonNumbers::numbers_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("expected");
    const double pi2 = 2.0 * std::numbers::pi;
    const auto temperature = [](double p) { return 1.0 + 0.1 * std::log(std::floor((p + 1.0) / 8192.0) + 1.0); };
    QTest::newRow("scout_layers") << u"scout_layers"_s << 48.0;
    QTest::newRow("scout_rope_layers") << u"scout_rope_layers"_s << 36.0; // (i + 1) % 4 != 0
    QTest::newRow("scout_nope_layers") << u"scout_nope_layers"_s << 12.0;
    QTest::newRow("scout_chunk") << u"scout_chunk"_s << 8192.0;
    QTest::newRow("scout_theta") << u"scout_theta"_s << 500000.0;
    // The slowest of 64 pairs: 2π θ^(126/128), the config giving no scaling.
    QTest::newRow("scout_slowest") << u"scout_slowest"_s << pi2 * std::pow(500000.0, 126.0 / 128.0);
    QTest::newRow("scout_temp_8190") << u"scout_temp_8190"_s << temperature(8190.0);
    QTest::newRow("scout_temp_8191") << u"scout_temp_8191"_s << 1.0 + 0.1 * std::log(2.0);
    QTest::newRow("scout_temp_65535") << u"scout_temp_65535"_s << 1.0 + 0.1 * std::log(9.0);
    QTest::newRow("scout_temp_10m") << u"scout_temp_10m"_s << 1.0 + 0.1 * std::log(1281.0);
    QTest::newRow("gemma_layers") << u"gemma_layers"_s << 34.0;
    QTest::newRow("gemma_local_layers") << u"gemma_local_layers"_s << 29.0; // (i + 1) % 6 != 0
    QTest::newRow("gemma_global_layers") << u"gemma_global_layers"_s << 5.0;
    QTest::newRow("gemma_window") << u"gemma_window"_s << 1024.0;
    QTest::newRow("gemma_local_theta") << u"gemma_local_theta"_s << 10000.0;
    QTest::newRow("gemma_global_theta") << u"gemma_global_theta"_s << 1000000.0;
    QTest::newRow("gemma_local_slowest") << u"gemma_local_slowest"_s << pi2 * std::pow(1e4, 254.0 / 256.0);
    // linear ×8 divides every frequency by 8: each wavelength eight times longer.
    QTest::newRow("gemma_global_slowest") << u"gemma_global_slowest"_s << 8.0 * pi2 * std::pow(1e6, 254.0 / 256.0);
}

void TestModelLessonNumbers::numbers()
{
    QFETCH(QString, key);
    QFETCH(double, expected);
    const auto number = LessonNumbers::number(key, Params(), ModelLessonNumbers::entries());
    QVERIFY(number && number->value);
    QVERIFY2(std::abs(*number->value - expected) <= 1e-12 * std::abs(expected),
             qPrintable(u"%1: %2 vs %3"_s.arg(key).arg(*number->value, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    const QList<LessonNumbers::Entry> entries = ModelLessonNumbers::entries();
    QVERIFY(std::any_of(entries.cbegin(), entries.cend(),
                        [&](const LessonNumbers::Entry &e) { return e.key == key && !e.description.isEmpty(); }));
}

void TestModelLessonNumbers::theParametersDoNotMatter()
{
    // The numbers are the configs', whatever the window shows.
    Params other;
    other.encoding = Encoding::Alibi;
    other.dModel = 8;
    for (const QString &key : {u"scout_temp_8191"_s, u"gemma_window"_s})
        QCOMPARE(LessonNumbers::number(key, other, ModelLessonNumbers::entries())->value,
                 LessonNumbers::number(key, Params(), ModelLessonNumbers::entries())->value);
}

QTEST_GUILESS_MAIN(TestModelLessonNumbers)
#include "tst_modellessonnumbers.moc"
