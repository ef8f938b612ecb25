// Which parameters the current settings ignore: every claim of ParamUse::idle is checked against
// the engine's tables. An idle parameter changes no cell of any table; a parameter said to matter
// changes some cell for some other value, so the window never disables a control that would do
// something, nor leaves one enabled that does nothing.
#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/ParamUse.h"
#include "core/rope/RopeFrequencies.h"

#include <QTest>

#include <cstring>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

const QString kCustomScale = QString::fromUtf16(ParamUse::kCustomScale);
const QString kCustomSigma = QString::fromUtf16(ParamUse::kCustomSigma);

std::shared_ptr<const EmbeddingMatrix> matrix(std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = RowMatrixXf::NullaryExpr(rows, cols, [](Eigen::Index r, Eigen::Index c) {
        return 0.5f + 0.01f * static_cast<float>(r) - 0.02f * static_cast<float>(c);
    });
    m->source = u"test.npy"_s;
    return m;
}

Params with(Params p, const QString &key, const QString &text)
{
    if (const auto error = ParamText::set(p, key, text))
        qFatal("%s", qPrintable(error->sentence()));
    return p;
}

Params small()
{
    Params p;
    p.dModel = 12;
    p.maxLen = 16;
    p.dropout = 0.4;
    return p;
}

Params loaded(Params p)
{
    p.embeddings = matrix(p.maxLen, p.embeddingColumns());
    return p;
}

// RoPE with a head of 8 (4 pairs) within d_model 12, and each rope-type in a setting where its
// parameters change its frequencies.
Params rope(const QList<std::pair<QString, QString>> &values)
{
    Params p = with(with(small(), u"encoding"_s, u"rope"_s), u"head-dim"_s, u"8"_s);
    for (const auto &[key, text] : values)
        p = with(p, key, text);
    return p;
}

QList<std::pair<QString, Params>> ropeSettings()
{
    return {
        // The factor is idle under default, and makes linear a valid other type.
        {u"rope default"_s, rope({{u"rope-factor"_s, u"2"_s}})},
        {u"rope yarn"_s,
         rope({{u"rope-type"_s, u"yarn"_s},
               {u"rope-factor"_s, u"4"_s},
               {u"original-max-len"_s, u"4096"_s},
               {u"mscale-all-dim"_s, u"1"_s}})},
        {u"rope yarn, attention factor given"_s,
         rope({{u"rope-type"_s, u"yarn"_s},
               {u"rope-factor"_s, u"4"_s},
               {u"original-max-len"_s, u"4096"_s},
               {u"attention-factor"_s, u"1.2"_s}})},
        {u"rope llama3"_s,
         rope({{u"rope-type"_s, u"llama3"_s}, {u"rope-factor"_s, u"4"_s}, {u"original-max-len"_s, u"8"_s}})},
        {u"rope longrope, short"_s,
         rope({{u"rope-type"_s, u"longrope"_s},
               {u"rope-factor"_s, u"4"_s},
               {u"original-max-len"_s, u"32"_s},
               {u"short-factor"_s, u"1,2,3,4"_s},
               {u"long-factor"_s, u"1,1,1,1"_s}})},
        {u"rope longrope, long"_s,
         rope({{u"rope-type"_s, u"longrope"_s},
               {u"rope-factor"_s, u"4"_s},
               {u"original-max-len"_s, u"8"_s},
               {u"short-factor"_s, u"1,2,3,4"_s},
               {u"long-factor"_s, u"1,1,1,1"_s}})},
        {u"rope dynamic"_s,
         rope({{u"rope-type"_s, u"dynamic"_s}, {u"rope-factor"_s, u"3"_s}, {u"original-max-len"_s, u"8"_s}})},
        {u"rope proportional"_s, rope({{u"rope-type"_s, u"proportional"_s}, {u"partial-rotary-factor"_s, u"0.5"_s}})},
    };
}

