// posenc check names the mistake against a declared reference where held-out set 5 found it unnamed
// (issue 56, item 4; brief h26c): each a class of real bugs, its tables written here in float64 from
// the code they follow, stored as float32.
// - A block of the reference's cells negated (--expect-table): speechbrain's RelPosEncXL.make_pe
//   (speechbrain/nnet/attention.py) wrote sin(p) where the negative offsets take sin(-p)
//   (speechbrain#3070, fixed by speechbrain#3073): `sign-flipped`, the block's rows and columns.
// - A 2-D grid sampled with x and y exchanged (--expect-table): torchtitan's _vision_pos_embed gave
//   grid_sample stack(meshgrid(ys, xs, indexing="xy")) on a non-square grid (pytorch/torchtitan#4244):
//   `grid-axes-swapped`, the grid named; a square grid's rows transposed likewise.
// - YaRN's extrapolated pairs on the NTK-aware base (paiml/aprender#2161), against transformers'
//   modeling_rope_utils._compute_yarn_parameters: `rope-theta` with the kept pairs' base.
// - A grown YaRN cache whose new rows lack the attention factor (sgl-project/sglang#38786,
//   RotaryEmbedding._ensure_cos_sin_cache_length): `attention-factor-missing`, the rows and both values.
// - A RoPE cos table holding the sines of its angles, or a sin table their cosines (a port that
//   returns sin twice, or (sin, cos) for (cos, sin)), against --expect rope-cos / rope-sin:
//   `cos-replaced`, `sin-replaced`; at a position offset as well, both named.
// - A timestep embedding (diffusers' get_timestep_embedding, src/diffusers/models/embeddings.py) at
//   timesteps c times the declared ones (Step1X-Edit#91's 1000 twice, REPA#40's t in [0, 1]):
//   `positions-scaled` with c stated.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace tst_cliexpectnames {
using namespace Qt::StringLiterals;

