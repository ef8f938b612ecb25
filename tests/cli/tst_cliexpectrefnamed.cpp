// posenc check names the mistake against a declared reference where a cold review of engineers'
// dumps (issue 56, item 4) found it unnamed or misnamed. Each tensor is written here in float64 from
// the code it follows, stored as float32:
// - ALiBi's [H, L, L] bias with its heads in reverse order against a dump of the right one
//   (--expect-table): the stack is read whole, get_slopes(H)'s heads, not one slice as another H's
//   head (ofirpress/attention_with_linear_biases get_slopes; tests/support/AlibiReference.h):
//   `slopes-head-order`, as --expect alibi names it.
// - T5's position_bias [1, H, L, L] of buckets of i − j where compute_bias forms
//   relative_position = memory_position − context_position (transformers models/t5/modeling_t5.py,
//   T5Attention.compute_bias and _relative_position_bucket; tests/support/T5Reference.h), against a
//   dump of the right one: `relative-position-reversed`.
// - Pixtral's 2-D RoPE with h and w exchanged (models/pixtral/modeling_pixtral.py,
//   PixtralRotaryEmbedding: freqs[::2] on the row, freqs[1::2] on the column; position_ids_in_meshgrid),
//   against a dump and against --expect rope-2d: `grid-axes-swapped`.
// - Llama 3's inv_freq at original_max_position_embeddings 4096 where 8192 is meant
//   (modeling_rope_utils.py, _compute_llama3_parameters), against a dump and --preset: `original-max-len`.
// - --expect rope-2d and sincos-2d without a width flag take the table's, as --expect's help says.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>
#include <vector>

namespace tst_cliexpectrefnamed {
using namespace Qt::StringLiterals;

namespace {

using CliCheck::Checked;

constexpr std::int64_t kHeads = 12;
constexpr std::int64_t kLength = 48;

// ALiBi's causal [H, L, L] bias of get_slopes(H), head h at slot h, or at slot H − 1 − h (`reversed`).
std::vector<double> alibiStack(bool reversed)
{
    const std::vector<double> m = alibiref::slopes(kHeads);
    std::vector<double> v;
    for (std::int64_t slot = 0; slot < kHeads; ++slot) {
        const std::int64_t h = reversed ? kHeads - 1 - slot : slot;
        for (std::int64_t i = 0; i < kLength; ++i)
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(alibiref::bias(m[std::size_t(h)], i, j, true));
    }
    return v;
}

// T5's bidirectional position_bias [1, 8, L, L] (32 buckets, max_distance 128), each head's weight per
// bucket a fixed stand-in for a checkpoint's; the bucket of j − i, or of i − j (`reversed`).
std::vector<double> t5Stack(bool reversed)
{
    constexpr std::int64_t heads = 8, length = 160;
    std::vector<double> v;
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j) {
                const std::int64_t relative = reversed ? i - j : j - i;
                const double bucket = double(t5ref::t5(relative, 32, 128, true).value);
                v.push_back(std::sin(1.3 * bucket + 0.7 * double(h)) + 0.1 * double(h));
            }
    return v;
}

// Pixtral's cos table of an H x W grid at theta 10000, head_dim 64: freqs = theta^(-arange(0, 64, 2) / 64),
// cat(outer(h, freqs[::2]), outer(w, freqs[1::2])) repeated for both halves (rotate_half). `swapped`:
// each patch's column id on the row's pairs and its row id on the column's.
std::vector<double> pixtral(std::int64_t height, std::int64_t width, bool swapped)
{
    constexpr std::int64_t dim = 64, quarter = dim / 4;
    std::vector<double> v;
    for (std::int64_t h = 0; h < height; ++h)
        for (std::int64_t w = 0; w < width; ++w)
            for (std::int64_t c = 0; c < dim; ++c) {
                const std::int64_t k = c % (dim / 2);
                const bool row = k < quarter;
                const std::int64_t f = row ? 2 * k : 2 * (k - quarter) + 1; // freqs[::2], freqs[1::2]
                const double inv = std::pow(10000.0, -double(2 * f) / double(dim));
                const std::int64_t id = row == !swapped ? h : w;
                v.push_back(std::cos(double(id) * inv));
            }
    return v;
}

// _compute_llama3_parameters of head 128, factor 8, low 1, high 4 at `original` and `theta`.
std::vector<double> llama3(double original, double theta = 500000.0)
{
    std::vector<double> v;
    for (std::int64_t i = 0; i < 64; ++i) {
        const double inv = std::pow(theta, -double(2 * i) / 128.0);
        const double wavelength = 2.0 * std::numbers::pi / inv;
        if (wavelength < original / 4.0) {
            v.push_back(inv);
        } else if (wavelength > original) {
            v.push_back(inv / 8.0);
        } else {
            const double smooth = (original / wavelength - 1.0) / 3.0;
            v.push_back((1.0 - smooth) * inv / 8.0 + smooth * inv);
        }
    }
    return v;
}

// MAE's get_2d_sincos_pos_embed of an H x W grid, d_model 256: the first half the column
// (meshgrid(grid_w, grid_h)), each half [sin | cos] of 1 / 10000^(2i / (d/2)).
std::vector<double> mae(std::int64_t height, std::int64_t width)
{
    constexpr std::int64_t d = 256, quarter = d / 4;
    std::vector<double> v;
    for (std::int64_t h = 0; h < height; ++h)
        for (std::int64_t w = 0; w < width; ++w)
            for (std::int64_t c = 0; c < d; ++c) {
                const double pos = c < d / 2 ? double(w) : double(h);
                const std::int64_t k = c % (d / 2) % quarter;
                const double angle = pos / std::pow(10000.0, double(k) / double(quarter));
                v.push_back(c % (d / 2) < quarter ? std::sin(angle) : std::cos(angle));
            }
    return v;
}

} // namespace