// ALiBi, T5 and DeBERTa, each with spans that 16 positions reach past their exact buckets; Sandwich.
QList<std::pair<QString, Params>> biasSettings()
{
    const Params alibi = with(with(with(small(), u"encoding"_s, u"alibi"_s), u"heads"_s, u"12"_s), u"head"_s, u"3"_s);
    const Params t5
        = with(with(with(small(), u"encoding"_s, u"t5"_s), u"t5-buckets"_s, u"8"_s), u"t5-max-distance"_s, u"12"_s);
    const Params deberta = with(with(with(small(), u"encoding"_s, u"deberta"_s), u"deberta-buckets"_s, u"8"_s),
                                u"deberta-max-position"_s, u"12"_s);
    const Params sandwich = with(with(with(with(small(), u"encoding"_s, u"sandwich"_s), u"sandwich-heads"_s, u"12"_s),
                                      u"sandwich-head"_s, u"3"_s),
                                 u"sandwich-head-dim"_s, u"6"_s);
    return {
        {u"alibi"_s, alibi},
        {u"alibi symmetric"_s, with(alibi, u"alibi"_s, u"symmetric"_s)},
        {u"t5"_s, t5},
        {u"t5 causal"_s, with(t5, u"t5-causal"_s, u"true"_s)},
        {u"deberta"_s, deberta},
        {u"sandwich"_s, sandwich},
        {u"sandwich bidirectional"_s, with(sandwich, u"sandwich-mask"_s, u"bidirectional"_s)},
        {u"sandwich odd d"_s, with(sandwich, u"sandwich-head-dim"_s, u"5"_s)},
    };
}

// M-RoPE (a head of 8, interleaved so that a head of 4 keeps its section valid), 2-D RoPE in each
// style and the 2-D sin-cos table, each small, with a prompt whose video has grids for the eras
// and the temporal rules to tell apart.
QList<std::pair<QString, Params>> visionSettings()
{
    // rope-factor, idle under the default type, makes linear a valid other type.
    Params mrope = with(
        with(with(with(small(), u"encoding"_s, u"mrope"_s), u"head-dim"_s, u"8"_s), u"mrope-section"_s, u"1,1,2"_s),
        u"mrope-interleaved"_s, u"true"_s);
    mrope = with(with(mrope, u"prompt"_s, u"text:2,image:1x4x2,text:1,video:3x2x4,text:2"_s), u"rope-factor"_s, u"2"_s);
    const Params rope2d
        = with(with(with(with(small(), u"encoding"_s, u"rope-2d"_s), u"head-dim"_s, u"8"_s), u"grid"_s, u"4,6"_s),
               u"patch"_s, u"1,2"_s);
    const Params sincos = with(with(small(), u"encoding"_s, u"sincos-2d"_s), u"grid"_s, u"4,4"_s);
    return {
        {u"mrope qwen2-vl"_s, mrope},
        {u"mrope qwen2.5-vl"_s, with(mrope, u"vision-positions"_s, u"qwen2.5-vl"_s)},
        {u"mrope qwen3-vl"_s, with(mrope, u"vision-positions"_s, u"qwen3-vl"_s)},
        {u"rope-2d qwen-vit"_s, rope2d},
        {u"rope-2d pixtral"_s, with(rope2d, u"rope-2d-style"_s, u"pixtral"_s)},
        {u"rope-2d flux"_s,
         with(with(with(rope2d, u"head-dim"_s, u"12"_s), u"axes-dim"_s, u"2,2,8"_s), u"rope-2d-style"_s, u"flux"_s)},
        {u"rope-2d axial"_s, with(rope2d, u"rope-2d-style"_s, u"axial"_s)},
        {u"sincos-2d"_s, sincos},
        {u"sincos-2d diffusers"_s, with(sincos, u"base-size"_s, u"8"_s)},
    };
}

