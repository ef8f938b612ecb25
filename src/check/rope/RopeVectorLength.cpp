#include "check/rope/RopeVectorLength.h"

#include "check/rope/RopeInvFreq.h"
#include "check/rope/RopeInvFreqPairs.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeVectorLength {

namespace {

bool givesVector(const std::vector<double> &v, StoredType stored, const Params &p)
{
    if (!p.isValid())
        return false;
    const std::vector<double> inv = RopeFrequencies::table(p).inv;
    return inv.size() == v.size() && RopeInvFreqPairs::compare(v, inv, stored).beyond == 0;
}

// The whole sequence lengths whose grown base dynamic NTK gives `v`: its base read from the
// slowest pair, inv_freq[i] = base^(-2i/d), then seq from base = theta (f seq / L0 - (f - 1))^(d / (d - 2)).
std::vector<std::int64_t> dynamicLengths(const std::vector<double> &v, const Params &declared)
{
    const RopeParams &rope = declared.rope;
    const double d = double(RopeFrequencies::rotaryDim(rope));
    const std::size_t slowest = v.size() - 1;
    if (v.size() < 2 || !(v[slowest] > 0.0) || !(d > 2.0) || !rope.factor || !(*rope.factor > 0.0))
        return {};
    const double base = std::exp(-std::log(v[slowest]) * d / (2.0 * double(slowest)));
    const double g = std::pow(base / rope.theta, (d - 2.0) / d);
    const double original = double(rope.originalMaxLen.value_or(1));
    const double seq = original * ((g - 1.0) / *rope.factor + 1.0);
    if (!std::isfinite(seq) || seq <= original || seq > double(Params::kMaxLen))
        return {};
    const auto whole = std::int64_t(std::llround(seq));
    return {whole, whole - 1, whole + 1};
}

QString servesWords(const Params &at)
{
    const RopeParams &rope = at.rope;
    const std::int64_t original = rope.originalMaxLen.value_or(1);
    if (rope.type == RopeType::LongRope)
        return at.maxLen > original
            ? u"long_factor, which transformers takes for a sequence longer than original_max_position_embeddings "
              "%1 (modeling_rope_utils.py, longrope_frequency_update)"_s.arg(original)
            : u"short_factor, which transformers takes for a sequence of at most original_max_position_embeddings "
              "%1 positions (modeling_rope_utils.py, longrope_frequency_update)"_s.arg(original);
    if (at.maxLen <= original)
        return u"rope_theta %1 itself, which dynamic NTK keeps for a sequence of at most "
               "original_max_position_embeddings %2 positions (dynamic_rope_update)"_s
                   .arg(NumberText::exact(rope.theta))
                   .arg(original);
    return u"rope_theta %1 grown to %2, which dynamic NTK computes for a sequence of %3 positions "
           "(dynamic_rope_update, _compute_dynamic_ntk_parameters)"_s
               .arg(NumberText::exact(rope.theta), NumberText::compact(RopeFrequencies::dynamicBase(at), 7))
               .arg(at.maxLen);
}

} // namespace

std::optional<Params> lengthOf(const std::vector<double> &v, StoredType stored, const Params &declared)
{
    const RopeParams &rope = declared.rope;
    if (declared.encoding != Encoding::Rope || !rope.originalMaxLen
        || (rope.type != RopeType::LongRope && rope.type != RopeType::Dynamic))
        return std::nullopt;
    std::vector<std::int64_t> lengths {*rope.originalMaxLen};
    if (rope.type == RopeType::LongRope)
        lengths.push_back(*rope.originalMaxLen + 1);
    else
        for (const std::int64_t seq : dynamicLengths(v, declared))
            lengths.push_back(seq);
    for (const std::int64_t length : lengths) {
        Params at = declared;
        at.maxLen = length;
        if (length >= 1 && length <= Params::kMaxLen && givesVector(v, stored, at))
            return at;
    }
    return std::nullopt;
}

std::optional<TableMatch> atUnstatedLength(const std::vector<double> &v, StoredType stored, const Params &declared)
{
    const auto at = lengthOf(v, stored, declared);
    if (!at)
        return std::nullopt;
    TableMatch m = RopeInvFreq::expect(v, stored, *at);
    if (m.verdict != CheckVerdict::Correct)
        return std::nullopt;
    // Which length is right the vector cannot say: the other list (or base) is as much the declared
    // model's, at another length. The verdict waits for the length: llama.cpp#24823 chose the long
    // factors by the allocated context, for prompts of any length (fixed by PR #24875, the largest
    // position reached), and its long vector is what a long prompt's is.
    const QString serves = servesWords(*at);
    m.verdict = CheckVerdict::Unknown;
    m.correctAgainst.clear();
    m.diagnosis = u"the vector is %1. A vector states no sequence length, and the declaration gave none (the %2 "
                  "positions of a preset or config are its longest, not this vector's): whether it is right depends "
                  "on the sequence it served. --max-len N declares the sequence, and the vector "
                  "is then compared with that length's alone"_s.arg(serves)
                      .arg(declared.maxLen);
    return m;
}

} // namespace posenc::RopeVectorLength
