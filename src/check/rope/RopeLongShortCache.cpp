#include "RopeLongShortCache.h"

#include "check/PairReference.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::RopeLongShortCache {

namespace {

// The fewest rows of the long list after the short ones: with one, the cache and vllm#27414's
// gathered rows (row `original` the long list's position 0) are the same table.
constexpr std::int64_t kFewestLongRows = 2;

// Rows [0, original) of one reference, rows [original, ..) of another: the cache's two lists.
class SplitReference final : public TableReference
{
public:
    SplitReference(std::shared_ptr<const PairReference> shortRows, std::shared_ptr<const PairReference> longRows,
                   std::int64_t original)
        : m_short(std::move(shortRows))
        , m_long(std::move(longRows))
        , m_original(original)
    { }

    std::int64_t cols() const override { return m_short->cols(); }
    bool compared(std::int64_t row) const override { return part(row).compared(row); }
    std::int64_t position(std::int64_t row) const override { return part(row).position(row); }
    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        const std::int64_t split = std::clamp(m_original, block.row0, block.rowEnd());
        m_short->forEachTile({block.row0, split - block.row0, block.col0, block.cols}, sink);
        m_long->forEachTile({split, block.rowEnd() - split, block.col0, block.cols}, sink);
    }

private:
    const PairReference &part(std::int64_t row) const { return row < m_original ? *m_short : *m_long; }

    std::shared_ptr<const PairReference> m_short;
    std::shared_ptr<const PairReference> m_long;
    std::int64_t m_original = 0;
};

// The larger allowance of two tolerances of one table, column by column.
CellTolerance wider(CellTolerance a, const CellTolerance &b)
{
    a.relative = std::max(a.relative, b.relative);
    a.absolute = std::max(a.absolute, b.absolute);
    for (std::size_t c = 0; c < a.perPosition.size() && c < b.perPosition.size(); ++c)
        a.perPosition[c] = std::max(a.perPosition[c], b.perPosition[c]);
    for (std::size_t c = 0; c < a.angleRounding.size() && c < b.angleRounding.size(); ++c)
        a.angleRounding[c] = std::max(a.angleRounding[c], b.angleRounding[c]);
    for (std::size_t c = 0; c < a.exactAngle.size() && c < b.exactAngle.size(); ++c)
        a.exactAngle[c] = a.exactAngle[c] && b.exactAngle[c];
    return a;
}

} // namespace

bool holds(const std::vector<RopeRowPositions::Region> &regions, const std::vector<RopeFit::Hypothesis> &lists,
           std::int64_t rows)
{
    if (lists.size() != 2 || regions.empty())
        return false;
    const std::int64_t original = lists.front().params.rope.originalMaxLen.value_or(0);
    if (original <= 0 || rows < original + kFewestLongRows)
        return false;
    const int shortList = lists.front().params.maxLen > original ? 1 : 0;
    bool longSeen = false;
    // Rows the form does not hold (unread, or at another position or list): a damaged region the
    // stream shows, as long as they are few (RopeRowPositions::mostStrayRows).
    std::int64_t stray = 0;
    for (const RopeRowPositions::Region &g : regions) {
        const bool longPart = g.row >= original;
        const int list = longPart ? 1 - shortList : shortList;
        const bool fits = g.list != RopeRowPositions::kUnread && (longPart || g.row + g.count <= original)
            && g.position == (longPart ? g.row - original : g.row) && (g.list < 0 || g.list == list);
        if (!fits) {
            stray += g.count;
            continue;
        }
        longSeen = longSeen || (longPart && g.list == list);
    }
    return longSeen && stray <= RopeRowPositions::mostStrayRows(rows);
}

QString words(std::int64_t rows, std::int64_t original)
{
    return u"vLLM's LongRoPE cache as Phi3LongRoPEScaledRotaryEmbedding.__init__ registers it "
           "(vllm/model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py: long_short_cos_sin_cache = "
           "torch.cat([short_cache, long_cache])): rows 0..%1 turn with short_factor at positions 0..%1, rows "
           "%2..%3 with long_factor at positions 0..%4, and forward reads row position + %2 for a sequence "
           "longer than original_max_position_embeddings %2"_s.arg(original - 1)
               .arg(original)
               .arg(rows - 1)
               .arg(rows - 1 - original);
}

TableMatch asCache(TableMatch m, const TableEvidence &e, const QString &words)
{
    const auto *whole = dynamic_cast<const PairReference *>(m.reference.get());
    if (!whole || !m.params || !m.params->rope.originalMaxLen || m.params->maxLen <= *m.params->rope.originalMaxLen)
        return m;
    const std::int64_t original = *m.params->rope.originalMaxLen;
    // The long list at row - original, the short one (the same amplitude: vLLM scales both caches
    // by one mscale, as transformers' attention factor is one for both lists) at its own row.
    PairReferenceSpec longSpec = whole->spec();
    longSpec.firstRow = original;
    longSpec.positionOffset = 0;
    longSpec.paddingRows.clear();
    longSpec.rowPositions.clear();
    PairReferenceSpec shortSpec = longSpec;
    shortSpec.firstRow = 0;
    Params shortParams = *m.params;
    shortParams.maxLen = original;
    shortSpec.schedule.w = RopeFrequencies::schedule(shortParams).w;
    const auto tolerance = [&](const PairReferenceSpec &spec) {
        return cellTolerance(e.format, true, e.table.storedType(), e.table.textRounding(), spec);
    };
    m.tolerance = wider(tolerance(shortSpec), tolerance(longSpec));
    m.reference = std::make_shared<const SplitReference>(std::make_shared<const PairReference>(shortSpec),
                                                         std::make_shared<const PairReference>(longSpec), original);
    m.precision = tablePrecision(e.format, true);
    // No one offset: rows original.. hold position row - original.
    m.positionOffset.reset();
    m.firstPositionRow.reset();
    m.referenceText += u" as vLLM's long_short_cos_sin_cache (rows %1.. the long list from position 0)"_s.arg(original);
    if (m.verdict == CheckVerdict::Correct) {
        m.correctAgainst = u"vLLM's long_short_cos_sin_cache of %1"_s.arg(m.correctAgainst);
        m.diagnosis = words;
    } else {
        m.diagnosis = u"%1; %2"_s.arg(m.diagnosis, words);
    }
    return m;
}

} // namespace posenc::RopeLongShortCache
