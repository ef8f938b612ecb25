#pragma once

#include "core/RelativeBuckets.h"
#include "render/data/FamilyPanel.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

// The families-figure panel of a family whose offset picks a bucket (T5, DeBERTa: FamilyPanel.h),
// written once: exact steps of the bucket against the offset, its words from the family's name.
namespace posenc::BucketPanel {

struct Family
{
    // Its buckets (core's kit): its name labels the panel ("T5 bucket") and starts its notes.
    RelativeBuckets::Family buckets;
    std::uint32_t colour = 0; // 0xRRGGBB
    QString bucketTerm; // what the bucket picks: "a learned bias per bucket"
    Quantity quantity = {}; // its bucket table
    // The least and the most of the vertical range, whatever the buckets in view.
    std::function<std::pair<double, double>(const Params &)> range;
    // The line over the panel after "T5: ": what it shows at these settings.
    std::function<QString(const Params &)> note;
};

FamilyPanel panel(const Family &family);

} // namespace posenc::BucketPanel
