// What the window says beside a control: its name and flag, the formula it enters with the
// current numbers (float64 values written here), and why the settings ignore it; a screen reader
// reads it as plain text, a hidden control's once it shows.
#include "gui/ParamTips.h"
#include "support/TestMain.h"

#include "gui/Accessibility.h"

#include "core/ParamText.h"
#include "support/RopeReference.h"

#include <QLabel>
#include <QTest>

#include <cmath>

namespace tst_paramtips {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Five significant digits, the exponent as the program prints every number: "2.6214e5".
QString num(double value)
{
    QString text = QString::number(value, 'g', 5);
    text.replace(u"e+0"_s, u"e"_s).replace(u"e+"_s, u"e"_s).replace(u"e-0"_s, u"e-"_s);
    return text;
}

} // namespace

class TestParamTips : public QObject
{
    Q_OBJECT

private slots:
    void everyTooltipNamesItsParameterAndFlag();
    void formulasCarryTheCurrentNumbers_data();
    void formulasCarryTheCurrentNumbers();
    void idleParametersSayWhy_data();
    void idleParametersSayWhy();
    void aHiddenControlIsDescribedWhenShown();
};

void TestParamTips::everyTooltipNamesItsParameterAndFlag()
{
    const Params p;
    for (const QString &key : ParamText::valueKeys()) {
        if (key == u"memory-budget"_s)
            continue;
        const QString tip = ParamTips::tooltip(key, p);
        QVERIFY2(tip.contains(u"--"_s + key), qPrintable(tip));
        QVERIFY2(!ParamTips::formula(key, p).isEmpty(), qPrintable(key));
    }
    QVERIFY(ParamTips::tooltip(u"dropout-mode"_s, p).startsWith(u"<b>dropout mode</b>"_s));
    // In sum no column of X is the PE's alone: pe_dims names none.
    QVERIFY(!ParamTips::formula(u"pe-dims"_s, p).contains(u"Now"_s));
    QVERIFY(ParamTips::tooltip(u"seq-len"_s, p).startsWith(u"<b>seq_len</b>"_s));
    QVERIFY(ParamTips::tooltip(QString::fromUtf16(ParamUse::kCustomScale), p).contains(u"--scale NUMBER"_s));
    QVERIFY(ParamTips::tooltip(QString::fromUtf16(ParamUse::kCustomSigma), p).contains(u"--init SIGMA"_s));
}

