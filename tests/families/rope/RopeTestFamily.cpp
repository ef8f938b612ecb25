// RoPE's test record (tests/support/TestFamily.h): its cosines against the float64 frequencies of
// support/RopeReference.h (HF transformers' modeling_rope_utils.py).
#include "support/RopeReference.h"
#include "support/TestFamily.h"

#include <algorithm>
#include <cmath>

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
    return f;
}
