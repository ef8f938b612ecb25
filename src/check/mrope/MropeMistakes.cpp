// The mistakes of M-RoPE's checks and their words. The references: huggingface/transformers
// models/qwen2_vl/modeling_qwen2_vl.py (apply_multimodal_rotary_pos_emb, get_rope_index,
// compute_3d_position_ids), models/qwen2_5_vl/modeling_qwen2_5_vl.py (get_rope_index's video t
// ids, second_per_grid_t * tokens_per_second) and models/qwen3_vl/modeling_qwen3_vl.py
// (apply_interleaved_mrope).
#include "check/mrope/MropeMistakes.h"
#include "check/DeclaredWords.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::MropeMistakes {

const std::vector<Mistake> &all()
{
    static const std::vector<Mistake> mistakes {
        {kInterleaveSwapped,
         u"the sections chunked (apply_multimodal_rotary_pos_emb, Qwen2-VL) where interleaved "
         "(apply_interleaved_mrope, Qwen3-VL) was meant, or the reverse"_s},
        {kSectionSum, u"mrope_section does not add up to the rotary pairs"_s},
        {kAxesSwapped,
         u"two axes exchanged: the h and w ids of the image and video tokens, or mrope_section's counts given to "
         "other axes"_s},
        {kTimeTruncated,
         u"a video's temporal ids truncated: second_per_grid cast to an integer before the product with "
         "tokens_per_second (transformers 4.x before PR #48669), t stuck at 0 for grids under a second"_s},
        {kRopeDeltasLost,
         u"the rope_deltas offset lost after the prompt: the generated tokens at their cache position, not cache "
         "position + rope_deltas"_s},
        {kOtherEra,
         u"the ids of the other transformers era's get_rope_index than the one declared: 4.x puts the text after an "
         "image or video at the span's largest id + 1, 5.x at its start + max(h, w)"_s},
        {kOtherSection,
         u"the pairs split by another mrope_section than the declared, chunked or interleaved as declared: another "
         "config's sections (Qwen2-VL's 16,24,24, Qwen3-VL's 24,20,20)"_s},
        {kColumnsAxis,
         u"columns turned by another axis's ids than the declared split gives them: one half of cat(freqs, freqs) "
         "left at the t ids (the sections merged into the other half only), or a section's columns at another "
         "axis"_s},
        {kIdsOffset, u"every id get_rope_index's plus a constant on all three axes"_s},
        {kIdsDiffer, u"ids that differ from get_rope_index's in no way named above"_s},
    };
    return mistakes;
}

QString words(const QString &id)
{
    for (const Mistake &m : all()) {
        if (m.id == id)
            return m.words;
    }
    return QString();
}

QString sectionText(const std::vector<std::int64_t> &section)
{
    QStringList parts;
    for (const std::int64_t s : section)
        parts.append(QString::number(s));
    return parts.join(u',');
}

QString splitWords(const std::vector<std::int64_t> &section, bool interleaved)
{
    return u"mrope_section %1 %2"_s.arg(sectionText(section),
                                        interleaved ? u"interleaved (apply_interleaved_mrope)"_s
                                                    : u"chunked (apply_multimodal_rotary_pos_emb)"_s);
}

QString interleaveSwappedLine(bool foundInterleaved)
{
    const QString chunked = u"chunked (apply_multimodal_rotary_pos_emb's contiguous sections, Qwen2-VL's)"_s;
    const QString interleaved = u"interleaved (apply_interleaved_mrope, Qwen3-VL's)"_s;
    return u"the pairs are split %1 where %2 %3"_s.arg(foundInterleaved ? interleaved : chunked,
                                                       foundInterleaved ? chunked : interleaved,
                                                       DeclaredWords::wasDeclared());
}

Params otherEra(const Params &params)
{
    Params p = params;
    p.mrope.era = params.mrope.era == MropeEra::V4 ? MropeEra::V5 : MropeEra::V4;
    return p;
}

QString otherEraLine(MropeEra era, bool declared)
{
    const bool v4 = era == MropeEra::V4;
    const QString largest = u"its largest id + 1"_s, start = u"its start + max(h, w)"_s;
    return u"the ids follow transformers %1's get_rope_index (the text after an image or video at %2), not the "
           "%3 %4's (at %5): the port follows the other version of the reference; if the model runs under %1, "
           "declare mrope-era %6"_s.arg(v4 ? u"5.x"_s : u"4.x"_s, v4 ? start : largest,
                                        declared ? u"declared"_s : u"default (--mrope-era not given)"_s,
                                        v4 ? u"4.x"_s : u"5.x"_s, v4 ? largest : start, v4 ? u"v5"_s : u"v4"_s);
}

bool truncationMoves(const MropeLayout::Span &s)
{
    if (s.kind != MropeTokenKind::Video
        || (s.time != MropeLayout::Span::Time::ProductV4 && s.time != MropeLayout::Span::Time::ProductV5))
        return false;
    for (std::int64_t k = 1; k < s.gridT; ++k) {
        const auto truncated = std::int64_t(std::trunc(double(k) * std::trunc(s.secondPerGrid) * s.tokensPerSecond));
        if (truncated != s.tOffset(k))
            return true;
    }
    return false;
}

// transformers 4.x's get_rope_index before PR #48669: `torch.as_tensor(second_per_grid_t,
// dtype=range_tensor.dtype)` casts it to int64 before the product with tokens_per_second, and the
// spans after a video start from those ids.
Params truncatedTime(const Params &params)
{
    Params p = params;
    p.mrope.secondPerGrid = std::trunc(p.mrope.secondPerGrid);
    const auto parsed = MropePrompt::parse(p.mrope.prompt);
    const auto *segments = std::get_if<std::vector<MropeSegment>>(&parsed);
    if (!segments)
        return p;
    std::vector<MropeSegment> truncated = *segments;
    for (MropeSegment &s : truncated)
        if (s.secondPerGrid)
            s.secondPerGrid = std::trunc(*s.secondPerGrid);
    p.mrope.prompt = MropePrompt::text(truncated);
    return p;
}

} // namespace posenc::MropeMistakes
