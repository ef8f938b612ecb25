// posenc check of ALiBi's slopes and biases as published code computes them in float32 (issue 56;
// REPORT-r36 findings 1, 2 and 6): transformers' build_alibi_tensor (models/bloom/modeling_bloom.py),
// vLLM's _get_alibi_slopes (model_executor/models/bloom.py, mpt.py, baichuan.py) and flashinfer's
// get_alibi_slopes raise the base 2^(-8/P), rounded to float32, to int powers in float32; vLLM's
// _make_alibi_bias multiplies those slopes by (j − i) in float32. Each is `correct` at every head
// count, up to BLOOM-176B's 112 and 256; the slopes' wrong formulas (the exponent off by one head,
// aprender#2143; 2^(-8k/H) where H is no power of two) stay `alibi-slopes`. A tensor-parallel rank's
// local head count (flashinfer#1606: each rank of MPT-7B's TP 4 computing get_slopes(8)) is
// `alibi-slopes` named so, never `correct` nor `slopes-head-order`, under the heads a preset, a
// config or --heads declares, and against --expect-table's fixed tensor.
// Every tensor is written here from float64 formulas (get_slopes of ofirpress/attention_with_linear_biases),
// the float32 form emulated as torch computes it (the base rounded to float32, its power correctly
// rounded), and one recorded output of transformers' build_alibi_tensor at 112 heads.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace tst_clialibifloat32 {
using namespace Qt::StringLiterals;

namespace {

// build_alibi_tensor's slopes: torch.pow(float32 base, int32 powers) for the closest power of two
// P, then torch.pow(float32 extra_base, 1, 3, 5, ...) from 2P's base; each power correctly rounded.
std::vector<double> float32Slopes(std::int64_t heads)
{
    std::int64_t p = 1;
    while (2 * p <= heads)
        p *= 2;
    const float base = float(std::pow(2.0, -std::pow(2.0, -(std::log2(double(p)) - 3.0))));
    const float extra = float(std::pow(2.0, -std::pow(2.0, -(std::log2(double(2 * p)) - 3.0))));
    std::vector<double> s;
    for (std::int64_t k = 1; k <= p; ++k)
        s.push_back(double(float(std::pow(double(base), double(k)))));
    for (std::int64_t k = 1; std::int64_t(s.size()) < heads; k += 2)
        s.push_back(double(float(std::pow(double(extra), double(k)))));
    return s;
}

// transformers' build_alibi_tensor's slopes for BLOOM-176B (112 heads), recorded with torch 2 on
// CPU (float32 bits): heads 110 and 112 are 4 and 7 float32 steps from get_slopes(112).
const std::uint32_t kBloom176bSlopes[112]
    = {0x3f6ac0c7, 0x3f5744fd, 0x3f45672a, 0x3f3504f3, 0x3f25fed7, 0x3f1837f1, 0x3f0b95c2, 0x3f000000, 0x3eeac0c8,
       0x3ed744fe, 0x3ec5672b, 0x3eb504f4, 0x3ea5fed8, 0x3e9837f1, 0x3e8b95c3, 0x3e800001, 0x3e6ac0c9, 0x3e5744fe,
       0x3e45672c, 0x3e3504f5, 0x3e25fed8, 0x3e1837f2, 0x3e0b95c3, 0x3e000001, 0x3deac0c9, 0x3dd744ff, 0x3dc5672c,
       0x3db504f5, 0x3da5fed9, 0x3d9837f2, 0x3d8b95c4, 0x3d800002, 0x3d6ac0ca, 0x3d574500, 0x3d45672d, 0x3d3504f6,
       0x3d25fed9, 0x3d1837f3, 0x3d0b95c4, 0x3d000002, 0x3ceac0cb, 0x3cd74500, 0x3cc5672d, 0x3cb504f6, 0x3ca5feda,
       0x3c9837f3, 0x3c8b95c5, 0x3c800002, 0x3c6ac0cc, 0x3c574501, 0x3c45672e, 0x3c3504f7, 0x3c25feda, 0x3c1837f4,
       0x3c0b95c5, 0x3c000003, 0x3beac0cc, 0x3bd74502, 0x3bc5672f, 0x3bb504f8, 0x3ba5fedb, 0x3b9837f4, 0x3b8b95c5,
       0x3b800003, 0x3f75257d, 0x3f60ccdf, 0x3f4e248c, 0x3f3d08a3, 0x3f2d583e, 0x3f1ef532, 0x3f11c3d3, 0x3f05aac3,
       0x3ef5257c, 0x3ee0ccdd, 0x3ece248b, 0x3ebd08a2, 0x3ead583d, 0x3e9ef531, 0x3e91c3d2, 0x3e85aac2, 0x3e75257a,
       0x3e60ccdc, 0x3e4e248a, 0x3e3d08a1, 0x3e2d583d, 0x3e1ef530, 0x3e11c3d1, 0x3e05aac1, 0x3df52579, 0x3de0ccdb,
       0x3dce2488, 0x3dbd08a0, 0x3dad583c, 0x3d9ef52f, 0x3d91c3d0, 0x3d85aac1, 0x3d752578, 0x3d60ccda, 0x3d4e2487,
       0x3d3d089f, 0x3d2d583b, 0x3d1ef52e, 0x3d11c3d0, 0x3d05aac0, 0x3cf52576, 0x3ce0ccd9, 0x3cce2486, 0x3cbd089e,
       0x3cad583a, 0x3c9ef52d, 0x3c91c3cf, 0x3c85aabf};

std::vector<double> recordedBloom176b()
{
    std::vector<double> s;
    for (const std::uint32_t bits : kBloom176bSlopes) {
        float f = 0.0f;
        std::memcpy(&f, &bits, sizeof f);
        s.push_back(double(f));
    }
    return s;
}

// vLLM's _make_alibi_bias [1, H, L, L]: float32 (j − i) times the float32 slope, rounded once; the keys
// after the query −inf (the causal mask it is added under).
std::vector<double> causalStack(const std::vector<double> &slopes, std::int64_t length)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j)
                v.push_back(j > i ? -std::numeric_limits<double>::infinity() : double(float(m) * float(j - i)));
    return v;
}