namespace {

using CliCheck::Checked;

// speechbrain's RelPosEncXL.make_pe for x of length L: rows for relative positions L-1 .. -(L-1)
// (pe_positive flipped, then pe_negative[1:]), columns 0::2 the sine and 1::2 the cosine of
// p·inv_freq, inv_freq = exp(arange(0, d, 2) · -(ln 10000 / d)). `signBug`: the negative offsets'
// sine taken at +|p| (the code before speechbrain#3073).
std::vector<double> relPos(std::int64_t length, std::int64_t d, bool signBug)
{
    std::vector<double> v;
    for (std::int64_t p = length - 1; p > -length; --p) {
        for (std::int64_t i = 0; i < d / 2; ++i) {
            const double w = std::exp(double(2 * i) * -(std::log(10000.0) / double(d)));
            const double angle = double(signBug && p < 0 ? -p : p) * w;
            v.push_back(std::sin(angle));
            v.push_back(std::cos(double(p) * w));
        }
    }
    return v;
}

// A learned n x n x c grid of values (a checkpoint's stand-in), cell (y, x, ch).
double learned(std::int64_t y, std::int64_t x, std::int64_t ch)
{
    return 0.02 * std::sin(1.7 * double(y * 31 + x * 7) + 0.37 * double(ch) + 0.11 * double(y * x));
}

// F.grid_sample(pe, grid, mode="bilinear", align_corners=False, padding_mode="zeros") of the n x n
// grid at normalised (x, y), channel ch: ix = ((x + 1) n - 1) / 2, neighbours outside read 0.
double sampled(std::int64_t n, double x, double y, std::int64_t ch)
{
    const double ix = ((x + 1.0) * double(n) - 1.0) / 2.0, iy = ((y + 1.0) * double(n) - 1.0) / 2.0;
    const double x0 = std::floor(ix), y0 = std::floor(iy);
    double value = 0.0;
    for (const double yy : {y0, y0 + 1.0})
        for (const double xx : {x0, x0 + 1.0}) {
            const double weight = (1.0 - std::fabs(ix - xx)) * (1.0 - std::fabs(iy - yy));
            if (xx >= 0 && yy >= 0 && xx < double(n) && yy < double(n))
                value += weight * learned(std::int64_t(yy), std::int64_t(xx), ch);
        }
    return value;
}

// The centres torch.linspace(-1 + 1/k, 1 - 1/k, k) gives.
double centre(std::int64_t index, std::int64_t k)
{
    return -1.0 + 1.0 / double(k) + double(index) * (2.0 - 2.0 / double(k)) / double(k - 1);
}

// torchtitan's _vision_pos_embed on an h x w patch grid from the 16 x 16 learned grid: fixed, row
// a·w + b at (x, y) = (xs[b], ys[a]); the bug's meshgrid(ys, xs, indexing="xy") stacked as (x, y),
// row i·h + j at (ys[j], xs[i]).
std::vector<double> visionPositions(std::int64_t h, std::int64_t w, std::int64_t channels, bool swapped)
{
    std::vector<double> v;
    for (std::int64_t row = 0; row < h * w; ++row) {
        const double x = swapped ? centre(row % h, h) : centre(row % w, w);
        const double y = swapped ? centre(row / h, w) : centre(row / w, h);
        for (std::int64_t ch = 0; ch < channels; ++ch)
            v.push_back(sampled(16, x, y, ch));
    }
    return v;
}

// transformers' _compute_yarn_parameters (truncate, beta_fast 32, beta_slow 1, mscale 1): inv_freq
// of rotary dim d, the extrapolated pairs on `keptBase` (paiml/aprender#2161's bug: the NTK base).
std::vector<double> yarnInvFreq(double base, std::int64_t d, double factor, double original, double keptBase)
{
    const auto correction = [&](double rotations) {
        return (double(d) * std::log(original / (rotations * 2.0 * std::numbers::pi))) / (2.0 * std::log(base));
    };
    double low = std::max(std::floor(correction(32.0)), 0.0);
    double high = std::min(std::ceil(correction(1.0)), double(d - 1));
    if (low == high)
        high += 0.001;
    std::vector<double> inv;
    for (std::int64_t i = 0; i < d / 2; ++i) {
        const double extrapolation = 1.0 / std::pow(keptBase, double(2 * i) / double(d));
        const double interpolation = 1.0 / (factor * std::pow(base, double(2 * i) / double(d)));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        inv.push_back(interpolation * ramp + extrapolation * (1.0 - ramp));
    }
    return inv;
}

// A YaRN cos cache (half layout, cat((freqs, freqs)).cos() * mscale) of `rows` positions whose rows
// from `grown` on are multiplied by `grownScale` instead of the attention factor 0.1 ln(factor) + 1.
std::vector<double> yarnCos(std::int64_t rows, std::int64_t grown, double grownScale)
{
    const std::vector<double> inv = yarnInvFreq(10000.0, 64, 2.0, 256.0, 10000.0);
    const double mscale = 0.1 * std::log(2.0) + 1.0;
    std::vector<double> v;
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < 64; ++c)
            v.push_back(std::cos(double(p) * inv[std::size_t(c % 32)]) * (p >= grown ? grownScale : mscale));
    return v;
}

const QStringList kYarnCache {u"--expect"_s,      u"rope"_s,  u"--rope-type"_s,        u"yarn"_s,
                              u"--rope-factor"_s, u"2"_s,     u"--original-max-len"_s, u"256"_s,
                              u"--rope-theta"_s,  u"10000"_s, u"--head-dim"_s,         u"64"_s};

// HF's rotary table of head_dim 64 at rope_theta 10000, half layout (cat(freqs, freqs)): the cos of
// each angle p · theta^(-2i/64), or its sin.
std::vector<double> ropeTable(std::int64_t rows, bool cosine, double theta = 10000.0, std::int64_t offset = 0)
{
    std::vector<double> v;
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < 64; ++c) {
            const double angle = double(p + offset) * std::pow(theta, -double(2 * (c % 32)) / 64.0);
            v.push_back(cosine ? std::cos(angle) : std::sin(angle));
        }
    return v;
}