// Settings where parameters start or stop to matter.
QList<std::pair<QString, Params>> settings()
{
    const Params base = small();
    const Params concat = with(base, u"compose"_s, u"concat"_s);
    const Params protect = with(base, u"dropout-mode"_s, u"protect-special"_s);
    const Params maskedFill = with(with(base, u"dropout-mode"_s, u"masked-fill"_s), u"seq-len"_s, u"9"_s);
    Params custom = with(with(base, u"scale"_s, u"1.5"_s), u"init"_s, u"0.5"_s);
    const QList<std::pair<QString, Params>> list = {
        {u"defaults"_s, base},
        {u"evaluation"_s, with(base, u"eval"_s, u"true"_s)},
        {u"p = 0"_s, with(base, u"dropout"_s, u"0"_s)},
        {u"p = 1"_s, with(base, u"dropout"_s, u"1"_s)},
        {u"embedding mode"_s, with(base, u"dropout-mode"_s, u"embedding"_s)},
        {u"concat k 4"_s, with(concat, u"pe-dims"_s, u"4"_s)},
        {u"concat k = d"_s, with(concat, u"pe-dims"_s, u"12"_s)},
        {u"concat k 0"_s, with(concat, u"pe-dims"_s, u"0"_s)},
        {u"masked-fill"_s, maskedFill},
        {u"masked-fill evaluation"_s, with(maskedFill, u"eval"_s, u"true"_s)},
        {u"protect-special"_s, protect},
        {u"protect-special evaluation"_s, with(protect, u"eval"_s, u"true"_s)},
        {u"protect-special p = 0"_s, with(protect, u"dropout"_s, u"0"_s)},
        {u"protect-special from the start"_s, with(protect, u"special"_s, u"0,3"_s)},
        {u"custom scale and sigma"_s, custom},
        {u"float32 split"_s, with(with(base, u"angles"_s, u"float32"_s), u"layout"_s, u"split"_s)},
        {u"diffusers' order"_s, with(with(base, u"layout"_s, u"split"_s), u"flip-sin-to-cos"_s, u"true"_s)},
        {u"loaded matrix"_s, loaded(base)},
        {u"loaded matrix, evaluation"_s, loaded(with(base, u"eval"_s, u"true"_s))},
        {u"loaded matrix, p = 1"_s, loaded(with(base, u"dropout"_s, u"1"_s))},
    };
    return list + ropeSettings() + biasSettings() + visionSettings();
}