// MPT's key bias [1, H, 1, L]: slope · (j − (L − 1)) (build_mpt_alibi_tensor), in float32.
std::vector<double> mptKeyBias(const std::vector<double> &slopes, std::int64_t length)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t j = 0; j < length; ++j)
            v.push_back(double(float(m) * float(j - (length - 1))));
    return v;
}

// get_slopes(g) for each of H / g groups: every rank computing its own g heads' slopes.
std::vector<double> perRank(std::int64_t heads, std::int64_t group)
{
    std::vector<double> s;
    const std::vector<double> local = alibiref::slopes(group);
    for (std::int64_t h = 0; h < heads; ++h)
        s.push_back(local[std::size_t(h % group)]);
    return s;
}

using CliCheck::Checked;

} // namespace

class TestCliAlibiFloat32 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const std::vector<std::int64_t> &shape, const std::vector<double> &values, const QStringList &flags,
                  const QString &name = u"t.npy"_s)
    {
        return CliCheck::checkFile(CliCheck::write(m_dir, name, npy(shape, values)), flags);
    }

    static QStringList heads(std::int64_t h) { return {u"--expect"_s, u"alibi"_s, u"--heads"_s, QString::number(h)}; }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The float32 slopes at every head count, declared and not: correct (32 heads reach 8 float32
    // steps of the slope, 112 nearly 9, 256 38: each head's power times the base's rounding).
    void float32SlopesAreCorrect_data()
    {
        QTest::addColumn<int>("heads");
        for (const int h : {12, 16, 30, 32, 40, 64, 80, 112, 128, 256})
            QTest::newRow(qPrintable(u"%1 heads"_s.arg(h))) << h;
    }

    void float32SlopesAreCorrect()
    {
        QFETCH(int, heads);
        const std::vector<double> slopes = float32Slopes(heads);
        for (const QStringList &flags : {QStringList {}, TestCliAlibiFloat32::heads(heads)}) {
            const Checked c = check({std::int64_t(heads)}, slopes, flags);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        }
    }

    // transformers' own output at 112 heads (recorded), as slopes and as BLOOM's [H, 1, L] key bias.
    void recordedBloom176bIsCorrect()
    {
        const std::vector<double> slopes = recordedBloom176b();
        QVERIFY(std::fabs(slopes[111] - alibiref::slopes(112)[111]) > 4e-9); // 7 float32 steps: no exact copy
        Checked c = check({112}, slopes, heads(112));
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        std::vector<double> bias;
        for (const double m : slopes)
            for (std::int64_t j = 0; j < 64; ++j)
                bias.push_back(double(float(m) * float(j)));
        c = check({112, 1, 64}, bias, heads(112));
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
    }

    // vLLM's [1, H, L, L] causal bias of the float32 slopes: correct at 16 heads (BLOOM-560m's head 9
    // is 4.4 float32 steps of its cell off) and at 32 and 40, declared and not.
    void float32StackIsCorrect_data()
    {
        QTest::addColumn<int>("heads");
        for (const int h : {16, 32, 40})
            QTest::newRow(qPrintable(u"%1 heads"_s.arg(h))) << h;
    }

    void float32StackIsCorrect()
    {
        QFETCH(int, heads);
        const std::int64_t length = 128;
        const std::vector<double> values = causalStack(float32Slopes(heads), length);
        for (const QStringList &flags : {QStringList {}, TestCliAlibiFloat32::heads(heads)}) {
            const Checked c = check({1, std::int64_t(heads), length, length}, values, flags);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        }
    }

    // The wrong formulas stay named at float32's tolerance: the exponent off by one head
    // (aprender#2143), the power-of-two formula at a non-power-of-two H, one head's slope off by
    // 1e-5 of itself (more than 4 times any head's float32 error up to 256 heads).
    void wrongSlopesStayNamed_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kind");
        for (const int h : {12, 32, 40, 112, 256}) {
            QTest::newRow(qPrintable(u"exponent from 0, %1 heads"_s.arg(h))) << h << 0;
            if ((h & (h - 1)) != 0)
                QTest::newRow(qPrintable(u"2^(-8k/H), %1 heads"_s.arg(h))) << h << 1;
            QTest::newRow(qPrintable(u"last head times 1 + 1e-5, %1 heads"_s.arg(h))) << h << 2;
        }
    }

    void wrongSlopesStayNamed()
    {
        QFETCH(int, heads);
        QFETCH(int, kind);
        std::vector<double> slopes = float32Slopes(heads);
        for (std::int64_t k = 0; k < heads; ++k) {
            if (kind == 0)
                slopes[std::size_t(k)] = std::pow(2.0, -8.0 * double(k) / double(heads));
            if (kind == 1)
                slopes[std::size_t(k)] = std::pow(2.0, -8.0 * double(k + 1) / double(heads));
        }
        if (kind == 2)
            slopes.back() *= 1.0 + 1e-5;
        const Checked c = check({std::int64_t(heads)}, slopes, this->heads(heads));
        QVERIFY2(c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {u"alibi-slopes"_s}, qPrintable(c.shown));
    }

    // flashinfer#1606: MPT-7B at tensor parallel 4, each rank's get_slopes(8). Declared 32 heads (the
    // preset, --heads, a config's n_heads), as MPT's [1, 32, 1, L] or as the 32 slopes, it is
    // alibi-slopes named as the rank's local head count; undeclared too, [1, H, 1, L] being MPT's
    // own form of H heads. The fixed tensors (get_slopes(32) in float32) are correct.
    void rankHeadCountIsNamed()
    {
        const std::int64_t length = 64;
        const QString config = CliCheck::write(m_dir, u"config.json"_s,
                                               R"({"model_type": "mpt", "d_model": 4096, "n_heads": 32, "n_layers": 32,
                                                   "max_seq_len": 2048, "attn_config": {"alibi": true,
                                                   "alibi_bias_max": 8}})");
        const QStringList preset {u"--expect"_s, u"alibi"_s, u"--preset"_s, u"mpt-7b"_s};
        const QList<QStringList> declarations {preset, heads(32), {u"--expect-config"_s, config}, {}};
        const std::vector<double> wrong = perRank(32, 8), right = float32Slopes(32);
        for (const QStringList &flags : declarations) {
            for (const bool bias : {true, false}) {
                const std::vector<std::int64_t> shape
                    = bias ? std::vector<std::int64_t> {1, 32, 1, length} : std::vector<std::int64_t> {32};
                Checked c = check(shape, bias ? mptKeyBias(wrong, length) : wrong, flags);
                QVERIFY2(c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {u"alibi-slopes"_s}
                             && c.diagnosis().contains(u"get_slopes(8) per group of 8 heads"_s),
                         qPrintable(flags.join(u' ') + u": "_s + c.shown));
                c = check(shape, bias ? mptKeyBias(right, length) : right, flags);
                QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(flags.join(u' ') + u": "_s + c.shown));
            }
        }
    }

    // BLOOM's [B·H, 1, L] undeclared: 4 batches of get_slopes(8)'s heads is a reading of the rows'
    // period, said to be a guess from the values; declared 32 heads it is the rank's mistake.
    void batchesAreAGuess()
    {
        std::vector<double> bias;
        for (const double m : perRank(32, 8))
            for (std::int64_t j = 0; j < 64; ++j)
                bias.push_back(double(float(m) * float(j)));
        const QString file = CliCheck::write(m_dir, u"bloom.npy"_s, npy({32, 1, 64}, bias));
        const CliRun::Run undeclared = CliRun::posenc({u"check"_s, file});
        QVERIFY2(undeclared.exitCode == 0
                     && undeclared.out.contains(u"4 batches of 8 heads (a guess from the values"_s),
                 qPrintable(undeclared.out));
        const Checked c = check({32, 1, 64}, bias, heads(32));
        QVERIFY2(c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {u"alibi-slopes"_s}, qPrintable(c.shown));
    }

    // Against --expect-table's fixed tensors: the 32 slopes and the [1, 32, 1, L] bias, each named
    // alibi-slopes; one rank's 8 (heads 9..16 of get_slopes(32), the reference's reading) holding
    // get_slopes(8) is alibi-head-count, the slopes of 8 heads where 32 are the reference's.
    void rankHeadCountAgainstTable()
    {
        const std::int64_t length = 64;
        const std::vector<double> right = float32Slopes(32), wrong = perRank(32, 8);
        const std::vector<double> rankRight(right.begin() + 8, right.begin() + 16),
            rankWrong(wrong.begin(), wrong.begin() + 8);
        struct Case
        {
            std::vector<std::int64_t> shape;
            std::vector<double> checked, reference;
            QString mistake = u"alibi-slopes"_s;
        };
        const QList<Case> cases {{{32}, wrong, right},
                                 {{8}, rankWrong, rankRight, u"alibi-head-count"_s},
                                 {{1, 32, 1, length}, mptKeyBias(wrong, length), mptKeyBias(right, length)}};
        for (const Case &k : cases) {
            const QString reference = CliCheck::write(m_dir, u"reference.npy"_s, npy(k.shape, k.reference));
            const Checked c = check(k.shape, k.checked, {u"--expect-table"_s, reference});
            QVERIFY2(c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {k.mistake}, qPrintable(c.shown));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliAlibiFloat32)
} // namespace tst_clialibifloat32
#include "tst_clialibifloat32.moc"