void TestParamTips::formulasCarryTheCurrentNumbers_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("text");
    Params p; // d 512, L 1024, b 10000, s sqrt(d), sigma 1, p 0.1
    const double d = 512.0;
    QTest::newRow("scale: s = sqrt(d)") << u"scale"_s << p << u"now s = %1"_s.arg(num(std::sqrt(d)));
    // E||s E_p||^2 = s^2 sigma^2 d against ||PE_p||^2 = d / 2.
    QTest::newRow("scale: the balance") << u"scale"_s << p
                                        << u"= %1 against ‖PE<sub>p</sub>‖² ≈ %2"_s.arg(num(d * 1.0 * d), num(d / 2.0));
    Params scaled = p;
    scaled.init = InitKind::ScaledNormal;
    QTest::newRow("init: sigma = d^-1/2") << u"init"_s << scaled << u"now σ = %1"_s.arg(num(1.0 / std::sqrt(d)));
    QTest::newRow("dropout: 1/(1 - p)") << u"dropout"_s << p << u"Now 1/(1 − p) = %1"_s.arg(num(1.0 / 0.9));
    Params all = p;
    all.dropout = 1.0;
    QTest::newRow("dropout: p = 1") << u"dropout"_s << all << u"p = 1 zeroes every cell"_s;
    // The slowest pair, i = d/2 - 1: wavelength 2 pi b^(2i/d).
    QTest::newRow("base: longest wavelength")
        << u"base"_s << p << u"from 2π to %1 positions"_s.arg(num(2.0 * M_PI * std::pow(10000.0, (d - 2.0) / d)));
    Params concat = p;
    concat.compose = Compose::Concat;
    concat.peDims = 100;
    QTest::newRow("pe_dims: X's columns") << u"pe-dims"_s << concat << u"Now X's columns 412 … 511 hold the PE"_s;
    Params special = p;
    special.dropoutMode = DropoutMode::ProtectSpecial;
    special.seqLen = 10;
    QTest::newRow("special: resolved rows") << u"special"_s << special << u"Now rows 0, 9."_s;
    QTest::newRow("seq_len: n") << u"seq-len"_s << special << u"now n = 10"_s;
    QTest::newRow("seed: both") << u"seed"_s << p << u"Now it draws the embeddings E and the mask M"_s;
    // RoPE, gpt-oss-20b's yarn: head_dim 64, theta 150000, factor 32 over 4096, edges unrounded.
    Params oss = p;
    oss.encoding = Encoding::Rope;
    oss.rope.headDim = 64;
    oss.rope.theta = 150000.0;
    oss.rope.type = RopeType::Yarn;
    oss.rope.factor = 32.0;
    oss.rope.originalMaxLen = 4096;
    oss.rope.yarnTruncate = false;
    const auto edge = [](double beta) { return roperef::yarnCorrection(beta, 64, 150000.0, 4096.0); };
    QTest::newRow("beta_fast: yarn's edges")
        << u"beta-fast"_s << oss
        << u"Now the edges are %1 and %2, used as %1 and %2."_s.arg(num(edge(32.0)), num(edge(1.0)));
    QTest::newRow("attention_factor: 0.1 ln f + 1")
        << u"attention-factor"_s << oss << u"Now %1."_s.arg(num(roperef::mscale(32.0)));
    // The slowest pair keeps theta^(62/64) at 2 pi, divided by the factor.
    QTest::newRow("rope_theta: wavelengths")
        << u"rope-theta"_s << oss
        << u"run from %1 to %2 positions"_s.arg(num(2.0 * M_PI),
                                                num(32.0 * 2.0 * M_PI * std::pow(150000.0, 62.0 / 64.0)));
    Params partial = oss;
    partial.rope.partialRotaryFactor = 0.25;
    QTest::newRow("head_dim: the rotary dim") << u"head-dim"_s << partial << u"Now r = 16."_s;
    // ALiBi with 12 heads: 8 geometric, 4 interleaved; head 3's slope 2^-3.
    Params alibi;
    alibi.encoding = Encoding::Alibi;
    alibi.alibi.heads = 12;
    alibi.alibi.head = 3;
    QTest::newRow("heads: the interleave") << u"heads"_s << alibi << u"heads 9 … 12 take the interleave of 16."_s;
    QTest::newRow("head: its slope") << u"head"_s << alibi
                                     << u"Now m<sub>3</sub> = 0.125: its bias reaches −1 at distance 8."_s;
    // T5's encoder: 16 buckets a side, exact below 8, the last from 91.
    Params t5;
    t5.encoding = Encoding::T5;
    QTest::newRow("t5 buckets: a side") << u"t5-buckets"_s << t5 << u"Now 16 buckets a side, exact below 8."_s;
    QTest::newRow("t5 max distance: the last bucket")
        << u"t5-max-distance"_s << t5 << u"Now bucket n − 1 = 15 starts at distance 91."_s;
    Params deberta;
    deberta.encoding = Encoding::Deberta;
    QTest::newRow("deberta max position: its bucket")
        << u"deberta-max-position"_s << deberta << u"Now r = 512 takes bucket 256."_s;
}

void TestParamTips::formulasCarryTheCurrentNumbers()
{
    QFETCH(QString, key);
    QFETCH(Params, params);
    QFETCH(QString, text);
    const QString formula = ParamTips::formula(key, params);
    QVERIFY2(formula.contains(text), qPrintable(formula + u"\nlacks: "_s + text));
}