// Other values of each key, as a change of the control would make them.
QList<Params> alternatives(const Params &p, const QString &key)
{
    QList<Params> out;
    if (key == kCustomScale) {
        Params q = p;
        q.customScale += 1.0;
        return {q};
    }
    if (key == kCustomSigma) {
        Params q = p;
        q.customSigma += 0.25;
        return {q};
    }
    static const QHash<QString, QStringList> values = {
        {u"d-model"_s, {u"16"_s, u"8"_s}},
        {u"max-len"_s, {u"12"_s, u"20"_s}},
        {u"base"_s, {u"500"_s, u"10000"_s}},
        {u"layout"_s, {u"split"_s, u"interleaved"_s}},
        {u"angles"_s, {u"float32"_s, u"exact"_s}},
        {u"flip-sin-to-cos"_s, {u"true"_s, u"false"_s}},
        {u"freq-shift"_s, {u"1"_s, u"0"_s}},
        {u"timestep-scale"_s, {u"1000"_s, u"1"_s}},
        {u"scale"_s, {u"2.5"_s, u"sqrt"_s}},
        {u"init"_s, {u"0.3"_s, u"normal"_s}},
        {u"compose"_s, {u"concat"_s, u"sum"_s}},
        {u"pe-dims"_s, {u"6"_s, u"4"_s}},
        {u"dropout"_s, {u"0.7"_s, u"0.4"_s}},
        {u"dropout-mode"_s, {u"sum"_s, u"embedding"_s, u"pe"_s, u"protect-special"_s, u"masked-fill"_s}},
        {u"special"_s, {u"1,2"_s, u"0,-1"_s}},
        {u"seq-len"_s, {u"5"_s, u"auto"_s}},
        {u"seed"_s, {u"7"_s, u"0"_s}},
        {u"eval"_s, {u"true"_s, u"false"_s}},
        {u"head-dim"_s, {u"4"_s, u"8"_s}},
        {u"rope-theta"_s, {u"500"_s, u"10000"_s}},
        {u"partial-rotary-factor"_s, {u"0.5"_s, u"1"_s}},
        {u"rope-type"_s,
         {u"default"_s, u"linear"_s, u"dynamic"_s, u"yarn"_s, u"longrope"_s, u"llama3"_s, u"proportional"_s}},
        {u"rope-factor"_s, {u"2"_s, u"3"_s, u"unset"_s}},
        {u"original-max-len"_s, {u"4"_s, u"32"_s, u"unset"_s}},
        {u"low-freq-factor"_s, {u"0.5"_s, u"1"_s}},
        {u"high-freq-factor"_s, {u"2"_s, u"4"_s}},
        {u"beta-fast"_s, {u"4"_s, u"32"_s}},
        {u"beta-slow"_s, {u"8"_s, u"1"_s}},
        {u"yarn-truncate"_s, {u"false"_s, u"true"_s}},
        {u"mscale"_s, {u"0.5"_s, u"unset"_s}},
        {u"mscale-all-dim"_s, {u"0.5"_s, u"unset"_s}},
        {u"attention-factor"_s, {u"1.5"_s, u"unset"_s}},
        {u"short-factor"_s, {u"1,1.5,2,2.5"_s, u"1,2,3,4"_s}},
        {u"long-factor"_s, {u"2,2,2,2"_s, u"1,1,1,1"_s}},
        {u"heads"_s, {u"6"_s, u"12"_s}},
        {u"head"_s, {u"2"_s, u"3"_s}},
        {u"alibi"_s, {u"symmetric"_s, u"causal"_s}},
        {u"t5-buckets"_s, {u"12"_s, u"8"_s}},
        {u"t5-max-distance"_s, {u"20"_s, u"12"_s}},
        {u"t5-causal"_s, {u"true"_s, u"false"_s}},
        {u"deberta-buckets"_s, {u"6"_s, u"8"_s}},
        {u"deberta-max-position"_s, {u"20"_s, u"12"_s, u"1024"_s}},
        {u"sandwich-heads"_s, {u"6"_s, u"12"_s}},
        {u"sandwich-head"_s, {u"2"_s, u"3"_s}},
        {u"sandwich-head-dim"_s, {u"8"_s, u"6"_s, u"5"_s}},
        {u"sandwich-mask"_s, {u"bidirectional"_s, u"causal"_s}},
        {u"mrope-section"_s, {u"1,1,2"_s, u"1,0,3"_s}},
        {u"mrope-interleaved"_s, {u"false"_s, u"true"_s}},
        {u"vision-positions"_s, {u"qwen2-vl"_s, u"qwen2.5-vl"_s, u"qwen3-vl"_s}},
        {u"mrope-era"_s, {u"v5"_s, u"v4"_s}},
        {u"spatial-merge-size"_s, {u"1"_s, u"2"_s}},
        {u"prompt"_s, {u"text:3,image:1x2x2"_s, u"text:2,image:1x4x2,text:1,video:3x2x4,text:2"_s}},
        {u"tokens-per-second"_s, {u"4"_s, u"2"_s}},
        {u"second-per-grid"_s, {u"0.5"_s, u"1"_s}},
        {u"timestamp-tokens"_s, {u"3"_s, u"6"_s}},
        {u"rope-2d-style"_s, {u"qwen-vit"_s, u"pixtral"_s, u"axial"_s}},
        {u"axes-dim"_s, {u"2,4,6"_s, u"2,2,8"_s}},
        {u"patch"_s, {u"0,0"_s, u"1,2"_s}},
        {u"grid"_s, {u"4,6"_s, u"6,4"_s, u"4,4"_s}},
        {u"cls-token"_s, {u"true"_s, u"false"_s}},
        {u"base-size"_s, {u"8"_s, u"unset"_s}},
        {u"interpolation-scale"_s, {u"2"_s, u"1"_s}},
    };
    for (const QString &text : values.value(key)) {
        Params q = with(p, key, text);
        // A loaded matrix fixes d_model to its columns plus the PE's, as the window sets it.
        if (p.embeddings && key == u"compose"_s)
            q.dModel = q.compose == Compose::Concat ? 2 * p.embeddings->values.cols() : p.embeddings->values.cols();
        // A longrope head of another rotary dim comes with factor lists of its length.
        if (q.rope.type == RopeType::LongRope && (key == u"head-dim"_s || key == u"partial-rotary-factor"_s)) {
            const auto pairs = static_cast<std::size_t>(RopeFrequencies::pairs(q.rope));
            q.rope.shortFactor.resize(pairs, 1.5);
            q.rope.longFactor.resize(pairs, 1.5);
        }
        // FLUX's axes fill the head: another head comes with axes of its size. The 2-D sin-cos
        // table splits its columns in four: concat gives it 4.
        if (q.encoding == Encoding::Rope2d && q.rope2d.style == Rope2dStyle::Flux && key == u"head-dim"_s)
            q.rope2d.axesDim = {2, 2, q.rope.headDim - 4};
        if (q.encoding == Encoding::Sincos2d && key == u"compose"_s && q.compose == Compose::Concat)
            q.peDims = 4;
        if (!(q == p))
            out.append(q);
    }
    return out;
}

