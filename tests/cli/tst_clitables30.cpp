// posenc check of the table classes issue 56's held-out sets 9-11 and REPORT-r29a found unnamed or
// misread. Every tensor is written here from float64 formulas of the cited code:
// - an all-zero position table where a sinusoid is declared (speechbrain#2276: FastSpeech2's
//   PositionalEncoding, speechbrain/nnet/attention.py, pe[:, 0::2] = sin(p w), pe[:, 1::2] = cos(p w),
//   multiplied by an inverted padding mask; mindone#409: Latte's temp_embed, get_1d_sincos_temp_embed
//   in mindone/models/modules/pos_embed.py, [sin | cos], left at its zeros init): cells-overwritten;
// - OpenPCDet#1587: TransFusionHead.create_2D_grid(x_size, y_size) (pcdet/models/dense_heads/
//   transfusion_head.py: meshgrid of linspace(0, x - 1, x) and linspace(0, y - 1, y), "ij", + 0.5,
//   rows x-major) called with the two sizes exchanged: grid-axes-swapped against the fixed grid;
// - ALiBi (get_slopes of ofirpress/attention_with_linear_biases): Megatron-DeepSpeed#222's key bias
//   (ParallelTransformer._build_alibi_tensor: slopes[:, None, None] * arange(L)) times the layer
//   number 4, named as a scale; one constant on every cell (the softmax cancels it as it cancels a
//   constant per query row): correct like a constant per row; an all-zero bias with --expect alibi:
//   a mistake; causal stacks of 12 and 17 keys: ALiBi, not T5's learned bias; a 12-head stack: "head 1
//   of 12";
// - a diffusion timestep table (diffusers' get_timestep_embedding, flip_sin_to_cos: [cos | sin],
//   exponent -ln(10000) i / half) of 1000 rows at timesteps rounded to bfloat16: its sentence names
//   no position the table does not hold (no 8188);
// - a learned 8 x 8 grid resized by F.interpolate(mode="bicubic") (ATen's upsample_bicubic2d,
//   A = -0.75), with antialias=True (timm's resample_abs_pos_embed; ATen's
//   _upsample_bicubic2d_aa, PIL's A = -0.5, weights normalised) and mode="nearest", and bicubic with
//   a [CLS] row kept first (DINOv2's interpolate_pos_encoding, models/dinov2/modeling_dinov2.py):
//   each read as a resize of the declared grid with its method named, a variant.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/CubicWeights.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace tst_clitables30 {
using namespace Qt::StringLiterals;

namespace {

using CliCheck::Checked;

// The paper's sinusoid of `rows` x d: interleaved (speechbrain) or [sin | cos] (split).
std::vector<double> sinusoid(std::int64_t rows, std::int64_t d, bool interleaved)
{
    std::vector<double> v;
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < d; ++c) {
            const std::int64_t i = interleaved ? c / 2 : c % (d / 2);
            const bool isSin = interleaved ? c % 2 == 0 : c < d / 2;
            const double angle = double(p) * std::exp(-std::log(10000.0) * double(2 * i) / double(d));
            v.push_back(isSin ? std::sin(angle) : std::cos(angle));
        }
    return v;
}

// create_2D_grid(x, y): row ix·y + iy holds (ix + 0.5, iy + 0.5).
std::vector<double> grid2d(std::int64_t x, std::int64_t y)
{
    std::vector<double> v;
    for (std::int64_t ix = 0; ix < x; ++ix)
        for (std::int64_t iy = 0; iy < y; ++iy) {
            v.push_back(double(ix) + 0.5);
            v.push_back(double(iy) + 0.5);
        }
    return v;
}

