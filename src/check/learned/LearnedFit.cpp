#include "LearnedFit.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace posenc::LearnedFit {

namespace {

constexpr std::int64_t kLeadingCandidates = 8;

double norm(const TableSample &sample, std::int64_t i)
{
    return double(sample.values.row(i).cast<double>().norm());
}

bool isZero(const TableSample &sample, std::int64_t i)
{
    return sample.values.row(i).cwiseAbs().maxCoeff() == 0.0f;
}

double cosine(const TableSample &sample, std::int64_t i, std::int64_t j)
{
    const double a = norm(sample, i), b = norm(sample, j);
    if (!(a > 0.0 && b > 0.0))
        return 0.0;
    return sample.values.row(i).cast<double>().dot(sample.values.row(j).cast<double>()) / (a * b);
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2), values.end());
    return values[values.size() / 2];
}

} // namespace

Structure analyse(const TableSample &sample)
{
    Structure s;
    if (sample.size() < 4)
        return s;
    // Cosines by distance over the rows past the leading candidates, which may be padding.
    std::map<std::int64_t, std::vector<double>> byDistance;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (row < kLeadingCandidates || isZero(sample, i))
            continue;
        for (std::int64_t j = i + 1; j < sample.size(); ++j) {
            const std::int64_t distance = sample.rows[std::size_t(j)] - row;
            // Powers of two only: 1, 2, 4, ... apart.
            if ((distance & (distance - 1)) != 0 || isZero(sample, j))
                continue;
            byDistance[distance].push_back(cosine(sample, i, j));
        }
    }
    for (const auto &[distance, cosines] : byDistance)
        s.cosineByDistance.emplace_back(distance, median(cosines));
    if (byDistance.count(1) == 0)
        return s;
    s.neighbourCosine = median(byDistance[1]);
    double far = 0.0;
    if (!s.cosineByDistance.empty())
        far = std::fabs(s.cosineByDistance.back().second);
    const double width = 1.0 / std::sqrt(double(std::max<std::int64_t>(sample.cols(), 1)));
    // Random rows' cosines spread by 1/sqrt(d): a narrow table needs a closer likeness.
    s.learned = s.neighbourCosine > std::max(0.3, std::min(0.9, 4.0 * width)) && s.neighbourCosine > far + 0.1;

    // Leading rows no position reads: zeros, or rows unlike the rows after them.
    const std::int64_t leading = std::min(sample.leadingRows, kLeadingCandidates);
    std::int64_t first = 0;
    while (first < leading) {
        if (isZero(sample, first)) {
            s.zeroRows.push_back(first);
            ++first;
            continue;
        }
        std::int64_t next = first + 1;
        while (next < sample.leadingRows && isZero(sample, next))
            ++next;
        if (next >= sample.leadingRows || !s.learned || cosine(sample, first, next) >= 0.5 * s.neighbourCosine)
            break;
        s.untrainedRows.push_back(first);
        ++first;
    }
    s.firstPositionRow = first;
    return s;
}

} // namespace posenc::LearnedFit