QStringList keys()
{
    return {u"d-model"_s,
            u"max-len"_s,
            u"base"_s,
            u"layout"_s,
            u"angles"_s,
            u"flip-sin-to-cos"_s,
            u"freq-shift"_s,
            u"timestep-scale"_s,
            u"scale"_s,
            kCustomScale,
            u"init"_s,
            kCustomSigma,
            u"compose"_s,
            u"pe-dims"_s,
            u"dropout"_s,
            u"dropout-mode"_s,
            u"special"_s,
            u"seq-len"_s,
            u"seed"_s,
            u"eval"_s,
            u"head-dim"_s,
            u"rope-theta"_s,
            u"partial-rotary-factor"_s,
            u"rope-type"_s,
            u"rope-factor"_s,
            u"original-max-len"_s,
            u"low-freq-factor"_s,
            u"high-freq-factor"_s,
            u"beta-fast"_s,
            u"beta-slow"_s,
            u"yarn-truncate"_s,
            u"mscale"_s,
            u"mscale-all-dim"_s,
            u"attention-factor"_s,
            u"short-factor"_s,
            u"long-factor"_s,
            u"heads"_s,
            u"head"_s,
            u"alibi"_s,
            u"t5-buckets"_s,
            u"t5-max-distance"_s,
            u"t5-causal"_s,
            u"deberta-buckets"_s,
            u"deberta-max-position"_s,
            u"sandwich-heads"_s,
            u"sandwich-head"_s,
            u"sandwich-head-dim"_s,
            u"sandwich-mask"_s,
            u"mrope-section"_s,
            u"mrope-interleaved"_s,
            u"vision-positions"_s,
            u"mrope-era"_s,
            u"spatial-merge-size"_s,
            u"prompt"_s,
            u"tokens-per-second"_s,
            u"second-per-grid"_s,
            u"timestamp-tokens"_s,
            u"rope-2d-style"_s,
            u"axes-dim"_s,
            u"patch"_s,
            u"grid"_s,
            u"cls-token"_s,
            u"base-size"_s,
            u"interpolation-scale"_s};
}

// Whether RoPE's frequencies differ: what its tables turn by (the frequencies, yarn's ramp or
// llama3's bands, the attention factor) and what scales q·k besides (the softmax scale factor).
bool ropeDiffers(const Params &a, const Params &b)
{
    if (a.encoding != Encoding::Rope && b.encoding != Encoding::Rope)
        return false;
    if (a.encoding != b.encoding)
        return true;
    const RopeFrequencies::Table ta = RopeFrequencies::table(a);
    const RopeFrequencies::Table tb = RopeFrequencies::table(b);
    return ta.inv != tb.inv || ta.band != tb.band || ta.attentionFactor != tb.attentionFactor
        || RopeFrequencies::describe(a).softmaxScaleFactor != RopeFrequencies::describe(b).softmaxScaleFactor;
}

// Whether any table differs between the two parameter sets.
bool tablesDiffer(const Params &a, const Params &b)
{
    if (ropeDiffers(a, b))
        return true;
    const QList<Quantity> quantities = Quantities::available(a);
    if (quantities != Quantities::available(b))
        return true;
    const Engine ea(a);
    const Engine eb(b);
    for (const Quantity q : quantities) {
        const Shape shape = ea.shape(q);
        if (!(shape == eb.shape(q)))
            return true;
        if (shape.rows == 0 || shape.cols == 0)
            continue;
        const auto ta = ea.table(q, {0, shape.rows, 0, shape.cols});
        const auto tb = eb.table(q, {0, shape.rows, 0, shape.cols});
        if (std::memcmp(ta->data(), tb->data(), sizeof(float) * std::size_t(ta->size())) != 0)
            return true;
    }
    return false;
}