class TestCliExpectRefNamed : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString written(const QString &name, const std::vector<std::int64_t> &shape, const std::vector<double> &v)
    {
        return CliCheck::write(m_dir, name, npy(shape, v));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void alibiHeadsReversedAgainstTheirDump()
    {
        const std::vector<std::int64_t> shape {kHeads, kLength, kLength};
        const QString reference = written(u"alibi.npy"_s, shape, alibiStack(false));
        const QString port = written(u"alibi_rev.npy"_s, shape, alibiStack(true));
        const Checked got = CliCheck::checkFile(port, {u"--expect-table"_s, reference});
        QVERIFY2(got.exit == 1 && CliCheck::named(got.json, {u"slopes-head-order"_s}), qPrintable(got.shown));
        QVERIFY2(!got.mistakes().contains(u"heads"_s), qPrintable(got.shown));
        QVERIFY2(got.diagnosis().contains(u"of 12 heads"_s), qPrintable(got.shown));
        const Checked same = CliCheck::checkFile(reference, {u"--expect-table"_s, reference});
        QVERIFY2(same.exit == 0, qPrintable(same.shown));
    }

    void t5BucketsOfTheOtherDifferenceAgainstTheirDump()
    {
        const std::vector<std::int64_t> shape {1, 8, 160, 160};
        const QString reference = written(u"t5.npy"_s, shape, t5Stack(false));
        const QString port = written(u"t5_rev.npy"_s, shape, t5Stack(true));
        const Checked got = CliCheck::checkFile(port, {u"--expect-table"_s, reference});
        QVERIFY2(got.exit == 1 && CliCheck::named(got.json, {u"relative-position-reversed"_s}), qPrintable(got.shown));
        const Checked same = CliCheck::checkFile(reference, {u"--expect-table"_s, reference});
        QVERIFY2(same.exit == 0, qPrintable(same.shown));
        // The other way round, the reference is the port's map transposed as well.
        const Checked turned = CliCheck::checkFile(reference, {u"--expect-table"_s, port});
        QVERIFY2(turned.exit == 1 && CliCheck::named(turned.json, {u"relative-position-reversed"_s}),
                 qPrintable(turned.shown));
    }

    void pixtralRowsAndColumnsExchanged_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("against a dump") << QStringList {u"--expect-table"_s, u"px.npy"_s};
        QTest::newRow("declared") << QStringList {u"--expect"_s, u"rope-2d"_s, u"--rope-2d-style"_s, u"pixtral"_s,
                                                  u"--grid"_s,   u"12,20"_s,   u"--head-dim"_s,      u"64"_s};
    }

    void pixtralRowsAndColumnsExchanged()
    {
        QFETCH(QStringList, flags);
        const QString reference = written(u"px.npy"_s, {240, 64}, pixtral(12, 20, false));
        const QString port = written(u"px_sw.npy"_s, {240, 64}, pixtral(12, 20, true));
        flags.replaceInStrings(QRegularExpression(u"^px\\.npy$"_s), reference);
        const Checked got = CliCheck::checkFile(port, flags);
        QVERIFY2(got.exit == 1 && CliCheck::named(got.json, {u"grid-axes-swapped"_s}), qPrintable(got.shown));
        QVERIFY2(got.diagnosis().contains(u"h and w exchanged"_s), qPrintable(got.shown));
        const Checked right = CliCheck::checkFile(reference, flags);
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
    }

    void llama3OriginalLengthNamed_data()
    {
        QTest::addColumn<bool>("againstDump");
        QTest::newRow("against a dump") << true;
        QTest::newRow("declared by the preset") << false;
    }

    void llama3OriginalLengthNamed()
    {
        QFETCH(bool, againstDump);
        const QString reference = written(u"inv.npy"_s, {64}, llama3(8192.0));
        const QString port = written(u"inv_4096.npy"_s, {64}, llama3(4096.0));
        const QStringList flags = againstDump
            ? QStringList {u"--expect-table"_s, reference}
            : QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"llama-3-1-8b"_s};
        const Checked got = CliCheck::checkFile(port, flags);
        QVERIFY2(got.exit == 1 && CliCheck::named(got.json, {u"original-max-len"_s}), qPrintable(got.shown));
        QVERIFY2(got.diagnosis().contains(u"original_max_position_embeddings 4096 where 8192"_s),
                 qPrintable(got.shown));
        const Checked right = CliCheck::checkFile(reference, flags);
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
    }

    // --expect's help: "the table's width where no flag gives it" (head_dim, d_model).
    void twoDeeWidthFromTheTable()
    {
        const QString px = written(u"px64.npy"_s, {240, 64}, pixtral(12, 20, false));
        const Checked rope = CliCheck::checkFile(
            px, {u"--expect"_s, u"rope-2d"_s, u"--rope-2d-style"_s, u"pixtral"_s, u"--grid"_s, u"12,20"_s});
        QVERIFY2(rope.exit == 0, qPrintable(rope.shown));
        const QString pe = written(u"mae.npy"_s, {240, 256}, mae(12, 20));
        const Checked sincos = CliCheck::checkFile(pe, {u"--expect"_s, u"sincos-2d"_s, u"--grid"_s, u"12,20"_s});
        QVERIFY2(sincos.exit == 0, qPrintable(sincos.shown));
    }

    // Without a width flag, a table whose columns do not repeat in pairs, of a family whose tables
    // repeat them (rotate_half's cat(freqs, freqs)), is the cache of half a head twice as wide
    // (candle's and vLLM's cos of the frequencies), not a whole table of its own width.
    void aHalfCacheWithoutAWidthFlag()
    {
        std::vector<double> half;
        const std::vector<double> px = pixtral(12, 20, false);
        for (std::size_t r = 0; r < 240; ++r)
            half.insert(half.end(), px.begin() + std::ptrdiff_t(r * 64), px.begin() + std::ptrdiff_t(r * 64 + 32));
        const QString file = written(u"px32.npy"_s, {240, 32}, half);
        const Checked rope2d = CliCheck::checkFile(
            file, {u"--expect"_s, u"rope-2d"_s, u"--rope-2d-style"_s, u"pixtral"_s, u"--grid"_s, u"12,20"_s});
        QVERIFY2(rope2d.exit == 0 && rope2d.shown.contains(u"head_dim 64"_s), qPrintable(rope2d.shown));
        // RoPE's cos of 64 frequencies at theta 500000, before cat(freqs, freqs): head 128's.
        std::vector<double> cache;
        for (std::int64_t p = 0; p < 256; ++p)
            for (std::int64_t i = 0; i < 64; ++i)
                cache.push_back(std::cos(double(p) * std::pow(500000.0, -double(2 * i) / 128.0)));
        const QString freqs = written(u"cos64.npy"_s, {256, 64}, cache);
        const Checked rope = CliCheck::checkFile(freqs, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"500000"_s});
        QVERIFY2(rope.exit == 0, qPrintable(rope.shown));
    }

    // The report's "max |error|" line names the cell of that error and the tolerance there (an
    // inv_freq vector's is its pair's: (|ln w| + 8) units of float32), not another pair's column or 0.
    void anInvFreqReportNamesItsLargestError()
    {
        const std::vector<double> reference = llama3(8192.0), port = llama3(8192.0, 10000.0);
        std::size_t at = 0;
        for (std::size_t i = 0; i < port.size(); ++i)
            if (std::fabs(double(float(port[i])) - reference[i]) > std::fabs(double(float(port[at])) - reference[at]))
                at = i;
        const QString file = written(u"inv_theta.npy"_s, {64}, port);
        const QStringList flags {u"--expect"_s, u"rope"_s, u"--preset"_s, u"llama-3-1-8b"_s};
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file} + flags);
        QVERIFY2(run.out.contains(u"at row 0, column %1 "_s.arg(at)), qPrintable(run.out));
        const QString right = written(u"inv_right.npy"_s, {64}, reference);
        const CliRun::Run correct = CliRun::posenc(QStringList {u"check"_s, right} + flags);
        QCOMPARE(correct.exitCode, 0);
        QVERIFY2(correct.out.contains(u"max |error|"_s) && !correct.out.contains(u"(tolerance 0 of |reference| + 0)"_s),
                 qPrintable(correct.out));
    }

    // One head's table declared of 12 heads: get_slopes(12)'s head 1 is get_slopes(8)'s (m = 0.5),
    // which every H from 8 to 15 gives it; 16 to 23 give 2^-0.5.
    void aDeclaredNonPowerOfTwoHeadsNoteSaysTheRightRange()
    {
        std::vector<double> head = alibiStack(false);
        head.resize(std::size_t(kLength * kLength)); // head 1's table alone
        const QString file = written(u"alibi12.npy"_s, {kLength, kLength}, head);
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, file, u"--expect"_s, u"alibi"_s, u"--heads"_s, QString::number(kHeads)});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.out.contains(u"of any H from 12 to 23"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"m = 0.5 to head 1 of any H from 8 to 15"_s), qPrintable(run.out));
    }

    // BLOOM's build_alibi_tensor of a batch of 2, 8 heads: [B·H, 1, L], m_h · j. The note's way to
    // declare another H is one the command takes.
    void aBatchOfKeyBiasesSaysAFlagThatWorks()
    {
        const std::vector<double> m = alibiref::slopes(8);
        std::vector<double> v;
        for (std::int64_t b = 0; b < 2; ++b)
            for (std::int64_t h = 0; h < 8; ++h)
                for (std::int64_t j = 0; j < 32; ++j)
                    v.push_back(m[std::size_t(h)] * double(j));
        const QString file = written(u"bloom.npy"_s, {16, 1, 32}, v);
        const CliRun::Run run = CliRun::posenc({u"check"_s, file});
        QCOMPARE(run.exitCode, 0);
        const QString advice = u"--expect alibi --heads N declares another H"_s;
        QVERIFY2(run.out.contains(advice), qPrintable(run.out));
        const CliRun::Run declared
            = CliRun::posenc({u"check"_s, file, u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s});
        QVERIFY2(declared.exitCode == 0, qPrintable(declared.out + declared.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectRefNamed)
} // namespace tst_cliexpectrefnamed
#include "tst_cliexpectrefnamed.moc"
