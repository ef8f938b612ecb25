#include "MropeTableWords.h"

#include "check/mrope/MropeIdsReadBack.h"
#include "check/mrope/MropeMistakes.h"
#include "core/CountWords.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::MropeTableWords {

using MropeIdsReadBack::idsText;
using MropeMistakes::kAxesSwapped;
using MropeMistakes::kInterleaveSwapped;
using MropeMistakes::kTimeTruncated;
using MropeMistakes::sectionText;
using MropeMistakes::splitWords;
using MropeMistakes::truncationMoves;

QString publishedAs(const std::vector<std::int64_t> &section, bool interleaved, double theta, std::int64_t pairs)
{
    if (pairs != 64)
        return QString();
    if (!interleaved && section == std::vector<std::int64_t> {16, 24, 24} && theta == 1e6)
        return u"Qwen2-VL's and Qwen2.5-VL's (mrope_section 16,24,24 chunked, rope_theta 1000000)"_s;
    if (interleaved && section == std::vector<std::int64_t> {24, 20, 20} && theta == 5e6)
        return u"Qwen3-VL's (mrope_section 24,20,20 interleaved, rope_theta 5000000)"_s;
    return QString();
}

QString idsNote(const TableEvidence &e, const MropeTableFit::Reading &r, bool float32Angles)
{
    QStringList shown;
    bool lastVision = false;
    for (std::size_t i = 0; i < r.rows.size() && shown.size() < 8; ++i) {
        const MropeIds &id = r.ids[i];
        const bool vision = (id.t != id.h || id.h != id.w)
            && !(float32Angles
                 && MropeIdsReadBack::idsFit(e, r.turns, r.cosine, r.rows[i],
                                             MropeIds {MropeTokenKind::Text, id.t, id.t, id.t}, true));
        if (i == 0 || vision != lastVision)
            shown.append(
                u"row %1 %2"_s.arg(r.rows[i]).arg(vision ? idsText(id) : idsText({id.kind, id.t, id.t, id.t})));
        lastVision = vision;
    }
    return u"ids (t, h, w) read from the table itself, where the sampled rows change between text and vision: %1"_s.arg(
        shown.join(u", "_s));
}

QString readingWords(const MropeTableFit::Reading &r)
{
    return u"%1, rope_theta %2, rotary_dim %3"_s.arg(splitWords(r.section, r.interleaved), NumberText::exact(r.theta))
        .arg(r.turns.cols());
}

QString spanRows(const MropeLayout &layout, const std::function<bool(const MropeLayout::Span &)> &which)
{
    QStringList parts;
    std::int64_t count = 0, rows = 0;
    for (const MropeLayout::Span &s : layout.spans()) {
        if (!which(s))
            continue;
        rows += s.rows;
        if (++count <= 3)
            parts.append(s.rows == 1 ? QString::number(s.firstRow)
                                     : u"%1-%2"_s.arg(s.firstRow).arg(s.firstRow + s.rows - 1));
    }
    if (count > 3)
        parts.append(u"and "_s + CountWords::counted(count - 3, u"more span"_s, u"more spans"_s));
    return (rows == 1 ? u"row "_s : u"rows "_s) + parts.join(u", "_s);
}

bool isVision(const MropeLayout::Span &s)
{
    return s.kind != MropeTokenKind::Text;
}

bool videoTimeMoves(const MropeLayout::Span &s)
{
    if (s.kind != MropeTokenKind::Video
        || (s.time != MropeLayout::Span::Time::ProductV4 && s.time != MropeLayout::Span::Time::ProductV5))
        return false;
    for (std::int64_t k = 1; k < s.gridT; ++k) {
        if (s.tOffset(k) != k)
            return true;
    }
    return false;
}

