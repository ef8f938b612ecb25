// A declared reference read from a model config by guess, and the models whose code posenc now
// reads instead of guessing (issue 56). Every X and Y is computed here in float64 from the cited
// code:
// - GLM-4.1V (transformers models/glm4v/modeling_glm4v.py, apply_multimodal_rotary_pos_emb):
//   cos[..., :cos.shape[-1] // 2].repeat_interleave(2) and rotate_half_llm (pairs x[..., 0::2],
//   x[..., 1::2]) on the first rotary_dim = head_dim * partial_rotary_factor columns;
// - GLM-4.5V (models/glm4v_moe/modeling_glm4v_moe.py, Glm4vMoeTextAttention): gpt_neox's
//   apply_rotary_pos_emb, rotate_half's halves of the first rotary_dim columns;
// - ChatGLM3-6B (THUDM/chatglm3-6b modeling_chatglm.py, RotaryEmbedding(kv_channels // 2) and
//   apply_rotary_pos_emb: pairs (2i, 2i + 1) of the first 64 of 128 columns), a model_type posenc's
//   table lacks, read by Llama's rules as a guess: neither correct nor mistake against the guess.
// - Qwen3.5 (models/qwen3_5/modeling_qwen3_5.py, Qwen3_5TextRotaryEmbedding: partial_rotary_factor
//   0.25 of head_dim 256, apply_interleaved_mrope): its cos table, and AI-Hypercomputer/maxtext
//   PR#4742's, whose M-RoPE path dropped the factor (all 256 columns turned): rotary-dim, not a
//   refusal of the shape.
// Text positions 0..L-1 of an M-RoPE model are one position on every axis: its sections turn as one
// RoPE, whatever mrope_section.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <random>
#include <vector>

namespace tst_clideclaredmodels {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 256;
constexpr qint64 kHead = 128;

enum class Pairs { Interleaved, Half };

struct Pair
{
    std::vector<float> x, y;
};

// X random normal [kRows, kHead]; Y with the first `rotary` columns turned at row r by r * theta^(-2i /
// rotary), pairs (2i, 2i + 1) or (i, i + rotary / 2), the rest passed through.
Pair turned(double theta, qint64 rotary, Pairs pairs)
{
    std::mt19937 engine(37);
    std::normal_distribution<double> normal(0.0, 1.0);
    Pair p;
    for (qint64 r = 0; r < kRows; ++r) {
        std::vector<double> q(static_cast<std::size_t>(kHead));
        for (double &v : q)
            v = normal(engine);
        std::vector<double> y = q;
        for (qint64 i = 0; i < rotary / 2; ++i) {
            const double angle = double(r) * std::pow(theta, -2.0 * double(i) / double(rotary));
            const qint64 a = pairs == Pairs::Interleaved ? 2 * i : i;
            const qint64 b = pairs == Pairs::Interleaved ? 2 * i + 1 : i + rotary / 2;
            const double u = q[std::size_t(a)], v = q[std::size_t(b)];
            y[std::size_t(a)] = u * std::cos(angle) - v * std::sin(angle);
            y[std::size_t(b)] = v * std::cos(angle) + u * std::sin(angle);
        }
        for (qint64 j = 0; j < kHead; ++j) {
            p.x.push_back(float(q[std::size_t(j)]));
            p.y.push_back(float(y[std::size_t(j)]));
        }
    }
    return p;
}

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString text;

    QStringList mistakes() const
    {
        QStringList ids;
        for (const QJsonValue &v : json.value(u"mistakes"_s).toArray())
            ids.append(v.toString());
        return ids;
    }
    QString said() const { return u"exit %1: %2"_s.arg(exit).arg(text); }
};

// The text model's keys of GLM-4.1V-9B-Thinking's config.json (text_config): partial_rotary_factor
// 0.5 of head 4096 / 32, rope_scaling's mrope_section [8, 12, 12].
QJsonObject glm41v()
{
    const QJsonObject text {
        {u"model_type"_s, u"glm4v_text"_s},
        {u"hidden_size"_s, 4096},
        {u"num_attention_heads"_s, 32},
        {u"num_key_value_heads"_s, 2},
        {u"num_hidden_layers"_s, 40},
        {u"partial_rotary_factor"_s, 0.5},
        {u"rope_theta"_s, 10000},
        {u"max_position_embeddings"_s, 65536},
        {u"rope_scaling"_s, QJsonObject {{u"type"_s, u"default"_s}, {u"mrope_section"_s, QJsonArray {8, 12, 12}}}}};
    return {{u"model_type"_s, u"glm4v"_s}, {u"text_config"_s, text}};
}

