// T5's own quantity (docs/ARCHITECTURE.md, "The quantity table"): the bucket of every query and
// key, as HF transformers' _relative_position_bucket computes it.
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/RelativeTable.h"
#include "core/t5/T5Buckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

QuantitySpec makeT5BucketQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::T5Bucket;
    q.name = u"t5-bucket"_s;
    q.label = u"T5 bucket of j − i"_s;
    q.help = u"the bucket of key - query j - i [max_len, max_len], whole numbers: bidirectional, keys after the\n"
             "              query from t5-buckets/2 on; causal, later keys 0 (t5)"_s;
    q.reads = {u"encoding"_s, u"max-len"_s, u"t5-buckets"_s, u"t5-max-distance"_s, u"t5-causal"_s};
    q.missing = [](const Params &p) -> std::optional<QString> {
        if (p.encoding != Encoding::T5)
            return u"only the t5 encoding buckets key - query"_s;
        return std::nullopt;
    };
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.maxLen}; };
    q.workCells = RelativeTable::workCells;
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        RelativeTable::fill(block, out, streaming, [&](std::int64_t first, std::int64_t count, float *values) {
            RelativeBuckets::fillOffsets(T5Buckets::bucketFamily(), engine.params(), first, count, values);
        });
    };
    // The last bucket.
    q.bound = [](const Params &p) { return static_cast<double>(p.t5.buckets - 1); };
    q.parameters = [](const Params &p) {
        return QStringList {u"%1 buckets, max distance %2, %3, L = %4"_s.arg(p.t5.buckets)
                                .arg(p.t5.maxDistance)
                                .arg(p.t5.causal ? u"causal"_s : u"bidirectional"_s, NumberText::count(p.maxLen))};
    };
    return q;
}

} // namespace posenc
