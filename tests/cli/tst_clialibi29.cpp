// posenc check of ALiBi bias tensors as models hold them (issue 56, session 29; heldout8 F4, REPORT-r28a
// findings 4b, 5 and 6). Every tensor is written here from float64 formulas:
// - get_slopes(H) of ofirpress/attention_with_linear_biases (fairseq/models/transformer.py);
// - BLOOM's key bias of a left-padded batch as transformers' models/bloom/modeling_bloom.py
//   build_alibi_tensor makes it: arange_tensor = ((attention_mask.cumsum(-1) - 1) * attention_mask),
//   alibi = slopes[..., None] * arange_tensor, [B·H, 1, L], float32 (then .to(dtype));
// - the symmetric bias −m |i − j| of llm-foundry / MosaicBERT held in bfloat16;
// - keras-hub#2977 (#2861): Falcon's ALiBi at decode built over the one-token query window, all zero;
// - a constant on every cell of a head (vllm-project/vllm#945's decode, m (j − n) for m (j − n + 1)),
//   which the softmax over the keys cancels.
// Faithful tensors are `correct`; the zero bias is a mistake named (alibi-bias-zero); wrong slopes in a
// padded batch are named; the softmax-cancelled constants are never a mistake (a variant naming them).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

namespace tst_clialibi29 {
using namespace Qt::StringLiterals;

namespace {

// build_alibi_tensor for a batch whose element b has pads[b] padded keys on the left: row b·H + h holds
// float32(m_h) · ((cumsum − 1) · mask) in float32, optionally then rounded to bfloat16.
std::vector<double> bloomPadded(const std::vector<double> &slopes, std::int64_t length,
                                const std::vector<std::int64_t> &pads, bool half)
{
    std::vector<double> v;
    for (const std::int64_t p : pads)
        for (const double m : slopes)
            for (std::int64_t j = 0; j < length; ++j) {
                const double position = j < p ? 0.0 : double(j - p);
                const float product = float(m) * float(position);
                v.push_back(half ? double(halffloats::toBFloat16(float(product))) : double(product));
            }
    return v;
}

// [H, L, L]: −m |i − j| (symmetric) rounded to bfloat16, or causal m (j − i) + c_h with −inf after
// the query, c_h = `perSlope` · m + `constant` (a constant on every cell of the head).
std::vector<double> stack(const std::vector<double> &slopes, std::int64_t length, bool symmetric, bool half,
                          double perSlope = 0.0, double constant = 0.0)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j) {
                if (!symmetric && j > i) {
                    v.push_back(-std::numeric_limits<double>::infinity());
                    continue;
                }
                const double bias = symmetric ? -m * double(std::llabs(i - j)) : m * double(j - i);
                const double value = double(float(bias + perSlope * m + constant));
                v.push_back(half ? double(halffloats::toBFloat16(float(value))) : value);
            }
    return v;
}

using CliCheck::Checked;

QStringList expectAlibi(std::int64_t heads)
{
    return {u"--expect"_s, u"alibi"_s, u"--heads"_s, QString::number(heads)};
}

} // namespace

