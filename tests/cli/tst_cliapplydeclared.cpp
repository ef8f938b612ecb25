// `posenc check --apply X Y` against a declared reference (issue 56): the real bugs below, written
// here in float64 from their definitions, are named against the reference their model declares,
// every parameter that differs; a rotation equal to the reference is correct; a flag --apply does
// not read is refused. References: transformers' modeling_llama.py (apply_rotary_pos_emb,
// rotate_half), modeling_gptj.py (rotate_every_two), modeling_rope_utils.py
// (_compute_default_rope_parameters: inv_freq = 1 / base^(2i / d); _compute_yarn_parameters: the
// ramp between extrapolated and interpolated frequencies, attention_factor 0.1 ln(factor) + 1).
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

namespace tst_cliapplydeclared {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 256, kDim = 128;

// _compute_default_rope_parameters: 1 / base^(2i / d), i < d/2.
std::vector<double> defaultInv(double base, qint64 dim)
{
    std::vector<double> inv;
    for (qint64 i = 0; i < dim / 2; ++i)
        inv.push_back(1.0 / std::pow(base, double(2 * i) / double(dim)));
    return inv;
}

// _compute_yarn_parameters (beta_fast 32, beta_slow 1, truncated correction range).
std::vector<double> yarnInv(double base, qint64 dim, double factor, double original)
{
    const auto correction = [&](double rotations) {
        return double(dim) * std::log(original / (rotations * 2.0 * M_PI)) / (2.0 * std::log(base));
    };
    const double low = std::max(std::floor(correction(32.0)), 0.0);
    double high = std::min(std::ceil(correction(1.0)), double(dim - 1));
    if (low == high)
        high += 0.001;
    std::vector<double> inv;
    for (qint64 i = 0; i < dim / 2; ++i) {
        const double extrapolation = 1.0 / std::pow(base, double(2 * i) / double(dim));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        const double mask = 1.0 - ramp;
        inv.push_back(extrapolation / factor * (1.0 - mask) + extrapolation * mask);
    }
    return inv;
}

// X random normal, `rows` rows; Y = (X * cos + rotate(X) * sin) * scale at position r, pairs (i, i + d/2)
// (rotate_half) or (2i, 2i + 1) (rotate_every_two), angle (r + offset) * inv[i].
std::pair<std::vector<float>, std::vector<float>> rotated(const std::vector<double> &inv, bool half, double scale = 1.0,
                                                          qint64 offset = 0, qint64 rows = kRows)
{
    std::mt19937 engine(23);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<float> x(std::size_t(rows * kDim)), y(x.size());
    for (float &v : x)
        v = float(normal(engine));
    const qint64 h = kDim / 2;
    for (qint64 r = 0; r < rows; ++r) {
        const auto at = [&](qint64 j) { return double(x[std::size_t(r * kDim + j)]); };
        for (qint64 j = 0; j < kDim; ++j) {
            const qint64 k = half ? j % h : j / 2;
            const double angle = double(r + offset) * inv[std::size_t(k)];
            const double other = half ? (j < h ? -at(j + h) : at(j - h)) : (j % 2 == 0 ? -at(j + 1) : at(j - 1));
            y[std::size_t(r * kDim + j)] = float((at(j) * std::cos(angle) + other * std::sin(angle)) * scale);
        }
    }
    return {x, y};
}

// A partial rotary (modeling_gpt_neox.py: q_rot = q[..., :rotary], q_pass = q[..., rotary:]): the
// first `rotary` columns turned as rotated() turns a head, pairs (i, i + rotary/2) or (2i, 2i + 1),
// the rest of X passed through.
std::pair<std::vector<float>, std::vector<float>> partialRotated(const std::vector<double> &inv, qint64 rotary,
                                                                 bool half, double scale = 1.0, qint64 rows = kRows)
{
    std::mt19937 engine(29);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<float> x(std::size_t(rows * kDim)), y(x.size());
    for (float &v : x)
        v = float(normal(engine));
    const qint64 h = rotary / 2;
    for (qint64 r = 0; r < rows; ++r) {
        const auto at = [&](qint64 j) { return double(x[std::size_t(r * kDim + j)]); };
        for (qint64 j = 0; j < kDim; ++j) {
            if (j >= rotary) {
                y[std::size_t(r * kDim + j)] = x[std::size_t(r * kDim + j)];
                continue;
            }
            const qint64 k = half ? j % h : j / 2;
            const double angle = double(r) * inv[std::size_t(k)];
            const double other = half ? (j < h ? -at(j + h) : at(j - h)) : (j % 2 == 0 ? -at(j + 1) : at(j - 1));
            y[std::size_t(r * kDim + j)] = float((at(j) * std::cos(angle) + other * std::sin(angle)) * scale);
        }
    }
    return {x, y};
}

// Y's columns reordered: column j of the result is Y's column from(j).
std::vector<float> reordered(const std::vector<float> &y, const std::function<qint64(qint64)> &from)
{
    std::vector<float> out(y.size());
    for (qint64 r = 0; r < kRows; ++r)
        for (qint64 j = 0; j < kDim; ++j)
            out[std::size_t(r * kDim + j)] = y[std::size_t(r * kDim + from(j))];
    return out;
}

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString err;
};

} // namespace