QString referenceWords(const Params &p, const MropeLayout &layout, std::int64_t rows, std::int64_t padding,
                       const MropeRowIds &at)
{
    if (at.textWindow())
        return u"%1, rope_theta %2, rotary_dim %3, at a text-only window of positions %4..%5 (t = h = w, as "
               "get_rope_index gives text tokens; --positions declares them, no prompt)"_s
                   .arg(splitWords(p.mrope.section, p.mrope.interleaved), NumberText::exact(p.rope.theta))
                   .arg(2 * RopeFrequencies::pairs(p.rope))
                   .arg(*at.window)
                   .arg(*at.window + rows - padding - 1);
    QString prompt = p.mrope.prompt;
    if (prompt.size() > 80)
        prompt = prompt.left(77) + u"..."_s;
    QString text = u"%1, rope_theta %2, rotary_dim %3, %4's get_rope_index (%5) of the prompt %6"_s
                       .arg(splitWords(p.mrope.section, p.mrope.interleaved), NumberText::exact(p.rope.theta))
                       .arg(2 * RopeFrequencies::pairs(p.rope))
                       .arg(ParamText::get(p, u"vision-positions"_s), ParamText::get(p, u"mrope-era"_s), prompt);
    if (padding > 0)
        text += u" after %1 of left padding at ids 1 (get_rope_index's fill)"_s.arg(
            CountWords::counted(padding, u"row"_s));
    rows -= padding;
    const std::int64_t first = at.window.value_or(0), generated = first + rows - layout.tokens();
    if (at.window)
        text += u", the rows the sequence's tokens %1..%2 (--positions: their cache positions)"_s.arg(first).arg(
            first + rows - 1);
    if (const std::int64_t steps = std::min(generated, rows); generated > 0)
        text += u", %1 at %2 cache_position + rope_deltas %3"_s.arg(CountWords::counted(steps, u"generated token"_s),
                                                                    steps == 1 ? u"its"_s : u"their"_s,
                                                                    NumberText::exact(layout.ropeDelta()));
    return text;
}

QString mistakeWords(const QString &id, const Params &p, const MropeLayout &layout, std::int64_t rows,
                     std::int64_t first)
{
    if (id == kInterleaveSwapped)
        return u"%1 (mrope_section %2): the image and video tokens (%3) turn their h and w ids on other pairs "
               "than the model's"_s.arg(MropeMistakes::interleaveSwappedLine(!p.mrope.interleaved),
                                        sectionText(p.mrope.section), spanRows(layout, isVision));
    if (id == kAxesSwapped)
        return u"h and w are exchanged on the image and video tokens (%1): each token's row id turns w's pairs and "
               "its column id h's"_s.arg(spanRows(layout, isVision));
    if (id == MropeMistakes::kOtherEra) {
        // The rows from the first whose ids the other era moves.
        const MropeLayout other(MropeMistakes::otherEra(p));
        std::int64_t first = 0;
        for (; first < layout.tokens(); ++first) {
            const MropeIds a = layout.ids(first), b = other.ids(first);
            if (a.t != b.t || a.h != b.h || a.w != b.w)
                break;
        }
        return u"%1: %2 move"_s.arg(MropeMistakes::otherEraLine(p.mrope.era),
                                    CountWords::range(first, rows - 1, u"row"_s, {}, u"-"_s));
    }
    if (id == kTimeTruncated) {
        const auto video = std::find_if(layout.spans().begin(), layout.spans().end(), truncationMoves);
        return u"the video's t ids are truncated (%1): second_per_grid %2 is cast to the integer %3 before the product "
               "with tokens_per_second %4 (torch.as_tensor(second_per_grid_t, dtype=range_tensor.dtype), "
               "transformers 4.x before PR #48669), where get_rope_index gives trunc(k * %2 * %4)"_s.arg(
                   spanRows(layout, truncationMoves), NumberText::exact(video->secondPerGrid),
                   NumberText::exact(std::trunc(video->secondPerGrid)), NumberText::exact(video->tokensPerSecond));
    }
    if (id == MropeMistakes::kSecondPerGrid) {
        const auto video = std::find_if(layout.spans().begin(), layout.spans().end(), videoTimeMoves);
        return u"the videos' t ids (%1) are the grid index k, Qwen2-VL's rule (t_index = arange(llm_grid_t)), where "
               "Qwen2.5-VL's get_rope_index gives k * second_per_grid %2 * tokens_per_second %3: second_per_grid_ts "
               "not used (sgl-project/sglang#3682)"_s.arg(spanRows(layout, videoTimeMoves),
                                                         NumberText::exact(video->secondPerGrid),
                                                         NumberText::exact(video->tokensPerSecond));
    }
    const std::int64_t after = std::max<std::int64_t>(layout.tokens() - first, 0);
    return u"%1 after the prompt %2 at %3 cache position, not cache_position + rope_deltas %4: the generated %5 "
           "the multimodal offset"_s.arg(
               CountWords::range(after, rows - 1, u"row"_s, {}, u"-"_s), after == rows - 1 ? u"is"_s : u"are"_s,
               after == rows - 1 ? u"its"_s : u"their"_s, NumberText::exact(layout.ropeDelta()),
               after == rows - 1 ? u"token lost"_s : u"tokens lost"_s);
}

} // namespace posenc::MropeTableWords
