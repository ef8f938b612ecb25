#pragma once

#include "PositionIdsCheck.h"

#include "core/Block.h"
#include "core/positions/BatchIds.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

// `posenc check --position-ids` (docs/ARCHITECTURE.md, Positions in practice): the given ids set
// against the reference's, real token by real token: whether a choice of ids (the reference's, or
// a mistake's regenerated for the batch) holds them, each row's differences from the reference, and
// those differences in words.
namespace posenc::IdsAgainstReference {

// The reference's ids as the given ids hold them: BatchIds' every axis, or, for ids of one axis where
// BatchIds' three agree (M-RoPE's text pack: the flattening collator's [B, L], which
// Qwen2VLTextModel.forward expands to t, h and w), the first alone.
class ReferenceIds
{
public:
    ReferenceIds(const BatchIds &batch, int axes)
        : m_batch(batch)
        , m_axes(axes)
    { }
    const BatchLayout &layout() const { return m_batch.layout(); }
    int axes() const { return m_axes; }
    void ids(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const
    {
        if (m_axes == m_batch.axes()) {
            m_batch.ids(choice, b, c0, count, out);
            return;
        }
        std::vector<std::int64_t> all(std::size_t(m_batch.axes() * count));
        m_batch.ids(choice, b, c0, count, all.data());
        std::copy_n(all.begin(), count, out);
    }

private:
    const BatchIds &m_batch;
    int m_axes;
};

// Each real token's given id less the reference's, per row: the set of differences of its prefill
// and of its decode steps (every axis).
struct RowShifts
{
    std::set<std::int64_t> prefill, decode;
};

// Whether `ids` holds, for every real token, the ids `prefill` makes of the prefill's tokens and
// `decode` of the decode steps': a mistake's ids regenerated for the batch (BatchIds), which alone
// name it.
bool holds(const ReferenceIds &batch, IdsChoice prefill, IdsChoice decode, const RowMatrixXf &ids);
bool holds(const ReferenceIds &batch, IdsChoice choice, const RowMatrixXf &ids);

// Each row's shifts from the reference, and the first real token whose id is not the reference's.
std::vector<RowShifts> shifts(const ReferenceIds &batch, const RowMatrixXf &ids,
                              std::optional<PositionIdsCheck::Difference> &first);

// Where no mistake's ids are the batch's: what each row's real tokens hold against the reference,
// segment by segment (its prefill, its decode steps), in words.
QString differences(const ReferenceIds &batch, const std::vector<RowShifts> &rows, const RowMatrixXf &ids);

// What the reference computes for this batch, in words (`mrope`: the batch's ids M-RoPE's).
QString referenceWords(const ReferenceIds &batch, bool mrope);

} // namespace posenc::IdsAgainstReference