// GLM-4.5V's (zai-org/GLM-4.5V config.json, text_config): head_dim 128, 96 heads.
QJsonObject glm45v()
{
    const QJsonObject text {
        {u"model_type"_s, u"glm4v_moe_text"_s},
        {u"hidden_size"_s, 4096},
        {u"num_attention_heads"_s, 96},
        {u"head_dim"_s, 128},
        {u"num_hidden_layers"_s, 46},
        {u"partial_rotary_factor"_s, 0.5},
        {u"rope_theta"_s, 10000.0},
        {u"max_position_embeddings"_s, 65536},
        {u"rope_scaling"_s,
         QJsonObject {{u"rope_type"_s, u"default"_s}, {u"mrope_section"_s, QJsonArray {8, 12, 12}}}}};
    return {{u"model_type"_s, u"glm4v_moe"_s}, {u"text_config"_s, text}};
}

// THUDM/chatglm3-6b's config.json, its position keys: kv_channels 128, no theta, no
// partial_rotary_factor (its code fixes both).
QJsonObject chatglm3()
{
    return {{u"model_type"_s, u"chatglm"_s}, {u"num_layers"_s, 28},          {u"hidden_size"_s, 4096},
            {u"kv_channels"_s, 128},         {u"num_attention_heads"_s, 32}, {u"seq_length"_s, 8192},
            {u"original_rope"_s, true},      {u"multi_query_group_num"_s, 2}};
}

// Qwen (v1)'s config.json keys as Qwen/Qwen-72B gives them (configuration_qwen.py's QWenConfig):
// kv_channels 128, rotary_pct 1.0, rotary_emb_base 1000000, no rope_theta. modeling_qwen.py's
// RotaryEmbedding(kv_channels, base=rotary_emb_base) turns rotate_half's halves of the whole head;
// use_dynamic_ntk and use_logn_attn change nothing within seq_length.
QJsonObject qwen72b()
{
    return {{u"model_type"_s, u"qwen"_s},        {u"architectures"_s, QJsonArray {u"QWenLMHeadModel"_s}},
            {u"hidden_size"_s, 8192},            {u"num_attention_heads"_s, 64},
            {u"num_hidden_layers"_s, 80},        {u"kv_channels"_s, 128},
            {u"rotary_emb_base"_s, 1000000},     {u"rotary_pct"_s, 1.0},
            {u"max_position_embeddings"_s, 32768}, {u"seq_length"_s, 32768},
            {u"use_dynamic_ntk"_s, true},        {u"use_logn_attn"_s, true}};
}

} // namespace