// Controls that are never disabled because other controls hang on them, at values where they
// happen to change nothing: the evaluation switch when p = 0 drops nothing anyway, and the dropout
// mode when nothing is dropped and no padding row exists for masked-fill to zero.
bool inertButNeverDisabled(const Params &p, const QString &key)
{
    const bool drops = p.training && p.dropout > 0.0;
    const bool padding = p.sequenceLength() < p.maxLen;
    if (key == u"eval"_s)
        return p.dropout == 0.0 && !(p.dropoutMode == DropoutMode::MaskedFill && padding);
    if (key == u"dropout-mode"_s)
        return !drops && !padding;
    return false;
}

} // namespace

class TestParamUse : public QObject
{
    Q_OBJECT

private slots:
    void idleParametersChangeNoCell_data();
    void idleParametersChangeNoCell();
    void documentedCases_data();
    void documentedCases();
    void whatTheSeedDraws();
};

void TestParamUse::idleParametersChangeNoCell_data()
{
    QTest::addColumn<Params>("setting");
    QTest::addColumn<QString>("key");
    for (const auto &[name, setting] : settings()) {
        QVERIFY2(setting.isValid(), qPrintable(name));
        for (const QString &key : keys())
            QTest::newRow(qPrintable(name + u": "_s + key)) << setting << key;
    }
}

void TestParamUse::idleParametersChangeNoCell()
{
    QFETCH(Params, setting);
    QFETCH(QString, key);
    const auto idle = ParamUse::idle(setting, key);
    QList<Params> valid;
    for (const Params &changed : alternatives(setting, key)) {
        if (changed.isValid())
            valid.append(changed);
    }
    if (idle == ParamUse::Idle::SetByMatrix) {
        // The matrix fixes d_model: no other value is valid.
        QVERIFY(valid.isEmpty());
        return;
    }
    QVERIFY2(!valid.isEmpty(), "no valid other value to try");
    if (idle) {
        for (const Params &changed : valid)
            QVERIFY2(!tablesDiffer(setting, changed), "said to be idle, but a cell changed");
        return;
    }
    if (inertButNeverDisabled(setting, key))
        return;
    const bool changes
        = std::any_of(valid.begin(), valid.end(), [&](const Params &c) { return tablesDiffer(setting, c); });
    QVERIFY2(changes, "said to matter, but no other value changed a cell");
}

