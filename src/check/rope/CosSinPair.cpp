#include "check/rope/CosSinPair.h"

#include "check/rope/CosSinCache.h"

#include <algorithm>
#include <vector>

namespace posenc::CosSinPair {

namespace {

// The rows sampled: spread over the table, the first and the last among them.
constexpr std::int64_t kSampleRows = 64;

// Whether every sampled row's halves each repeat their columns as the layout does: column i and
// i + w/2 (`interleaved` false) or 2i and 2i + 1, w the half's width. Both are one computation's
// value, so equal exactly.
bool repeats(const TableRows &rows, bool interleaved)
{
    const std::int64_t width = rows.cols(), w = width / 2, count = rows.rows();
    const std::int64_t sampled = std::min(count, kSampleRows);
    std::vector<float> row(static_cast<std::size_t>(width));
    QString error;
    for (std::int64_t k = 0; k < sampled; ++k) {
        const std::int64_t r = sampled == 1 ? 0 : k * (count - 1) / (sampled - 1);
        if (!rows.read(r, 1, row.data(), error))
            return false;
        for (std::int64_t h = 0; h < 2; ++h) {
            const float *half = row.data() + h * w;
            for (std::int64_t i = 0; i < w / 2; ++i) {
                const std::int64_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + w / 2;
                if (half[a] != half[b])
                    return false;
            }
        }
    }
    return true;
}

} // namespace

bool holds(const TableRows &rows)
{
    const std::int64_t width = rows.cols();
    if (width < 8 || width % 4 != 0 || rows.rows() < 2)
        return false;
    return (repeats(rows, false) || repeats(rows, true)) && CosSinCache::holds(rows);
}

} // namespace posenc::CosSinPair
