// RoPE's test record (tests/support/TestFamily.h): its cosines against the float64 frequencies of
// support/RopeReference.h (HF transformers' modeling_rope_utils.py).
#include "core/rope/RopeFrequencies.h"

#include "support/RopeReference.h"
#include "support/TestFamily.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// cos(p w_k) times the attention factor, pair k of column `column` in the head's layout.
ReferenceCell cosine(const posenc::Params &p, std::int64_t row, std::int64_t column)
{
    const std::vector<double> inv = roperef::inv(p);
    const auto h = std::int64_t(inv.size());
    const std::int64_t pair = p.rope.layout == posenc::RopeLayout::Half ? column % h : column / 2;
    return {roperef::attentionFactor(p) * std::cos(double(row) * inv[std::size_t(pair)]), 1e-6};
}

Params rope(RopeType type, std::int64_t headDim, double theta, std::int64_t L)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.type = type;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.maxLen = L;
    return p;
}

// Every rope_type with the parameters of the presets and others, the largest factors among them.
QList<std::pair<QString, Params>> ropeSettings(bool longMode)
{
    QList<std::pair<QString, Params>> s;
    const std::int64_t L = longMode ? 131072 : 4096;
    for (const std::int64_t head : {2, 4, 64, 128})
        for (const std::int64_t rows : {1, 2, 3, 64, 4096})
            s.append({u"default head %1 L %2"_s.arg(head).arg(rows), rope(RopeType::Default, head, 10000.0, rows)});
    s.append({u"default theta 5e5"_s, rope(RopeType::Default, 128, 500000.0, 8192)});
    for (const double f : {2.0, 8.0, 1e6}) {
        Params p = rope(RopeType::Linear, 64, 1e6, L);
        p.rope.factor = f;
        s.append({u"linear %1"_s.arg(f), p});
    }
    Params dynamic = rope(RopeType::Dynamic, 64, 10000.0, 8192);
    dynamic.rope.factor = 4.0;
    dynamic.rope.originalMaxLen = 2048;
    s.append({u"dynamic 4 from 2048"_s, dynamic});
    dynamic.maxLen = 1024;
    s.append({u"dynamic below its original length"_s, dynamic});
    Params yarn = rope(RopeType::Yarn, 128, 10000.0, 16384);
    yarn.rope.factor = 4.0;
    yarn.rope.originalMaxLen = 4096;
    s.append({u"yarn 4 from 4096"_s, yarn});
    Params gptOss = rope(RopeType::Yarn, 64, 150000.0, 8192);
    gptOss.rope.factor = 32.0;
    gptOss.rope.originalMaxLen = 4096;
    gptOss.rope.yarnTruncate = false;
    s.append({u"yarn 32 untruncated (gpt-oss)"_s, gptOss});
    Params explicitFactor = yarn;
    explicitFactor.rope.attentionFactor = 1.5;
    s.append({u"yarn, attention_factor 1.5"_s, explicitFactor});
    Params deepseek = rope(RopeType::Yarn, 64, 10000.0, 8192);
    deepseek.rope.layout = RopeLayout::Interleaved;
    deepseek.rope.factor = 40.0;
    deepseek.rope.originalMaxLen = 4096;
    deepseek.rope.mscale = 0.707;
    deepseek.rope.mscaleAllDim = 0.707;
    // mscale = mscale_all_dim makes the attention factor get_mscale(f, m) / get_mscale(f, m) = 1
    // (transformers modeling_rope_utils.py, _compute_yarn_parameters): DeepSeek-V3's table, which
    // DeepseekV3RotaryEmbedding returns as cat(freqs, freqs) whatever rope_interleave does to q and k
    // (modeling_deepseek_v3.py): correct in either layout, never attention-factor-missing undeclared.
    s.append({u"yarn with mscale = mscale_all_dim (DeepSeek-V2)"_s, deepseek});
    Params largestYarn = yarn;
    largestYarn.rope.factor = 1e6;
    largestYarn.rope.originalMaxLen = 256;
    s.append({u"yarn, the largest factor"_s, largestYarn});
    Params llama = rope(RopeType::Llama3, 128, 500000.0, 16384);
    llama.rope.factor = 8.0;
    llama.rope.originalMaxLen = 8192;
    s.append({u"llama3 (Llama 3.1)"_s, llama});
    Params llama32 = rope(RopeType::Llama3, 64, 500000.0, L);
    llama32.rope.factor = 32.0;
    llama32.rope.originalMaxLen = 8192;
    s.append({u"llama3 (Llama 3.2 1B)"_s, llama32});
    Params scout = llama;
    scout.rope.layout = RopeLayout::Interleaved;
    scout.rope.factor = 16.0;
    scout.rope.highFreqFactor = 1.0;
    s.append({u"llama3, low = high (Llama 4 Scout)"_s, scout});
    Params oddBands = llama;
    oddBands.rope.lowFreqFactor = 2.0;
    oddBands.rope.highFreqFactor = 8.0;
    s.append({u"llama3, low 2 high 8"_s, oddBands});
    Params longrope = rope(RopeType::LongRope, 64, 10000.0, 4096);
    longrope.rope.factor = 8.0;
    longrope.rope.originalMaxLen = 2048;
    for (std::int64_t i = 0; i < 32; ++i) {
        longrope.rope.shortFactor.push_back(1.0);
        longrope.rope.longFactor.push_back(1.0 + 0.25 * double(i));
    }
    s.append({u"longrope, long factors"_s, longrope});
    Params proportional = rope(RopeType::Proportional, 256, 1e6, L);
    proportional.rope.partialRotaryFactor = 0.25;
    s.append({u"proportional (Gemma 4)"_s, proportional});
    Params neox = rope(RopeType::Default, 96, 10000.0, 2048);
    neox.rope.partialRotaryFactor = 0.25;
    s.append({u"partial rotary (GPT-NeoX)"_s, neox});
    return s;
}