class CliApplyDeclared : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked run(const std::pair<std::vector<float>, std::vector<float>> &xy, const QStringList &flags)
    {
        const QString x = m_dir.filePath(u"x.npy"_s), y = m_dir.filePath(u"y.npy"_s);
        const auto rows = qint64(xy.first.size()) / kDim;
        if (!CliRun::writeNpy(x, rows, kDim, xy.first) || !CliRun::writeNpy(y, rows, kDim, xy.second))
            return {};
        const CliRun::Run r = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, x, y, u"--json"_s} + flags);
        return {r.exitCode, QJsonDocument::fromJson(r.out.toUtf8()).object(), r.err};
    }

    static QStringList mistakes(const Checked &c)
    {
        QStringList ids;
        for (const QJsonValue &v : c.json.value(u"mistakes"_s).toArray())
            ids.append(v.toString());
        return ids;
    }

private slots:
    // lyogavin/airllm#369: an MLX Llama port that never passed rope_theta turns at 10000. Undeclared
    // that is RoFormer's published form; against Llama 3's declared theta it is rope-theta, both
    // values said, by every way of declaring it; Llama 3.1's preset differs in rope_type as well.
    void thetaNeverPassedIsNamed()
    {
        const auto xy = rotated(defaultInv(10000.0, kDim), true);
        const Checked undeclared = run(xy, {});
        QCOMPARE(undeclared.exit, 0);
        for (const QStringList &flags :
             {QStringList {u"--rope-theta"_s, u"500000"_s},
              QStringList {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"128"_s, u"--rope-theta"_s, u"500000"_s}}) {
            const Checked c = run(xy, flags);
            QVERIFY2(c.exit == 1, qPrintable(flags.join(u' ') + u": "_s + c.err));
            QCOMPARE(mistakes(c), QStringList {u"rope-theta"_s});
            const QString diagnosis = c.json.value(u"diagnosis"_s).toString();
            QVERIFY2(diagnosis.contains(u"rope_theta 10000 where the declaration gives 500000"_s),
                     qPrintable(diagnosis));
        }
        const QString config = m_dir.filePath(u"llama.json"_s);
        QFile::remove(config);
        QVERIFY(QFile::copy(QStringLiteral(POSENC_CONFIGS "/Meta-Llama-3.1-8B.json"), config));
        for (const QStringList &flags :
             {QStringList {u"--preset"_s, u"llama-3-1-8b"_s}, QStringList {u"--config"_s, config},
              QStringList {u"--expect-config"_s, config}}) {
            const Checked c = run(xy, flags);
            QVERIFY2(c.exit == 1, qPrintable(flags.join(u' ') + u": "_s + c.err));
            QVERIFY2(mistakes(c).contains(u"rope-type"_s) && mistakes(c).contains(u"rope-theta"_s),
                     qPrintable(flags.join(u' ') + u": "_s + mistakes(c).join(u", "_s)));
        }
    }

    // The rotation the reference declares is correct against it, though undeclared it is a variant
    // (theta 300000 is no published form); the other pairing is rope-layout.
    void declaredReferenceIsCorrect()
    {
        const auto xy = rotated(defaultInv(300000.0, kDim), true);
        QCOMPARE(run(xy, {}).exit, 5);
        const Checked c = run(xy, {u"--rope-theta"_s, u"300000"_s});
        QVERIFY2(c.exit == 0, qPrintable(c.json.value(u"diagnosis"_s).toString() + c.err));
        const Checked swapped = run(rotated(defaultInv(300000.0, kDim), false), {u"--rope-theta"_s, u"300000"_s});
        QCOMPARE(swapped.exit, 1);
        QCOMPARE(mistakes(swapped), QStringList {u"rope-layout"_s});
        // A row's shape alone (its width, its rotated share) declares no theta: read as undeclared.
        for (const QStringList &flags :
             {QStringList {u"--head-dim"_s, u"128"_s}, QStringList {u"--partial-rotary-factor"_s, u"1"_s}}) {
            const Checked shape = run(xy, flags);
            QVERIFY2(shape.exit == 5 && mistakes(shape).isEmpty(),
                     qPrintable(flags.join(u' ') + u": "_s + mistakes(shape).join(u", "_s) + shape.err));
        }
    }

    // ggml-org/llama.cpp#7617: NeoX YaRN scaled every pair by 1 / factor with YaRN's attention
    // factor, where YaRN keeps the fast pairs. Against Qwen2.5-7B's YaRN it is rope-type; YaRN
    // itself is correct; YaRN without its attention factor is attention-factor-missing. 2048 rows:
    // at 256 the slowest pairs of theta 1e6 turn too little in float32 to tell the ramp.
    void yarnAsLinearIsNamed()
    {
        constexpr qint64 rows = 2048;
        const double mscale = 0.1 * std::log(4.0) + 1.0;
        std::vector<double> linear = defaultInv(1e6, kDim);
        for (double &w : linear)
            w /= 4.0;
        const QStringList yarn {u"--rope-type"_s,        u"yarn"_s,  u"--rope-factor"_s, u"4"_s,
                                u"--original-max-len"_s, u"32768"_s, u"--rope-theta"_s,  u"1000000"_s};
        for (const QStringList &flags : {yarn, QStringList {u"--preset"_s, u"qwen2-5-7b"_s}}) {
            const Checked c = run(rotated(linear, true, mscale, 0, rows), flags);
            QVERIFY2(c.exit == 1, qPrintable(flags.join(u' ') + c.err));
            QCOMPARE(mistakes(c), QStringList {u"rope-type"_s});
        }
        const auto right = rotated(yarnInv(1e6, kDim, 4.0, 32768.0), true, mscale, 0, rows);
        const Checked correct = run(right, yarn);
        QVERIFY2(correct.exit == 0, qPrintable(correct.json.value(u"diagnosis"_s).toString()));
        const Checked unscaled = run(rotated(yarnInv(1e6, kDim, 4.0, 32768.0), true, 1.0, 0, rows), yarn);
        QCOMPARE(unscaled.exit, 1);
        QCOMPARE(mistakes(unscaled), QStringList {u"attention-factor-missing"_s});
    }

    // vllm-project/vllm-metal#44: GPT-J's rotation concatenated as [rotated evens | rotated odds]
    // instead of interleaved back (named where the declared model interleaves back: Cohere's); and
    // rotate_half's output written interleaved. Each order named,
    // and the rest read with the columns put back.
    void columnOrdersAreNamed()
    {
        const qint64 h = kDim / 2;
        auto gptj = rotated(defaultInv(10000.0, kDim), false);
        gptj.second = reordered(gptj.second, [&](qint64 j) { return j < h ? 2 * j : 2 * (j - h) + 1; });
        // Undeclared, the code that wrote Y is not known: transformers' apply_rotary_pos_emb_interleave
        // writes this order on purpose (modeling_deepseek_v3.py), so it is not named, and no model
        // whose code writes it publishes these frequencies: unknown (tst_cliapplyinterleave).
        const Checked concatenated = run(gptj, {});
        QCOMPARE(concatenated.exit, 7);
        QVERIFY(mistakes(concatenated).isEmpty());
        QVERIFY(concatenated.json.value(u"diagnosis"_s).toString().contains(u"positions 0..255"_s));
        const Checked declared = run(gptj, {u"--preset"_s, u"command-r7b"_s, u"--rope-theta"_s, u"10000"_s});
        QCOMPARE(declared.exit, 1);
        QCOMPARE(mistakes(declared), QStringList {u"rope-output-deinterleaved"_s});
        auto neox = rotated(defaultInv(10000.0, kDim), true);
        neox.second = reordered(neox.second, [&](qint64 j) { return j % 2 == 0 ? j / 2 : h + j / 2; });
        const Checked interleaved = run(neox, {});
        QCOMPARE(interleaved.exit, 1);
        QCOMPARE(mistakes(interleaved), QStringList {u"rope-output-interleaved"_s});
    }

    // A YaRN rotation of a partial rotary (rotary_dim 64 of head_dim 128, partial_rotary_factor 0.5;
    // _compute_yarn_parameters over dim = int(head_dim * partial_rotary_factor)) against a declared
    // theta or original length that is not its own: each named with both values (each was correct);
    // the declared one correct.
    void partialYarnDeclaredWrong()
    {
        constexpr qint64 rotary = 64, rows = 2048;
        const double mscale = 0.1 * std::log(4.0) + 1.0;
        const auto xy = partialRotated(yarnInv(1e4, rotary, 4.0, 2048.0), rotary, true, mscale, rows);
        const auto flags = [](const QString &theta, const QString &original) {
            return QStringList {
                u"--rope-type"_s,  u"yarn"_s, u"--rope-factor"_s, u"4"_s,   u"--original-max-len"_s,      original,
                u"--rope-theta"_s, theta,     u"--head-dim"_s,    u"128"_s, u"--partial-rotary-factor"_s, u"0.5"_s};
        };
        const Checked right = run(xy, flags(u"10000"_s, u"2048"_s));
        QVERIFY2(right.exit == 0, qPrintable(right.json.value(u"diagnosis"_s).toString() + right.err));
        for (const QString &theta : {u"500000"_s, u"20000"_s, u"1000000"_s}) {
            const Checked c = run(xy, flags(theta, u"2048"_s));
            QVERIFY2(c.exit == 1 && mistakes(c).contains(u"rope-theta"_s),
                     qPrintable(theta + u": "_s + mistakes(c).join(u", "_s) + c.json.value(u"diagnosis"_s).toString()));
            QVERIFY2(c.json.value(u"diagnosis"_s).toString().contains(u"10000"_s), qPrintable(theta));
        }
        for (const QString &original : {u"4096"_s, u"8192"_s, u"32768"_s}) {
            const Checked c = run(xy, flags(u"10000"_s, original));
            QVERIFY2(c.exit == 1 && mistakes(c).contains(u"original-max-len"_s),
                     qPrintable(original + u": "_s + mistakes(c).join(u", "_s) + u" "_s
                                + c.json.value(u"diagnosis"_s).toString()));
        }
    }

    // The output orders of columnOrdersAreNamed at a partial rotary (rotary_dim 64 of 128): the
    // rotated columns written back in the other order, the passed-through ones in place.
    void partialColumnOrdersAreNamed()
    {
        constexpr qint64 rotary = 64, h = rotary / 2;
        const auto within = [&](qint64 j, qint64 inside) { return j < rotary ? inside : j; };
        auto gptj = partialRotated(defaultInv(10000.0, rotary), rotary, false);
        gptj.second = reordered(gptj.second, [&](qint64 j) { return within(j, j < h ? 2 * j : 2 * (j - h) + 1); });
        // GPT-J 6B's published rotation (64 of 256 at theta 10000) in the [evens | odds] order: which
        // code wrote it is not known undeclared (transformers' apply_rotary_pos_emb_interleave writes
        // that order): unknown.
        const Checked concatenated = run(gptj, {});
        QVERIFY2(concatenated.exit == 7, qPrintable(concatenated.json.value(u"diagnosis"_s).toString()));
        QVERIFY(mistakes(concatenated).isEmpty());
        auto neox = partialRotated(defaultInv(10000.0, rotary), rotary, true);
        neox.second = reordered(neox.second, [&](qint64 j) { return within(j, j % 2 == 0 ? j / 2 : h + j / 2); });
        const Checked interleaved = run(neox, {});
        QVERIFY2(interleaved.exit == 1, qPrintable(interleaved.json.value(u"diagnosis"_s).toString()));
        QCOMPARE(mistakes(interleaved), QStringList {u"rope-output-interleaved"_s});
        // In order, each is correct (GPT-J 6B's form and RoFormer's default RoPE).
        QCOMPARE(run(partialRotated(defaultInv(10000.0, rotary), rotary, false), {}).exit, 0);
        QCOMPARE(run(partialRotated(defaultInv(10000.0, rotary), rotary, true), {}).exit, 0);
    }

    // --position-ids with --config, as with --preset: a Qwen2-VL prompt's ids checked alone
    // (get_rope_index's t, h and w ids of text:5,image:1x4x6,text:3, spatial merge 2, written
    // here), and with --apply a query turned at r + 3 and declared so under Llama 2's config.
    void positionIdsWithConfig()
    {
        std::vector<float> thw(3 * 14);
        const auto put = [&](qint64 l, float t, float hh, float w) {
            thw[std::size_t(l)] = t;
            thw[std::size_t(14 + l)] = hh;
            thw[std::size_t(28 + l)] = w;
        };
        for (qint64 l = 0; l < 5; ++l)
            put(l, float(l), float(l), float(l));
        for (qint64 i = 0; i < 2; ++i)
            for (qint64 j = 0; j < 3; ++j)
                put(5 + 3 * i + j, 5.0f, float(5 + i), float(5 + j));
        for (qint64 l = 11; l < 14; ++l)
            put(l, float(l - 3), float(l - 3), float(l - 3));
        const QString mropeIds = m_dir.filePath(u"thw.npy"_s);
        QVERIFY(CliRun::writeNpy(mropeIds, 3, 14, thw));
        const QString vl = m_dir.filePath(u"qwen2vl.json"_s);
        QFile::remove(vl);
        QVERIFY(QFile::copy(QStringLiteral(POSENC_CONFIGS "/Qwen2-VL-7B-Instruct.json"), vl));
        for (const QStringList &model :
             {QStringList {u"--config"_s, vl}, QStringList {u"--preset"_s, u"qwen2-vl-7b"_s}}) {
            const CliRun::Run r = CliRun::posenc(QStringList {u"check"_s, u"--position-ids"_s, mropeIds} + model
                                                 + QStringList {u"--prompt"_s, u"text:5,image:1x4x6,text:3"_s});
            QVERIFY2(r.exitCode == 0, qPrintable(model.join(u' ') + u": "_s + r.err + r.out));
        }
        const QString ids = m_dir.filePath(u"ids.npy"_s);
        std::vector<float> at;
        for (qint64 r = 0; r < kRows; ++r)
            at.push_back(float(r + 3));
        QVERIFY(CliRun::writeNpy(ids, 1, kRows, at));
        const QString config = m_dir.filePath(u"llama2.json"_s);
        QFile::remove(config);
        QVERIFY(QFile::copy(QStringLiteral(POSENC_CONFIGS "/Llama-2-7b-hf.json"), config));
        const auto xy = rotated(defaultInv(10000.0, kDim), true, 1.0, 3);
        const Checked c = run(xy, {u"--config"_s, config, u"--position-ids"_s, ids});
        QVERIFY2(c.exit == 0, qPrintable(c.err + c.json.value(u"diagnosis"_s).toString()));
        const Checked preset = run(xy, {u"--preset"_s, u"llama-3-1-8b"_s, u"--position-ids"_s, ids});
        QCOMPARE(preset.exit, 1);
        QVERIFY(mistakes(preset).contains(u"rope-theta"_s));
    }

    // A flag --apply does not read is refused, named, never ignored.
    void idleFlagsAreRefused()
    {
        const auto xy = rotated(defaultInv(10000.0, kDim), true);
        for (const QStringList &flags : {QStringList {u"--d-model"_s, u"512"_s}, QStringList {u"--heads"_s, u"4"_s},
                                         QStringList {u"--base"_s, u"500"_s}}) {
            const Checked c = run(xy, flags);
            QVERIFY2(c.exit == 2, qPrintable(flags.join(u' ')));
            QVERIFY2(c.err.contains(flags.first()), qPrintable(c.err));
        }
        QString table = m_dir.filePath(u"t.npy"_s);
        QVERIFY(CliRun::writeNpy(table, kRows, kDim, xy.second));
        const Checked c = run(xy, {u"--expect-table"_s, table});
        QCOMPARE(c.exit, 2);
        QVERIFY2(c.err.contains(u"--expect-table"_s), qPrintable(c.err));
    }
};

POSENC_TEST_GUILESS_MAIN(CliApplyDeclared)
} // namespace tst_cliapplydeclared
#include "tst_cliapplydeclared.moc"