class CliDeclaredModels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked apply(const Pair &xy, const QJsonObject &config, const QString &flag = u"--config"_s, bool json = true)
    {
        const QString x = m_dir.filePath(u"x.npy"_s), y = m_dir.filePath(u"y.npy"_s);
        const QString c = m_dir.filePath(u"config.json"_s);
        QFile f(c);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(QJsonDocument(config).toJson()) <= 0)
            return {};
        f.close();
        if (!CliRun::writeNpy(x, kRows, kHead, xy.x) || !CliRun::writeNpy(y, kRows, kHead, xy.y))
            return {};
        QStringList arguments {u"check"_s, u"--apply"_s, x, y, flag, c};
        if (json)
            arguments.append(u"--json"_s);
        const CliRun::Run r = CliRun::posenc(arguments);
        return {r.exitCode, QJsonDocument::fromJson(r.out.toUtf8()).object(), r.out + r.err};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Qwen3.5's M-RoPE cos at a text prompt: rotary_dim 64, theta 1e7; the factor dropped, 256.
    void mropePartialDroppedIsRotaryDim()
    {
        const auto table = [](qint64 rotary) {
            return CliRun::cells(64, rotary, [rotary](qint64 p, qint64 j) {
                return std::cos(double(p) * std::pow(1e7, -2.0 * double(j % (rotary / 2)) / double(rotary)));
            });
        };
        const QStringList flags {
            u"--expect"_s,     u"mrope"_s,    u"--mrope-section"_s, u"11,11,10"_s, u"--mrope-interleaved"_s,
            u"--rope-theta"_s, u"10000000"_s, u"--head-dim"_s,      u"256"_s,      u"--partial-rotary-factor"_s,
            u"0.25"_s,         u"--prompt"_s, u"text:64"_s,         u"--json"_s,   u"--quiet"_s};
        for (const qint64 rotary : {64, 256}) {
            const QString path = m_dir.filePath(u"mrope_cos.npy"_s);
            QVERIFY(CliRun::writeNpy(path, 64, rotary, table(rotary)));
            const CliRun::Run r = CliRun::posenc(QStringList {u"check"_s, path} + flags);
            const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
            if (rotary == 64) {
                QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
                continue;
            }
            QVERIFY2(r.exitCode == 1 && o.value(u"mistakes"_s).toArray() == QJsonArray {u"rotary-dim"_s},
                     qPrintable(r.out + r.err));
            QVERIFY2(o.value(u"diagnosis"_s).toString().contains(u"rotary_dim 256"_s), qPrintable(r.out));
        }
    }

    // GLM-4.1V's own rotation is correct against its config, however declared; vLLM's NeoX pairs for
    // it (vllm-project/vllm#42016, fixed by PR #42765) are rope-layout.
    void glm41vInterleavedPartial()
    {
        const Pair hf = turned(10000.0, 64, Pairs::Interleaved);
        for (const QString &flag : {u"--config"_s, u"--expect-config"_s}) {
            const Checked c = apply(hf, glm41v(), flag);
            QVERIFY2(c.exit == 0, qPrintable(flag + u": "_s + c.said()));
        }
        const Checked bug = apply(turned(10000.0, 64, Pairs::Half), glm41v());
        QVERIFY2(bug.exit == 1 && bug.mistakes().contains(u"rope-layout"_s), qPrintable(bug.said()));
    }

    // GLM-4's cos table against its config (model_type glm4, partial_rotary_factor 0.5 of head 128):
    // transformers' models/glm4/modeling_glm4.py, Glm4RotaryEmbedding.forward returns cat(freqs,
    // freqs).cos() (the half layout), which apply_rotary_pos_emb interleaves (cos[..., :32]
    // .repeat_interleave(2)): both are the model's, correct; the table at theta 500000 is not.
    void glm4CosTableAsTheModuleReturnsIt()
    {
        const QJsonObject config {{u"model_type"_s, u"glm4"_s},     {u"hidden_size"_s, 4096},
                                  {u"num_attention_heads"_s, 32},   {u"num_key_value_heads"_s, 2},
                                  {u"head_dim"_s, 128},             {u"num_hidden_layers"_s, 40},
                                  {u"partial_rotary_factor"_s, 0.5}, {u"rope_theta"_s, 10000.0},
                                  {u"max_position_embeddings"_s, 32768}};
        const QString c = m_dir.filePath(u"glm4.json"_s);
        QFile f(c);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(config).toJson()) > 0);
        f.close();
        constexpr qint64 rotary = 64;
        const auto cosTable = [&](double theta, Pairs pairs) {
            std::vector<float> v;
            for (qint64 r = 0; r < kRows; ++r)
                for (qint64 j = 0; j < rotary; ++j) {
                    const qint64 i = pairs == Pairs::Half ? j % (rotary / 2) : j / 2;
                    v.push_back(float(std::cos(double(r) * std::pow(theta, -2.0 * double(i) / double(rotary)))));
                }
            return v;
        };
        const auto check = [&](const std::vector<float> &v, bool json = true) {
            const QString t = m_dir.filePath(u"cos.npy"_s);
            if (!CliRun::writeNpy(t, kRows, rotary, v))
                return Checked {};
            QStringList arguments {u"check"_s, t, u"--expect-config"_s, c};
            if (json)
                arguments.append(u"--json"_s);
            const CliRun::Run r = CliRun::posenc(arguments);
            return Checked {r.exitCode, QJsonDocument::fromJson(r.out.toUtf8()).object(), r.out + r.err};
        };
        for (const Pairs pairs : {Pairs::Half, Pairs::Interleaved}) {
            const Checked own = check(cosTable(10000.0, pairs));
            QVERIFY2(own.exit == 0 && own.json.value(u"verdict"_s).toString() == u"correct"_s, qPrintable(own.said()));
        }
        const Checked module = check(cosTable(10000.0, Pairs::Half), false);
        QVERIFY2(module.text.contains(u"cat(freqs, freqs)"_s), qPrintable(module.said()));
        const Checked theta = check(cosTable(500000.0, Pairs::Half));
        QVERIFY2(theta.exit == 1, qPrintable(theta.said()));
    }

    // GLM-4.5V's text attention turns rotate_half's halves: the same two tensors the other way round.
    void glm45vHalfPartial()
    {
        const Checked hf = apply(turned(10000.0, 64, Pairs::Half), glm45v());
        QVERIFY2(hf.exit == 0, qPrintable(hf.said()));
        const Checked other = apply(turned(10000.0, 64, Pairs::Interleaved), glm45v(), u"--expect-config"_s);
        QVERIFY2(other.exit == 1 && other.mistakes().contains(u"rope-layout"_s), qPrintable(other.said()));
    }

    // ChatGLM3's correct rotation against its config read by guess (Llama's pairs, the whole head):
    // unknown, the guessed numbers named; never "the config's partial_rotary_factor", which the
    // file does not hold. A rotation as the guess computes it is at most a variant.
    void guessedConfigDecidesNothingItGuessed()
    {
        const Checked own = apply(turned(10000.0, 64, Pairs::Interleaved), chatglm3());
        QVERIFY2(own.exit == 7, qPrintable(own.said()));
        QVERIFY2(own.mistakes().isEmpty(), qPrintable(own.said()));
        const QString diagnosis = own.json.value(u"diagnosis"_s).toString();
        QVERIFY2(diagnosis.contains(u"rope_layout (guess"_s) && diagnosis.contains(u"rotary_dim (guess"_s),
                 qPrintable(diagnosis));
        QVERIFY2(!own.text.contains(u"the config's partial_rotary_factor"_s), qPrintable(own.text));
        const Checked asGuessed = apply(turned(10000.0, 128, Pairs::Half), chatglm3(), u"--expect-config"_s);
        QVERIFY2(asGuessed.exit == 5, qPrintable(asGuessed.said()));
    }

    // A guessed model whose theta is a key of its file: a rotation at another theta is still the
    // mistake that key decides (the layout guessed agrees with the rotation's).
    void guessedConfigKeepsWhatItsKeysDecide()
    {
        QJsonObject config {{u"model_type"_s, u"unknown_rope_text"_s},
                            {u"hidden_size"_s, 4096},
                            {u"num_attention_heads"_s, 32},
                            {u"rope_theta"_s, 500000.0},
                            {u"num_hidden_layers"_s, 2},
                            {u"max_position_embeddings"_s, 8192}};
        const Checked c = apply(turned(10000.0, 128, Pairs::Half), config);
        QVERIFY2(c.exit == 1 && c.mistakes() == QStringList {u"rope-theta"_s}, qPrintable(c.said()));
        const Checked lines = apply(turned(10000.0, 128, Pairs::Half), config, u"--config"_s, false);
        QVERIFY2(lines.text.contains(u"rests only on numbers it holds: rope_theta (key rope_theta)"_s),
                 qPrintable(lines.text));
    }

    // Qwen (v1): rotary_emb_base is its theta (QWenModel's RotaryEmbedding(dim, base=rotary_emb_base)),
    // read by the model's own rule, not by guess: its rotation is correct, one at LlamaConfig's default
    // 10000 (NVIDIA/TensorRT-LLM#785) is rope-theta with both values.
    void qwenReadsRotaryEmbBase()
    {
        const Checked own = apply(turned(1e6, 128, Pairs::Half), qwen72b(), u"--expect-config"_s);
        QVERIFY2(own.exit == 0, qPrintable(own.said()));
        const Checked bug = apply(turned(10000.0, 128, Pairs::Half), qwen72b(), u"--expect-config"_s);
        QVERIFY2(bug.exit == 1 && bug.mistakes().contains(u"rope-theta"_s), qPrintable(bug.said()));
        QVERIFY2(!bug.text.contains(u"a guess"_s), qPrintable(bug.said()));
        QJsonObject partial = qwen72b();
        partial.insert(u"rotary_pct"_s, 0.5); // rotary_ndims = int(kv_channels * rotary_pct) = 64
        const Checked half = apply(turned(1e6, 64, Pairs::Half), partial, u"--expect-config"_s);
        QVERIFY2(half.exit == 0, qPrintable(half.said()));
    }
};

POSENC_TEST_GUILESS_MAIN(CliDeclaredModels)
} // namespace tst_clideclaredmodels
#include "tst_clideclaredmodels.moc"
