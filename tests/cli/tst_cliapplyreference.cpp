// `posenc check --apply X Y` against a reference declared in full (issue 56): a frequency-level
// mistake is named for a rotation as it is for a cos table of the same bug, and the reference
// settles which axis of [B, H, L, D] / [B, L, H, D] holds the heads where exactly one reading
// equals it. X and Y are written here in float64 from their definitions: transformers'
// models/llama/modeling_llama.py (apply_rotary_pos_emb: q * cos + rotate_half(q) * sin) with
// modeling_rope_utils.py's _compute_default_rope_parameters (inv_freq = 1 / base^(2i / d)) and
// _compute_llama3_parameters (low_freq_factor, high_freq_factor, original_max_position_embeddings).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/LongVariant.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace tst_cliapplyreference {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kDim = 128;

std::vector<double> defaultInv(double base)
{
    std::vector<double> inv;
    for (std::int64_t i = 0; i < kDim / 2; ++i)
        inv.push_back(1.0 / std::pow(base, double(2 * i) / double(kDim)));
    return inv;
}

// torch's float32 -> bfloat16 cast, round to nearest even (c10/util/BFloat16.h, round_to_nearest_even).
double bfloat16(double v)
{
    const auto f = float(v);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    bits &= 0xffff0000u;
    float out = 0.0f;
    std::memcpy(&out, &bits, sizeof out);
    return double(out);
}

// _compute_llama3_parameters: wavelengths past original / low_freq_factor divided by factor, those
// below original / high_freq_factor kept, a smooth blend between.
std::vector<double> llama3Inv(double base, double factor, double low, double high, double original)
{
    std::vector<double> inv = defaultInv(base);
    for (double &w : inv) {
        const double wavelen = 2.0 * M_PI / w;
        if (wavelen > original / low) {
            w /= factor;
        } else if (wavelen >= original / high) {
            const double smooth = (original / wavelen - low) / (high - low);
            w = (1.0 - smooth) * w / factor + smooth * w;
        }
    }
    return inv;
}

// `count` query rows of X (normal values, each rounded to float32 as written) and Y: row r turned at
// positions[r] by `inv`, rotate_half's pairs (i, i + d/2).
struct Rows
{
    std::vector<double> x, y;
};

Rows turned(const std::vector<double> &inv, const std::vector<std::int64_t> &positions, unsigned seed)
{
    std::mt19937 engine(seed);
    std::normal_distribution<double> normal;
    Rows out {std::vector<double>(positions.size() * kDim), std::vector<double>(positions.size() * kDim)};
    for (double &v : out.x)
        v = double(float(normal(engine)));
    const std::int64_t h = kDim / 2;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        const double *x = &out.x[r * kDim];
        for (std::int64_t i = 0; i < h; ++i) {
            const double angle = double(positions[r]) * inv[std::size_t(i)];
            out.y[r * kDim + std::size_t(i)] = x[i] * std::cos(angle) - x[i + h] * std::sin(angle);
            out.y[r * kDim + std::size_t(i + h)] = x[i + h] * std::cos(angle) + x[i] * std::sin(angle);
        }
    }
    return out;
}

// Heads of [B, H, L, D], head (b, h) turned at ids[b] (or 0..L-1), each its own X.
Rows heads(const std::vector<double> &inv, std::int64_t batch, std::int64_t count, std::int64_t length,
           const std::vector<std::vector<std::int64_t>> &ids = {})
{
    Rows all;
    for (std::int64_t b = 0; b < batch; ++b) {
        std::vector<std::int64_t> positions(static_cast<std::size_t>(length));
        for (std::int64_t l = 0; l < length; ++l)
            positions[std::size_t(l)] = ids.empty() ? l : ids[std::size_t(b)][std::size_t(l)];
        for (std::int64_t h = 0; h < count; ++h) {
            const Rows one = turned(inv, positions, unsigned(31 + b * count + h));
            all.x.insert(all.x.end(), one.x.begin(), one.x.end());
            all.y.insert(all.y.end(), one.y.begin(), one.y.end());
        }
    }
    return all;
}