QList<TestRoundTrip> roundTrips(bool longMode)
{
    QList<TestRoundTrip> cases;
    for (const auto &[name, params] : ropeSettings(longMode)) {
        for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
            Params p = params;
            p.rope.layout = layout;
            for (const QString &quantity : {u"rope-cos"_s, u"rope-sin"_s}) {
                QString unknown;
                if (quantity == u"rope-sin"_s && p.maxLen == 1)
                    unknown = u"every cell is 0"_s;
                cases.append(
                    {u"%1 %2 %3"_s.arg(quantity, name, layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s), p,
                     quantity, unknown});
            }
        }
    }
    return cases;
}

// What tst_paramuse tries of RoPE: each rope-type where its own keys start to matter, other texts
// of its rows, what a change brings along, what its tables do not show, and the readings that
// leave a key aside.
void addParamUse(TestFamily &f)
{
    const TestSetting rope = {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"8"_s}};
    const TestSetting longrope = rope
        + TestSetting {{u"rope-type"_s, u"longrope"_s},
                       {u"rope-factor"_s, u"4"_s},
                       {u"short-factor"_s, u"1,2,3,4"_s},
                       {u"long-factor"_s, u"1,1,1,1"_s}};
    f.idleSettings = {
        // The factor is idle under default, and makes linear a valid other type.
        {u"rope default"_s, rope + TestSetting {{u"rope-factor"_s, u"2"_s}}},
        {u"rope yarn"_s,
         rope
             + TestSetting {{u"rope-type"_s, u"yarn"_s},
                            {u"rope-factor"_s, u"4"_s},
                            {u"original-max-len"_s, u"4096"_s},
                            {u"mscale-all-dim"_s, u"1"_s}}},
        {u"rope yarn, attention factor given"_s,
         rope
             + TestSetting {{u"rope-type"_s, u"yarn"_s},
                            {u"rope-factor"_s, u"4"_s},
                            {u"original-max-len"_s, u"4096"_s},
                            {u"attention-factor"_s, u"1.2"_s}}},
        {u"rope llama3"_s,
         rope
             + TestSetting {{u"rope-type"_s, u"llama3"_s},
                            {u"rope-factor"_s, u"4"_s},
                            {u"original-max-len"_s, u"8"_s}}},
        {u"rope longrope, short"_s, longrope + TestSetting {{u"original-max-len"_s, u"32"_s}}},
        {u"rope longrope, long"_s, longrope + TestSetting {{u"original-max-len"_s, u"8"_s}}},
        {u"rope dynamic"_s,
         rope
             + TestSetting {{u"rope-type"_s, u"dynamic"_s},
                            {u"rope-factor"_s, u"3"_s},
                            {u"original-max-len"_s, u"8"_s}}},
        {u"rope proportional"_s,
         rope + TestSetting {{u"rope-type"_s, u"proportional"_s}, {u"partial-rotary-factor"_s, u"0.5"_s}}},
    };
    f.otherValues = {
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
    };
    // A longrope head of another rotary dim comes with factor lists of its length.
    f.alongside = [](const posenc::Params &, posenc::Params &changed, const QString &key) {
        if (changed.rope.type == posenc::RopeType::LongRope
            && (key == u"head-dim"_s || key == u"partial-rotary-factor"_s)) {
            const auto pairs = static_cast<std::size_t>(posenc::RopeFrequencies::pairs(changed.rope));
            changed.rope.shortFactor.resize(pairs, 1.5);
            changed.rope.longFactor.resize(pairs, 1.5);
        }
    };
    // What its tables turn by (the frequencies, yarn's ramp or llama3's bands, the attention factor)
    // and what scales q·k besides (the softmax scale factor).
    f.differs = [](const posenc::Params &a, const posenc::Params &b) {
        using posenc::Encoding;
        if (a.encoding != Encoding::Rope && b.encoding != Encoding::Rope)
            return false;
        if (a.encoding != b.encoding)
            return true;
        const posenc::RopeFrequencies::Table ta = posenc::RopeFrequencies::table(a);
        const posenc::RopeFrequencies::Table tb = posenc::RopeFrequencies::table(b);
        // Where a part of the head turns, its place: which of q's and k's columns turn.
        const bool placed = roperef::rotaryDim(a) < a.rope.headDim && a.rope.place != b.rope.place;
        return ta.inv != tb.inv || ta.band != tb.band || ta.attentionFactor != tb.attentionFactor
            || posenc::RopeFrequencies::describe(a).softmaxScaleFactor
            != posenc::RopeFrequencies::describe(b).softmaxScaleFactor
            || placed;
    };
    using I = posenc::ParamUse::Idle;
    f.idleCases = {
        {u"rope"_s, {}, u"head-dim"_s, std::nullopt},
        {u"rope"_s, {}, u"rope-factor"_s, I::OtherRopeType},
        {u"rope"_s, {}, u"beta-fast"_s, I::OtherRopeType},
        {u"rope yarn"_s, {}, u"mscale"_s, std::nullopt}, // beside mscale_all_dim
        {u"rope yarn"_s, {{u"mscale-all-dim"_s, u"unset"_s}}, u"mscale"_s, I::NoMscaleAllDim},
        {u"rope yarn"_s, {{u"mscale-all-dim"_s, u"0"_s}}, u"mscale"_s, I::NoMscaleAllDim},
        {u"rope yarn, attention factor given"_s, {}, u"mscale"_s, I::ExplicitAttentionFactor},
        {u"rope yarn"_s, {}, u"low-freq-factor"_s, I::OtherRopeType}, // llama3's
        {u"rope longrope, short"_s, {}, u"short-factor"_s, std::nullopt}, // within L0
        {u"rope longrope, short"_s, {}, u"long-factor"_s, I::OtherFactorList},
        {u"rope longrope, long"_s, {}, u"short-factor"_s, I::OtherFactorList}, // past L0
        {u"rope longrope, short"_s, {}, u"rope-factor"_s, std::nullopt},
        {u"rope longrope, short"_s, {{u"attention-factor"_s, u"1.1"_s}}, u"rope-factor"_s, I::ExplicitAttentionFactor},
        {u"rope proportional"_s, {}, u"rope-factor"_s, std::nullopt},
    };
}

} // namespace

