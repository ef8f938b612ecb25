#pragma once

#include "check/mrope/MropeApplyCheck.h"
#include "core/Params.h"
#include "core/mrope/MropePrompt.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <variant>

// The (t, h, w) ids `posenc check --apply --encoding mrope` compares the ids it read with
// (docs/ARCHITECTURE.md, Checking a rotation): get_rope_index's of the prompt (MropeLayout), and
// after the prompt the decode rows of huggingface/transformers' Qwen2VLModel.compute_3d_position_ids,
// cache position + rope_deltas on all three axes. Names what differs: an offset, axes exchanged,
// a video's temporal ids truncated, the decode rows' rope_deltas lost (MropeMistakes' ids).
namespace posenc::MropeApplyCheck {

class IdReference
{
public:
    // The reference of `params`' prompt for `rows` rows, or the prompt's problem.
    static std::variant<IdReference, QString> of(const Params &params, std::int64_t rows);

    std::int64_t tokens() const { return m_layout.tokens(); }
    std::int64_t maxId() const { return m_layout.maxId(); }
    std::int64_t ropeDeltas() const { return m_layout.ropeDelta(); }
    // Row r's ids: the prompt's, or a decode row's at cache position r + rope_deltas.
    RowIds expected(std::int64_t row) const;

    // The ids read against the reference: the mistakes named, a line each. True: they were
    // compared (whether they equal it or not).
    bool compare(Result &result, QStringList &lines) const;

    // Without a prompt: ids that are one text run from 0 are compared as positions 0..L-1 (true);
    // otherwise only row 0, which get_rope_index starts at 0 on every axis, is (false).
    static bool textFromZero(Result &result, QStringList &lines);

private:
    explicit IdReference(MropeLayout layout)
        : m_layout(std::move(layout))
    { }

    // The span of prompt row `row`.
    const MropeLayout::Span &spanOf(std::int64_t row) const;
    bool temporalZero(const Result &result, QStringList &lines) const;
    bool decodeLost(const Result &result, QStringList &lines) const;
    bool timeTruncated(const Result &result, QStringList &lines) const;
    bool otherEra(const Result &result, QStringList &lines) const;
    std::optional<QString> knownClass(const Result &result) const;

    MropeLayout m_layout;
    // The prompt's layout with every video's second_per_grid truncated to an integer, where that
    // moves a t id (MropeMistakes::truncatedTime).
    std::optional<MropeLayout> m_truncated;
    // The prompt's layout by the other transformers era's get_rope_index, where it builds.
    std::optional<MropeLayout> m_otherEra;
    MropeEra m_era = MropeEra::V4;
};

} // namespace posenc::MropeApplyCheck
