// T5's panel of the families figure (BucketPanel): the bucket of each offset, from 0 to the last.
#include "BucketPanel.h"

#include "core/NumberText.h"
#include "core/t5/T5Buckets.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

FamilyPanel makeT5Panel()
{
    const auto note = [](const Params &p) {
        return u"bucket of k, %1 buckets, max_distance %2, %3"_s.arg(p.t5.buckets)
            .arg(NumberText::count(p.t5.maxDistance))
            .arg(p.t5.causal ? u"causal"_s : u"bidirectional"_s);
    };
    return BucketPanel::panel(
        {T5Buckets::bucketFamily(), 0x009E73, u"a learned bias per bucket"_s, Quantity::T5Bucket,
         [](const Params &p) { return std::pair(0.0, double(std::max<std::int64_t>(p.t5.buckets - 1, 1))); }, note});
}

} // namespace posenc
