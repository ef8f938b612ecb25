// What the shared code asks a family's descriptor besides its rows (FamilySpec.h): the family whose
// manifest lists a quantity (Families::owning, which the bench times its kernels under), whether a
// family places position at all (NoPE does not), and a rotary family's layers (FamilySpec::rotary,
// which the model figures and the config check read) against float64 formulas of HF transformers'
// modeling_rope_utils.py (support/RopeReference.h).
#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "support/TestMain.h"

#include "support/RopeReference.h"

#include "support/TestFamily.h"

#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_familyspec {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestFamilySpec : public QObject
{
    Q_OBJECT

private slots:
    void aQuantityBelongsToTheFamilyWhoseManifestListsIt_data();
    void aQuantityBelongsToTheFamilyWhoseManifestListsIt();
    void onlyNoPEPlacesNoPosition();
    void onlyRoPEsLayersTurnByRotaryNumbers();
    void rotaryNumbersAreHfs_data();
    void rotaryNumbersAreHfs();
};

void TestFamilySpec::aQuantityBelongsToTheFamilyWhoseManifestListsIt_data()
{
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<QString>("family"); // empty: a shared quantity
    QTest::newRow("pe") << u"pe"_s << QString();
    QTest::newRow("similarity") << u"similarity"_s << QString();
    // Each family's quantities, as its test record lists them (tests/families/<family>/).
    for (const TestFamily &family : TestFamilies::all())
        for (const QString &quantity : family.quantities)
            QTest::newRow(qPrintable(quantity)) << quantity << family.word;
}

void TestFamilySpec::aQuantityBelongsToTheFamilyWhoseManifestListsIt()
{
    QFETCH(QString, quantity);
    QFETCH(QString, family);
    const std::optional<Quantity> q = Quantities::fromName(quantity);
    QVERIFY(q);
    const std::optional<Encoding> owner = Families::owning(*q);
    QCOMPARE(owner ? Families::word(*owner) : QString(), family);
    // Its family has it with the defaults; the sinusoid does not have another family's.
    if (owner && *owner != Encoding::Sinusoidal) {
        Params p;
        p.encoding = Encoding::Sinusoidal;
        QVERIFY(!Quantities::available(p).contains(*q));
    }
}

void TestFamilySpec::onlyNoPEPlacesNoPosition()
{
    for (const FamilySpec &family : Families::all())
        QVERIFY2(family.placesPosition() == (family.word != u"none"_s), qPrintable(family.word));
    QCOMPARE(FamilyChecks::of(Encoding::None).layerTerse, u"NoPE"_s);
}

void TestFamilySpec::onlyRoPEsLayersTurnByRotaryNumbers()
{
    // RoPE's and M-RoPE's layers come from configs (a Qwen-VL text model's are M-RoPE's); 2-D RoPE
    // rotates too, but no config reader gives its layers.
    for (const FamilySpec &family : Families::all()) {
        const bool rotaryLayers = family.word == u"rope"_s || family.word == u"mrope"_s;
        QVERIFY2(FamilyChecks::of(family.encoding).rotary.has_value() == rotaryLayers, qPrintable(family.word));
    }
    // M-RoPE's layer turns at RoPE's frequencies: only which id turns a pair differs.
    Params p;
    p.encoding = Encoding::Mrope;
    p.rope.theta = 1e6;
    p.rope.headDim = 128;
    const RotaryNumbers n = FamilyChecks::of(Encoding::Mrope).rotary->numbers(p);
    QCOMPARE(n.rotaryDim, 128);
    QCOMPARE(n.inverseFrequencies.size(), std::size_t(64));
    for (std::size_t i = 0; i < n.inverseFrequencies.size(); ++i)
        QVERIFY(std::abs(n.inverseFrequencies[i] - std::pow(1e6, -2.0 * double(i) / 128.0)) < 1e-12);
}

void TestFamilySpec::rotaryNumbersAreHfs_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<double>("softmaxFactor");
    QTest::newRow("llama 3.1, llama3") << roperef::llama31() << 1.0;
    QTest::newRow("gpt-oss, yarn") << roperef::gptOss() << 1.0;
    // DeepSeek-V3: yarn 40 from 4,096, mscale and mscale_all_dim 1, qk_rope_head_dim 64, interleaved:
    // its attention multiplies the softmax scale by get_mscale(40, 1)^2.
    Params deepseek;
    deepseek.encoding = Encoding::Rope;
    deepseek.maxLen = 163840;
    deepseek.rope.headDim = 64;
    deepseek.rope.layout = RopeLayout::Interleaved;
    deepseek.rope.type = RopeType::Yarn;
    deepseek.rope.factor = 40.0;
    deepseek.rope.originalMaxLen = 4096;
    deepseek.rope.mscale = 1.0;
    deepseek.rope.mscaleAllDim = 1.0;
    const double m = roperef::mscale(40.0, 1.0);
    QTest::newRow("deepseek-v3, yarn, mscale_all_dim") << deepseek << m * m;
    // GLM-4.5: half of a head of 128 turns.
    Params glm;
    glm.encoding = Encoding::Rope;
    glm.maxLen = 131072;
    glm.rope.headDim = 128;
    glm.rope.partialRotaryFactor = 0.5;
    glm.rope.theta = 1000000.0;
    QTest::newRow("glm-4.5, partial rotary") << glm << 1.0;
}

void TestFamilySpec::rotaryNumbersAreHfs()
{
    QFETCH(Params, params);
    QFETCH(double, softmaxFactor);
    QVERIFY(params.isValid());
    const RotaryNumbers n = FamilyChecks::of(Encoding::Rope).rotary->numbers(params);
    const std::vector<double> inv = roperef::inv(params);
    QCOMPARE(n.inverseFrequencies.size(), inv.size());
    double slowest = 0.0;
    for (std::size_t i = 0; i < inv.size(); ++i) {
        QVERIFY2(std::abs(n.inverseFrequencies[i] - inv[i]) <= 1e-12 * inv[i],
                 qPrintable(u"pair %1: %2 against %3"_s.arg(i).arg(n.inverseFrequencies[i]).arg(inv[i])));
        if (inv[i] > 0.0)
            slowest = std::max(slowest, 2.0 * std::numbers::pi / inv[i]);
    }
    QCOMPARE(n.rotaryDim, roperef::rotaryDim(params));
    QCOMPARE(n.headDim, params.rope.headDim);
    QCOMPARE(n.interleaved, params.rope.layout == RopeLayout::Interleaved);
    QVERIFY2(std::abs(n.wavelengthMax - slowest) <= 1e-9 * slowest,
             qPrintable(u"%1 against %2"_s.arg(n.wavelengthMax).arg(slowest)));
    QVERIFY2(std::abs(n.softmaxScaleFactor - softmaxFactor) <= 1e-12,
             qPrintable(u"%1 against %2"_s.arg(n.softmaxScaleFactor).arg(softmaxFactor)));
}

POSENC_TEST_MAIN(TestFamilySpec)
} // namespace tst_familyspec
#include "tst_familyspec.moc"