// Qwen3-8B's inv_freq (rope_theta 1e6) rounded to bfloat16, as sglang-jax's RotaryEmbedding cast it.
std::vector<double> bfloat16Inv()
{
    std::vector<double> rounded;
    for (const double w : defaultInv(1e6))
        rounded.push_back(bfloat16(w));
    return rounded;
}

QStringList qwen3Flags()
{
    return {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"1000000"_s, u"--head-dim"_s, u"128"_s};
}

constexpr std::int64_t kHalfLength = 256;

struct Run
{
    int exit = -1;
    QJsonObject json;
    QString shown;

    QStringList mistakes() const
    {
        QStringList ids;
        for (const QJsonValue &v : json[u"mistakes"_s].toArray())
            ids.append(v.toString());
        return ids;
    }
};

} // namespace

class TestCliApplyReference : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Run apply(const Rows &rows, const std::vector<std::int64_t> &shape, const QStringList &flags)
    {
        const QString xs = CliCheck::write(m_dir, u"x.npy"_s, npy(shape, rows.x));
        const QString ys = CliCheck::write(m_dir, u"y.npy"_s, npy(shape, rows.y));
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xs, ys, u"--json"_s, u"--quiet"_s} + flags);
        return {run.exitCode, QJsonDocument::fromJson(run.out.toUtf8()).object(), run.out + run.err};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // sgl-project/sglang-jax#1472 (fixed by #1473): inv_freq cast to bfloat16 before positions *
    // inv_freq, Qwen3-8B's rope_theta 1e6. Its angles are no RoPE frequencies the search reads; against
    // the declared reference it is half-precision-angles, as the cos table of the same bug is, one head
    // [L, D] (by flags, by the preset) and two of [B, H, L, D], the stage and its dtype said. Undeclared
    // it is named as that cos table is undeclared, the base read from its slow pairs. The fix is correct. Each its own function: a search of angles that are no RoPE's
    // takes its time. Under a sanitizer CI's run takes the preset's (one search; the three take most
    // of the test's time, 230 s under ASan in CI), the long variant (tst_cliapplyreference_long, by
    // hand) the flags' and the heads'.
    void halfPrecisionInvFreqIsNamed()
    {
        POSENC_ROWS_IN_CI_WHERE(!testing::takesSanitizerSample());
        const std::vector<std::int64_t> one {kHalfLength, kDim};
        const Run bug = apply(heads(bfloat16Inv(), 1, 1, kHalfLength), one, qwen3Flags());
        QVERIFY2(bug.exit == 1 && bug.mistakes().contains(u"half-precision-angles"_s), qPrintable(bug.shown));
        QVERIFY2(bug.json[u"diagnosis"_s].toString().contains(u"bfloat16"_s), qPrintable(bug.shown));
        const Run undeclared = apply(heads(bfloat16Inv(), 1, 1, kHalfLength), one, {});
        QVERIFY2(undeclared.exit == 1 && undeclared.mistakes() == QStringList {u"half-precision-angles"_s},
                 qPrintable(undeclared.shown));
        const QString said = undeclared.json[u"diagnosis"_s].toString();
        QVERIFY2(said.contains(u"rope_theta 1000000"_s) && said.contains(u"inv_freq rounded to bfloat16"_s),
                 qPrintable(undeclared.shown));
        const Run fix = apply(heads(defaultInv(1e6), 1, 1, kHalfLength), one, qwen3Flags());
        QVERIFY2(fix.exit == 0, qPrintable(fix.shown));
    }

    void halfPrecisionAgainstPreset()
    {
        const Run bug
            = apply(heads(bfloat16Inv(), 1, 1, kHalfLength), {kHalfLength, kDim}, {u"--preset"_s, u"qwen3-8b"_s});
        QVERIFY2(bug.exit == 1 && bug.mistakes().contains(u"half-precision-angles"_s), qPrintable(bug.shown));
    }

    void halfPrecisionHeads()
    {
        POSENC_ROWS_IN_CI_WHERE(!testing::takesSanitizerSample());
        const Run bug = apply(heads(bfloat16Inv(), 1, 2, kHalfLength), {1, 2, kHalfLength, kDim},
                              qwen3Flags() + QStringList {u"--apply-heads"_s, u"2"_s});
        QVERIFY2(bug.exit == 1 && bug.mistakes().contains(u"half-precision-angles"_s), qPrintable(bug.shown));
    }

    // A [1, 4, 512, 128] query, [B, H, L, D]: read as [B, L, H, D] it is 512 heads of 4 positions, each
    // at one position, which no rotation explains. Undeclared, which axis holds the heads is unknown;
    // the declared reference, which every head of the [B, H, L, D] reading equals, settles it and says
    // so. A query turned along its heads' axis ([1, 512, 4, 128], open_lm#4) read the other way equals
    // the reference too, at 512 heads of 4 positions: it stays unknown, as without a reference.
    void referenceSettlesTheAxes()
    {
        constexpr std::int64_t length = 512;
        const std::vector<double> inv = defaultInv(1e6);
        const QStringList reference {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"1000000"_s};
        const Rows fixed = heads(inv, 1, 4, length);
        const std::vector<std::int64_t> shape {1, 4, length, kDim};
        QCOMPARE(apply(fixed, shape, {}).exit, 7);
        const Run declared = apply(fixed, shape, reference);
        QVERIFY2(declared.exit == 0, qPrintable(declared.shown));
        QCOMPARE(declared.json[u"tensor_layout"_s].toString(), u"[B, H, L, D]"_s);
        QVERIFY2(declared.json[u"diagnosis"_s].toString().contains(u"the reference declared settles"_s),
                 qPrintable(declared.shown));
        // The same rows laid as the buggy layout: each [B, L, H, D] row (l, h) turned at h.
        const Rows along = heads(inv, 1, length, 4);
        const Run buggy = apply(along, {1, length, 4, kDim}, reference);
        QVERIFY2(buggy.exit == 7, qPrintable(buggy.shown));
        // A reference the good reading does not equal settles nothing (a mistake or unknown, never correct).
        const Run other = apply(fixed, shape, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"500000"_s});
        QVERIFY2(other.exit != 0, qPrintable(other.shown));
    }

    // A left-padded batch (transformers' position_ids = cumsum(mask) - 1, padding at 1) of Llama
    // 3.1 8B's queries, [2, 4, 40, 128], turned with its llama3 scaling dropped (plain rope_theta
    // 500000): at 40 rows the slow pairs the scaling changes read at no position, yet every head
    // is a mistake against the declared preset, its rows compared at their ids, none unknown. The
    // rotation with the scaling is correct.
    void unreadRowsComparedAtTheirIds()
    {
        constexpr std::int64_t batch = 2, count = 4, length = 40;
        std::vector<std::vector<std::int64_t>> ids(batch, std::vector<std::int64_t>(length));
        std::vector<double> flat;
        for (std::int64_t b = 0; b < batch; ++b) {
            const std::int64_t pad = b == 1 ? 3 : 0;
            for (std::int64_t l = 0; l < length; ++l) {
                ids[std::size_t(b)][std::size_t(l)] = l < pad ? 1 : l - pad;
                flat.push_back(double(ids[std::size_t(b)][std::size_t(l)]));
            }
        }
        const QString idsFile = CliCheck::write(m_dir, u"ids.npy"_s, npy({batch, length}, flat));
        const QStringList flags {u"--preset"_s, u"llama-3-1-8b"_s, u"--position-ids"_s, idsFile};
        const std::vector<std::int64_t> shape {batch, count, length, kDim};
        const Run dropped = apply(heads(defaultInv(500000.0), batch, count, length, ids), shape, flags);
        QVERIFY2(dropped.exit == 1, qPrintable(dropped.shown));
        for (const QJsonValue &head : dropped.json[u"heads"_s].toArray())
            QVERIFY2(head.toObject()[u"verdict"_s].toString() == u"mistake"_s, qPrintable(dropped.shown));
        QVERIFY2(dropped.mistakes().contains(u"rope-type"_s), qPrintable(dropped.shown));
        const Run right
            = apply(heads(llama3Inv(500000.0, 8.0, 1.0, 4.0, 8192.0), batch, count, length, ids), shape, flags);
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliApplyReference)
} // namespace tst_cliapplyreference
#include "tst_cliapplyreference.moc"
