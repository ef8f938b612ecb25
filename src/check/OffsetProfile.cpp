#include "OffsetProfile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc {

bool OffsetProfile::has(std::int64_t offset) const
{
    return offset >= first && offset <= last() && votes[std::size_t(offset - first)] > 0;
}

float OffsetProfile::at(std::int64_t offset) const
{
    return has(offset) ? values[std::size_t(offset - first)] : std::numeric_limits<float>::quiet_NaN();
}

OffsetProfile OffsetProfile::mirrored() const
{
    OffsetProfile m = *this;
    m.first = -last();
    std::reverse(m.values.begin(), m.values.end());
    std::reverse(m.votes.begin(), m.votes.end());
    return m;
}

std::int32_t OffsetProfile::votesAt(std::int64_t offset) const
{
    return offset >= first && offset <= last() ? votes[std::size_t(offset - first)] : 0;
}

std::vector<ProfileRun> profileRuns(const OffsetProfile &profile, bool after, std::int32_t minVotes)
{
    std::vector<ProfileRun> runs;
    const std::int64_t farthest = after ? profile.last() : -profile.first;
    for (std::int64_t d = 1; d <= farthest; ++d) {
        const std::int64_t t = after ? d : -d;
        if (profile.votesAt(t) < minVotes)
            continue;
        const double v = profile.at(t);
        if (!runs.empty() && runs.back().value == v)
            runs.back().last = d;
        else
            runs.push_back({d, d, v});
    }
    return runs;
}

std::int64_t queryStart(std::int64_t rows, std::int64_t cols)
{
    return rows > 0 && rows < cols ? cols - rows : 0;
}

std::optional<OffsetProfile> offsetProfile(const TableSample &sample, std::int64_t start, std::int64_t maxOffsets)
{
    const std::int64_t rows = sample.tableRows;
    const std::int64_t cols = sample.cols();
    if (rows <= 0 || cols <= 0 || rows + cols - 1 > maxOffsets)
        return std::nullopt;
    OffsetProfile p;
    // Row r holds the query at r + start: offsets from -(rows - 1 + start) to cols - 1 - start.
    p.first = -(rows - 1 + start);
    const auto count = std::size_t(rows + cols - 1);
    p.values.assign(count, std::numeric_limits<float>::quiet_NaN());
    // Boyer-Moore's majority vote per offset, then a count of the cells that differ from it.
    std::vector<std::int32_t> tally(count, 0);
    const auto same = [](float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::int64_t i = sample.rows[std::size_t(k)] + start;
        for (std::int64_t j = 0; j < cols; ++j) {
            const auto t = std::size_t(j - i - p.first);
            const float v = sample.values(k, j);
            if (tally[t] == 0) {
                p.values[t] = v;
                tally[t] = 1;
            } else {
                tally[t] += same(p.values[t], v) ? 1 : -1;
            }
        }
    }
    p.votes.assign(count, 0);
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::int64_t i = sample.rows[std::size_t(k)] + start;
        for (std::int64_t j = 0; j < cols; ++j) {
            const auto t = std::size_t(j - i - p.first);
            if (same(p.values[t], sample.values(k, j)))
                ++p.votes[t];
            else
                ++p.disagreeing;
            ++p.cells;
        }
    }
    return p;
}

} // namespace posenc
