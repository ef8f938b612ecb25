#include "SampleScore.h"

#include <algorithm>
#include <cmath>

namespace posenc {

namespace {

thread_local const std::atomic<bool> *t_cancel = nullptr;

} // namespace

ScoringCancel::ScoringCancel(const std::atomic<bool> *flag)
    : m_previous(t_cancel)
{
    if (flag)
        t_cancel = flag;
}

ScoringCancel::~ScoringCancel()
{
    t_cancel = m_previous;
}

bool ScoringCancel::requested()
{
    return t_cancel && t_cancel->load(std::memory_order_relaxed);
}

SampleScore fitsNothing(const TableSample &sample)
{
    SampleScore score;
    score.compared = sample.size() * sample.cols();
    score.bad = score.badWithFloat32Angles = score.compared;
    score.maxError = std::numeric_limits<double>::infinity();
    score.sumSquares = std::numeric_limits<double>::infinity();
    return score;
}

SampleScore scoreOnSample(const TableReference &reference, const TableSample &sample, const CellTolerance &tolerance,
                          const CellTolerance *float32Angles, std::int64_t stopAfter)
{
    if (ScoringCancel::requested())
        return fitsNothing(sample);
    SampleScore score;
    const std::int64_t cols = sample.cols();
    const auto hopeless
        = [&] { return score.bad > stopAfter && (!float32Angles || score.badWithFloat32Angles > stopAfter); };
    for (std::int64_t i = 0; i < sample.size() && !hopeless();) {
        // A run of consecutive sample rows is one block of the reference.
        std::int64_t j = i + 1;
        while (j < sample.size() && sample.rows[std::size_t(j)] == sample.rows[std::size_t(j - 1)] + 1)
            ++j;
        const std::int64_t first = sample.rows[std::size_t(i)];
        const std::int64_t index0 = i;
        reference.forEachTile({first, j - i, 0, cols}, [&](const TableReference::Tile &t) {
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const float *ref = t.values + r * t.stride;
                const std::int64_t index = index0 + t.row0 - first + r;
                const float *table = sample.values.row(index).data() + t.col0;
                const double position = static_cast<double>(reference.position(t.row0 + r));
                for (std::int64_t c = 0; c < t.cols; ++c) {
                    const double extra = kCellRoundingMargin * sample.extraAt(index, t.col0 + c);
                    const double value = table[c];
                    const double error = value == double(ref[c]) ? 0.0 : std::fabs(value - double(ref[c]));
                    if (std::isfinite(value) && std::isfinite(error)) {
                        score.sumSquares += error * error;
                        score.tableSquares += value * value;
                    }
                    score.maxError = std::max(score.maxError, error);
                    if (!(error <= tolerance.limit(ref[c], t.col0 + c, position) + extra))
                        ++score.bad;
                    if (float32Angles && !(error <= float32Angles->limit(ref[c], t.col0 + c, position) + extra))
                        ++score.badWithFloat32Angles;
                }
                score.compared += t.cols;
            }
        });
        i = j;
        if (ScoringCancel::requested())
            return fitsNothing(sample);
    }
    return score;
}

} // namespace posenc
