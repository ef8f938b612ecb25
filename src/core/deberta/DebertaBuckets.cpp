#include "DebertaBuckets.h"

#include "core/FamilySpec.h"

#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::DebertaBuckets {

std::int64_t bucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t mid = buckets / 2;
    // abs_pos: mid - 1 inside (-mid, mid), else |relative|.
    const std::int64_t absPos = (relative < mid && relative > -mid) ? mid - 1 : std::abs(relative);
    if (absPos <= mid)
        return relative;
    // torch.log(abs_pos / mid) / torch.log(torch.tensor((max_position - 1) / mid)) * (mid - 1):
    // every tensor float32, the Python quotient made float32 by torch.tensor.
    const float ratio = static_cast<float>(absPos) / static_cast<float>(mid);
    // The span's logarithm depends on the settings alone: taken once for the last ones asked (the
    // figures ask for tens of thousands of distances at one setting; it was half of each bucket's time).
    thread_local std::int64_t spanMid = -1, spanMaxPosition = -1;
    thread_local float spanLog = 0.0f;
    if (mid != spanMid || maxPosition != spanMaxPosition) {
        spanLog = std::log(static_cast<float>(static_cast<double>(maxPosition - 1) / static_cast<double>(mid)));
        spanMid = mid;
        spanMaxPosition = maxPosition;
    }
    const float span = spanLog;
    const float logPos = std::ceil(std::log(ratio) / span * static_cast<float>(mid - 1)) + static_cast<float>(mid);
    const std::int64_t magnitude = static_cast<std::int64_t>(logPos);
    return relative < 0 ? -magnitude : magnitude;
}

std::optional<std::int64_t> firstReaching(std::int64_t top, std::int64_t buckets, std::int64_t maxPosition)
{
    const auto reaches = [&](std::int64_t d) { return bucket(d, buckets, maxPosition) >= top; };
    std::int64_t low = 0, high = std::max<std::int64_t>(maxPosition, 2);
    while (!reaches(high) && high < (std::int64_t(1) << 50))
        high *= 2;
    if (!reaches(high))
        return std::nullopt; // at mid 1 the bucket stays 1 at every distance
    while (high - low > 1) {
        const std::int64_t middle = low + (high - low) / 2;
        (reaches(middle) ? high : low) = middle;
    }
    return high;
}

Description describe(const Params &params)
{
    const DebertaParams &deberta = params.deberta;
    Description d;
    d.mid = deberta.buckets / 2;
    d.logStart = d.mid + 1;
    d.bucketAtMaxPosition = bucket(deberta.maxPosition, deberta.buckets, deberta.maxPosition);
    d.bucketAtMaxLen = bucket(params.maxLen - 1, deberta.buckets, deberta.maxPosition);
    return d;
}

std::optional<QString> problem(const Params &params)
{
    if (!familyUnder(params, Encoding::Deberta).validate().isEmpty())
        return QStringLiteral("DeBERTa's settings are not valid: see its group");
    // What the reference function needs, whatever the rows check.
    if (params.deberta.buckets < 2 || params.deberta.maxPosition - 1 <= params.deberta.buckets / 2)
        return QStringLiteral("DeBERTa needs at least 2 buckets and max_position − 1 > buckets/2");
    return std::nullopt;
}

std::int64_t ofOffset(const Params &params, std::int64_t k)
{
    return bucket(-k, params.deberta.buckets, params.deberta.maxPosition);
}

const RelativeBuckets::Family &bucketFamily()
{
    // At least 2 buckets, an even count: make_log_bucket_position takes mid = position_buckets // 2.
    static const RelativeBuckets::Family family {
        Encoding::Deberta,
        u"DeBERTa"_s,
        FamilyWords(u"Deberta"_s),
        RelativeBuckets::settingsOf(
            &Params::deberta, &DebertaParams::maxPosition, u"deberta-buckets"_s, u"deberta-max-position"_s,
            u"max_position"_s, [](const Params &) -> std::int64_t { return 2; }, [](const Params &) { return true; }),
        ofOffset,
        problem};
    return family;
}

} // namespace posenc::DebertaBuckets
