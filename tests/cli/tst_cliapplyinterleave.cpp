// `posenc check --apply X Y` on DeepSeek-V3's rotation as transformers writes it
// (models/deepseek_v3/modeling_deepseek_v3.py, apply_rotary_pos_emb_interleave: q.view(b, h, s,
// d // 2, 2).transpose(4, 3).reshape(b, h, s, d), then q * cos + rotate_half(q) * sin, k alike):
// the interleaved rotation's output as [evens | odds] is that model's published form, correct
// against it and undeclared; the bug of huggingface/optimum-intel#1877 (rotate_half on the
// interleaved columns, the view and transpose left out) is no form of DeepSeek-V3's. The same
// order where the model's code interleaves its pairs back (Cohere's rotate_half, modeling_cohere.py:
// torch.stack([-x2, x1], dim=-1).flatten(-2)) stays rope-output-deinterleaved (vllm-project/vllm-metal#44).
// X and Y are computed here in float64 from those functions; the frequencies are
// _compute_yarn_parameters' (modeling_rope_utils.py) at DeepSeek-V3's config.json rope_scaling.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace tst_cliapplyinterleave {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 300;

// _compute_yarn_parameters (truncated correction range, linear_ramp_factor's max + 0.001 where
// min == max), mscale = mscale_all_dim: attention factor 1.
std::vector<double> yarnInv(double base, qint64 dim, double factor, double original, double betaFast = 32.0,
                            double betaSlow = 1.0)
{
    const auto correction = [&](double rotations) {
        return double(dim) * std::log(original / (rotations * 2.0 * M_PI)) / (2.0 * std::log(base));
    };
    const double low = std::max(std::floor(correction(betaFast)), 0.0);
    double high = std::min(std::ceil(correction(betaSlow)), double(dim - 1));
    if (low == high)
        high += 0.001;
    std::vector<double> inv;
    for (qint64 i = 0; i < dim / 2; ++i) {
        const double extrapolation = 1.0 / std::pow(base, double(2 * i) / double(dim));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        inv.push_back(extrapolation / factor * ramp + extrapolation * (1.0 - ramp));
    }
    return inv;
}

// q * cos + rotate_half(q) * sin of one row, cos and sin of emb = cat(freqs, freqs) at position r.
std::vector<double> rotateHalf(const std::vector<double> &q, const std::vector<double> &inv, qint64 r)
{
    const auto d = qint64(q.size()), h = d / 2;
    std::vector<double> y(q.size());
    for (qint64 j = 0; j < d; ++j) {
        const double angle = double(r) * inv[std::size_t(j % h)];
        const double rotated = j < h ? -q[std::size_t(j + h)] : q[std::size_t(j - h)];
        y[std::size_t(j)] = q[std::size_t(j)] * std::cos(angle) + rotated * std::sin(angle);
    }
    return y;
}

struct Pair
{
    std::vector<float> x, y;
};

// X random normal [rows, dim]; Y from each row by `row`.
template<typename Row> Pair rotated(qint64 dim, Row row, qint64 rows = kRows)
{
    std::mt19937 engine(31);
    std::normal_distribution<double> normal(0.0, 1.0);
    Pair p;
    for (qint64 r = 0; r < rows; ++r) {
        std::vector<double> q(static_cast<std::size_t>(dim));
        for (double &v : q)
            v = normal(engine);
        const std::vector<double> y = row(q, r);
        for (qint64 j = 0; j < dim; ++j) {
            p.x.push_back(float(q[std::size_t(j)]));
            p.y.push_back(float(y[std::size_t(j)]));
        }
    }
    return p;
}

// q.view(..., d // 2, 2).transpose(-1, -2).reshape(..., d): the even columns, then the odd ones.
std::vector<double> deinterleaved(const std::vector<double> &q)
{
    const std::size_t h = q.size() / 2;
    std::vector<double> out(q.size());
    for (std::size_t i = 0; i < h; ++i) {
        out[i] = q[2 * i];
        out[h + i] = q[2 * i + 1];
    }
    return out;
}

// Pairs (2i, 2i + 1) turned by angle r * inv[i], written back in place (modeling_cohere.py's
// rotate_half and apply_rotary_pos_emb with repeat_interleave'd cos and sin).
std::vector<double> interleavedInPlace(const std::vector<double> &q, const std::vector<double> &inv, qint64 r)
{
    std::vector<double> y(q.size());
    for (std::size_t i = 0; i < q.size() / 2; ++i) {
        const double angle = double(r) * inv[i], a = q[2 * i], b = q[2 * i + 1];
        y[2 * i] = a * std::cos(angle) - b * std::sin(angle);
        y[2 * i + 1] = a * std::sin(angle) + b * std::cos(angle);
    }
    return y;
}

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString err;
};

} // namespace

