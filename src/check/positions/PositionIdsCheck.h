#pragma once

#include "MropeIdsRules.h"

#include "core/Block.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

// `posenc check --position-ids` (docs/ARCHITECTURE.md, Positions in practice): a batch's position
// ids against the reference's for the batch they were made for (BatchIds: transformers'
// generation, its flattening collator, a decode step after a prefill, get_rope_index with a mask),
// real token by real token (the padding's ids are read by no attention), naming the mistakes
// arange-with-padding, positions-not-restarted, restarted-without-block-mask, cache-offset and
// off-by-one (each part of a batch off by its own constant named with the part it covers), and
// M-RoPE's against a declared prompt (MropeIdsRules).
namespace posenc::PositionIdsCheck {

enum class Verdict { Correct, Mistake, Unknown };

struct Difference
{
    std::int64_t row = 0, column = 0;
    int axis = 0;
    std::int64_t given = 0, reference = 0;
};

struct Report
{
    Verdict verdict = Verdict::Unknown;
    QStringList mistakes; // the names, in the order above
    QString reference; // what the reference computes for this batch, in words
    QString detail; // what was found, a sentence
    std::int64_t rows = 0, columns = 0, realTokens = 0;
    int axes = 1;
    std::optional<Difference> firstDifference; // the first real token whose id is not the reference's
    QStringList notes;
};

// The mistakes' names, in the order of IdsChoice (reference left out).
QStringList mistakeNames();
// The verdict's word: correct, mistake, unknown.
QString verdictWord(Verdict verdict);

// What is wrong with the ids' shape for these parameters' batch ([B, L], or [3, B, L] for M-RoPE, a
// single row's [L] or [3, L]; an M-RoPE pack of text also [B, L], the flattening collator's ids,
// which Qwen2VLTextModel.forward expands to the three axes), in words; nothing when it fits.
std::optional<QString> shapeProblem(const Params &params, const std::vector<std::int64_t> &shape);
// `ids` as [rows, L], M-RoPE's axes one after the other (B rows: one id a token). Preconditions:
// params valid, no shapeProblem, and the batch has ids (BatchIds::problem empty).
Report check(const Params &params, const RowMatrixXf &ids);
// The same for ids declared to start at `start` (--position-offset: RoBERTa's padding_idx + 1 = 2,
// create_position_ids_from_input_ids): each real token's id is the reference's + start; ids of
// the reference itself, from 0, are the mistake position-offset.
Report check(const Params &params, const RowMatrixXf &ids, std::int64_t start);
// The same, with what the user declared of M-RoPE's rule (the prompt given, --vision-positions,
// --mrope-era): a deviation from an undeclared rule that another rule explains is unknown.
Report check(const Params &params, const RowMatrixXf &ids, std::int64_t start, const MropeIdsRules::Declared &declared);

} // namespace posenc::PositionIdsCheck
