#include "OffsetFit.h"

#include "check/ChangedRegion.h"
#include "check/SampleScore.h"

using namespace Qt::StringLiterals;

namespace posenc::OffsetFit {

std::optional<OffsetProfile> profile(const TableEvidence &e)
{
    if (e.sameRow)
        return std::nullopt;
    std::optional<OffsetProfile> profile = offsetProfile(e.sample, e.sample.queryStart);
    if (!profile || !profile->isToeplitz())
        return std::nullopt;
    return profile;
}

CellTolerance tolerance(const TableEvidence &e, double largest, double ulps)
{
    // The values' own format (TableEvidence::format): a bfloat16 bias kept in a float32 file
    // (numpy has no bfloat16) is read at bfloat16's rounding, as every other table is.
    return cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), largest, ulps);
}

TableCandidate candidate(const TableEvidence &e, const OffsetReference &read, const CellTolerance &tolerance,
                         const std::function<TableMatch()> &match)
{
    const SampleScore score = scoreOnSample(read, e.sample, tolerance);
    TableCandidate c;
    c.compared = score.compared;
    c.bad = score.bad;
    c.claims = explains(c.compared, c.bad);
    if (c.claims)
        c.match = match();
    else if (mostlyEquals(c.compared, c.bad))
        c.partial = match();
    else if (const std::int64_t filled = ChangedRegion::unmaskedCells(read, e.sample);
             filled > 0 && explains(c.compared - filled, c.bad - filled))
        c.partial = match(); // a causal bias but for its mask: the region the mask fills changed
    return c;
}

TableMatch match(const TableEvidence &e, const QString &table, std::shared_ptr<const OffsetReference> reference,
                 const CellTolerance &tolerance, bool float32Angles)
{
    TableMatch m;
    m.table = table;
    m.positionOffset = 0;
    m.firstPositionRow = 0;
    // The window of query positions the rows were read at, where it is not 0 .. q - 1 of a square
    // map (a step with a cache, DeBERTa's first queries, a window tried or declared): said.
    if (e.sample.queryStart > 0 || e.declared.queryStart)
        m.positions = PositionWindow {e.sample.queryStart, e.sample.queryStart + e.rows() - 1,
                                      e.declared.positionsDeclared, true, {}};
    m.precision = tablePrecision(e.format, float32Angles);
    m.reference = std::move(reference);
    m.tolerance = tolerance;
    return m;
}

std::optional<QString> refusal(const QString &table, const Params &params, const QString &word, Encoding family,
                               const QString &name)
{
    if (table != word)
        return u"%1's table is '%2', not '%3'"_s.arg(name, word, table);
    if (!params.isValid() || params.encoding != family)
        return u"the parameters are not a valid %1's"_s.arg(name);
    return std::nullopt;
}

} // namespace posenc::OffsetFit