class TestCliAlibi29 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const std::vector<std::int64_t> &shape, const std::vector<double> &values, const QStringList &flags)
    {
        return CliCheck::checkFile(CliCheck::write(m_dir, u"t.npy"_s, npy(shape, values)), flags);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // keras-hub#2977: the decode step's bias [1, 32, 1, 48] all zero. Declared: a mistake named
    // alibi-bias-zero, the diagnosis saying no head has a bias; undeclared never correct, named as a guess.
    void zeroBiasIsNamed()
    {
        const std::vector<double> zeros(32 * 48, 0.0);
        const Checked declared = check({1, 32, 1, 48}, zeros, expectAlibi(32));
        QVERIFY2(declared.verdict() == u"mistake"_s && declared.mistakes() == QJsonArray {u"alibi-bias-zero"_s},
                 qPrintable(declared.shown));
        QVERIFY2(declared.diagnosis().contains(u"every head's slope is 0"_s), qPrintable(declared.shown));
        const Checked undeclared = check({1, 32, 1, 48}, zeros, {});
        // Undeclared it is no finding against a reference: named as a guess (guessed_mistakes).
        QVERIFY2(undeclared.verdict() != u"correct"_s
                     && undeclared.json[u"guessed_mistakes"_s].toArray().contains(u"alibi-bias-zero"_s),
                 qPrintable(undeclared.shown));
    }

    // BLOOM's own key bias of a left-padded batch: correct, the padding named; with the heads' slopes
    // reversed, slopes-head-order.
    void bloomLeftPadded_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<bool>("half");
        QTest::addColumn<bool>("reversed");
        for (const int heads : {12, 16})
            for (const bool half : {false, true}) {
                const QByteArray tag = QByteArray::number(heads) + (half ? "h bf16" : "h float32");
                QTest::newRow(("faithful " + tag).constData()) << heads << half << false;
                QTest::newRow(("heads reversed " + tag).constData()) << heads << half << true;
            }
    }

    void bloomLeftPadded()
    {
        QFETCH(int, heads);
        QFETCH(bool, half);
        QFETCH(bool, reversed);
        const auto h = std::int64_t(heads);
        const std::int64_t length = 64;
        const std::vector<std::int64_t> pads {0, 10, 5};
        std::vector<double> slopes = alibiref::slopes(h);
        if (reversed)
            slopes.assign(slopes.rbegin(), slopes.rend());
        const std::vector<double> values = bloomPadded(slopes, length, pads, half);
        const std::vector<std::int64_t> shape {std::int64_t(pads.size()) * h, 1, length};
        for (const QStringList &flags : {expectAlibi(h), QStringList {}}) {
            const Checked c = check(shape, values, flags);
            if (reversed) {
                QVERIFY2(c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {u"slopes-head-order"_s},
                         qPrintable(c.shown));
                continue;
            }
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
            QVERIFY2(c.all().contains(u"batch 1 10 keys"_s) && c.all().contains(u"batch 2 5 keys"_s),
                     qPrintable(c.shown));
        }
    }

    // −m |i − j| held in bfloat16 at H 12, 16, 32 (heads whose slopes bfloat16 rounds, 2^-0.5 among
    // them): ALiBi at bfloat16's rounding, undeclared and declared.
    void symmetricBf16_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("length");
        for (const int heads : {12, 16, 32})
            for (const int length : {64, 160})
                QTest::newRow((QByteArray::number(heads) + "h L" + QByteArray::number(length)).constData())
                    << heads << length;
    }

    void symmetricBf16()
    {
        QFETCH(int, heads);
        QFETCH(int, length);
        const auto h = std::int64_t(heads), l = std::int64_t(length);
        const std::vector<double> values = stack(alibiref::slopes(h), l, true, true);
        const QStringList declared = expectAlibi(h) + QStringList {u"--alibi"_s, u"symmetric"_s};
        for (const QStringList &flags : {QStringList {}, declared}) {
            const Checked c = check({h, l, l}, values, flags);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        }
    }

    // A constant on every cell of a head, which the softmax over each query's keys cancels: −2m
    // (the distance two keys off, vLLM#945's kind), +0.3, in float32 and bfloat16: never a mistake,
    // the constant named and said to be cancelled.
    void softmaxCancelledConstant_data()
    {
        QTest::addColumn<double>("perSlope");
        QTest::addColumn<double>("constant");
        QTest::addColumn<bool>("half");
        for (const bool half : {false, true}) {
            const QByteArray tag = half ? " bf16" : " float32";
            QTest::newRow(("minus 2 slopes" + tag).constData()) << -2.0 << 0.0 << half;
            QTest::newRow(("plus 0.3" + tag).constData()) << 0.0 << 0.3 << half;
        }
    }

    void softmaxCancelledConstant()
    {
        QFETCH(double, perSlope);
        QFETCH(double, constant);
        QFETCH(bool, half);
        const std::int64_t h = 8, l = 64;
        const std::vector<double> values = stack(alibiref::slopes(h), l, false, half, perSlope, constant);
        const Checked c = check({h, l, l}, values, expectAlibi(h));
        QVERIFY2(c.verdict() == u"variant"_s || c.verdict() == u"correct"_s, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"softmax"_s) && c.diagnosis().contains(u"cancels"_s), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(perSlope != 0.0 ? u"-1"_s : u"0.3"_s), qPrintable(c.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliAlibi29)
} // namespace tst_clialibi29
#include "tst_clialibi29.moc"