void TestParamTips::idleParametersSayWhy_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("why"); // empty when the parameter matters
    Params p;
    Params evaluation = p;
    evaluation.training = false;
    QTest::newRow("p in evaluation") << u"dropout"_s << evaluation << u"evaluation mode (eval) drops nothing."_s;
    QTest::newRow("p in training") << u"dropout"_s << p << QString();
    QTest::newRow("special in sum") << u"special"_s << p
                                    << u"only dropout mode protect-special reads it; the mode is sum."_s;
    Params masked = p;
    masked.dropoutMode = DropoutMode::MaskedFill;
    QTest::newRow("special in masked-fill") << u"special"_s << masked << u"the mode is masked-fill."_s;
    QTest::newRow("seq_len in masked-fill") << u"seq-len"_s << masked << QString();
    Params loaded = evaluation;
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = RowMatrixXf::Zero(1024, 7);
    m->source = u"wte.safetensors:wte"_s;
    loaded.embeddings = m;
    loaded.dModel = 7;
    QTest::newRow("d_model with a matrix")
        << u"d-model"_s << loaded << u"d_model comes from the loaded matrix (7 columns)"_s;
    QTest::newRow("init with a matrix") << u"init"_s << loaded
                                        << u"the embeddings are the rows of wte.safetensors:wte"_s;
    QTest::newRow("seed with a matrix, evaluation") << u"seed"_s << loaded
                                                    << u"the embeddings come from the loaded matrix and evaluation "
                                                       u"mode draws no mask."_s;
    QTest::newRow("custom scale") << QString::fromUtf16(ParamUse::kCustomScale) << p
                                  << u"only a custom scale reads it; the scale is sqrt."_s;
    QTest::newRow("head_dim under sinusoidal")
        << u"head-dim"_s << p << u"only encoding rope reads it; the encoding is sinusoidal."_s;
    Params rope = p;
    rope.encoding = Encoding::Rope;
    QTest::newRow("head_dim under rope") << u"head-dim"_s << rope << QString();
    QTest::newRow("heads under rope") << u"heads"_s << rope << u"only encoding alibi reads it; the encoding is rope."_s;
    QTest::newRow("t5 causal under sinusoidal")
        << u"t5-causal"_s << p << u"only encoding t5 reads it; the encoding is sinusoidal."_s;
    Params deberta = p;
    deberta.encoding = Encoding::Deberta;
    QTest::newRow("deberta buckets under deberta") << u"deberta-buckets"_s << deberta << QString();
    QTest::newRow("beta_fast under default")
        << u"beta-fast"_s << rope << u"rope-type default does not read it; only yarn does."_s;
    QTest::newRow("rope_factor under default")
        << u"rope-factor"_s << rope
        << u"rope-type default does not read it; linear, dynamic, yarn, longrope, llama3 and proportional do."_s;
}

void TestParamTips::idleParametersSayWhy()
{
    QFETCH(QString, key);
    QFETCH(Params, params);
    QFETCH(QString, why);
    const QString text = ParamTips::idleText(key, params);
    const QString tip = ParamTips::tooltip(key, params);
    if (why.isEmpty()) {
        QVERIFY2(text.isEmpty(), qPrintable(text));
        QVERIFY(!tip.contains(u"Not used now"_s));
        return;
    }
    QVERIFY2(text.contains(why), qPrintable(text));
    QVERIFY2(tip.contains(u"Not used now: "_s + text.toHtmlEscaped()) || tip.contains(u"Not used now: "_s + text),
             qPrintable(tip));
}

// A control's tooltip set while it is hidden (another family's) is its description once it shows,
// as plain text, and a later one replaces it; a shown control's is its description at once.
void TestParamTips::aHiddenControlIsDescribedWhenShown()
{
    Accessibility::install();
    QWidget window;
    auto *shown = new QLabel(u"shown"_s, &window);
    auto *hidden = new QLabel(u"hidden"_s, &window);
    hidden->hide();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    hidden->setToolTip(u"<b>head_dim</b>&nbsp;<code>--head-dim N</code><br><i>Not used now:</i> d = 64"_s);
    shown->setToolTip(u"<b>d_model</b>&nbsp;<code>--d-model N</code>"_s);
    QCOMPARE(shown->accessibleDescription(), u"d_model --d-model N"_s);
    hidden->show();
    QCOMPARE(hidden->accessibleDescription(), u"head_dim --head-dim N\nNot used now: d = 64"_s);
    hidden->hide();
    hidden->setToolTip(u"<b>head_dim</b>&nbsp;<code>--head-dim N</code><br>d = 128"_s);
    hidden->show();
    QCOMPARE(hidden->accessibleDescription(), u"head_dim --head-dim N\nd = 128"_s);
    QCOMPARE(hidden->accessibleDescription(), Accessibility::plainText(hidden->toolTip()));
}

POSENC_TEST_MAIN(TestParamTips)
} // namespace tst_paramtips
#include "tst_paramtips.moc"
