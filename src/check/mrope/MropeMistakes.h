#pragma once

#include "core/Params.h"
#include "core/mrope/MropePrompt.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

// The mistakes M-RoPE's checks name (docs/ARCHITECTURE.md, Checking a table and Checking a
// rotation): one id and one line of words each, the same for the table check (MropeTableCheck),
// the apply check (MropeApplyCheck) and the config check (MropeConfig), and the words both checks
// build their diagnoses from.
namespace posenc::MropeMistakes {

// The sections chunked (apply_multimodal_rotary_pos_emb, Qwen2-VL) where interleaved
// (apply_interleaved_mrope, Qwen3-VL) was meant, or the reverse; the diagnosis says which way.
inline const QString kInterleaveSwapped = QStringLiteral("mrope-interleave-swapped");
// mrope_section's counts not summing to the rotary pairs (a config's finding).
inline const QString kSectionSum = QStringLiteral("mrope-section-sum");
// Two axes exchanged: their ids (h and w of the image and video tokens), or mrope_section's counts
// given to other axes.
inline const QString kAxesSwapped = QStringLiteral("mrope-axes-swapped");
// A video's temporal ids truncated: second_per_grid cast to an integer before the product with
// tokens_per_second, which leaves t at 0 for a grid shorter than a second.
inline const QString kTimeTruncated = QStringLiteral("mrope-time-truncated");
// The rows after the prompt at their cache position, without the rope_deltas offset.
inline const QString kRopeDeltasLost = QStringLiteral("mrope-rope-deltas-lost");
// The ids of the other transformers era's get_rope_index than the one declared: 4.x puts the text
// after an image or video at the span's largest id + 1, 5.x at its start + max(h, w).
inline const QString kOtherEra = QStringLiteral("mrope-other-era");
// The pairs split by another mrope_section than the declared (the same chunked or interleaved
// split): another config's sections, Qwen2-VL's 16,24,24 where Qwen3-VL's 24,20,20 belongs.
inline const QString kOtherSection = QStringLiteral("mrope-other-section");
// Columns turned by another axis's ids than the declared split gives them, the split of the other
// columns kept: one half of emb = cat(freqs, freqs) left at the t ids (the sections merged into the
// other half only, xLLM's apply_mrope before xLLM-AI/xllm#746), or a section's columns at another axis.
inline const QString kColumnsAxis = QStringLiteral("mrope-columns-axis");
// The table check's: a Qwen2.5-VL video's t ids at the grid index k (Qwen2-VL's rule,
// second_per_grid_ts not used), where get_rope_index gives k · second_per_grid · tokens_per_second;
// the id the position-ids check gives it too.
inline const QString kSecondPerGrid = QStringLiteral("second-per-grid");
// The apply check's own: every id the reference's plus a constant; ids that differ otherwise.
inline const QString kIdsOffset = QStringLiteral("mrope-ids-offset");
inline const QString kIdsDiffer = QStringLiteral("mrope-ids-differ");

// Every id above with its line of words, in that order.
struct Mistake
{
    QString id;
    QString words;
};
const std::vector<Mistake> &all();
// The line of `id`'s words, or empty for an id not M-RoPE's.
QString words(const QString &id);

// "mrope_section 16,24,24 chunked (apply_multimodal_rotary_pos_emb)".
QString sectionText(const std::vector<std::int64_t> &section);
QString splitWords(const std::vector<std::int64_t> &section, bool interleaved);
// "the pairs are split interleaved (apply_interleaved_mrope, Qwen3-VL's) where chunked
// (apply_multimodal_rotary_pos_emb, Qwen2-VL's) was declared".
QString interleaveSwappedLine(bool foundInterleaved);

// The parameters with the other era's get_rope_index, and the line naming it against the declared.
Params otherEra(const Params &params);
QString otherEraLine(MropeEra era, bool declared = true);

// Qwen2.5-VL's video spans whose t ids differ when second_per_grid is truncated first.
bool truncationMoves(const MropeLayout::Span &span);
// The prompt with every video's second_per_grid truncated to an integer, as transformers 4.x's
// get_rope_index did before PR #48669.
Params truncatedTime(const Params &params);

} // namespace posenc::MropeMistakes