POSENC_TEST_FAMILY(Rope)
{
    TestFamily f;
    // A head of 64 columns (at most d_model), theta 10000 and a llama3 scaling by 4 from a quarter
    // of max_len, so that its bands, contexts and critical dimension are all drawn.
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Rope;
        p.rope.headDim = std::min<std::int64_t>(64, p.dModel - p.dModel % 2);
        p.rope.type = posenc::RopeType::Llama3;
        p.rope.factor = 4.0;
        p.rope.originalMaxLen = std::max<std::int64_t>(p.maxLen / 4, 1);
        return p;
    };
    f.figureFlags = [](std::int64_t maxLen) {
        return QStringList {u"--head-dim"_s,         u"64"_s,
                            u"--rope-type"_s,        u"llama3"_s,
                            u"--rope-factor"_s,      u"4"_s,
                            u"--original-max-len"_s, QString::number(std::max<std::int64_t>(maxLen / 4, 1))};
    };
    f.changes = {
        {u"head-dim"_s, u"4"_s},
        {u"rope-theta"_s, u"500"_s},
        {u"partial-rotary-factor"_s, u"0.5"_s},
        {u"rope-layout"_s, u"interleaved"_s},
        {u"rotary-place"_s, u"suffix"_s},
        {u"rope-type"_s, u"dynamic"_s},
        {u"rope-factor"_s, u"2"_s},
        {u"original-max-len"_s, u"12"_s},
        {u"low-freq-factor"_s, u"2"_s},
        {u"high-freq-factor"_s, u"8"_s},
        {u"beta-fast"_s, u"16"_s},
        {u"beta-slow"_s, u"2"_s},
        {u"yarn-truncate"_s, u"false"_s},
        {u"mscale"_s, u"0.8"_s},
        {u"mscale-all-dim"_s, u"1"_s},
        {u"attention-factor"_s, u"1.3"_s},
        {u"short-factor"_s, u"1,1,1,1"_s},
        {u"long-factor"_s, u"1,2,2,2"_s},
    };
    // A head of 8 of the 12 columns, and the types whose own keys start to matter.
    const TestSetting rope = {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"8"_s}};
    const TestSetting scaled = rope + TestSetting {{u"rope-factor"_s, u"4"_s}, {u"original-max-len"_s, u"8"_s}};
    f.settings = {
        {u"rope"_s, rope},
        {u"rope yarn"_s, scaled + TestSetting {{u"rope-type"_s, u"yarn"_s}}},
        {u"rope llama3"_s, scaled + TestSetting {{u"rope-type"_s, u"llama3"_s}}},
        {u"rope longrope"_s,
         scaled
             + TestSetting {{u"rope-type"_s, u"longrope"_s},
                            {u"short-factor"_s, u"1,1.5,2,3"_s},
                            {u"long-factor"_s, u"2,3,4,5"_s}}},
    };
    for (const auto &[name, type] : {std::pair {u"default"_s, u"default"_s}, std::pair {u"yarn"_s, u"yarn"_s}}) {
        TestReference cos;
        cos.name = u"rope-cos "_s + name;
        cos.quantity = posenc::Quantity::RopeCos;
        cos.dModel = 16;
        cos.maxLen = 40;
        cos.setting = {{u"encoding"_s, u"rope"_s},
                       {u"head-dim"_s, u"16"_s},
                       {u"rope-type"_s, type},
                       {u"rope-factor"_s, u"4"_s},
                       {u"original-max-len"_s, u"10"_s}};
        cos.cell = cosine;
        f.references.append(cos);
    }
    f.roundTrips = roundTrips;
    addParamUse(f);
    f.readBack = {{u"head-dim"_s, u"64"_s},
                  {u"rope-theta"_s, u"500000"_s},
                  {u"partial-rotary-factor"_s, u"0.25"_s},
                  {u"rope-type"_s, u"yarn"_s},
                  {u"rope-factor"_s, u"8"_s},
                  {u"original-max-len"_s, u"8192"_s},
                  {u"mscale"_s, u"0.707"_s},
                  {u"attention-factor"_s, u"1.25"_s},
                  // Phi-3-mini-128k's first short and long factors: every digit comes back.
                  {u"short-factor"_s, u"1.1,1.3000000000000003,2.000000000000001"_s},
                  {u"long-factor"_s, u"1.0700000524520874,64.76000213623047"_s}};
    f.quantities = {u"rope-frequencies"_s, u"rope-cos"_s, u"rope-sin"_s, u"rope-score"_s, u"rope-input"_s};
    f.presets = {u"command-r7b"_s,   u"deepseek-v3"_s, u"deepseek-v3-2-exp"_s, u"devstral-small-2"_s, u"exaone-4-32b"_s,
                 u"gemma-3-4b"_s,    u"gemma-4"_s,     u"glm-4-5"_s,           u"gpt-j-6b"_s,         u"gpt-neox-20b"_s,
                 u"gpt-oss-20b"_s,   u"kimi-k2"_s,     u"llama-2-7b"_s,        u"llama-3-1-8b"_s,     u"llama-3-2-1b"_s,
                 u"llama-4-scout"_s, u"mistral-7b"_s,  u"modernbert-base"_s,   u"phi-3-mini-128k"_s,  u"phi-4"_s,
                 u"phi-4-mini"_s,    u"qwen2-5-7b"_s,  u"qwen3-8b"_s,          u"qwen3-next-80b"_s,   u"smollm3-3b"_s};
    // A RoPE table declared one: at theta 10000 it is also a sinusoid whose sines or cosines were
    // replaced, which only a declaration tells apart.
    f.presetTables.checkFlags = [](const QString &, const QJsonObject &params) {
        return QStringList {u"--rope-layout"_s, params[u"rope-layout"_s].toString(u"half"_s)};
    };
    f.describeKeys = {u"rope_type"_s,         u"rotary_dim"_s,     u"attention_factor"_s,   u"softmax_scale_factor"_s,
                      u"logit_scale"_s,       u"band_low"_s,       u"band_high"_s,          u"band_low_used"_s,
                      u"band_high_used"_s,    u"pairs_kept"_s,     u"pairs_blended"_s,      u"pairs_divided"_s,
                      u"wavelength_min"_s,    u"wavelength_max"_s, u"critical_dimension"_s, u"bf16_position_step"_s,
                      u"fp16_position_step"_s};
    f.helpFlags = {u"--head-dim N"_s,
                   u"--rope-theta B"_s,
                   u"--partial-rotary-factor F"_s,
                   u"--rope-layout half|interleaved"_s,
                   u"--rope-type default|linear|dynamic|yarn|longrope|llama3|proportional"_s,
                   u"--rope-factor F|unset"_s,
                   u"--original-max-len N|unset"_s,
                   u"--yarn-truncate true|false"_s,
                   u"--short-factor LIST|none"_s,
                   u"--long-factor LIST|none"_s};
    // Its panel drawn at llama3's scaling from 128 of a head of 32; each offset's point <q, R(k) q> /
    // |q|^2 for q all ones from HF's inverse frequencies: 2 cos(k theta_i) per pair, 1 per unrotated
    // column.
    f.panelParams = [](posenc::Params p, bool) {
        p.rope.headDim = 32;
        p.rope.theta = 500000.0;
        p.rope.type = posenc::RopeType::Llama3;
        p.rope.factor = 8.0;
        p.rope.originalMaxLen = 128;
        return p;
    };
    f.panel = [](const posenc::Params &p, std::int64_t, const TestPanel &drawn) -> std::optional<QString> {
        const std::vector<double> inv = roperef::inv(p);
        for (std::int64_t k = drawn.pixels.first; k <= drawn.pixels.last; ++k) {
            double sum = double(p.rope.headDim) - 2.0 * double(inv.size());
            for (const double theta : inv)
                sum += 2.0 * std::cos(double(k) * theta);
            const double aligned = sum / double(p.rope.headDim);
            if (std::abs(drawn.at(k).first - aligned) >= 1e-12)
                return u"k %1: %2 vs %3"_s.arg(k).arg(drawn.at(k).first).arg(aligned);
        }
        return std::nullopt;
    };
    return f;
}
