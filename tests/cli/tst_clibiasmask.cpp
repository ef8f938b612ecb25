// posenc check on a head bias that differs from the declared one in its mask alone (r35's item 7):
// the mistake bias-mask, never the flag's name, and whether the mask compared was declared or the
// default. The tensors are written here in float64 from the reference code:
// - ALiBi's get_slopes(H) (ofirpress/attention_with_linear_biases, tests/support/AlibiReference.h);
//   the causal bias −m (i − j) with −inf after the query (transformers' masks over BLOOM's and
//   MPT's bias), the symmetric −m |i − j| of mlx's nn.ALiBi.create_alibi_matrix after
//   ml-explore/mlx#3071 (python/mlx/nn/layers/positional_encoding.py), and the key bias m·j of
//   x-transformers' AlibiPositionalBias before x-transformers#88;
// - Sandwich's bias (NeMo's SandwichRelativePositionEmbedding.forward, tests/support/SandwichReference.h),
//   full=True (bidirectional) where the model is causal.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/SandwichReference.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace tst_clibiasmask {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kHeads = 12; // not a power of two: get_slopes interleaves
constexpr std::int64_t kLength = 64;

enum class Mask { Causal, Symmetric, KeyBias };

// [1, 12, 64, 64] (or [12, 1, 64] key biases) of get_slopes(12) under `mask`, or of the slopes
// 2^(-8h/12), h = 1..12, where `wrongSlopes` (mlx's create_alibi_slope before #3071).
QByteArray alibi(Mask mask, bool wrongSlopes = false)
{
    std::vector<double> m = alibiref::slopes(kHeads);
    if (wrongSlopes)
        for (std::int64_t h = 0; h < kHeads; ++h)
            m[std::size_t(h)] = std::pow(2.0, -8.0 * double(h + 1) / double(kHeads) - 0.5);
    std::vector<double> v;
    for (std::int64_t h = 0; h < kHeads; ++h) {
        const double s = m[std::size_t(h)];
        if (mask == Mask::KeyBias) {
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(s * double(j));
            continue;
        }
        for (std::int64_t i = 0; i < kLength; ++i)
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(mask == Mask::Causal && j > i ? -std::numeric_limits<double>::infinity()
                                                          : -s * double(std::abs(i - j)));
    }
    return mask == Mask::KeyBias ? npy({kHeads, 1, kLength}, v) : npy({1, kHeads, kLength, kLength}, v);
}

// ALiBi's causal bias of 12 heads, its slopes times `times`, with the masked cells at `fill`: the
// [1, H, L, L] tensor of a model whose mask is torch.finfo(float32).min (transformers'
// AttentionMaskConverter._make_causal_mask) or a masked_fill constant.
QByteArray alibiFilled(double fill, double times)
{
    const std::vector<double> m = alibiref::slopes(kHeads);
    std::vector<double> v;
    for (std::int64_t h = 0; h < kHeads; ++h)
        for (std::int64_t i = 0; i < kLength; ++i)
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(j > i ? fill : -times * m[std::size_t(h)] * double(i - j));
    return npy({1, kHeads, kLength, kLength}, v);
}

// Sandwich's head 1 of 8 at head_dim 64, bidirectional (full=True), one [64, 64] table.
QByteArray sandwichBidirectional()
{
    std::vector<double> v;
    for (std::int64_t i = 0; i < kLength; ++i)
        for (std::int64_t j = 0; j < kLength; ++j)
            v.push_back(sandwichref::bias(8, 1, 64, i, j, true));
    return npy({kLength, kLength}, v);
}

using CliCheck::Checked;

const QStringList kAlibi12 {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s};

} // namespace