// [H, L, L]: causal m (j − i) (−inf after the query) or symmetric −m |i − j|, plus `constant` and
// a constant of each row's own (`perRow`, empty for none).
std::vector<double> alibiStack(std::int64_t heads, std::int64_t length, bool causal, double constant = 0.0,
                               const std::vector<double> &perRow = {})
{
    std::vector<double> v;
    for (const double m : alibiref::slopes(heads))
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j) {
                if (causal && j > i) {
                    v.push_back(-std::numeric_limits<double>::infinity());
                    continue;
                }
                const double bias = causal ? m * double(j - i) : -m * double(std::llabs(i - j));
                v.push_back(double(float(bias + constant + (perRow.empty() ? 0.0 : perRow[std::size_t(i)]))));
            }
    return v;
}

// One axis of n resized to h: for each output, the (index, weight) pairs of the method.
std::vector<std::vector<std::pair<int, double>>> axis(int n, int h, const QString &method)
{
    std::vector<std::vector<std::pair<int, double>>> out;
    const double scale = double(n) / double(h);
    for (int i = 0; i < h; ++i) {
        std::vector<std::pair<int, double>> taps;
        if (method == u"nearest"_s) {
            taps.emplace_back(std::min(int(std::floor(double(i) * scale)), n - 1), 1.0);
        } else if (method == u"bicubic"_s) {
            const double x = scale * (i + 0.5) - 0.5;
            const int x0 = int(std::floor(x));
            double w[4];
            resizeref::cubicWeights(x - x0, -0.75, w);
            for (int k = 0; k < 4; ++k)
                taps.emplace_back(std::clamp(x0 - 1 + k, 0, n - 1), w[k]);
        } else { // antialias: PIL's bicubic (a = −0.5) over support 2 · max(scale, 1), normalised
            const double support = scale >= 1.0 ? 2.0 * scale : 2.0, inv = scale >= 1.0 ? 1.0 / scale : 1.0;
            const double centre = scale * (i + 0.5);
            const int lo = std::max(int(centre - support + 0.5), 0);
            const int hi = std::min(int(centre + support + 0.5), n);
            double total = 0.0;
            for (int j = lo; j < hi; ++j) {
                const double x = std::fabs((j - centre + 0.5) * inv), a = -0.5;
                const double w = x < 1.0 ? ((a + 2) * x - (a + 3)) * x * x + 1
                    : x < 2.0            ? (((x - 5) * x + 8) * x - 4) * a
                                         : 0.0;
                taps.emplace_back(j, w);
                total += w;
            }
            for (auto &t : taps)
                t.second /= total;
        }
        out.push_back(taps);
    }
    return out;
}

} // namespace