class CliApplyInterleave : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked run(const Pair &xy, qint64 dim, const QStringList &flags)
    {
        const QString x = m_dir.filePath(u"x.npy"_s), y = m_dir.filePath(u"y.npy"_s);
        const auto rows = qint64(xy.x.size()) / dim;
        if (!CliRun::writeNpy(x, rows, dim, xy.x) || !CliRun::writeNpy(y, rows, dim, xy.y))
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

    static QString said(const Checked &c)
    {
        return c.json.value(u"diagnosis"_s).toString() + u" | "_s + mistakes(c).join(u", "_s) + c.err;
    }

private slots:
    // transformers' apply_rotary_pos_emb_interleave: correct against DeepSeek-V3 however declared
    // (its preset, its example config, whose rope_interleave defaults to true) and undeclared, naming it.
    void transformersDeepseekIsCorrect()
    {
        const std::vector<double> inv = yarnInv(10000.0, 64, 40.0, 4096.0);
        const Pair hf
            = rotated(64, [&](const std::vector<double> &q, qint64 r) { return rotateHalf(deinterleaved(q), inv, r); });
        for (const QStringList &flags :
             {QStringList {u"--preset"_s, u"deepseek-v3"_s}, QStringList {u"--config"_s, u"deepseek-v3"_s}}) {
            const Checked c = run(hf, 64, flags);
            QVERIFY2(c.exit == 0, qPrintable(flags.join(u' ') + u": "_s + said(c)));
            QVERIFY2(said(c).contains(u"apply_rotary_pos_emb_interleave"_s), qPrintable(said(c)));
        }
        const Checked undeclared = run(hf, 64, {});
        QVERIFY2(undeclared.exit == 0, qPrintable(said(undeclared)));
        QVERIFY2(said(undeclared).contains(u"the published form: the RoPE cos table of DeepSeek-V3"_s),
                 qPrintable(said(undeclared)));
    }

    // optimum-intel#1877: rotate_half on the interleaved q_pe. Undeclared it is no published form
    // (DeepSeek-V3's pairs are (2i, 2i + 1)), so not correct; declared, rope-layout.
    void rotateHalfOnInterleavedIsNotDeepseek()
    {
        const std::vector<double> inv = yarnInv(10000.0, 64, 40.0, 4096.0);
        const Pair bug = rotated(64, [&](const std::vector<double> &q, qint64 r) { return rotateHalf(q, inv, r); });
        const Checked undeclared = run(bug, 64, {});
        QVERIFY2(undeclared.exit != 0 && undeclared.exit != 1, qPrintable(said(undeclared)));
        QVERIFY2(!said(undeclared).contains(u"DeepSeek"_s), qPrintable(said(undeclared)));
        const Checked declared = run(bug, 64, {u"--preset"_s, u"deepseek-v3"_s});
        QCOMPARE(declared.exit, 1);
        QCOMPARE(mistakes(declared), QStringList {u"rope-layout"_s});
    }

    // Kimi K2 (moonshotai/Kimi-K2-Instruct config.json: rope_theta 50000, yarn factor 32, beta_fast =
    // beta_slow = 1, original 4096, mscale = mscale_all_dim = 1) runs DeepSeek-V3's remote code (its
    // auto_map's modeling_deepseek.py, apply_rotary_pos_emb: the view and transpose before
    // rotate_half): that [evens | odds] output is its published form, undeclared and against its
    // preset; rotate_half on the interleaved columns is not. 2048 rows: at 300 its slow pairs, divided
    // by 32, pin no frequencies.
    void kimiK2DeinterleavedIsItsForm()
    {
        constexpr qint64 rows = 2048;
        const std::vector<double> inv = yarnInv(50000.0, 64, 32.0, 4096.0, 1.0, 1.0);
        const Pair hf = rotated(
            64, [&](const std::vector<double> &q, qint64 r) { return rotateHalf(deinterleaved(q), inv, r); }, rows);
        const Checked form = run(hf, 64, {});
        QVERIFY2(form.exit == 0 && said(form).contains(u"Kimi K2"_s), qPrintable(said(form)));
        const Checked preset = run(hf, 64, {u"--preset"_s, u"kimi-k2"_s});
        QVERIFY2(preset.exit == 0, qPrintable(said(preset)));
        const Pair bug = rotated(
            64, [&](const std::vector<double> &q, qint64 r) { return rotateHalf(q, inv, r); }, rows);
        const Checked wrong = run(bug, 64, {});
        QVERIFY2(wrong.exit != 0 && !said(wrong).contains(u"Kimi K2"_s), qPrintable(said(wrong)));
    }

    // DeepSeek-V2 (DeepSeek-V2-Lite's config.json, its RoPE keys: yarn factor 40 at 4096, mscale =
    // mscale_all_dim 0.707, qk_rope_head_dim 64): DeepSeek's own modeling_deepseek.py de-interleaves q
    // before rotate_half (apply_rotary_pos_emb), transformers' modeling_deepseek_v2.py turns the pairs
    // in place (apply_rotary_emb, view_as_complex): each order correct against the config; rotate_half
    // on the interleaved columns is not.
    void deepseekV2EitherOrder()
    {
        const QString config = m_dir.filePath(u"DeepSeek-V2-Lite.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(R"({"architectures": ["DeepseekV2ForCausalLM"], "model_type": "deepseek_v2", "hidden_size": 2048,
            "num_attention_heads": 16, "num_key_value_heads": 16, "num_hidden_layers": 27,
            "max_position_embeddings": 163840, "q_lora_rank": null, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64, "v_head_dim": 128, "rope_theta": 10000, "rope_scaling": {"beta_fast": 32,
            "beta_slow": 1, "factor": 40, "mscale": 0.707, "mscale_all_dim": 0.707,
            "original_max_position_embeddings": 4096, "type": "yarn"}})");
        file.close();
        const QStringList flags {u"--expect-config"_s, config};
        const std::vector<double> inv = yarnInv(10000.0, 64, 40.0, 4096.0);
        const Pair own
            = rotated(64, [&](const std::vector<double> &q, qint64 r) { return rotateHalf(deinterleaved(q), inv, r); });
        const Pair hf = rotated(64, [&](const std::vector<double> &q, qint64 r) { return interleavedInPlace(q, inv, r); });
        for (const Pair *xy : {&own, &hf}) {
            const Checked c = run(*xy, 64, flags);
            QVERIFY2(c.exit == 0, qPrintable(said(c)));
        }
        const Pair bug = rotated(64, [&](const std::vector<double> &q, qint64 r) { return rotateHalf(q, inv, r); });
        const Checked wrong = run(bug, 64, flags);
        QVERIFY2(wrong.exit == 1, qPrintable(said(wrong)));
    }

    // The [evens | odds] order where the declared model's code interleaves its pairs back (Command
    // R7B: Cohere's rotate_half) is rope-output-deinterleaved; its own order is correct. Undeclared,
    // the code is not known and the order not named.
    void concatenatedAgainstInPlaceCode()
    {
        const std::vector<double> inv = [] {
            std::vector<double> w;
            for (qint64 i = 0; i < 64; ++i)
                w.push_back(1.0 / std::pow(50000.0, double(2 * i) / 128.0));
            return w;
        }();
        const Pair inPlace
            = rotated(128, [&](const std::vector<double> &q, qint64 r) { return interleavedInPlace(q, inv, r); });
        const QStringList cohere {u"--preset"_s, u"command-r7b"_s};
        QVERIFY2(run(inPlace, 128, cohere).exit == 0, qPrintable(said(run(inPlace, 128, cohere))));
        const Pair concatenated = rotated(
            128, [&](const std::vector<double> &q, qint64 r) { return deinterleaved(interleavedInPlace(q, inv, r)); });
        const Checked declared = run(concatenated, 128, cohere);
        QCOMPARE(declared.exit, 1);
        QCOMPARE(mistakes(declared), QStringList {u"rope-output-deinterleaved"_s});
        const Checked undeclared = run(concatenated, 128, {});
        QVERIFY2(undeclared.exit != 0 && !mistakes(undeclared).contains(u"rope-output-deinterleaved"_s),
                 qPrintable(said(undeclared)));
    }
};

POSENC_TEST_GUILESS_MAIN(CliApplyInterleave)
} // namespace tst_cliapplyinterleave
#include "tst_cliapplyinterleave.moc"