class TestCliBiasMask : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const QByteArray &bytes, const QStringList &flags) { return CliCheck::check(m_dir, bytes, flags); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // mlx's symmetric bias with get_slopes(12) is correct where symmetric is declared and bias-mask
    // where causal is, saying the causal mask was the default when no --alibi gave it.
    void symmetricWhereCausal()
    {
        const QByteArray bytes = alibi(Mask::Symmetric);
        const Checked right = check(bytes, kAlibi12 + QStringList {u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));

        const Checked defaulted = check(bytes, kAlibi12);
        QVERIFY2(defaulted.exit == 1 && defaulted.mistakes() == QJsonArray {u"bias-mask"_s},
                 qPrintable(defaulted.shown));
        QVERIFY2(defaulted.diagnosis().contains(u"default"_s) && defaulted.diagnosis().contains(u"--alibi"_s),
                 qPrintable(defaulted.shown));

        const Checked declared = check(bytes, kAlibi12 + QStringList {u"--alibi"_s, u"causal"_s});
        QVERIFY2(declared.exit == 1 && declared.mistakes() == QJsonArray {u"bias-mask"_s}, qPrintable(declared.shown));
        QVERIFY2(!declared.diagnosis().contains(u"default"_s), qPrintable(declared.shown));
    }

    // The causal bias declared symmetric, and the key bias m·j (the causal bias to the softmax)
    // declared symmetric: bias-mask; both correct where causal is declared.
    void causalWhereSymmetric_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("causal −m (i − j), −inf after") << alibi(Mask::Causal);
        QTest::newRow("key bias m·j [12, 1, 64]") << alibi(Mask::KeyBias);
    }
    void causalWhereSymmetric()
    {
        QFETCH(QByteArray, bytes);
        const Checked right = check(bytes, kAlibi12);
        QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
        const Checked wrong = check(bytes, kAlibi12 + QStringList {u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(wrong.exit == 1 && wrong.mistakes() == QJsonArray {u"bias-mask"_s}, qPrintable(wrong.shown));
    }

    // A bias whose slopes are wrong is named by its slopes under the right mask, never bias-mask.
    void wrongSlopesAreNoMask()
    {
        const Checked c = check(alibi(Mask::Symmetric, true), kAlibi12 + QStringList {u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(c.exit == 1 && !c.mistakes().contains(u"bias-mask"_s), qPrintable(c.shown));
    }

    // A bias against a reference dump whose mask is a fill far below its values (finfo.min, −1e9,
    // −1e4): the fill is no value of the formula, so the rounding allowed every cell is that of the
    // bias beside it. A bias 8 times too large (TensorRT-Model-Connect#32's Falcon ALiBi), or 1 %
    // off, is never `correct` against it; the reference against itself is.
    void aFillIsNoScaleOfTheBias_data()
    {
        QTest::addColumn<double>("fill");
        QTest::addColumn<double>("times");
        for (const double fill : {double(std::numeric_limits<float>::lowest()), -1e9, -1e4})
            for (const double times : {8.0, 1.01})
                QTest::addRow("fill %g, slopes x %g", fill, times) << fill << times;
    }
    void aFillIsNoScaleOfTheBias()
    {
        QFETCH(double, fill);
        QFETCH(double, times);
        const QString reference = CliCheck::write(m_dir, u"reference-%1.npy"_s.arg(fill), alibiFilled(fill, 1.0));
        const Checked self = check(alibiFilled(fill, 1.0), {u"--expect-table"_s, reference});
        QVERIFY2(self.exit == 0 && self.verdict() == u"correct"_s, qPrintable(self.shown));
        const Checked wrong = check(alibiFilled(fill, times), {u"--expect-table"_s, reference});
        QVERIFY2(wrong.exit == 1 && wrong.verdict() == u"mistake"_s, qPrintable(wrong.shown));
    }

    // The same class in another family with a mask row: Sandwich's bidirectional bias (full=True)
    // where its causal mask is the default.
    void sandwichBidirectionalWhereCausal()
    {
        const QStringList sandwich {u"--expect"_s,        u"sandwich"_s, u"--sandwich-heads"_s,    u"8"_s,
                                    u"--sandwich-head"_s, u"1"_s,        u"--sandwich-head-dim"_s, u"64"_s};
        const Checked right
            = check(sandwichBidirectional(), sandwich + QStringList {u"--sandwich-mask"_s, u"bidirectional"_s});
        QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
        const Checked wrong = check(sandwichBidirectional(), sandwich);
        QVERIFY2(wrong.exit == 1 && wrong.mistakes() == QJsonArray {u"bias-mask"_s}, qPrintable(wrong.shown));
        QVERIFY2(wrong.diagnosis().contains(u"default"_s), qPrintable(wrong.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliBiasMask)
} // namespace tst_clibiasmask
#include "tst_clibiasmask.moc"