class TestCliTables30 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

    Checked check(const std::vector<std::int64_t> &shape, const std::vector<double> &values, const QStringList &flags)
    {
        return CliCheck::checkFile(path(shape, values), flags);
    }

    QString path(const std::vector<std::int64_t> &shape, const std::vector<double> &values)
    {
        return CliCheck::write(m_dir, u"t%1.npy"_s.arg(m_files++), npy(shape, values));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // speechbrain#2276 (interleaved, d 384) and mindone#409 (split, d 1152): declared, every cell 0 is
    // cells-overwritten, said so, with no precision guessed from the zeros; the sinusoid itself correct.
    void zeroTableNamed_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("d");
        QTest::addColumn<bool>("interleaved");
        QTest::newRow("speechbrain#2276") << 200 << 384 << true;
        QTest::newRow("mindone#409") << 16 << 1152 << false;
    }

    void zeroTableNamed()
    {
        QFETCH(int, rows);
        QFETCH(int, d);
        QFETCH(bool, interleaved);
        const QStringList flags {u"--expect"_s,   u"sinusoidal"_s, u"--layout"_s, interleaved ? u"interleaved"_s : u"split"_s,
                                 u"--d-model"_s, QString::number(d)};
        const std::vector<std::int64_t> shape {rows, d};
        const Checked zero = check(shape, std::vector<double>(std::size_t(rows * d), 0.0), flags);
        QVERIFY2(zero.exit == 1 && zero.mistakes() == QJsonArray {u"cells-overwritten"_s}, qPrintable(zero.shown));
        QVERIFY2(zero.diagnosis().startsWith(u"every cell is 0"_s), qPrintable(zero.shown));
        QVERIFY2(zero.json[u"precision"_s].toString() != u"bfloat16"_s, qPrintable(zero.shown));
        const Checked fixed = check(shape, sinusoid(rows, d, interleaved), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
    }

    // OpenPCDet#1587: x_size 12, y_size 8; create_2D_grid(12, 8) against create_2D_grid(8, 12).
    void gridSizesExchangedNamed()
    {
        const QString reference = path({96, 2}, grid2d(8, 12));
        const Checked buggy = check({96, 2}, grid2d(12, 8), {u"--expect-table"_s, reference});
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"grid-axes-swapped"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"12 x 8 grid where the reference lists 8 x 12"_s), qPrintable(buggy.shown));
        const Checked fixed = check({96, 2}, grid2d(8, 12), {u"--expect-table"_s, reference});
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
    }

    // Megatron-DeepSpeed#222: layer 4's key bias [16, 1, 128] times 4: alibi-slopes, the scale named.
    void alibiScaledSlopesNamed()
    {
        const std::int64_t heads = 16, length = 128;
        const auto bias = [&](double factor) {
            std::vector<double> v;
            for (const double m : alibiref::slopes(heads))
                for (std::int64_t j = 0; j < length; ++j)
                    v.push_back(double(float(m) * float(j)) * factor);
            return v;
        };
        const QStringList flags {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s};
        const Checked buggy = check({heads, 1, length}, bias(4.0), flags);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"alibi-slopes"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"get_slopes(16)'s times 4"_s), qPrintable(buggy.shown));
        const Checked fixed = check({heads, 1, length}, bias(1.0), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
    }

    // One constant on every cell, a constant per row, and both on one head: the same verdict, correct,
    // undeclared and declared (the softmax over a row's keys cancels either).
    void alibiConstantsCorrect_data()
    {
        QTest::addColumn<bool>("oneConstant");
        QTest::addColumn<bool>("declared");
        for (const bool declared : {false, true}) {
            QTest::newRow(declared ? "plus 5, declared" : "plus 5") << true << declared;
            QTest::newRow(declared ? "per row, declared" : "per row") << false << declared;
        }
    }

    void alibiConstantsCorrect()
    {
        QFETCH(bool, oneConstant);
        QFETCH(bool, declared);
        const std::int64_t heads = 4, length = 40;
        std::mt19937 random(7);
        std::normal_distribution<double> normal;
        std::vector<double> perRow;
        for (std::int64_t i = 0; i < length && !oneConstant; ++i)
            perRow.push_back(normal(random));
        const std::vector<double> values = alibiStack(heads, length, true, oneConstant ? 5.0 : 0.0, perRow);
        const QStringList flags = declared ? QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"4"_s} : QStringList {};
        const Checked c = check({heads, length, length}, values, flags);
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        // One slice alone reads the same way.
        const std::vector<double> first(values.begin(), values.begin() + length * length);
        const Checked one = check({length, length}, first, flags);
        QVERIFY2(one.exit == 0 && one.verdict() == u"correct"_s, qPrintable(one.shown));
    }

    // keras-hub#2977's all-zero key bias [8, 1, 12] with --expect alibi and no --heads: a mistake.
    void alibiZeroDeclaredIsAMistake()
    {
        const Checked c = check({8, 1, 12}, std::vector<double>(8 * 12, 0.0), {u"--expect"_s, u"alibi"_s});
        QVERIFY2(c.exit == 1 && c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {u"alibi-bias-zero"_s},
                 qPrintable(c.shown));
    }

    // Causal stacks of 12 and 17 keys (every unmasked offset a T5 bucket of its own): ALiBi.
    void shortCausalAlibiIsAlibi_data()
    {
        QTest::addColumn<int>("length");
        for (const int length : {12, 17})
            QTest::newRow(QByteArray::number(length).constData()) << length;
    }

    void shortCausalAlibiIsAlibi()
    {
        QFETCH(int, length);
        const Checked c = check({8, length, length}, alibiStack(8, length, true), {});
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        QVERIFY2(c.json[u"encoding"_s].toString() == u"alibi-bias"_s, qPrintable(c.shown));
    }

    // A symmetric stack of 12 heads: slice 0 is head 1 of 12, not "of 8".
    void stackHeadCountFromTensor()
    {
        const Checked c = check({12, 40, 40}, alibiStack(12, 40, false), {});
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"head 1 of 12"_s) && !c.all().contains(u"of 8"_s), qPrintable(c.shown));
    }

    // Timesteps 0..999 rounded to bfloat16 before get_timestep_embedding's angles: the sentence names
    // bfloat16's rounding without positions past the table's (8188).
    void bf16SentenceOfTheTable()
    {
        const std::int64_t rows = 1000, half = 128;
        std::vector<double> v;
        for (std::int64_t p = 0; p < rows; ++p) {
            const double t = double(halffloats::toBFloat16(float(p)));
            for (const bool cosine : {true, false})
                for (std::int64_t i = 0; i < half; ++i) {
                    const double angle = t * std::exp(-std::log(10000.0) * double(i) / double(half));
                    v.push_back(cosine ? std::cos(angle) : std::sin(angle));
                }
        }
        const Checked c = check({rows, 2 * half}, v, {});
        QVERIFY2(c.verdict() != u"correct"_s && c.all().contains(u"bfloat16"_s), qPrintable(c.shown));
        QVERIFY2(!c.all().contains(u"8188"_s) && c.all().contains(u"257 becomes 256"_s), qPrintable(c.shown));
    }

    // An 8 x 8 grid of 4 columns resized by bicubic (12 x 12), bicubic with antialias (6 x 6, shrunk)
    // and nearest (12 x 12): a variant, the method named.
    void viTResizesRead_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("side");
        QTest::addColumn<QString>("named");
        QTest::addColumn<bool>("cls");
        QTest::newRow("bicubic") << u"bicubic"_s << 12 << u"mode=\"bicubic\", align_corners=False"_s << false;
        QTest::newRow("bicubic antialias") << u"antialias"_s << 6 << u"antialias=True"_s << false;
        QTest::newRow("nearest") << u"nearest"_s << 12 << u"mode=\"nearest\""_s << false;
        QTest::newRow("bicubic, [CLS] first") << u"bicubic"_s << 12 << u"[CLS] row kept first"_s << true;
    }

    void viTResizesRead()
    {
        QFETCH(QString, method);
        QFETCH(int, side);
        QFETCH(QString, named);
        QFETCH(bool, cls);
        const int n = 8, d = 4;
        // DINOv2's interpolate_pos_encoding keeps the [CLS] row (class_pos_embed) first, as it is.
        const std::vector<double> clsRow {0.25, -0.5, 0.75, -1.0};
        std::vector<double> grid;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                for (int c = 0; c < d; ++c)
                    grid.push_back(std::sin(0.7 * y + 0.3 * c) * std::cos(0.45 * x - 0.2 * c) + 0.1 * c);
        const auto taps = axis(n, side, method);
        std::vector<double> table = cls ? clsRow : std::vector<double> {};
        for (int i = 0; i < side; ++i)
            for (int j = 0; j < side; ++j)
                for (int c = 0; c < d; ++c) {
                    double v = 0.0;
                    for (const auto &[y, wy] : taps[std::size_t(i)])
                        for (const auto &[x, wx] : taps[std::size_t(j)])
                            v += wy * wx * grid[std::size_t((y * n + x) * d + c)];
                    table.push_back(v);
                }
        if (cls)
            grid.insert(grid.begin(), clsRow.begin(), clsRow.end());
        const int first = cls ? 1 : 0;
        const QString g = path({first + n * n, d}, grid);
        const Checked c = check({first + side * side, d}, table, {u"--expect-table"_s, g});
        QVERIFY2(c.exit == 5 && c.verdict() == u"variant"_s, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(named) && c.diagnosis().contains(u"resize"_s), qPrintable(c.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliTables30)
} // namespace tst_clitables30
#include "tst_clitables30.moc"