void TestParamUse::documentedCases_data()
{
    QTest::addColumn<Params>("setting");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("expected"); // an Idle, or -1 for none
    const Params base = small();
    const auto row = [](const char *name, const Params &p, const QString &key, std::optional<ParamUse::Idle> idle) {
        QTest::newRow(name) << p << key << (idle ? static_cast<int>(*idle) : -1);
    };
    using I = ParamUse::Idle;
    const Params evaluation = with(base, u"eval"_s, u"true"_s);
    row("eval: p", evaluation, u"dropout"_s, I::EvaluationMode);
    row("eval: dropout mode stays", evaluation, u"dropout-mode"_s, std::nullopt);
    row("eval: seed draws E", evaluation, u"seed"_s, std::nullopt);
    row("eval, matrix: seed", loaded(evaluation), u"seed"_s, I::NothingRandom);
    row("sum: special", base, u"special"_s, I::NotProtectSpecial);
    row("sum: seq_len", base, u"seq-len"_s, I::NoRowsToResolve);
    row("masked-fill: seq_len", with(base, u"dropout-mode"_s, u"masked-fill"_s), u"seq-len"_s, std::nullopt);
    row("masked-fill eval: seq_len", with(with(base, u"dropout-mode"_s, u"masked-fill"_s), u"eval"_s, u"true"_s),
        u"seq-len"_s, std::nullopt);
    const Params protect = with(base, u"dropout-mode"_s, u"protect-special"_s);
    row("protect-special: special", protect, u"special"_s, std::nullopt);
    row("protect-special: seq_len for -1", protect, u"seq-len"_s, std::nullopt);
    row("protect-special 0,3: seq_len", with(protect, u"special"_s, u"0,3"_s), u"seq-len"_s, I::NoRowsToResolve);
    row("protect-special eval: special", with(protect, u"eval"_s, u"true"_s), u"special"_s, I::EvaluationMode);
    row("protect-special p 0: special", with(protect, u"dropout"_s, u"0"_s), u"special"_s, I::NothingDropped);
    row("sum: pe_dims", base, u"pe-dims"_s, I::NotConcat);
    row("concat: pe_dims", with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, std::nullopt);
    row("sqrt: custom scale", base, kCustomScale, I::NotCustomScale);
    row("normal: custom sigma", base, kCustomSigma, I::NotCustomInit);
    row("matrix: init", loaded(base), u"init"_s, I::EmbeddingsFromFile);
    row("matrix: custom sigma", loaded(with(base, u"init"_s, u"0.5"_s)), kCustomSigma, I::EmbeddingsFromFile);
    row("matrix: d_model", loaded(base), u"d-model"_s, I::SetByMatrix);
    row("matrix: scale matters", loaded(base), u"scale"_s, std::nullopt);
    const Params allPe = with(with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, u"12"_s);
    row("concat k = d: scale", allPe, u"scale"_s, I::NoEmbeddingColumns);
    row("concat k = d: init", allPe, u"init"_s, I::NoEmbeddingColumns);
    const Params noPe = with(with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, u"0"_s);
    for (const char *key : {"base", "layout", "angles", "freq-shift", "timestep-scale"})
        row(qPrintable(u"concat k 0: "_s + QString::fromLatin1(key)), noPe, QString::fromLatin1(key), I::NoPeColumns);
    for (const char *key : {"max-len", "compose", "dropout-mode", "eval", "base", "layout", "angles", "freq-shift"})
        row(qPrintable(u"defaults: "_s + QString::fromLatin1(key)), base, QString::fromLatin1(key), std::nullopt);
    row("interleaved: flip_sin_to_cos", base, u"flip-sin-to-cos"_s, I::FamilySetting); // split only
    row("split: flip_sin_to_cos", with(base, u"layout"_s, u"split"_s), u"flip-sin-to-cos"_s, std::nullopt);

    // RoPE's parameters: another encoding, a rope-type that does not read them, and the readings
    // that leave one aside.
    row("sinusoidal: head_dim", base, u"head-dim"_s, I::OtherEncoding);
    row("sinusoidal: rope-type", base, u"rope-type"_s, I::OtherEncoding);
    const Params ropeDefault = rope({});
    row("rope: head_dim", ropeDefault, u"head-dim"_s, std::nullopt);
    row("rope: base", ropeDefault, u"base"_s, I::OtherEncoding);
    row("rope: compose", ropeDefault, u"compose"_s, I::NoPositionTerm);
    row("rope: pe_dims", ropeDefault, u"pe-dims"_s, I::NoPositionTerm);
    row("rope default: factor", ropeDefault, u"rope-factor"_s, I::OtherRopeType);
    row("rope default: beta_fast", ropeDefault, u"beta-fast"_s, I::OtherRopeType);
    const auto settingNamed = [](const QString &name) {
        for (const auto &[n, p] : ropeSettings()) {
            if (n == name)
                return p;
        }
        return Params {};
    };
    const Params yarn = settingNamed(u"rope yarn"_s);
    row("yarn: mscale beside mscale_all_dim", yarn, u"mscale"_s, std::nullopt);
    row("yarn: mscale alone", with(yarn, u"mscale-all-dim"_s, u"unset"_s), u"mscale"_s, I::NoMscaleAllDim);
    row("yarn: mscale beside a zero mscale_all_dim", with(yarn, u"mscale-all-dim"_s, u"0"_s), u"mscale"_s,
        I::NoMscaleAllDim);
    row("yarn, attention factor: mscale", settingNamed(u"rope yarn, attention factor given"_s), u"mscale"_s,
        I::ExplicitAttentionFactor);
    row("yarn: llama3's low factor", yarn, u"low-freq-factor"_s, I::OtherRopeType);
    const Params shortSide = settingNamed(u"rope longrope, short"_s);
    row("longrope within L0: short factor", shortSide, u"short-factor"_s, std::nullopt);
    row("longrope within L0: long factor", shortSide, u"long-factor"_s, I::OtherFactorList);
    row("longrope past L0: short factor", settingNamed(u"rope longrope, long"_s), u"short-factor"_s,
        I::OtherFactorList);
    row("longrope: factor", shortSide, u"rope-factor"_s, std::nullopt);
    row("longrope, attention factor: factor", with(shortSide, u"attention-factor"_s, u"1.1"_s), u"rope-factor"_s,
        I::ExplicitAttentionFactor);
    row("proportional: factor", settingNamed(u"rope proportional"_s), u"rope-factor"_s, std::nullopt);

    // ALiBi's, T5's and DeBERTa's parameters: read under their own encoding only.
    QHash<QString, Params> bias;
    for (const auto &[name, p] : biasSettings())
        bias.insert(name, p);
    for (const char *key : {"heads", "head", "alibi"}) {
        const QString k = QString::fromLatin1(key);
        row(qPrintable(u"alibi: "_s + k), bias.value(u"alibi"_s), k, std::nullopt);
        row(qPrintable(u"sinusoidal: "_s + k), base, k, I::OtherEncoding);
        row(qPrintable(u"t5: "_s + k), bias.value(u"t5"_s), k, I::OtherEncoding);
    }
    for (const char *key : {"t5-buckets", "t5-max-distance", "t5-causal"}) {
        const QString k = QString::fromLatin1(key);
        row(qPrintable(u"t5: "_s + k), bias.value(u"t5"_s), k, std::nullopt);
        row(qPrintable(u"t5 causal: "_s + k), bias.value(u"t5 causal"_s), k, std::nullopt);
        row(qPrintable(u"deberta: "_s + k), bias.value(u"deberta"_s), k, I::OtherEncoding);
    }
    for (const char *key : {"deberta-buckets", "deberta-max-position"}) {
        const QString k = QString::fromLatin1(key);
        row(qPrintable(u"deberta: "_s + k), bias.value(u"deberta"_s), k, std::nullopt);
        row(qPrintable(u"alibi: "_s + k), bias.value(u"alibi"_s), k, I::OtherEncoding);
        row(qPrintable(u"rope: "_s + k), ropeDefault, k, I::OtherEncoding);
    }
    for (const char *key : {"sandwich-heads", "sandwich-head", "sandwich-head-dim", "sandwich-mask"}) {
        const QString k = QString::fromLatin1(key);
        row(qPrintable(u"sandwich: "_s + k), bias.value(u"sandwich"_s), k, std::nullopt);
        row(qPrintable(u"sandwich bidirectional: "_s + k), bias.value(u"sandwich bidirectional"_s), k, std::nullopt);
        row(qPrintable(u"alibi: "_s + k), bias.value(u"alibi"_s), k, I::OtherEncoding);
        row(qPrintable(u"sinusoidal: "_s + k), base, k, I::OtherEncoding);
    }
    for (const auto &[name, p] : biasSettings()) {
        row(qPrintable(name + u": compose"_s), p, u"compose"_s, I::NoPositionTerm);
        row(qPrintable(name + u": base"_s), p, u"base"_s, I::OtherEncoding);
        row(qPrintable(name + u": head_dim"_s), p, u"head-dim"_s, I::OtherEncoding);
    }
}

void TestParamUse::documentedCases()
{
    QFETCH(Params, setting);
    QFETCH(QString, key);
    QFETCH(int, expected);
    const auto idle = ParamUse::idle(setting, key);
    QCOMPARE(idle ? static_cast<int>(*idle) : -1, expected);
}

void TestParamUse::whatTheSeedDraws()
{
    Params p = small();
    QVERIFY(ParamUse::drawsEmbeddings(p) && ParamUse::drawsMask(p));
    p.training = false;
    QVERIFY(ParamUse::drawsEmbeddings(p) && !ParamUse::drawsMask(p));
    p.training = true;
    p.dropout = 1.0; // every cell dropped whatever the draw
    QVERIFY(!ParamUse::drawsMask(p));
    p.dropout = 0.0;
    QVERIFY(!ParamUse::drawsMask(p));
    p = loaded(small());
    QVERIFY(!ParamUse::drawsEmbeddings(p) && ParamUse::drawsMask(p));
}

QTEST_GUILESS_MAIN(TestParamUse)
#include "tst_paramuse.moc"