// diffusers' get_timestep_embedding(t, 128, flip_sin_to_cos=True, downscale_freq_shift=0) at
// timesteps c · k for rows k: [cos | sin] of c k 10000^(-i/64).
std::vector<double> timesteps(std::int64_t rows, double c, double maxPeriod = 10000.0)
{
    std::vector<double> v;
    for (std::int64_t k = 0; k < rows; ++k)
        for (std::int64_t col = 0; col < 128; ++col) {
            const double angle = c * double(k) * std::exp(-std::log(maxPeriod) * double(col % 64) / 64.0);
            v.push_back(col < 64 ? std::cos(angle) : std::sin(angle));
        }
    return v;
}

// The same embedding at the timesteps `t`, one a row (get_timestep_embedding takes any).
std::vector<double> timestepsAt(const std::vector<double> &t)
{
    std::vector<double> v;
    for (const double k : t)
        for (std::int64_t col = 0; col < 128; ++col) {
            const double angle = k * std::exp(-std::log(10000.0) * double(col % 64) / 64.0);
            v.push_back(col < 64 ? std::cos(angle) : std::sin(angle));
        }
    return v;
}

// diffusers' DDIMScheduler.set_timesteps (src/diffusers/schedulers/scheduling_ddim.py) for 1000
// training steps: "trailing" np.round(np.arange(1000, 0, -1000 / n)) - 1, "leading"
// (np.arange(0, n) * (1000 // n)).round()[::-1] + steps_offset 1; each times `scale`.
std::vector<double> ddim(int n, bool trailing, double scale)
{
    std::vector<double> t;
    for (int i = 0; i < n; ++i)
        t.push_back(scale
                    * (trailing ? std::nearbyint(1000.0 - double(i) * (1000.0 / n)) - 1.0
                                : double((n - 1 - i) * (1000 / n)) + 1.0));
    return t;
}

// FlowMatchEulerDiscreteScheduler's timesteps (scheduling_flow_match_euler_discrete.py): sigmas
// linspace(1, 1/1000, n), shifted shift·s / (1 + (shift - 1)·s), times 1000: of no grid.
std::vector<double> flowMatch(int n, double shift)
{
    std::vector<double> t;
    for (int i = 0; i < n; ++i) {
        const double s = 1.0 + (1.0 / 1000.0 - 1.0) * double(i) / double(n - 1);
        t.push_back(1000.0 * shift * s / (1.0 + (shift - 1.0) * s));
    }
    return t;
}

const QStringList kTimestep {u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, u"split"_s, u"--d-model"_s, u"128"_s,
                             u"--flip-sin-to-cos"_s, u"--freq-shift"_s, u"0"_s};

} // namespace

