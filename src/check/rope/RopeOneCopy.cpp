#include "RopeOneCopy.h"

#include "check/SampleScore.h"

#include <algorithm>
#include <vector>

namespace posenc::RopeOneCopy {

namespace {

// Whether the columns `copy` hold one value, 1 or 0, in the sample's row `index`.
bool firstPosition(const TableSample &sample, std::int64_t index, const std::vector<std::int64_t> &copy)
{
    const float v = sample.values(index, copy.front());
    return (v == 1.0f || v == 0.0f)
        && std::all_of(copy.begin(), copy.end(), [&](std::int64_t c) { return sample.values(index, c) == v; });
}

// Whether the columns `copy` hold cosines or sines, within [-1, 1] but for as many cells as RoPE's
// fit may leave unexplained (`explains`): a table of other values (a bias of a causal mask, whose
// first row is 0 throughout) is not searched.
bool withinUnit(const TableSample &sample, const std::vector<std::int64_t> &copy)
{
    constexpr float kRounding = 1e-3f; // a value rounded in text or a narrower float
    std::int64_t outside = 0;
    for (const std::int64_t c : copy)
        outside += (sample.values.col(c).array().abs() > 1.0f + kRounding).count();
    const auto compared = std::int64_t(copy.size()) * sample.values.rows();
    return explains(compared, outside);
}

} // namespace

std::optional<TableCandidate>
read(const TableEvidence &e,
     const std::function<std::optional<TableMatch>(const TableSample &copied, RopeLayout layout)> &fitCopy)
{
    const std::int64_t h = e.cols() / 2;
    const std::int64_t first = e.sample.indexOf(e.framing.firstRow);
    if (e.cols() < 4 || e.cols() % 2 != 0 || first < 0)
        return std::nullopt;
    std::optional<TableCandidate> best;
    for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
        std::vector<std::int64_t> a, b;
        for (std::int64_t i = 0; i < h; ++i) {
            a.push_back(layout == RopeLayout::Half ? i : 2 * i);
            b.push_back(layout == RopeLayout::Half ? h + i : 2 * i + 1);
        }
        for (const bool keepFirst : {true, false}) {
            const std::vector<std::int64_t> &kept = keepFirst ? a : b, &over = keepFirst ? b : a;
            if (!firstPosition(e.sample, first, kept) || !withinUnit(e.sample, kept))
                continue;
            TableSample copied = e.sample;
            for (std::int64_t i = 0; i < h; ++i)
                copied.values.col(over[std::size_t(i)]) = e.sample.values.col(kept[std::size_t(i)]);
            std::optional<TableMatch> m = fitCopy(copied, layout);
            if (!m || !m->reference)
                continue;
            const SampleScore score = scoreOnSample(*m->reference, e.sample, m->tolerance);
            if (!mostlyEquals(score.compared, score.bad) || (best && score.bad >= best->bad))
                continue;
            TableCandidate c;
            c.compared = score.compared;
            c.bad = score.bad;
            c.partial = std::move(m);
            best = std::move(c);
        }
    }
    return best;
}

} // namespace posenc::RopeOneCopy
