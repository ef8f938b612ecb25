#pragma once

#include "PositionIdsCheck.h"

#include "core/Block.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

// M-RoPE's [3, B, L] ids of a batch whose rows hold different prompts (docs/ARCHITECTURE.md,
// Positions in practice; r28a's finding 3: one --prompt served every row): --prompt
// 'P0;P1;...', one prompt a row, each row checked against get_rope_index's ids of its own prompt
// with its share of the batch (its length of --batch, its row of --attention-mask or
// --document-ids, the same --cache), the reports combined.
namespace posenc::RowPrompts {

// Each row's prompt of a ';'-separated list, or the problem ("3 prompts for 2 rows").
std::variant<QStringList, QString> split(const QString &prompts, std::int64_t rows);

// The parameters of row b alone: its prompt, its share of the batch.
Params rowParams(const Params &params, std::int64_t b, const QString &prompt);
// Why --batch's lengths do not give one a row of `rows` (left:14 for two rows), or nothing.
std::optional<QString> batchProblem(const Params &params, std::int64_t rows);

// Row b's ids of [3·B, L] ids (t's rows first) as [3, L].
RowMatrixXf rowIds(const RowMatrixXf &ids, std::int64_t rows, std::int64_t b);

// The rows' reports as one: the worst verdict (a mistake, else unknown), the mistakes of every row,
// each row's detail, the first difference of the first row that has one.
PositionIdsCheck::Report combine(const std::vector<PositionIdsCheck::Report> &rows);

} // namespace posenc::RowPrompts