class TestCliExpectNames : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return CliCheck::write(m_dir, name, bytes); }

    Checked check(const QByteArray &bytes, const QStringList &flags) { return CliCheck::check(m_dir, bytes, flags); }

    QStringList againstTable(const QByteArray &reference)
    {
        return {u"--expect-table"_s, write(u"reference.npy"_s, reference)};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // speechbrain#3070: the negative offsets' sines negated, against the fixed table: sign-flipped,
    // the rows of the negative offsets and the sine's columns named; the fixed table correct.
    void signFlippedBlockNamed()
    {
        constexpr std::int64_t length = 64, d = 64;
        const QStringList flags = againstTable(npy({2 * length - 1, d}, relPos(length, d, false)));
        const Checked buggy = check(npy({2 * length - 1, d}, relPos(length, d, true)), flags);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"sign-flipped"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"rows 64..126"_s), qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"columns 0, 2, 4"_s), qPrintable(buggy.shown));
        const Checked fixed = check(npy({2 * length - 1, d}, relPos(length, d, false)), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
    }

    // Any rectangle negated is named with its rows and columns; cells changed otherwise (doubled)
    // are not a sign flip.
    void signFlippedRectangleAndNotOtherChanges()
    {
        constexpr std::int64_t length = 40, d = 32, rows = 2 * length - 1;
        const std::vector<double> right = relPos(length, d, false);
        const QStringList flags = againstTable(npy({rows, d}, right));
        std::vector<double> flipped = right, doubled = right;
        for (std::int64_t r = 10; r < 20; ++r)
            for (std::int64_t c = 8; c < 16; ++c) {
                flipped[std::size_t(r * d + c)] = -right[std::size_t(r * d + c)];
                doubled[std::size_t(r * d + c)] = 2.0 * right[std::size_t(r * d + c)];
            }
        const Checked named = check(npy({rows, d}, flipped), flags);
        QVERIFY2(named.exit == 1 && named.mistakes() == QJsonArray {u"sign-flipped"_s}, qPrintable(named.shown));
        QVERIFY2(named.diagnosis().contains(u"rows 10..19"_s) && named.diagnosis().contains(u"columns 8..15"_s),
                 qPrintable(named.shown));
        const Checked other = check(npy({rows, d}, doubled), flags);
        QVERIFY2(other.exit == 1 && !other.mistakes().contains(u"sign-flipped"_s), qPrintable(other.shown));
    }

    // The paper's sinusoid (interleaved, base 10000) with a block of rows 40..127 and columns 8..23
    // negated: a family's table changed in a region that holds its cells negated, sign-flipped
    // undeclared and declared (--expect sinusoidal); the block plus 0.5 instead is not.
    void signFlippedRegionOfAFamilysTable()
    {
        constexpr std::int64_t rows = 128, d = 64;
        std::vector<double> flipped, offset;
        for (std::int64_t p = 0; p < rows; ++p)
            for (std::int64_t c = 0; c < d; ++c) {
                const double w = std::pow(10000.0, -double(c / 2 * 2) / double(d));
                const double v = c % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w);
                const bool block = p >= 40 && c >= 8 && c < 24;
                flipped.push_back(block ? -v : v);
                offset.push_back(block ? v + 0.5 : v);
            }
        for (const QStringList &flags : {QStringList(), QStringList {u"--expect"_s, u"sinusoidal"_s}}) {
            const Checked named = check(npy({rows, d}, flipped), flags);
            QVERIFY2(named.exit == 1 && named.mistakes() == QJsonArray {u"sign-flipped"_s}, qPrintable(named.shown));
            const Checked other = check(npy({rows, d}, offset), flags);
            QVERIFY2(!other.mistakes().contains(u"sign-flipped"_s), qPrintable(other.shown));
        }
    }

    // torchtitan#4244 on a 12 x 20 patch grid: the rows the swapped sampling puts at the reference's
    // own points equal the reference's rows there; grid-axes-swapped, the grid named. The fixed
    // table correct; rows in another order that no swap gives are not named so.
    void gridAxesSwappedNonSquare()
    {
        constexpr std::int64_t h = 12, w = 20, channels = 16;
        const std::vector<double> right = visionPositions(h, w, channels, false);
        const QStringList flags = againstTable(npy({h * w, channels}, right));
        const Checked buggy = check(npy({h * w, channels}, visionPositions(h, w, channels, true)), flags);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"grid-axes-swapped"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"12 x 20 grid"_s), qPrintable(buggy.shown));
        const Checked fixed = check(npy({h * w, channels}, right), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
        std::vector<double> rolled;
        for (std::int64_t r = 0; r < h * w; ++r)
            for (std::int64_t ch = 0; ch < channels; ++ch)
                rolled.push_back(right[std::size_t(((r + 7) % (h * w)) * channels + ch)]);
        const Checked other = check(npy({h * w, channels}, rolled), flags);
        QVERIFY2(other.exit == 1 && !other.mistakes().contains(u"grid-axes-swapped"_s), qPrintable(other.shown));
    }

    // Rows a table zeroed where a swap of a 2 x 20 grid would look (1 and 38, align_corners=True's
    // coordinates put them at rows 19 and 20), of a reference whose rows 19 and 20 are zeros
    // (padding): two rows that equal one repeated row of the reference show no grid.
    void zeroedRowsShowNoSwappedGrid()
    {
        constexpr std::int64_t rows = 40, channels = 16;
        std::vector<double> right;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t ch = 0; ch < channels; ++ch)
                right.push_back(r == 19 || r == 20 ? 0.0 : learned(r, 3, ch));
        std::vector<double> zeroed = right;
        for (const std::int64_t r : {1, 38})
            std::fill_n(zeroed.begin() + r * channels, channels, 0.0);
        const Checked c = check(npy({rows, channels}, zeroed), againstTable(npy({rows, channels}, right)));
        QVERIFY2(c.exit == 1 && !c.mistakes().contains(u"grid-axes-swapped"_s), qPrintable(c.shown));
    }

    // A square grid's rows transposed (row a·n + b holding the reference's b·n + a): every row read.
    void gridAxesSwappedSquare()
    {
        constexpr std::int64_t n = 10, channels = 8;
        const std::vector<double> right = visionPositions(n, n, channels, false);
        std::vector<double> transposed;
        for (std::int64_t r = 0; r < n * n; ++r)
            for (std::int64_t ch = 0; ch < channels; ++ch)
                transposed.push_back(right[std::size_t(((r % n) * n + r / n) * channels + ch)]);
        const Checked buggy = check(npy({n * n, channels}, transposed), againstTable(npy({n * n, channels}, right)));
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"grid-axes-swapped"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"transposed grid"_s), qPrintable(buggy.shown));
    }

    // paiml/aprender#2161 (Qwen2.5's YaRN: factor 4, original 32768, rope_theta 1e6, head_dim 128):
    // the kept pairs on rope_theta · 4^(128/126), or on a plain other base: rope-theta with the kept
    // pairs' base named; the fixed vector correct.
    void yarnKeptPairsOnAnotherBase_data()
    {
        QTest::addColumn<double>("keptBase");
        QTest::addColumn<QString>("said");
        QTest::newRow("NTK-aware base") << 1e6 * std::pow(4.0, 128.0 / 126.0) << u"NTK-aware base"_s;
        QTest::newRow("rope_theta 500000") << 5e5 << u"rope_theta 500000 for the extrapolated (kept) pairs"_s;
    }
    void yarnKeptPairsOnAnotherBase()
    {
        QFETCH(double, keptBase);
        QFETCH(QString, said);
        const QStringList flags {u"--expect"_s,      u"rope"_s,    u"--rope-type"_s,        u"yarn"_s,
                                 u"--rope-factor"_s, u"4"_s,       u"--original-max-len"_s, u"32768"_s,
                                 u"--rope-theta"_s,  u"1000000"_s, u"--head-dim"_s,         u"128"_s};
        const Checked buggy = check(npy({64}, yarnInvFreq(1e6, 128, 4.0, 32768.0, keptBase)), flags);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"rope-theta"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(said), qPrintable(buggy.shown));
        const Checked fixed = check(npy({64}, yarnInvFreq(1e6, 128, 4.0, 32768.0, 1e6)), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
    }

    // sgl-project/sglang#38786: a YaRN cos cache of 512 rows grown to 768 without the attention
    // factor: attention-factor-missing, rows 512..767 and 1.06931 said; the whole cache with it
    // correct; rows scaled by 0.9 instead are no missing factor.
    void grownRowsWithoutTheAttentionFactor()
    {
        const double mscale = 0.1 * std::log(2.0) + 1.0;
        const Checked buggy = check(npy({768, 64}, yarnCos(768, 512, 1.0)), kYarnCache);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"attention-factor-missing"_s},
                 qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"rows 512..767"_s) && buggy.diagnosis().contains(u"1.06931"_s),
                 qPrintable(buggy.shown));
        const Checked fixed = check(npy({768, 64}, yarnCos(768, 768, mscale)), kYarnCache);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
        const Checked other = check(npy({768, 64}, yarnCos(768, 512, 0.9)), kYarnCache);
        QVERIFY2(other.exit == 1 && !other.mistakes().contains(u"attention-factor-missing"_s), qPrintable(other.shown));
    }
    // The declared table's other function in its place: cos-replaced (the sines in a cos table),
    // sin-replaced (the cosines in a sin table); each table correct as itself; a cos table at another
    // rope_theta is no replaced function.
    void ropeFunctionReplaced()
    {
        const QStringList base {u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"64"_s};
        const QStringList asCos = QStringList {u"--expect"_s, u"rope-cos"_s} + base;
        const QStringList asSin = QStringList {u"--expect"_s, u"rope-sin"_s} + base;
        const Checked cosReplaced = check(npy({96, 64}, ropeTable(96, false)), asCos);
        QVERIFY2(cosReplaced.exit == 1 && cosReplaced.mistakes() == QJsonArray {u"cos-replaced"_s},
                 qPrintable(cosReplaced.shown));
        const Checked sinReplaced = check(npy({96, 64}, ropeTable(96, true)), asSin);
        QVERIFY2(sinReplaced.exit == 1 && sinReplaced.mistakes() == QJsonArray {u"sin-replaced"_s},
                 qPrintable(sinReplaced.shown));
        for (const auto &[cosine, flags] : {std::pair {true, asCos}, std::pair {false, asSin}}) {
            const Checked right = check(npy({96, 64}, ropeTable(96, cosine)), flags);
            QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
        }
        const Checked other = check(npy({96, 64}, ropeTable(96, true, 500000.0)), asCos);
        QVERIFY2(other.exit == 1 && !other.mistakes().contains(u"cos-replaced"_s), qPrintable(other.shown));
        // The other function at positions from 7, positions declared from 0: both named, the offset
        // read with the function the table holds (the declared one's rows fit no position).
        for (const auto &[cosine, flags] : {std::pair {true, asSin}, std::pair {false, asCos}}) {
            const Checked shifted = check(npy({96, 64}, ropeTable(96, cosine, 10000.0, 7)),
                                          flags + QStringList {u"--positions"_s, u"0:96"_s});
            const QString replaced = cosine ? u"sin-replaced"_s : u"cos-replaced"_s;
            QVERIFY2(shifted.exit == 1 && CliCheck::named(shifted.json, {replaced, u"position-offset"_s}),
                     qPrintable(shifted.shown));
            QVERIFY2(shifted.diagnosis().contains(u"7"_s), qPrintable(shifted.shown));
        }
    }
    // Timesteps c times the declared ones: positions-scaled, c said; c = 1 correct; another
    // max_period is not a scale.
    void timestepsScaled_data()
    {
        QTest::addColumn<double>("c");
        QTest::addColumn<QString>("said");
        QTest::newRow("1000 twice") << 1000.0 << u"1000 times"_s;
        QTest::newRow("t in [0, 1]") << 0.001 << u"0.001 times"_s;
        QTest::newRow("2.5") << 2.5 << u"2.5 times"_s;
    }
    void timestepsScaled()
    {
        QFETCH(double, c);
        QFETCH(QString, said);
        const Checked scaled = check(npy({96, 128}, timesteps(96, c)), kTimestep);
        QVERIFY2(scaled.exit == 1 && scaled.mistakes() == QJsonArray {u"positions-scaled"_s}, qPrintable(scaled.shown));
        QVERIFY2(scaled.diagnosis().contains(said), qPrintable(scaled.shown));
        const Checked right = check(npy({96, 128}, timesteps(96, 1.0)), kTimestep);
        QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
        const Checked other = check(npy({96, 128}, timesteps(96, 1.0, 5000.0)), kTimestep);
        QVERIFY2(other.exit == 1 && !other.mistakes().contains(u"positions-scaled"_s), qPrintable(other.shown));
    }

    // Timesteps that do not start at 0, as schedulers give them: the scale read row by row where
    // they are c times integers (c = 0.001: positions-scaled; c = 1: other timesteps than the rows'),
    // and said not to be read where no c makes them so.
    void timestepsNotFromZero_data()
    {
        QTest::addColumn<QVector<double>>("t");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("said");
        const auto v = [](const std::vector<double> &t) { return QVector<double>(t.begin(), t.end()); };
        QTest::newRow("DDIM trailing 50, in [0, 1]") << v(ddim(50, true, 0.001)) << u"positions-scaled"_s
                                                     << u"0.001 times integers"_s;
        QTest::newRow("DDIM leading 50, in [0, 1]") << v(ddim(50, false, 0.001)) << u"positions-scaled"_s
                                                    << u"0.001 times integers"_s;
        QTest::newRow("DDIM trailing 30 (steps of 33 and 34), in [0, 1]")
            << v(ddim(30, true, 0.001)) << u"positions-scaled"_s << u"0.001 times integers"_s;
        QTest::newRow("DDIM trailing 50, times 1000 once too often")
            << v(ddim(50, true, 1000.0)) << u"positions-scaled"_s << u"1000 times integers"_s;
        QTest::newRow("DDIM trailing 50") << v(ddim(50, true, 1.0)) << u"positions-out-of-order"_s
                                          << u"other integer timesteps than their own"_s;
        QTest::newRow("flow matching, shift 3") << v(flowMatch(40, 3.0)) << QString() << u"no scale of the timesteps"_s;
        // utensils/mold#786: Wan's timesteps 0..999 cast to bfloat16 before the sinusoid (8 significant
        // bits, to nearest, ties to even: 257 -> 256, 937 -> 936): the declared positions rounded, not
        // another order.
        std::vector<double> bf16;
        for (int t = 0; t < 1000; ++t) {
            int e = 0;
            std::frexp(double(t), &e); // t in [2^(e-1), 2^e): bfloat16's step there is 2^(e-8)
            const double step = std::ldexp(1.0, std::max(0, e - 8));
            bf16.push_back(std::nearbyint(double(t) / step) * step);
        }
        QTest::newRow("timesteps 0..999 rounded to bfloat16")
            << v(bf16) << u"half-precision-angles"_s << u"bfloat16"_s;
    }
    void timestepsNotFromZero()
    {
        QFETCH(QVector<double>, t);
        QFETCH(QString, mistake);
        QFETCH(QString, said);
        const std::vector<double> times(t.begin(), t.end());
        const Checked read = check(npy({std::int64_t(times.size()), 128}, timestepsAt(times)), kTimestep);
        QVERIFY2(read.exit == 1 && read.verdict() == u"mistake"_s, qPrintable(read.shown));
        QVERIFY2(mistake.isEmpty() ? read.mistakes().isEmpty() : read.mistakes() == QJsonArray {mistake},
                 qPrintable(read.shown));
        if (!mistake.isEmpty()) {
            QVERIFY2(read.diagnosis().contains(said), qPrintable(read.shown));
            return;
        }
        // Nothing named: the report's note says what was read, beside the deviating cells.
        const CliRun::Run text
            = CliRun::posenc(QStringList {u"check"_s, m_dir.filePath(u"t.npy"_s)} + kTimestep);
        QVERIFY2(text.out.contains(said), qPrintable(text.out));
    }
    // warner-benjamin/commented-transformers#2: a BERT-style sinusoid of d_model 768 whose exponent
    // was divided by a context size of 512 (w_i = 10000^(-2i/512)). Under the declared paper's
    // sinusoid, whose parameter is its base, the mistake is named `base` (10000^(768/512) = 10^6), the
    // denominator and diffusers' downscale_freq_shift 128 said beside it; under a declared diffusers
    // form (--freq-shift given) the shift is its own parameter, `freq-shift`.
    void exponentOverAnotherWidthIsBase()
    {
        constexpr std::int64_t rows = 512, d = 768;
        std::vector<double> pe;
        for (std::int64_t p = 0; p < rows; ++p)
            for (std::int64_t c = 0; c < d; ++c) {
                const double angle = double(p) * std::pow(10000.0, -double(c - c % 2) / 512.0);
                pe.push_back(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
            }
        const Checked paper = check(npy({rows, d}, pe), {u"--expect"_s, u"sinusoidal"_s});
        QVERIFY2(paper.exit == 1 && paper.mistakes() == QJsonArray {u"base"_s}, qPrintable(paper.shown));
        QVERIFY2(paper.diagnosis().contains(u"base 1000000"_s) && paper.diagnosis().contains(u"denominator 512"_s)
                     && paper.diagnosis().contains(u"downscale_freq_shift 128"_s),
                 qPrintable(paper.shown));
        const Checked diffusers = check(npy({rows, d}, pe), {u"--expect"_s, u"sinusoidal"_s, u"--freq-shift"_s, u"1"_s});
        QVERIFY2(diffusers.exit == 1 && diffusers.mistakes().contains(u"freq-shift"_s), qPrintable(diffusers.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectNames)
} // namespace tst_cliexpectnames
#include "tst_cliexpectnames.moc"
